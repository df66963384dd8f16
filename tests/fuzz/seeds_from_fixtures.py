#!/usr/bin/env python3
"""Writes the fixture-derived seeds of tests/fuzz/corpus (files named `fx-*`); the hand-written
seeds next to them are kept. Run from the repository root when the fixtures change:

    python3 tests/fuzz/seeds_from_fixtures.py

Sources: tests/fixtures/alpha/bodies (alpha /info bodies) and /work/shared/fixtures/alpha (the
Python SDK's recorded /info answers and ccxt's recorded /info and /exchange bodies);
tests/fixtures/beta/beta-md.json (beta.md's bodies) and /work/shared/fixtures/beta (ccxt's
recorded Aster answers) for beta_rest; tests/fixtures/gamma/gamma-md.json and
/work/shared/fixtures/gamma (ccxt's recorded Polymarket answers) for gamma_rest. Every array
is cut to its first 6 items: the shapes matter, not the volume (and libFuzzer's input length
limit follows the largest seed).
"""
import glob
import hashlib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
SHARED = os.environ.get("GATEWAY_SHARED_FIXTURES", "/work/shared/fixtures/alpha")
SHARED_BETA = os.path.join(os.path.dirname(SHARED), "beta")
SHARED_GAMMA = os.path.join(os.path.dirname(SHARED), "gamma")
MAX_ITEMS = 6


def trim(v):
    if isinstance(v, list):
        return [trim(x) for x in v[:MAX_ITEMS]]
    if isinstance(v, dict):
        return {k: trim(x) for k, x in v.items()}
    return v


def compact(v):
    return json.dumps(trim(v), separators=(",", ":"))


def write(target, name, text, seen):
    if text in seen:
        return
    seen.add(text)
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    digest = hashlib.sha1(text.encode()).hexdigest()[:8]
    with open(os.path.join(d, f"fx-{name}-{digest}"), "w") as f:
        f.write(text)


def is_exchange_answer(v):
    return isinstance(v, dict) and v.get("status") in ("ok", "err") and "response" in v


def requests_of(doc):
    out = [e["request"] for e in doc.get("entries", []) if e.get("request")]
    out += doc.get("otherRecordedRequests", [])
    for reqs in doc.get("methods", {}).values():
        out += reqs
    return out


def main():
    for target in ("alpha_info", "alpha_exchange", "beta_rest", "gamma_rest", "msgpack"):
        for old in glob.glob(os.path.join(CORPUS, target, "fx-*")):
            os.remove(old)
    seen = set()

    for path in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/alpha/bodies/*.json"))):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            write("alpha_info", name, compact(json.load(f)), seen)

    for path in sorted(glob.glob(os.path.join(SHARED, "*.json"))):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            doc = json.load(f)
        if "response" in doc:  # an SDK cassette: one /info answer
            write("alpha_info", name, compact(doc["response"]["body"]), seen)
            continue
        for e in doc.get("entries", []):
            body = e.get("httpResponse")
            if body is None:
                continue
            target = "alpha_exchange" if is_exchange_answer(body) else "alpha_info"
            write(target, name, compact(body), seen)
        for req in requests_of(doc):
            body = req.get("body")
            try:
                body = json.loads(body) if isinstance(body, str) else body
            except ValueError:
                continue
            if isinstance(body, dict) and isinstance(body.get("action"), dict):
                write("msgpack", name, compact(body["action"]), seen)
    beta_seeds(seen)
    gamma_seeds(seen)
    return 0


def beta_seeds(seen):
    with open(os.path.join(ROOT, "tests/fixtures/beta/beta-md.json")) as f:
        for name, body in json.load(f)["bodies"].items():
            write("beta_rest", "md-" + name.replace(" ", "-").replace("/", "-"), compact(body),
                  seen)
    for path in sorted(glob.glob(os.path.join(SHARED_BETA, "ccxt-*.json"))):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            doc = json.load(f)
        for e in doc.get("entries", []):
            if e.get("httpResponse") is not None:
                write("beta_rest", name, compact(e["httpResponse"]), seen)


def gamma_seeds(seen):
    with open(os.path.join(ROOT, "tests/fixtures/gamma/gamma-md.json")) as f:
        for name, body in json.load(f)["bodies"].items():
            write("gamma_rest", "md-" + name, compact(body), seen)
    for path in sorted(glob.glob(os.path.join(SHARED_GAMMA, "ccxt-*.json"))):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            doc = json.load(f)
        for e in doc.get("entries", []):
            if e.get("httpResponse") is not None:
                write("gamma_rest", name, compact(e["httpResponse"]), seen)


if __name__ == "__main__":
    sys.exit(main())
