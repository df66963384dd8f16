// Drives gatewayd's /ws/v1/perps with the npm `ws` client (a WebSocket implementation nobody here
// wrote), for tests/e2e/test_ws_client_e2e.cpp. Input on stdin (JSON):
//   {"url":"ws://127.0.0.1:PORT","key":"svc_live_...","mock":"http://127.0.0.1:MOCKPORT"}
// (`mock`: mock-alpha's control API, to move BTC's mark so the book changes). Checks each step
// itself and prints what it saw as one JSON object on stdout; exits 1 with the failed step on
// stderr. Never prints the key.
import WebSocket from 'ws';

const input = JSON.parse(await new Promise((resolve) => {
  let s = '';
  process.stdin.on('data', (d) => (s += d));
  process.stdin.on('end', () => resolve(s));
}));

const report = {};
const fail = (step, why) => {
  process.stderr.write(`${step}: ${why}\n`);
  process.exit(1);
};
setTimeout(() => fail('overall', 'did not finish within 60 s'), 60000).unref();

/// A connection whose frames are queued; `next(pred)` resolves with the first frame matching.
function open(url, headers) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const frames = [];
    const waiters = [];
    let arrived = 0;
    ws.on('message', (data, isBinary) => {
      if (isBinary) return reject(new Error('a binary frame'));
      const f = JSON.parse(data.toString());
      Object.defineProperty(f, 'arrival', { value: arrived++ }); // not serialised
      frames.push(f);
      for (const w of [...waiters]) w.check();
    });
    ws.on('open', () => {
      resolve({
        ws,
        frames,
        send: (o) => ws.send(typeof o === 'string' ? o : JSON.stringify(o)),
        next(pred, what, ms = 15000) {
          return new Promise((res, rej) => {
            const w = {
              check() {
                const i = frames.findIndex(pred);
                if (i < 0) return;
                const [f] = frames.splice(i, 1);
                clearTimeout(w.timer);
                waiters.splice(waiters.indexOf(w), 1);
                res(f);
              },
            };
            w.timer = setTimeout(() => {
              waiters.splice(waiters.indexOf(w), 1);
              rej(new Error(`no ${what} within ${ms} ms; frames: ${JSON.stringify(frames).slice(0, 500)}`));
            }, ms);
            waiters.push(w);
            w.check();
          });
        },
      });
    });
    ws.on('unexpected-response', (req, res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.on('error', reject);
  });
}

/// Expects the handshake to be refused; returns {status, body}.
async function refused(url, headers) {
  try {
    const c = await open(url, headers);
    c.ws.close();
  } catch (e) {
    if (e.status) return { status: e.status, body: JSON.parse(e.body) };
    throw e;
  }
  throw new Error('the handshake was accepted');
}

async function moveMark(price) {
  const r = await fetch(`${input.mock}/__mock/mark`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol: 'BTC', price }),
  });
  if (!r.ok) throw new Error(`/__mock/mark answered ${r.status}`);
}

const step = async (name, f) => {
  try {
    await f();
  } catch (e) {
    fail(name, e.message);
  }
};

const path = `${input.url}/ws/v1/perps`;
let c;

await step('handshake with the X-API-Key header', async () => {
  c = await open(path, { 'X-API-Key': input.key });
  report.headerHandshake = true;
});

await step('ping', async () => {
  c.send({ id: 1, op: 'ping' });
  const pong = await c.next((f) => f.type === 'pong', 'pong');
  if (pong.id !== 1) throw new Error(`pong id ${JSON.stringify(pong.id)}`);
  report.pong = pong;
});

const book = { channel: 'orderbook', provider: 'alpha', symbol: 'BTC', depth: 5 };
await step('subscribe orderbook', async () => {
  c.send({ id: 'book-1', op: 'subscribe', ...book });
  const ack = await c.next((f) => f.type === 'subscribed' || f.type === 'error', 'subscribe ack');
  if (ack.type !== 'subscribed') throw new Error(JSON.stringify(ack));
  report.subscribed = ack;
});

await step('orderbook snapshot with seq', async () => {
  const first = await c.next((f) => f.type === 'orderbook', 'orderbook frame');
  if (!Number.isInteger(first.seq) || first.seq < 0) throw new Error(`seq ${first.seq}`);
  const d = first.data;
  if (d.symbol !== 'BTC' || !Array.isArray(d.bids) || !Array.isArray(d.asks) || d.bids.length === 0 || d.bids.length > 5 || d.asks.length > 5)
    throw new Error(JSON.stringify(first).slice(0, 300));
  if (typeof d.bids[0].price !== 'string' || typeof d.bids[0].size !== 'string') throw new Error('levels are not decimal strings');
  report.firstBook = { provider: first.provider, symbol: first.symbol, depth: first.depth, seq: first.seq, bids: d.bids.length, asks: d.asks.length, bestBid: d.bids[0].price };
  // The book changes when the mark moves: the next frame's seq is the next number.
  await moveMark('61000');
  const next = await c.next((f) => f.type === 'orderbook' && f.seq > first.seq, 'next orderbook frame');
  report.nextSeq = next.seq;
  if (next.seq !== first.seq + 1) throw new Error(`seq ${first.seq} then ${next.seq}`);
});

await step('error frame for an unknown channel', async () => {
  c.send({ id: 7, op: 'subscribe', channel: 'weather', provider: 'alpha' });
  const e = await c.next((f) => f.type === 'error' && f.id === 7, 'error frame');
  report.unknownChannel = e;
});

await step('error frame for a frame that is not JSON', async () => {
  c.send('this is not json');
  const e = await c.next((f) => f.type === 'error' && f.error.code === 'INVALID_JSON', 'INVALID_JSON error');
  report.notJson = e;
});

await step('unsubscribe', async () => {
  c.send({ id: 'book-2', op: 'unsubscribe', ...book });
  const ack = await c.next((f) => f.type === 'unsubscribed' || (f.type === 'error' && f.id === 'book-2'), 'unsubscribe ack');
  if (ack.type !== 'unsubscribed') throw new Error(JSON.stringify(ack));
  report.unsubscribed = ack;
  // Frames are in order: after the ack no book of it comes, even when the book changes.
  await moveMark('62000');
  c.send({ id: 9, op: 'ping' });
  await c.next((f) => f.type === 'pong' && f.id === 9, 'pong after unsubscribe');
  report.booksAfterUnsubscribe = c.frames.filter((f) => f.type === 'orderbook' && f.arrival > ack.arrival).length;
  if (report.booksAfterUnsubscribe !== 0) throw new Error('book frames after the unsubscribe ack');
  c.ws.close(1000);
});

await step('handshake with ?apiKey=', async () => {
  const q = await open(`${path}?apiKey=${encodeURIComponent(input.key)}`, {});
  q.send({ id: 'q', op: 'ping' });
  await q.next((f) => f.type === 'pong' && f.id === 'q', 'pong');
  report.queryHandshake = true;
  q.ws.close(1000);
});

await step('401 for an invalid key', async () => {
  report.invalidKey = await refused(path, { 'X-API-Key': 'svc_live_' + 'a'.repeat(40) });
});

await step('401 for a missing key', async () => {
  report.missingKey = await refused(path, {});
});

process.stdout.write(JSON.stringify(report));
process.exit(0);
