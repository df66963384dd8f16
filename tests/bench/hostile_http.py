#!/usr/bin/env python3
"""Issue 10 measurements against a real gatewayd (not a test: numbers for the issue notes).

Starts `gatewayd serve --listen 127.0.0.1:0` on the embedded default (optionally under
`prlimit --nofile=N`), then:

  trailer    256 MiB of trailer fields on GET /v1/health (one connection, then four at once)
  extension  one 8 MB chunk-extension line
  flood      N idle connections, then one ordinary request; gatewayd's CPU while they idle

and prints gatewayd's RSS (VmRSS, /proc) before, at its peak (sampled every 10 ms) and after,
how many bytes the server let in, and what it answered.

  python3 tests/bench/hostile_http.py build/reference-server/gatewayd trailer extension
  python3 tests/bench/hostile_http.py build/reference-server/gatewayd --nofile 1024 flood
"""
import argparse
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

MIB = 1024 * 1024


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


class Peak:
    """Samples a process's RSS every 10 ms while running."""

    def __init__(self, pid):
        self.pid, self.peak, self.stop = pid, 0, False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop:
            self.peak = max(self.peak, rss_kib(self.pid))
            time.sleep(0.01)

    def done(self):
        self.stop = True
        self.thread.join()
        return self.peak


def start_gatewayd(binary, nofile):
    data = tempfile.mkdtemp(prefix="gw-hostile-")
    cmd = [binary, "serve", "--listen", "127.0.0.1:0", "--data-dir", data]
    if nofile:
        cmd = ["prlimit", f"--nofile={nofile}", "--"] + cmd
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in proc.stdout:
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if m:
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep draining
            return proc, int(m.group(1)), data
    raise RuntimeError("gatewayd did not start")


def get(port, timeout=10.0):
    """One GET /v1/health on a fresh connection: (status or None, seconds)."""
    t0 = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.") else None
    except OSError:
        status = None
    return status, time.monotonic() - t0


def flood_one(port, head, filler, total, result, idx):
    """Sends head, then filler until `total` or the server stops taking it."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(30)
    s.sendall(head)
    sent = 0
    answer = bytearray()

    def reader():
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    return
                answer.extend(chunk)
        except OSError:
            return

    r = threading.Thread(target=reader, daemon=True)
    r.start()
    try:
        while sent < total:
            s.sendall(filler)
            sent += len(filler)
    except OSError:
        pass
    r.join(timeout=30)
    s.close()
    first = bytes(answer).split(b"\r\n", 1)[0].decode(errors="replace")
    result[idx] = (sent, first)


def measure_flood(pid, port, label, head, filler, total, connections=1):
    before = rss_kib(pid)
    peak = Peak(pid)
    results = [None] * connections
    t0 = time.monotonic()
    threads = [threading.Thread(target=flood_one, args=(port, head, filler, total, results, i))
               for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - t0
    top = peak.done()
    time.sleep(0.5)
    after = rss_kib(pid)
    print(f"{label}: {connections} connection(s), {total // MIB} MiB offered each")
    for sent, first in results:
        print(f"  server let in {sent / MIB:.2f} MiB before closing; answered: {first!r}")
    print(f"  RSS before {before / 1024:.1f} MB, peak {top / 1024:.1f} MB, after "
          f"{after / 1024:.1f} MB ({took:.2f} s)")
    status, secs = get(port)
    print(f"  then GET /v1/health -> {status} in {secs * 1000:.0f} ms")


def measure_idle_flood(pid, port, count):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 256)), hard))
    fds_before = open_fds(pid)
    socks, failed = [], 0
    for _ in range(count):
        try:
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        except OSError:
            failed += 1
    time.sleep(1.0)  # let the server take what it will
    open_now = 0
    for s in socks:  # still open from the server's side? (a shed one reads EOF)
        s.setblocking(False)
        try:
            open_now += 0 if s.recv(1) == b"" else 1
        except BlockingIOError:
            open_now += 1
        except OSError:
            pass
    print(f"idle flood: {count} connections opened ({failed} failed to connect); "
          f"{open_now} still open after 1 s; gatewayd descriptors {fds_before} -> "
          f"{open_fds(pid)}")
    status, secs = get(port)
    print(f"  another client's GET /v1/health -> {status} in {secs * 1000:.0f} ms")
    c0, t0 = cpu_seconds(pid), time.monotonic()
    time.sleep(5)
    c1, t1 = cpu_seconds(pid), time.monotonic()
    print(f"  gatewayd CPU over 5 s with the flood idle: {100 * (c1 - c0) / (t1 - t0):.1f}% "
          f"of a core")
    statuses = [get(port)[0] for _ in range(5)]
    print(f"  5 more requests: {statuses}")
    for s in socks:
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gatewayd")
    ap.add_argument("what", nargs="+", choices=["trailer", "extension", "flood"])
    ap.add_argument("--nofile", type=int, default=0, help="run gatewayd under prlimit")
    ap.add_argument("--flood", type=int, default=1100, help="idle connections for `flood`")
    args = ap.parse_args()
    proc, port, data = start_gatewayd(args.gatewayd, args.nofile)
    try:
        pid = proc.pid  # prlimit sets the limit on itself, then execs gatewayd
        status, _ = get(port)
        print(f"gatewayd pid {pid} port {port}, GET /v1/health -> {status}, "
              f"RSS {rss_kib(pid) / 1024:.1f} MB, descriptor limit "
              f"{open(f'/proc/{pid}/limits').read().split('Max open files')[1].split()[0]}")
        trailer_head = (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        b"0\r\n")
        trailer_fill = (b"X-Pad: " + b"a" * 120 + b"\r\n") * 512
        for what in args.what:
            if what == "trailer":
                measure_flood(pid, port, "trailer", trailer_head, trailer_fill, 256 * MIB)
                measure_flood(pid, port, "trailer", trailer_head, trailer_fill, 256 * MIB, 4)
            elif what == "extension":
                measure_flood(pid, port, "extension",
                              b"POST /v1/health HTTP/1.1\r\nHost: x\r\n"
                              b"Transfer-Encoding: chunked\r\n\r\n1;ext=",
                              b"e" * 65536, 8 * MIB)
            elif what == "flood":
                measure_idle_flood(pid, port, args.flood)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
