#!/usr/bin/env python3
"""Memory of gatewayd under WebSocket clients that send 60,000-character-id pings and never read
(issue 28 item 2). Usage: ws_rss.py PORT API_KEY GATEWAYD_PID [CONNECTIONS] [PINGS]
Prints gatewayd's VmRSS before, at its peak while the clients send, and after they are gone,
and the close code each client finally reads."""
import base64, os, socket, struct, sys, threading, time

port, key, pid = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
conns = int(sys.argv[4]) if len(sys.argv) > 4 else 8
pings = int(sys.argv[5]) if len(sys.argv) > 5 else 990

def rss_kb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])

def frame(payload: bytes, op=1) -> bytes:
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | op])
    if n < 126: head += bytes([0x80 | n])
    elif n < 65536: head += bytes([0x80 | 126]) + struct.pack(">H", n)
    else: head += bytes([0x80 | 127]) + struct.pack(">Q", n)
    return head + mask + bytes(b ^ mask[i & 3] for i, b in enumerate(payload))

ping = frame(('{"op":"ping","id":"' + "x" * 60000 + '"}').encode())
codes = [None] * conns
peak = [0]

def client(i):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    s.connect(("127.0.0.1", port))
    s.sendall(("GET /ws/v1/perps HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)).decode() +
               "\r\nSec-WebSocket-Version: 13\r\nX-API-Key: " + key + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    sent = 0
    try:
        for _ in range(pings):
            s.sendall(ping)
            sent += 1
    except OSError:
        pass
    # now read everything: the pongs the server could send, then its close frame
    s.settimeout(20)
    buf = b""
    try:
        while True:
            d = s.recv(1 << 20)
            if not d: break
            buf += d
    except OSError:
        pass
    j = 0
    while j + 2 <= len(buf):
        op = buf[j] & 15; n = buf[j + 1] & 127; h = 2
        if n == 126: n = struct.unpack(">H", buf[j+2:j+4])[0]; h = 4
        elif n == 127: n = struct.unpack(">Q", buf[j+2:j+10])[0]; h = 10
        if op == 8:
            codes[i] = (struct.unpack(">H", buf[j+h:j+h+2])[0], sent); break
        j += h + n
    if codes[i] is None: codes[i] = (None, sent)
    s.close()

before = rss_kb()
ts = [threading.Thread(target=client, args=(i,)) for i in range(conns)]
for t in ts: t.start()
while any(t.is_alive() for t in ts):
    peak[0] = max(peak[0], rss_kb()); time.sleep(0.01)
time.sleep(1)
print(f"connections={conns} pings_each={pings} rss_before_kb={before} rss_peak_kb={peak[0]} "
      f"rss_after_kb={rss_kb()}")
print("close codes (code, pings sent):", codes)
