// Browser test of the settings page (spec 5.1, CONTRACT §9): the real gatewayd binary on a fresh
// data directory, Debian's chromium driven by playwright-core (no downloaded browser).
//
//   node settings.test.mjs [path/to/gatewayd]      (else $GATEWAYD)
//
// A person's path: sign up, sign in, create a test key and a live key, read the live key from
// the page once (and copy it), reload and see only masked values, call the API with the key
// (200), revoke it through the UI (after declining once), and see the next call refused (401).
// Exits 0 on success; on failure prints the step and the reason and exits 1 (2 on the overall
// timeout). gatewayd and the browser are always stopped and the data directory removed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isDeepStrictEqual } from 'node:util';

import { chromium } from 'playwright-core';

const OVERALL_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 10_000;
const CHROMIUM = '/usr/bin/chromium';

const gatewaydPath = process.argv[2] || process.env.GATEWAYD;
if (!gatewaydPath) {
  console.error('usage: node settings.test.mjs <path/to/gatewayd>   (or set GATEWAYD)');
  process.exit(2);
}

let currentStep = 'start';
let stepCount = 0;

async function step(name, fn) {
  currentStep = name;
  const result = await fn();
  stepCount += 1;
  console.log(`ok ${stepCount} - ${name}`);
  return result;
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

// ---- gatewayd ------------------------------------------------------------------------------

/** Starts gatewayd on a free port; resolves with { proc, baseUrl, logTail }. */
function startGatewayd(dataDir) {
  const proc = spawn(
    gatewaydPath,
    ['serve', '--listen', '127.0.0.1:0', '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const tail = [];
  const remember = (line) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
  };
  createInterface({ input: proc.stderr }).on('line', remember);
  const out = createInterface({ input: proc.stdout });
  return new Promise((resolve, reject) => {
    let first = true;
    out.on('line', (line) => {
      if (!first) return remember(line);
      first = false;
      const m = /^gatewayd listening on (http:\/\/\S+)$/.exec(line);
      if (m) resolve({ proc, baseUrl: m[1], logTail: tail });
      else reject(new Error(`gatewayd's first line was not its address: ${JSON.stringify(line)}`));
    });
    proc.on('error', (e) => reject(new Error(`cannot start ${gatewaydPath}: ${e.message}`)));
    proc.on('exit', (code, signal) => {
      if (first)
        reject(new Error(`gatewayd exited (${signal ?? code}) before listening:\n${tail.join('\n')}`));
    });
  });
}

async function stopGatewayd(proc) {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

// ---- API calls from Node (not the browser) -------------------------------------------------

async function getWithKey(url, key) {
  const headers = key === undefined ? {} : { 'X-API-Key': key };
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, text, body };
}

// ---- the test ------------------------------------------------------------------------------

async function run(state) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatewayd-browser-'));
  state.dataDir = dataDir;

  const { proc, baseUrl, logTail } = await step('gatewayd starts on a fresh data directory', () =>
    startGatewayd(dataDir),
  );
  state.gatewayd = proc;
  state.logTail = logTail;

  state.browser = await step('chromium starts headless', () =>
    chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] }),
  );
  const context = await state.browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on('pageerror', (e) => {
    state.pageErrors.push(e.message);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') state.pageErrors.push(m.text());
  });

  const email = 'browser@example.com';
  const password = 'a long enough password';

  await step('sign up', async () => {
    await page.goto(`${baseUrl}/account`);
    await page.fill('#signup-email', email);
    await page.fill('#signup-password', password);
    await Promise.all([page.waitForURL(/notice=signed-up/), page.click('#signup-submit')]);
    const notice = await page.textContent('#notice');
    check(notice?.includes('Account created'), `no sign-up notice, saw: ${notice}`);
  });

  await step('sign in', async () => {
    await page.fill('#signin-email', email);
    await page.fill('#signin-password', password);
    await Promise.all([page.waitForURL(`${baseUrl}/account`), page.click('#signin-submit')]);
    await page.waitForSelector('#create-key-form');
    const who = await page.textContent('#account-email');
    check(who === email, `signed in as ${who}, expected ${email}`);
  });

  async function createKey(name, environment, expiresIn) {
    await page.goto(`${baseUrl}/account`);
    await page.fill('#key-name', name);
    await page.selectOption('#key-environment', environment);
    await page.selectOption('#key-expiry', expiresIn);
    await Promise.all([page.waitForURL(`${baseUrl}/account/keys`), page.click('#create-key-submit')]);
    const key = await page.inputValue('#new-key');
    check(
      new RegExp(`^svc_${environment}_[0-9A-Za-z]{40,}$`).test(key),
      `the creation page shows ${JSON.stringify(key)}, not a ${environment} key`,
    );
    check(
      (await page.getAttribute('#new-key', 'readonly')) !== null,
      'the key field is not readonly',
    );
    const once = await page.textContent('#shown-once');
    check(once?.includes('will not be shown again'), 'no "shown once" note');
    return key;
  }

  const testKey = await step('create a test key', () => createKey('browser test key', 'test', ''));

  const liveKey = await step('create a live key and read it from the page once', () =>
    createKey('browser live key', 'live', '30d'),
  );

  await step('the Copy button copies the key', async () => {
    await page.click('#copy-key');
    await page.waitForFunction(
      () => document.getElementById('copy-status')?.textContent === 'Copied.',
    );
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    check(copied === liveKey, `the clipboard holds ${JSON.stringify(copied)}, not the key`);
  });

  const liveId = await step('after a reload only masked values are shown', async () => {
    await page.goto(`${baseUrl}/account`);
    await page.reload();
    const html = await page.content();
    check(!html.includes(liveKey), 'the key list contains the full live key');
    check(!html.includes(testKey), 'the key list contains the full test key');
    const row = page.locator('#keys-table tbody tr', {
      has: page.locator('td.key-name', { hasText: 'browser live key' }),
    });
    const masked = await row.locator('.key-masked').textContent();
    check(
      masked === `svc_live_\u2026${liveKey.slice(-4)}`,
      `masked value ${JSON.stringify(masked)} is not svc_live_\u2026${liveKey.slice(-4)}`,
    );
    check((await row.locator('.key-environment').textContent()) === 'live', 'environment');
    check((await row.locator('.key-status').textContent()) === 'active', 'status');
    check((await row.locator('.key-last-used').textContent()) === 'never', 'last used');
    const testRow = page.locator('#keys-table tbody tr', {
      has: page.locator('td.key-name', { hasText: 'browser test key' }),
    });
    const testMasked = await testRow.locator('.key-masked').textContent();
    check(testMasked === `svc_test_\u2026${testKey.slice(-4)}`, `test key masked ${testMasked}`);
    return row.getAttribute('data-key-id');
  });

  const pricesUrl = `${baseUrl}/v1/perps/alpha/prices`;

  await step('a request without a key is refused', async () => {
    const res = await getWithKey(pricesUrl);
    check(
      res.status === 401 &&
        isDeepStrictEqual(res.body, {
          error: { code: 'INVALID_API_KEY', message: 'Missing X-API-Key header' },
        }),
      `expected 401 Missing X-API-Key header, got ${res.status} ${res.text}`,
    );
  });

  await step('the live key reads prices', async () => {
    const res = await getWithKey(pricesUrl, liveKey);
    check(
      res.status === 200 && res.body !== null && typeof res.body === 'object' && !Array.isArray(res.body),
      `expected 200 with a JSON object, got ${res.status} ${res.text}`,
    );
  });

  await step('declining the confirmation keeps the key', async () => {
    page.once('dialog', (d) => d.dismiss());
    await page.click(`#revoke-${liveId}`);
    await page.reload();
    const status = await page.textContent(`#key-${liveId} .key-status`);
    check(status === 'active', `after declining, the key is ${status}`);
  });

  await step('revoke through the UI, accepting the confirmation', async () => {
    let message = '';
    page.once('dialog', (d) => {
      message = d.type() === 'confirm' ? d.message() : `(a ${d.type()} dialog)`;
      d.accept();
    });
    await Promise.all([page.waitForURL(/notice=revoked/), page.click(`#revoke-${liveId}`)]);
    check(message.includes('browser live key'), `the confirmation said ${JSON.stringify(message)}`);
    const status = await page.textContent(`#key-${liveId} .key-status`);
    check(status === 'revoked', `after revoking, the key is ${status}`);
  });

  await step('the revoked key is refused', async () => {
    const res = await getWithKey(pricesUrl, liveKey);
    check(
      res.status === 401 &&
        isDeepStrictEqual(res.body, { error: { code: 'INVALID_API_KEY', message: 'Invalid API key' } }),
      `expected 401 Invalid API key, got ${res.status} ${res.text}`,
    );
  });

  await step('screenshot', async () => {
    const path = join(tmpdir(), `gateway-settings-${process.pid}.png`);
    await page.screenshot({ path, fullPage: true });
    console.log(`# screenshot: ${path}`);
  });

  await step('sign out', async () => {
    await Promise.all([page.waitForURL(/notice=signed-out/), page.click('#signout-submit')]);
    await page.waitForSelector('#signin-form');
  });

  check(state.pageErrors.length === 0, `the page reported errors: ${state.pageErrors.join('; ')}`);
}

async function cleanup(state) {
  await state.browser?.close().catch(() => {});
  await stopGatewayd(state.gatewayd).catch(() => {});
  if (state.dataDir) rmSync(state.dataDir, { recursive: true, force: true });
}

const state = { pageErrors: [] };
let exitCode = 0;
let timer;
try {
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const e = new Error(`overall timeout of ${OVERALL_TIMEOUT_MS / 1000} s`);
      e.timeout = true;
      reject(e);
    }, OVERALL_TIMEOUT_MS);
  });
  await Promise.race([run(state), timeout]);
  console.log('1 passed, 0 failed');
} catch (e) {
  exitCode = e.timeout ? 2 : 1;
  console.error(`not ok - ${currentStep}: ${e.message}`);
  if (state.logTail?.length) console.error(`# gatewayd's last lines:\n${state.logTail.join('\n')}`);
  console.log('0 passed, 1 failed');
} finally {
  clearTimeout(timer);
  await cleanup(state);
}
process.exit(exitCode);
