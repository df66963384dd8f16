// Signs eth_signTypedData_v4 JSON with ethers v6, a wallet implementation independent of the
// gateway's SDK, for the [ethers] e2e test (CONTRACT §6: any wallet library can sign the
// typed data the gateway returns).
//
//   echo '{"privateKey":"0x..","typedData":{"types":..,"primaryType":..,"domain":..,"message":..}}' \
//     | node tests/ethers/sign.mjs
//
// Prints {"signature":"0x<130 hex>","address":"0x..","digest":"0x.."} on stdout. On any failure
// it prints a message on stderr and exits non-zero.
import { TypedDataEncoder, Wallet } from "ethers";

function fail(message) {
    process.stderr.write(`sign.mjs: ${message}\n`);
    process.exit(1);
}

async function readStdin() {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
}

async function main() {
    let input;
    try {
        input = JSON.parse(await readStdin());
    } catch (e) {
        fail(`stdin is not JSON: ${e.message}`);
    }
    if (input === null || typeof input !== "object") fail("stdin must be a JSON object");
    const { privateKey, typedData } = input;
    if (typeof privateKey !== "string") fail("missing string field privateKey");
    if (typedData === null || typeof typedData !== "object") fail("missing object field typedData");
    const { domain, types, primaryType, message } = typedData;
    if (domain === null || typeof domain !== "object") fail("typedData.domain missing");
    if (types === null || typeof types !== "object") fail("typedData.types missing");
    if (message === null || typeof message !== "object") fail("typedData.message missing");

    // ethers derives EIP712Domain from `domain` itself and refuses it among the types.
    const messageTypes = { ...types };
    delete messageTypes.EIP712Domain;
    // ethers infers the primary type (the one no other type references); make sure it is the
    // one the typed data names, so a disagreement fails here instead of signing something else.
    const encoder = TypedDataEncoder.from(messageTypes);
    if (typeof primaryType === "string" && encoder.primaryType !== primaryType)
        fail(`typedData.primaryType is ${primaryType} but ethers infers ${encoder.primaryType}`);

    const wallet = new Wallet(privateKey);
    const signature = await wallet.signTypedData(domain, messageTypes, message);
    const digest = TypedDataEncoder.hash(domain, messageTypes, message);
    process.stdout.write(JSON.stringify({ signature, address: wallet.address, digest }) + "\n");
}

main().catch((e) => fail(e && e.message ? e.message : String(e)));
