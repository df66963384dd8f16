// Trades on mock-gamma's CLOB with Polymarket's own TypeScript client (@polymarket/clob-client,
// pinned by package-lock.json, with its ethers v5 wallet) for the [e2e] test
// tests/e2e/test_clob_client_gamma.cpp: L1 credentials (create, then create-or-derive and derive
// of the same nonce), a limit BUY built, signed and posted by the client, listed in the open
// orders and fetched by id, canceled, a FOK market BUY that fills against the book, the trades,
// and the key list.
//
// stdin: {"host": "<mock>/clob", "token": "<token id>", "privateKey": "0x..."}
// stdout: one JSON object with what each call returned (the C++ test checks it).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { ClobClient, OrderType, Side } = require("@polymarket/clob-client");
const { Wallet } = require("ethers");

const input = JSON.parse(readFileSync(0, "utf8"));
const wallet = new Wallet(input.privateKey);
const out = { address: wallet.address };

// L1: the first call creates, the second finds the nonce taken and derives the same key.
const l1 = new ClobClient(input.host, 137, wallet);
const creds = await l1.createOrDeriveApiKey();
out.created = creds;
out.createdAgain = await l1.createOrDeriveApiKey();
out.derived = await l1.deriveApiKey();

// L2: a limit BUY of 10 shares at 0.42 (tick size, fee rate and neg-risk read by the client).
const client = new ClobClient(input.host, 137, wallet, creds);
const order = await client.createOrder({ tokenID: input.token, price: 0.42, side: Side.BUY, size: 10 });
out.order = order;
out.posted = await client.postOrder(order, OrderType.GTC);
out.open = await client.getOpenOrders({ asset_id: input.token });
out.one = await client.getOrder(out.posted.orderID);
out.canceled = await client.cancelOrder({ orderID: out.posted.orderID });
out.openAfter = await client.getOpenOrders();
out.oneAfter = await client.getOrder(out.posted.orderID);

// A market BUY of 4.3 USDC: the client walks the book for its price, FOK fills it.
out.market = await client.createAndPostMarketOrder(
  { tokenID: input.token, amount: 4.3, side: Side.BUY, orderType: OrderType.FOK },
  undefined,
  OrderType.FOK,
);
out.trades = await client.getTrades({ asset_id: input.token });
out.apiKeys = await client.getApiKeys();

process.stdout.write(JSON.stringify(out));
