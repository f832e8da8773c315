#!/usr/bin/env bash
# The bulk figures of docs/BULK.md: `make bench-bulk`, or
#
#   scripts/bench_bulk.sh [VERITRAIL_BINARY [BASELINE_BINARY]]    # default .build/release/veritrail
#
# 1. `scan --batch` of BULK_ROWS rows (default 5,000,000), CSV and NDJSON (scripts/gen_batch.py), into a copy of
#    a 3,000-event store: wall time and peak RSS (GNU time's %M), events written, and a bad last row refused
#    with nothing written.
# 2. `import` of BULK_IMPORT (default /tmp/scale-bench/events-1000000.ndjson, made with scripts/gen_bench.py when
#    missing) into a new store, with this binary and, when given, BASELINE_BINARY (main's) side by side:
#    events/s, peak RSS, the data file and its pages in use (mdb_stat -e).
# 3. BULK_SINGLE (default 10,000) single writes (`scan`, one process each) into a copy of the 3,000-event store:
#    the data file and its pages in use after them.
#
# BULK_DIR (default /tmp/veritrail-bulk) holds the files and stores; BULK_SKIP (words batch, import, single)
# leaves parts out. Every figure includes process start.
set -euo pipefail

veritrail=${1:-.build/release/veritrail}
baseline=${2:-}
[ -x "$veritrail" ] || { echo "bench-bulk: $veritrail is not an executable (make release)" >&2; exit 64; }
here=$(cd "$(dirname "$0")/.." && pwd)
DIR=${BULK_DIR:-/tmp/veritrail-bulk}
ROWS=${BULK_ROWS:-5000000}
IMPORT=${BULK_IMPORT:-/tmp/scale-bench/events-1000000.ndjson}
SINGLE=${BULK_SINGLE:-10000}
SKIP=${BULK_SKIP:-}
NOW=2026-11-20T18:00:00Z
export NO_COLOR=1
unset VERITRAIL_NOW VERITRAIL_USER VERITRAIL_STORE
mkdir -p "$DIR"
inspector=anna.moreau000   # passcode 2468, as every account of gen_bench.py

# pages STORE: bytes of the data file's pages in use; file STORE: its size.
pages() { mdb_stat -e "$1" | awk '/Page size:/ { p = $3 } /Number of pages used:/ { n = $5 } END { printf "%.0f\n", p * n }'; }
file() { stat -c %s "$1/data.mdb"; }
mb() { echo $(( $1 / 1048576 )); }
bar() { local p f; p=$(pages "$1"); f=$(file "$1"); echo "file $(mb "$f") MB, pages in use $(mb "$p") MB, bar $(mb $((p * 5 / 4 + (64 << 20)))) MB: $([ "$f" -le $((p * 5 / 4 + (64 << 20))) ] && echo kept || echo MISSED)"; }
# timed OUT CMD...: runs CMD under GNU time, prints "SECONDS RSS_MB EXIT".
timed() {
  local out=$1; shift
  set +e; /usr/bin/time -f '%e %M' -o "$out.time" "$@" >"$out.out" 2>"$out.err"; local code=$?; set -e
  # GNU time writes "Command exited with non-zero status N" first when the command fails.
  read -r secs rss < <(tail -n 1 "$out.time")
  echo "$secs $((rss / 1024)) $code"
}

[ -s "$DIR/base.ndjson" ] || python3 "$here/scripts/gen_bench.py" 3000 "$DIR/base.ndjson" >/dev/null
rm -rf "$DIR/base"; "$veritrail" import "$DIR/base.ndjson" --store "$DIR/base" >/dev/null

if [[ $SKIP != *batch* ]]; then
  echo "== scan --batch of $ROWS rows ($(uptime | sed 's/.*load/load/'))"
  for kind in csv ndjson; do
    f=$DIR/batch-$ROWS.$kind
    [ -s "$f" ] || python3 "$here/scripts/gen_batch.py" "$ROWS" "$f"
    s=$DIR/batch-store; rm -rf "$s"; cp -r "$DIR/base" "$s"
    read -r secs rss code < <(timed "$DIR/batch-$kind" bash -c "printf '2468\n' | VERITRAIL_NOW=$NOW '$veritrail' scan --batch '$f' --as $inspector --passcode-stdin --json --store '$s'")
    events=$("$veritrail" log status --store "$s" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
    echo "$kind: exit $code, $secs s, peak RSS $rss MB, $((ROWS * 10 / ${secs%.*} / 10)) rows/s, events $events, answer $(mb "$(stat -c %s "$DIR/batch-$kind.out")") MB; $(bar "$s")"
  done
  bad=$DIR/batch-$ROWS-bad.csv
  [ -s "$bad" ] || python3 "$here/scripts/gen_batch.py" "$ROWS" "$bad" --bad-last
  s=$DIR/batch-store; rm -rf "$s"; cp -r "$DIR/base" "$s"
  read -r secs rss code < <(timed "$DIR/batch-bad" bash -c "printf '2468\n' | VERITRAIL_NOW=$NOW '$veritrail' scan --batch '$bad' --as $inspector --passcode-stdin --store '$s'")
  echo "bad last row: exit $code, $secs s, peak RSS $rss MB, $(head -c 200 "$DIR/batch-bad.err"), events $("$veritrail" log status --store "$s" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')"
  rm -rf "$s"
fi

if [[ $SKIP != *import* ]]; then
  [ -s "$IMPORT" ] || python3 "$here/scripts/gen_bench.py" 1000000 "$IMPORT" >/dev/null
  n=$(grep -c . "$IMPORT")
  echo "== import of $n events ($(mb "$(stat -c %s "$IMPORT")") MB of NDJSON; $(uptime | sed 's/.*load/load/'))"
  for bin in "$veritrail" ${baseline:+"$baseline"}; do
    s=$DIR/import-store; rm -rf "$s"
    read -r secs rss code < <(timed "$DIR/import" "$bin" import "$IMPORT" --store "$s")
    echo "$bin: exit $code, $secs s, $(awk -v n="$n" -v s="$secs" 'BEGIN { printf "%d", n / s }') ev/s, peak RSS $rss MB; $(bar "$s")"
    rm -rf "$s"
  done
fi

if [[ $SKIP != *single* ]]; then
  echo "== $SINGLE single writes ($(uptime | sed 's/.*load/load/'))"
  s=$DIR/single-store; rm -rf "$s"; cp -r "$DIR/base" "$s"
  start=$(date +%s)
  for i in $(seq 1 "$SINGLE"); do
    printf '2468\n' | VERITRAIL_NOW=$NOW "$veritrail" scan --code "C-single-$i" --product P --category Cosmetics --result authentic \
      --as $inspector --passcode-stdin --store "$s" >/dev/null
  done
  echo "$SINGLE writes in $(( $(date +%s) - start )) s; $(bar "$s")"
fi
