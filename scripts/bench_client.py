#!/usr/bin/env python3
"""The bars of issue 21 (docs/CLIENT.md): a query with --server costs at most 10 ms more than the same query run
locally (median of 20, same machine), and `import --server` runs at least half as fast as a local import.

    python3 scripts/bench_client.py VERITRAIL LOG.ndjson     (LOG from scripts/gen_bench.py N LOG.ndjson)

Queries: every read command of the README's walks (and of cli.md §2) on the demo store, as `admin`, each run
20 times locally and 20 times with --server against `veritrail serve` on the same store, in turn (local,
remote, local, …) so that a drift of the machine's speed touches both alike; the table gives the medians.
Import: LOG imported into a new local store, then with --server into a served store that holds only LOG's
first two lines (its admin), one after the other. Prints `uptime` before each part: the machine is shared.
"""
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import requests

VT, LOG = os.path.abspath(sys.argv[1]), sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOW = "2026-11-20T18:05:00Z"
RUNS = int(os.environ.get("BENCH_RUNS", "20"))
work = tempfile.mkdtemp(prefix="vt-bench-client-")
env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
env.update({"VERITRAIL_NOW": NOW, "XDG_STATE_HOME": work + "/state", "NO_COLOR": "1"})

# The demo store's read commands: those of the README walks, then the rest of cli.md §2.
QUERIES = [
    ["history", "--as", "ines", "--window", "all", "--limit", "3"],
    ["history", "--limit", "50", "--window", "all"],
    ["show", "s-0005"],
    ["stats"],
    ["lockout"],
    ["customers"],
    ["customer", "show", "bret"],
    ["goals", "ines"],
    ["accounts"],
    ["settings", "ines"],
    ["searches", "ines"],
    ["replay", "--as-of", "400"],
    ["log", "status"],
    ["log", "digest"],
    ["log", "verify"],
    ["log", "tail", "-n", "10"],
]


def uptime():
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), flush=True)


def run(*args, stdin=None, check=True):
    r = subprocess.run([VT, *args], env=env, input=stdin, capture_output=True)
    if check:
        assert r.returncode == 0, (args, r.stderr.decode())
    return r


def timed(*args):
    start = time.perf_counter()
    r = subprocess.run([VT, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    assert r.returncode == 0, (args, r.stderr.decode())
    return elapsed


def serve(store, now):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = subprocess.Popen([VT, "serve", "--store", store, "--listen", f"127.0.0.1:{port}", "--now", now], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    while True:
        try:
            if requests.get(url + "/v1/health", timeout=1).status_code == 200:
                return p, url
        except requests.ConnectionError:
            time.sleep(0.05)


def stop(server):
    server.terminate()
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def queries():
    demo = work + "/demo"
    run("import", os.path.join(ROOT, "Events/demo.ndjson"), "--store", demo)
    server, url = serve(demo, NOW)
    try:
        for user in ("admin", "ines"):
            run("login", "--server", url, "--as", user, "--passcode-stdin", stdin=b"1234\n")
        uptime()
        print(f"| command (demo store, {RUNS} runs each) | local | --server | difference |")
        print("|---|---|---|---|")
        worst = 0.0
        for query in QUERIES:
            who = [] if "--as" in query else ["--as", "admin"]
            local, remote = [], []
            for _ in range(RUNS):
                local.append(timed(*query, "--json", *who, "--store", demo))
                remote.append(timed(*query, "--json", *who, "--server", url))
            lm, rm = statistics.median(local) * 1000, statistics.median(remote) * 1000
            worst = max(worst, rm - lm)
            print(f"| `{' '.join(query)}` | {lm:.1f} ms | {rm:.1f} ms | {rm - lm:+.1f} ms |", flush=True)
        print(f"largest difference: {worst:+.1f} ms (bar: at most +10 ms)")
        uptime()
    finally:
        stop(server)


def imports():
    events = sum(1 for _ in open(LOG, "rb"))
    uptime()
    local = work + "/local"
    t_local = timed("import", LOG, "--store", local)
    print(f"local import: {events:,} events in {t_local:.2f} s ({events / t_local:,.0f} events/s)", flush=True)
    shutil.rmtree(local)
    served = work + "/served"
    # The served store starts from the admin's own registration and passcode, so that it can sign in: the first
    # lines of the log; the rest is imported over HTTP. The server's clock is that of those lines, so that the
    # sign-in's passcode attempt comes before the rest of the log in time.
    with open(LOG) as f:
        head = [next(f) for _ in range(2)]
    with open(work + "/head.ndjson", "w") as f:
        f.writelines(head)
    run("import", work + "/head.ndjson", "--store", served)
    server, url = serve(served, head[-1].split('"at":"')[1].split('"')[0])
    try:
        passcode = os.environ.get("BENCH_PASSCODE", "2468")  # scripts/gen_bench.py's
        run("login", "--server", url, "--as", "admin", "--passcode-stdin", stdin=(passcode + "\n").encode())
        t_remote = timed("import", LOG, "--server", url, "--as", "admin")
        print(f"import --server: {events:,} events in {t_remote:.2f} s ({events / t_remote:,.0f} events/s): "
              f"{t_local / t_remote:.2f} of the local speed (bar: at least 0.5)", flush=True)
        # The next query on the served store, which now holds the whole log: the server must not pay for the import.
        start = time.perf_counter()
        run("log", "status", "--json", "--as", "admin", "--server", url)
        print(f"first query after it: {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)
    finally:
        stop(server)
    uptime()


part = os.environ.get("BENCH_PART", "all")  # queries, import or all
try:
    if part in ("queries", "all"):
        queries()
    if part in ("import", "all"):
        imports()
finally:
    shutil.rmtree(work)
