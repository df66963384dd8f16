// Every npm package the Node-based tests install must run on Debian 12's own Node.js and npm, the
// oldest we support (tests/README.md). Our machines carry Node 20, where a package that needs
// Node 20 works and only a newcomer on Debian's Node 18 fails; this check reads the `engines` of
// every package in the committed package-lock.json files instead, so it fails on any machine.
//
//   node tests/node-engines.mjs [path/to/package-lock.json ...]   (default: tests/*/package-lock.json)
//
// Prints one line per package that does not admit the oldest versions and exits 1; exits 0 when
// all do. A range it cannot read is a failure too (check it by hand, then extend this reader).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian 12's nodejs (18.20.4+dfsg) and npm (9.2.0~ds1) packages. */
const OLDEST = { node: '18.20.4', npm: '9.2.0' };

/** "18.20.4" -> [18, 20, 4]; a partial "18" or "18.x" -> [18, null, null]. */
function parseVersion(text) {
  const m = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/.exec(text);
  if (!m) throw new Error(`cannot read version ${JSON.stringify(text)}`);
  const part = (p) => (p === undefined || /^[xX*]$/.test(p) ? null : Number(p));
  const parts = [part(m[1]), part(m[2]), part(m[3])];
  // "18.x.3" is not a version; keep only the leading numbers.
  const known = parts.indexOf(null);
  return known === -1 ? parts : parts.map((p, i) => (i < known ? p : null));
}

function compare(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** The first version above every version a partial one matches: 18 -> 19.0.0, 18.2 -> 18.3.0. */
function nextAfter(p) {
  if (p[1] === null) return [p[0] + 1, 0, 0];
  if (p[2] === null) return [p[0], p[1] + 1, 0];
  return [p[0], p[1], p[2] + 1];
}

const filled = (p) => p.map((n) => n ?? 0);

/** Whether version `v` ([major, minor, patch]) satisfies one comparator such as ">=18", "^1.2". */
function satisfiesComparator(v, comparator) {
  const m = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(comparator);
  const op = m[1] ?? '=';
  const p = parseVersion(m[2]);
  if (p[0] === null) return true; // "*", "x"
  const low = filled(p);
  const ge = (bound) => compare(v, bound) >= 0;
  const lt = (bound) => compare(v, bound) < 0;
  switch (op) {
    case '>=':
      return ge(low);
    case '>':
      return ge(nextAfter(p));
    case '<':
      return lt(low);
    case '<=':
      return lt(nextAfter(p));
    case '=':
      return ge(low) && lt(nextAfter(p));
    case '~':
      return ge(low) && lt(p[1] === null ? [p[0] + 1, 0, 0] : [p[0], p[1] + 1, 0]);
    case '^': {
      const high =
        p[0] > 0 || p[1] === null
          ? [p[0] + 1, 0, 0]
          : p[1] > 0 || p[2] === null
            ? [0, p[1] + 1, 0]
            : [0, 0, p[2] + 1];
      return ge(low) && lt(high);
    }
    default:
      throw new Error(`cannot read comparator ${JSON.stringify(comparator)}`);
  }
}

/** Whether `version` satisfies an npm `engines` range (||, hyphen ranges, comparator sets). */
function satisfies(version, range) {
  const v = parseVersion(version);
  if (v.includes(null)) throw new Error(`${version} is not a full version`);
  return range.split('||').some((alternative) => {
    const set = alternative.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1');
    if (set === '' || set === '*') return true;
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(set);
    if (hyphen) return satisfiesComparator(v, `>=${hyphen[1]}`) && satisfiesComparator(v, `<=${hyphen[2]}`);
    return set.split(/\s+/).every((c) => satisfiesComparator(v, c));
  });
}

function lockfiles() {
  const tests = dirname(fileURLToPath(import.meta.url));
  return readdirSync(tests, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(tests, e.name, 'package-lock.json')))
    .map((e) => join(tests, e.name, 'package-lock.json'));
}

const files = process.argv.length > 2 ? process.argv.slice(2) : lockfiles();
let problems = 0;
let checked = 0;
for (const file of files) {
  const lock = JSON.parse(readFileSync(file, 'utf8'));
  for (const [path, pkg] of Object.entries(lock.packages ?? {})) {
    const name = path === '' ? `${lock.name} (package.json)` : `${path.replace(/^.*node_modules\//, '')}@${pkg.version}`;
    checked += 1;
    for (const [engine, oldest] of Object.entries(OLDEST)) {
      const range = pkg.engines?.[engine];
      if (range === undefined) continue;
      let problem;
      try {
        if (!satisfies(oldest, range)) problem = `needs ${engine} ${range}; Debian 12 has ${oldest}`;
      } catch (e) {
        problem = `engines.${engine} ${JSON.stringify(range)}: ${e.message}`;
      }
      if (problem) {
        problems += 1;
        console.log(`${file}: ${name} ${problem}`);
      }
    }
  }
}
if (checked === 0) {
  console.log('no packages found: is there a tests/*/package-lock.json?');
  process.exit(1);
}
console.log(`${checked} packages in ${files.length} lockfiles, ${problems} excluding Debian 12's Node ${OLDEST.node} / npm ${OLDEST.npm}`);
process.exit(problems === 0 ? 0 : 1);
