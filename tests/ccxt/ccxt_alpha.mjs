// Drives an alpha upstream (mock-alpha) with ccxt's `hyperliquid` class, an independent
// Hyperliquid client, for the [e2e] test tests/e2e/test_ccxt_alpha.cpp.
//
// Input (stdin, one JSON object; keys stay off the command line):
//   {"baseUrl": "http://127.0.0.1:PORT", "privateKey": "0x...", "walletAddress": "0x...",
//    "builder": "0x..." (optional: the builder code ccxt approves and attaches),
//    "symbol": "BTC/USDC:USDC", "amount": 0.001, "restingPrice": 60000,
//    "timeframe": "1m", "since": <ms>, "candles": 30}
// Output (stdout): one JSON summary of what ccxt returned; exit 0. Any ccxt error: its class
// and message on stderr, exit 1.
//
// Calls, in order: loadMarkets (fetchCurrencies + fetchMarkets), fetchTicker, fetchOrderBook,
// fetchOHLCV, createOrder (a limit buy at restingPrice, which rests), cancelOrder, createOrder
// (a market buy: ccxt needs a price to bound the slippage, so it gets the ticker's last), and
// fetchTrades (the wallet's fills, ccxt's reading of that method).
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
        status: o.status ?? null,
        filled: o.filled ?? null,
        average: o.average ?? null,
        info: o.info ?? null,
    };
}

async function main() {
    const input = await readStdin();
    const options = {};
    if (input.builder) {
        options.builder = input.builder;
    }
    const exchange = new ccxt.hyperliquid({
        walletAddress: input.walletAddress,
        privateKey: input.privateKey,
        // The upstream's own limiter (mock-alpha enforces alpha.md §8) is the one under test;
        // ccxt's client-side pacing would only slow the run down.
        enableRateLimit: false,
        // ccxt's default agent speaks https only; the mock listens on plain http. No keep-alive,
        // so nothing holds the process open once the summary is written.
        agent: new http.Agent({ keepAlive: false }),
        options,
    });
    // ccxt builds every URL as urls.api[public|private] + '/info' or '/exchange'.
    exchange.urls.api = { public: input.baseUrl, private: input.baseUrl };

    const symbol = input.symbol ?? 'BTC/USDC:USDC';
    const summary = { ccxtVersion: ccxt.version, node: process.version };

    const markets = await exchange.loadMarkets();
    summary.markets = Object.values(markets).map((m) => ({
        symbol: m.symbol,
        id: m.id,
        type: m.type,
        baseName: m.baseName ?? null,
        amountPrecision: m.precision.amount,
        pricePrecision: m.precision.price,
    }));
    summary.builderFeeApproved = exchange.options.approvedBuilderFee === true;

    const ticker = await exchange.fetchTicker(symbol);
    summary.ticker = {
        symbol: ticker.symbol,
        last: ticker.last ?? null,
        close: ticker.close ?? null,
        bid: ticker.bid ?? null,
        ask: ticker.ask ?? null,
        previousClose: ticker.previousClose ?? null,
    };

    const book = await exchange.fetchOrderBook(symbol);
    summary.orderBook = {
        symbol: book.symbol,
        timestamp: book.timestamp ?? null,
        bids: book.bids.slice(0, 3),
        asks: book.asks.slice(0, 3),
        depth: [book.bids.length, book.asks.length],
    };

    const timeframe = input.timeframe ?? '1m';
    const candles = await exchange.fetchOHLCV(symbol, timeframe, input.since, input.candles ?? 30);
    summary.ohlcv = { timeframe, since: input.since ?? null, candles };

    const amount = input.amount ?? 0.001;
    const resting = await exchange.createOrder(symbol, 'limit', 'buy', amount, input.restingPrice);
    summary.limitOrder = orderSummary(resting);

    const canceled = await exchange.cancelOrder(resting.id, symbol);
    summary.cancel = orderSummary(canceled);

    const market = await exchange.createOrder(symbol, 'market', 'buy', amount, ticker.last);
    summary.marketOrder = orderSummary(market);

    const trades = await exchange.fetchTrades(symbol);
    summary.trades = trades.map((t) => ({
        id: t.id ?? null,
        order: t.order ?? null,
        side: t.side ?? null,
        price: t.price ?? null,
        amount: t.amount ?? null,
        fee: t.fee ?? null,
        takerOrMaker: t.takerOrMaker ?? null,
    }));

    process.stdout.write(JSON.stringify(summary) + '\n');
}

main().catch((e) => {
    process.stderr.write(`${e?.constructor?.name ?? 'Error'}: ${e?.message ?? e}\n`);
    process.exit(1);
});
