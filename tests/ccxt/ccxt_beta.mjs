// Drives a beta upstream (mock-beta) with ccxt's `aster` class, an independent Aster client,
// for the [e2e] test tests/e2e/test_ccxt_beta.cpp.
//
// Input (stdin, one JSON object; keys stay off the command line):
//   {"baseUrl": "http://127.0.0.1:PORT", "privateKey": "0x..." (optional: enables the signed
//    reads), "symbol": "BTC/USDT:USDT", "bookLimit": 10, "timeframe": "1m", "since": <ms>,
//    "candles": 30, "trades": 5}
// Output (stdout): one JSON summary of what ccxt returned; exit 0. Any ccxt error: its class
// and message on stderr, exit 1.
//
// Calls, in order: loadMarkets (fetchCurrencies: spot exchangeInfo; fetchMarkets: spot and
// futures exchangeInfo), fetchTicker (futures ticker/24hr), fetchOrderBook (futures depth),
// fetchOHLCV (futures klines), fetchTrades (futures trades); with a private key also
// fetchBalance of the futures wallet (balance) and of spot (account), and fetchPositions
// (leverageBracket, positionRisk), all signed by ccxt's own EIP-712 code (v3, chainId 1666).
import http from 'node:http';

import ccxt from 'ccxt';

async function readStdin() {
    const chunks = [];
    for await (const chunk of process.stdin) {
        chunks.push(chunk);
    }
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function balanceSummary(b) {
    const out = {};
    for (const code of Object.keys(b.total ?? {})) {
        out[code] = { free: b.free?.[code] ?? null, used: b.used?.[code] ?? null, total: b.total[code] };
    }
    return out;
}

async function main() {
    const input = await readStdin();
    const config = {
        // ccxt signs with the wallet's own key as signer (options.signerAddress defaults to it).
        // Its nonce is milliseconds x 1000, so two signed requests in one millisecond would
        // share a nonce; a 10 ms pace keeps them apart (the mock, like the upstream, refuses a
        // reused nonce). The mock's own weight limiter is the one under test.
        enableRateLimit: true,
        rateLimit: 10,
        // ccxt's default agent speaks https only; the mock listens on plain http. No keep-alive,
        // so nothing holds the process open once the summary is written.
        agent: new http.Agent({ keepAlive: false }),
        // No builder-fee approval round trip (its /fapi/v3/builder endpoints are not part of
        // the mock); ccxt then signs in without any request.
        options: { builderFee: false },
    };
    if (input.privateKey) {
        config.privateKey = input.privateKey;
    }
    const exchange = new ccxt.aster(config);
    // ccxt builds every URL as urls.api[<api>] + '/' + 'v3/<path>'.
    exchange.urls.api = {
        fapiPublic: input.baseUrl + '/fapi',
        fapiPrivate: input.baseUrl + '/fapi',
        sapiPublic: input.baseUrl + '/api',
        sapiPrivate: input.baseUrl + '/api',
    };

    const symbol = input.symbol ?? 'BTC/USDT:USDT';
    const summary = { ccxtVersion: ccxt.version, node: process.version };

    const markets = await exchange.loadMarkets();
    summary.markets = Object.values(markets).map((m) => ({
        symbol: m.symbol,
        id: m.id,
        type: m.type,
        amountPrecision: m.precision.amount,
        pricePrecision: m.precision.price,
        minAmount: m.limits.amount.min ?? null,
        minCost: m.limits.cost.min ?? null,
    }));

    const ticker = await exchange.fetchTicker(symbol);
    summary.ticker = {
        symbol: ticker.symbol,
        timestamp: ticker.timestamp ?? null,
        last: ticker.last ?? null,
        open: ticker.open ?? null,
        high: ticker.high ?? null,
        low: ticker.low ?? null,
        baseVolume: ticker.baseVolume ?? null,
        quoteVolume: ticker.quoteVolume ?? null,
    };

    const book = await exchange.fetchOrderBook(symbol, input.bookLimit ?? 10);
    summary.orderBook = {
        symbol: book.symbol,
        timestamp: book.timestamp ?? null,
        nonce: book.nonce ?? null,
        bids: book.bids.slice(0, 3),
        asks: book.asks.slice(0, 3),
        depth: [book.bids.length, book.asks.length],
    };

    const timeframe = input.timeframe ?? '1m';
    const candles = await exchange.fetchOHLCV(symbol, timeframe, input.since, input.candles ?? 30);
    summary.ohlcv = { timeframe, since: input.since ?? null, candles };

    const trades = await exchange.fetchTrades(symbol, undefined, input.trades ?? 5);
    summary.trades = trades.map((t) => ({
        id: t.id ?? null,
        timestamp: t.timestamp ?? null,
        side: t.side ?? null,
        price: t.price ?? null,
        amount: t.amount ?? null,
        cost: t.cost ?? null,
    }));

    if (input.privateKey) {
        summary.wallet = exchange.ethGetAddressFromPrivateKey(input.privateKey);
        summary.swapBalance = balanceSummary(await exchange.fetchBalance({ type: 'swap' }));
        summary.spotBalance = balanceSummary(await exchange.fetchBalance({ type: 'spot' }));
        const positions = await exchange.fetchPositions();
        summary.positions = positions.map((p) => ({
            symbol: p.symbol,
            side: p.side ?? null,
            contracts: p.contracts ?? null,
            entryPrice: p.entryPrice ?? null,
            markPrice: p.markPrice ?? null,
            unrealizedPnl: p.unrealizedPnl ?? null,
            leverage: p.leverage ?? null,
            marginMode: p.marginMode ?? null,
            liquidationPrice: p.liquidationPrice ?? null,
            collateral: p.collateral ?? null,
        }));
    }

    process.stdout.write(JSON.stringify(summary) + '\n');
}

main().catch((e) => {
    process.stderr.write(`${e?.constructor?.name ?? 'Error'}: ${e?.message ?? e}\n`);
    process.exit(1);
});
