#!/usr/bin/env python3
"""Before/after comparison of the gateway's answers (issue 11: "the same endpoints answer the
same bytes as before"). Starts one set of mock upstreams and two gatewayd binaries pointed at
them, pins marks and seeds an account, then sends every request of the table to both and
compares status, Content-Type and body byte for byte (volatile fields: see VOLATILE).

Usage: compare_routes.py OLD_GATEWAYD NEW_GATEWAYD MOCKS_DIR
(MOCKS_DIR holds mock-alpha, mock-beta, mock-gamma; both gateways use the same mocks.)
Exit status 0 when every answer matches. A development tool: not run by the test command.
"""
import json, os, re, shutil, signal, subprocess, sys, tempfile, time, urllib.request

TRADER = "0x1111111111111111111111111111111111111111"
NOBODY = "0x2222222222222222222222222222222222222222"
VOLATILE = re.compile(r'"(timestamp|checkedAt|latency)":("[^"]*"|[0-9]+)')


def start(cmd, pattern, env=None):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=env)
    while True:
        line = p.stdout.readline()
        if not line:
            raise RuntimeError("%s exited" % cmd[0])
        m = re.search(pattern, line)
        if m:
            return p, m.group(1)


def call(method, url, body=None, key=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if key:
        req.add_header("X-API-Key", key)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def main():
    old, new, mocks = sys.argv[1:4]
    procs = []
    try:
        ups = {}
        for name, flags in [("alpha", []), ("alpha_t", ["--testnet"]), ("beta", []),
                            ("beta_t", ["--testnet"]), ("gamma", [])]:
            binary = os.path.join(mocks, "mock-" + name.split("_")[0])
            p, url = start([binary, "--listen", "127.0.0.1:0"] + flags, r"listening on (\S+)")
            procs.append(p)
            ups[name] = url
        for m in (ups["alpha"], ups["alpha_t"]):
            for sym, px in (("BTC", "65000"), ("ETH", "3500"), ("xyz:TSLA", "430")):
                call("POST", m + "/__mock/mark", {"symbol": sym, "price": px})
        call("POST", ups["alpha"] + "/__mock/accounts", {
            "address": TRADER, "balances": {"USDC": "100000", "PURR": "500"},
            "positions": [{"symbol": "BTC", "size": "0.5", "entryPrice": "60000", "leverage": 10,
                           "marginMode": "cross"}],
            "orders": [{"symbol": "ETH", "side": "buy", "type": "limit", "price": "3000",
                        "size": "1"}]})
        for m in (ups["beta"], ups["beta_t"]):
            call("POST", m + "/__mock/mark", {"symbol": "BTCUSDT", "price": "65000"})
        gws = []
        for binary in (old, new):
            d = tempfile.mkdtemp(prefix="compare-")
            env = dict(os.environ, GATEWAY_LOG_LEVEL="error")
            args = [binary, "serve", "--listen", "127.0.0.1:0", "--data-dir", d,
                    "--alpha-base-url", ups["alpha"], "--alpha-testnet-base-url", ups["alpha_t"],
                    "--beta-base-url", ups["beta"], "--beta-testnet-base-url", ups["beta_t"],
                    "--gamma-base-url", ups["gamma"], "--gamma-clob-base-url", ups["gamma"] + "/clob",
                    "--market-cache-ms", "0", "--key-rate", "100000", "--key-burst", "100000"]
            for flag in ("--alpha-ws-url", "--alpha-testnet-ws-url", "--beta-ws-url",
                         "--beta-testnet-ws-url", "--gamma-ws-url"):
                args += [flag, "ws://127.0.0.1:9/ws"]
            p, url = start(args, r"listening on (\S+)", env)
            procs.append(p)
            subprocess.run([binary, "accounts", "create", "--email", "cmp@example.com",
                            "--data-dir", d], input="correct horse battery\n", text=True,
                           capture_output=True, check=True)
            out = subprocess.run([binary, "keys", "create", "--email", "cmp@example.com",
                                  "--env", "live", "--data-dir", d], text=True,
                                 capture_output=True, check=True).stdout
            key = re.search(r"svc_live_\w+", out).group(0)
            gws.append((url, key, d))
        time.sleep(1.0)  # both gateways learn the market universe in the background
        requests = []
        for net in ("/v1", "/v1/testnet"):
            for p in ["/perps/alpha/prices", "/perps/alpha/prices?dex=xyz", "/perps/alpha/prices?dex=nope",
                      "/perps/alpha/markets", "/spot/alpha/markets", "/perps/beta/prices",
                      "/perps/alpha/markets/BTC/orderbook", "/perps/alpha/markets/BTC/orderbook?depth=3",
                      "/perps/alpha/markets/BTC/orderbook?depth=0", "/perps/alpha/markets/NOPE/orderbook",
                      "/perps/alpha/markets/BTC/trades?limit=0", "/perps/alpha/markets/BTC/candles",
                      "/perps/alpha/markets/BTC/candles?interval=1h&startTime=1700000000000&endTime=1700003600000",
                      "/perps/alpha/account/" + TRADER, "/perps/alpha/account/" + TRADER + "/positions",
                      "/perps/alpha/account/" + TRADER + "/orders", "/perps/alpha/account/" + NOBODY,
                      "/perps/alpha/account/0xnope", "/perps/alpha/account/" + NOBODY + "/fills?limit=9999",
                      "/spot/alpha/balances/" + TRADER, "/rwas/alpha/dexes", "/rwas/alpha/dexes/xyz",
                      "/rwas/alpha/dexes/nope", "/rwas/alpha/dexes/nope/status",
                      "/perps/gamma/prices", "/perps/nope/prices", "/perps/beta/account/" + TRADER,
                      "/perps/alpha/markets/%FF/trades"]:
                requests.append(("GET", net + p, None))
            for leaf, body in [
                ("/perps/alpha/orders", {"symbol": "BTC", "side": "buy", "type": "trailing_stop",
                                         "size": "0.1", "wallet": TRADER, "signature": "0x00",
                                         "nonce": 1}),
                ("/perps/alpha/orders", {"symbol": "NOPE", "side": "buy", "type": "limit", "size": "1",
                                         "price": "1", "wallet": TRADER, "signature": "0x" + "11" * 65,
                                         "nonce": 1700000000000}),
                ("/perps/alpha/orders", {"symbol": "BTC"}),
                ("/perps/alpha/typed-data", {"operation": "placeOrder", "params": {
                    "symbol": "BTC", "side": "buy", "type": "limit", "size": "0.01", "price": "60000",
                    "wallet": TRADER, "nonce": 1700000000000}}),
                ("/perps/alpha/typed-data", {"operation": "cancelOrder", "params": {
                    "symbol": "BTC", "orderId": "42", "wallet": TRADER, "nonce": 1700000000000}}),
                ("/perps/alpha/typed-data", {"operation": "setLeverage", "params": {
                    "symbol": "BTC", "leverage": 5, "wallet": TRADER, "nonce": 1700000000000}}),
                ("/perps/alpha/leverage", {"symbol": "BTC", "leverage": 500, "wallet": TRADER,
                                           "signature": "0x" + "11" * 65, "nonce": 1700000000000}),
            ]:
                requests.append(("POST", net + leaf, body))
        for p in ["/v1/providers", "/v1/providers/alpha", "/v1/providers/beta", "/v1/providers/gamma",
                  "/v1/providers/nope", "/v1/health/nope", "/v1/nope"]:
            requests.append(("GET", p, None))
        same = 0
        for method, path, body in requests:
            answers = []
            for url, key, _ in gws:
                status, ctype, raw = call(method, url + path, body, key)
                answers.append((status, ctype, VOLATILE.sub(r'"\1":"*"', raw.decode("utf-8", "replace"))))
            if answers[0] == answers[1]:
                same += 1
            else:
                print("DIFF %s %s\n  old: %s\n  new: %s" % (method, path, answers[0], answers[1]))
        print("%d of %d requests answered identically" % (same, len(requests)))
        return 0 if same == len(requests) else 1
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            p.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
