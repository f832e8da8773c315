"""How long a committed event takes to reach open follow streams (server.md §5): STREAMS connections
follow /v1/events; ROUNDS times a scan is written over HTTP and each stream's arrival is timed from the
write's request (so the write's own time is counted too). Prints the p50 and p99 in milliseconds.

    python3 follow.py URL TOKEN [STREAMS] [ROUNDS]
"""
import http.client
import json
import sys
import threading
import time
from urllib.parse import urlparse

url, token = sys.argv[1], sys.argv[2]
streams = int(sys.argv[3]) if len(sys.argv) > 3 else 100
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 20
host = urlparse(url)
arrivals = {}
lock = threading.Lock()
ready = threading.Barrier(streams + 1)


def follow():
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=60)
    conn.request("GET", "/v1/events?follow=true", headers={"Authorization": "Bearer " + token})
    response = conn.getresponse()
    ready.wait()
    while True:
        line = response.readline()
        if not line:
            return
        seen = time.perf_counter()
        value = json.loads(line)
        if "seq" in value and value.get("type") == "scan.recorded":
            with lock:
                arrivals.setdefault(value["data"]["code"], []).append(seen)


for _ in range(streams):
    threading.Thread(target=follow, daemon=True).start()
ready.wait()
time.sleep(0.5)
sent = {}
writer = http.client.HTTPConnection(host.hostname, host.port, timeout=60)
for i in range(rounds):
    code = f"follow-{time.time()}-{i}"
    body = json.dumps({"code": code, "productName": "P", "category": "Toys", "result": "authentic"})
    # Timed from the request: an upper bound on the time from the commit, which comes before the answer.
    sent[code] = time.perf_counter()
    writer.request("POST", "/v1/scans", body=body, headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    r = writer.getresponse()
    r.read()
    time.sleep(0.3)
time.sleep(1)
latencies = sorted((t - sent[code]) * 1000 for code, times in arrivals.items() if code in sent for t in times)
missing = streams * rounds - len(latencies)
p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")
print(f"follow: {streams} streams, {rounds} events: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {p(1.0):.1f} ms, missing {missing}")
