// Trades on a beta upstream (mock-beta) with ccxt's `aster` class and a private key, for the
// [e2e] test tests/e2e/test_ccxt_beta_trading.cpp: an independent Aster client signs (its own
// EIP-712 code, v3 nonces) a new order, lists the open orders, cancels the order and lists
// them again.
//
// Input (stdin, one JSON object; the key stays off the command line):
//   {"baseUrl": "http://127.0.0.1:PORT", "privateKey": "0x...", "symbol": "BTC/USDT:USDT",
//    "amount": 0.01, "price": 60000}
// Output (stdout): {"created": order, "open": [orders], "canceled": order, "after": [orders]},
// each order as {id, symbol, type, side, price, amount, filled, status}; exit 0. Any ccxt
// error: its class and message on stderr, exit 1.
import http from 'node:http';

import ccxt from 'ccxt';

async function readStdin() {
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function orderSummary(o) {
    return {
        id: o.id ?? null,
        symbol: o.symbol ?? null,
        type: o.type ?? null,
        side: o.side ?? null,
        price: o.price ?? null,
        amount: o.amount ?? null,
        filled: o.filled ?? null,
        status: o.status ?? null,
    };
}

async function main() {
    const input = await readStdin();
    const exchange = new ccxt.aster({
        // ccxt's nonce is milliseconds x 1000: a 10 ms pace keeps two signed requests apart.
        enableRateLimit: true,
        rateLimit: 10,
        agent: new http.Agent({ keepAlive: false }),
        options: { builderFee: false },
        privateKey: input.privateKey,
    });
    exchange.urls.api = {
        fapiPublic: input.baseUrl + '/fapi',
        fapiPrivate: input.baseUrl + '/fapi',
        sapiPublic: input.baseUrl + '/api',
        sapiPrivate: input.baseUrl + '/api',
    };
    const symbol = input.symbol ?? 'BTC/USDT:USDT';
    await exchange.loadMarkets();
    const created = await exchange.createOrder(symbol, 'limit', 'buy', input.amount, input.price);
    const open = await exchange.fetchOpenOrders(symbol);
    const canceled = await exchange.cancelOrder(created.id, symbol);
    const after = await exchange.fetchOpenOrders(symbol);
    process.stdout.write(
        JSON.stringify({
            created: orderSummary(created),
            open: open.map(orderSummary),
            canceled: orderSummary(canceled),
            after: after.map(orderSummary),
        }) + '\n',
    );
}

main().catch((e) => {
    process.stderr.write(`${e?.constructor?.name ?? 'Error'}: ${e?.message ?? e}\n`);
    process.exit(1);
});
