#!/usr/bin/env python3
"""The bars of issue 21 (docs/CLIENT.md): a query with --server costs at most 10 ms more than the same query run
locally (median of 20, same machine), and `import --server` runs at least half as fast as a local import.

    python3 scripts/bench_client.py VERITRAIL LOG.ndjson     (LOG from scripts/gen_bench.py N LOG.ndjson)
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

VT, LOG = sys.argv[1], sys.argv[2]
NOW = "2026-11-20T18:00:00Z"
work = tempfile.mkdtemp(prefix="vt-bench-client-")
env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
env.update({"VERITRAIL_NOW": NOW, "XDG_STATE_HOME": work + "/state", "NO_COLOR": "1"})


def run(*args, stdin=None):
    r = subprocess.run([VT, *args], env=env, input=stdin, capture_output=True)
    assert r.returncode == 0, r.stderr.decode()
    return r


def timed(*args):
    start = time.perf_counter()
    run(*args)
    return time.perf_counter() - start


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


local = work + "/local"
t_local = timed("import", LOG, "--store", local)
events = sum(1 for _ in open(LOG))
print(f"local import: {events} events in {t_local:.2f} s ({events / t_local:,.0f} events/s)", flush=True)

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
    print(f"import --server: {events} events in {t_remote:.2f} s ({events / t_remote:,.0f} events/s): "
          f"{t_local / t_remote:.2f} of the local speed (bar: at least 0.5)", flush=True)

    for query in (["stats"], ["history", "--limit", "50"], ["log", "status"]):
        local_times = [timed(*query, "--json", "--as", "admin", "--store", served) for _ in range(20)]
        remote_times = [timed(*query, "--json", "--as", "admin", "--server", url) for _ in range(20)]
        lm, rm = statistics.median(local_times) * 1000, statistics.median(remote_times) * 1000
        print(f"{' '.join(query)}: local {lm:.1f} ms, --server {rm:.1f} ms, +{rm - lm:.1f} ms (bar: at most +10 ms)", flush=True)
finally:
    server.terminate()
    server.wait()
    shutil.rmtree(work)
