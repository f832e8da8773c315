#!/usr/bin/env bash
# `make bench-serve`: the server's bars (issue 19), measured in one run on a store of EVENTS generated events
# (default 100000; scripts/gen_bench.py), with wrk:
#   1. 64 connections recording single scans for SECONDS, with group commit and with --commit-each;
#   2. GET /v1/stats at 64 connections;
#   3. a committed event's way to 100 open follow streams (scripts/bench_serve/follow.py);
#   4. the server's peak memory (VmHWM) through all of it.
#
#   scripts/bench_serve.sh [VERITRAIL_BINARY]      # default .build/release/veritrail
#
# EVENTS_FILE names a log gen_bench.py made before (of EVENTS events), instead of making one. Each server starts
# on a fresh copy of the imported store, read back into the page cache as the store's own writes leave it
# (scripts/bench_serve/small_folios.py); FOLIOS=cp leaves the copy as cp cached it (large folios: each commit
# then writes megabytes, docs/SERVER.md).
set -euo pipefail
veritrail=${1:-.build/release/veritrail}
here=$(cd "$(dirname "$0")/.." && pwd)
events=${EVENTS:-100000}
seconds=${SECONDS_EACH:-10}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
work=$(mktemp -d /tmp/veritrail-bench-serve.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
events_file=${EVENTS_FILE:-$work/events.ndjson}
[ -n "${EVENTS_FILE:-}" ] || python3 "$here/scripts/gen_bench.py" "$events" "$events_file" >/dev/null
"$veritrail" import "$events_file" --store "$work/base" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port

start() {
  # Synced before the server starts: the copy's writeback (a gigabyte at 1M) would share the two cores with the run.
  rm -rf "$work/store"; cp -r "$work/base" "$work/store"; sync
  [ "${FOLIOS:-}" = cp ] || python3 "$here/scripts/bench_serve/small_folios.py" "$work/store/data.mdb"
  "$veritrail" serve --store "$work/store" --listen "127.0.0.1:$port" "$@" 2>/dev/null &
  pid=$!
  for _ in $(seq 200); do curl -sf "$url/v1/health" >/dev/null && break; sleep 0.05; done
  TOKEN=$(curl -sf -X POST "$url/v1/sessions" -H 'Content-Type: application/json' \
    -d '{"user": "admin", "passcode": "2468"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  export TOKEN
}
stop() { peak=$(awk '/VmHWM/ {print $2}' /proc/$pid/status); kill "$pid"; wait "$pid" || true; pid=; echo "  server peak memory: $((peak / 1024)) MB"; }
rate() { awk '/Requests\/sec/ {print $2}' "$1"; }
p99() { awk '$1 == "99%" {print $2}' "$1"; }

echo "== $events events; 64 connections recording single scans for ${seconds} s"
start
written=$(awk '/^write_bytes/ {print $2}' /proc/$pid/io)
wrk -t2 -c64 -d"${seconds}s" --latency -s "$here/scripts/bench_serve/scan.lua" "$url" > "$work/group.txt"
written=$(( $(awk '/^write_bytes/ {print $2}' /proc/$pid/io) - written ))
echo "  group commit: $(rate "$work/group.txt") writes/s, p99 $(p99 "$work/group.txt")"
commits=$(curl -s "$url/metrics" | awk '/^veritrail_commit_group_size_count/ {print $2}')
echo "  $commits commits, $(curl -s "$url/metrics" | awk '/^veritrail_commit_group_size_sum/ {print $2}') events; the server wrote $((written / 1048576)) MB to the disk, $((written / 1024 / ${commits%.*})) KB a commit"
stop
start --commit-each
wrk -t2 -c64 -d"${seconds}s" --latency -s "$here/scripts/bench_serve/scan.lua" "$url" > "$work/each.txt"
echo "  --commit-each: $(rate "$work/each.txt") writes/s, p99 $(p99 "$work/each.txt")"
stop

echo "== GET /v1/stats at 64 connections for ${seconds} s"
start
wrk -t2 -c64 -d"${seconds}s" --latency -s "$here/scripts/bench_serve/stats.lua" "$url/v1/stats" > "$work/stats.txt"
echo "  $(rate "$work/stats.txt") requests/s, p99 $(p99 "$work/stats.txt")"
echo "== a committed event to 100 follow streams"
echo "  $(python3 "$here/scripts/bench_serve/follow.py" "$url" "$TOKEN" 100 20)"
stop
