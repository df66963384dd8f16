// Drives mock-gamma's CLOB with Polymarket's own TypeScript client (@polymarket/clob-client,
// pinned by package-lock.json) for the [e2e] test tests/e2e/test_clob_client_gamma.cpp: server
// time, every market page, one market, order books (single and batched, with the client's own
// book-hash check), midpoints, prices, spread, last trade, tick size and neg-risk flag.
//
// stdin: {"host": "<mock>/clob", "token": "<token id>", "tokens": ["<token id>", ...],
//         "conditionId": "0x..."}
// stdout: one JSON object with what each call returned (the C++ test checks it).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// The package is CommonJS; require keeps its named exports exactly as its own docs use them.
const require = createRequire(import.meta.url);
const { ClobClient, Side } = require("@polymarket/clob-client");

const input = JSON.parse(readFileSync(0, "utf8"));
const client = new ClobClient(input.host, 137); // Polygon mainnet, no signer: public reads only

const out = {};
out.ok = await client.getOk();
out.time = await client.getServerTime();

// Every page of the CLOB's market listing, as a client syncing markets walks it.
const markets = [];
let cursor = "MA==";
let pages = 0;
while (cursor !== "LTE=") {
  const page = await client.getMarkets(cursor);
  if (!page || !Array.isArray(page.data)) throw new Error("bad page: " + JSON.stringify(page));
  markets.push(...page.data);
  cursor = page.next_cursor;
  if (++pages > 20) throw new Error("the cursor never ends");
}
out.markets = {
  pages,
  count: markets.length,
  conditionIds: new Set(markets.map((m) => m.condition_id)).size,
  sample: markets.find((m) => m.condition_id === input.conditionId) ?? null,
};
out.market = await client.getMarket(input.conditionId);

out.book = await client.getOrderBook(input.token);
// The client's own check: SHA-1 of the book with hash "" must be the hash the server sent.
const sent = out.book.hash;
out.bookHashMatches = client.getOrderBookHash({ ...out.book }) === sent;
out.books = await client.getOrderBooks(input.tokens.map((token_id) => ({ token_id })));
out.booksHashMatch = out.books.map((b) => client.getOrderBookHash({ ...b }) === b.hash);

out.midpoint = await client.getMidpoint(input.token);
out.midpoints = await client.getMidpoints(input.tokens.map((token_id) => ({ token_id })));
out.buy = await client.getPrice(input.token, Side.BUY);
out.sell = await client.getPrice(input.token, Side.SELL);
out.prices = await client.getPrices([
  { token_id: input.token, side: Side.BUY },
  { token_id: input.token, side: Side.SELL },
]);
out.spread = await client.getSpread(input.token);
out.lastTrade = await client.getLastTradePrice(input.token);
out.tickSize = await client.getTickSize(input.token);
out.negRisk = await client.getNegRisk(input.token);
// Cached by the client: no second request.
out.tickSizeAgain = await client.getTickSize(input.token);

// An unknown token: the client turns the 404 into {error, status} instead of throwing.
out.unknownBook = await client.getOrderBook("12345");

process.stdout.write(JSON.stringify(out));
