#!/usr/bin/env bash
# `make bench-scale`: the figures of issue 20 at 1M and 10M events, side by side in one run, written into
# docs/BENCHMARKS.md (between its bench-scale markers) and BENCH_DIR/scale.md.
#
#   scripts/bench_scale.sh [VERITRAIL_BINARY]     # default .build/release/veritrail
#
# Environment:
#   BENCH_DIR     where the generated logs and the stores go (default /tmp/veritrail-bench-scale; a 10M log
#                 is about 3.9 GB of NDJSON and its store about as much again)
#   SCALE_KEEP_STORES  set: keep each size's store after its figures (default: removed)
#   SCALE_SIZES   the sizes, smallest first (default "1000000 10000000"); each log is generated once
#                 with scripts/gen_bench.py and kept
#   BENCH_RUNS    runs per short command, of which the median is reported (default 5)
#   SCALE_DOCS    the file whose bench-scale section is replaced (default docs/BENCHMARKS.md; empty: none)
#
# Every figure includes process start. Short commands: the median of BENCH_RUNS runs; long ones (import,
# verify, rebuild) run once, under GNU time for the peak RSS.
set -euo pipefail

veritrail=${1:-.build/release/veritrail}
[ -x "$veritrail" ] || { echo "bench-scale: $veritrail is not an executable (make release)" >&2; exit 64; }
veritrail=$(cd "$(dirname "$veritrail")" && pwd)/$(basename "$veritrail")
here=$(cd "$(dirname "$0")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/veritrail-bench-scale}
SIZES=${SCALE_SIZES:-"1000000 10000000"}
RUNS=${BENCH_RUNS:-5}
DOCS=${SCALE_DOCS-$here/docs/BENCHMARKS.md}
export NO_COLOR=1
unset VERITRAIL_NOW VERITRAIL_USER VERITRAIL_STORE
command -v mdb_stat >/dev/null || { echo "bench-scale: needs mdb_stat (apt-get install lmdb-utils)" >&2; exit 69; }
[ -x /usr/bin/time ] || { echo "bench-scale: needs GNU time (apt-get install time)" >&2; exit 69; }
mkdir -p "$BENCH_DIR"
work=$(mktemp -d "$BENCH_DIR/tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT

declare -A FIG      # FIG[row|size] = figure
ROWS=()
put() {
  local row=$1 size=$2 value=$3
  [[ " ${ROWS[*]} " == *" $row "* ]] || ROWS+=("$row")
  FIG["$row|$size"]=$value
  echo "  $size | $row | $value" >&2
}

# median_ms CMD...: the median wall time of RUNS runs, in ms
median_ms() {
  local i t0 times=()
  for (( i = 0; i < RUNS; i++ )); do
    t0=$(date +%s%N)
    "$@" > /dev/null 2> "$work/err" || { echo "bench-scale: failed: $*" >&2; cat "$work/err" >&2; exit 1; }
    times+=("$(( ($(date +%s%N) - t0) / 1000 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'
}

# timed OUT CMD...: runs once under GNU time; sets WALL (s), CPU (user + system s) and PEAK (MB)
timed() {
  local out=$1 user sys; shift
  /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$@" > "$out" 2> "$work/err" || { echo "bench-scale: failed: $*" >&2; cat "$work/err" >&2; exit 1; }
  read -r WALL PEAK user sys < <(tail -n 1 "$work/time")
  PEAK=$(( PEAK / 1024 ))
  CPU=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
total() { python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])'; }

for N in $SIZES; do
  data=$BENCH_DIR/events-$N.ndjson
  store=$BENCH_DIR/store-$N
  if [ ! -s "$data" ]; then
    echo "generating $N events into $data" >&2
    t0=$(date +%s)
    python3 "$here/scripts/gen_bench.py" "$N" "$data.part"
    mv "$data.part" "$data"
    echo "  generated in $(( $(date +%s) - t0 )) s" >&2
  fi
  events=$(wc -l < "$data"); bytes=$(stat -L -c %s "$data")
  half=$(( events / 2 ))
  half_at=$(sed -n "${half}p" "$data" | sed 's/.*"at":"\([^"]*\)".*/\1/')
  user=$(grep -m1 '"type":"session.recorded"' "$data" | sed 's/.*"username":"\([^"]*\)".*/\1/')
  # The log's last time: the probes append at it (a later write may not be earlier), and the queries ask
  # as of it (a --now before the log's end would make every query an answer as of a point).
  now=$(tail -n 1 "$data" | sed 's/.*"at":"\([^"]*\)".*/\1/')
  q=(--store "$store" --json --now "$now")
  echo "bench-scale: $events events ($(( bytes / 1048576 )) MB NDJSON)" >&2

  rm -rf "$store"
  echo "  import" >&2; timed /dev/null "$veritrail" import "$data" --store "$store"
  put "import (ev/s; wall, CPU, peak)" "$N" "$(rate "$events" "$WALL") ($WALL s, CPU $CPU s, $PEAK MB)"
  echo "  verify" >&2; timed /dev/null "$veritrail" log verify --store "$store" --json
  put "log verify (ev/s; wall, CPU, peak)" "$N" "$(rate "$events" "$WALL") ($WALL s, CPU $CPU s, $PEAK MB)"
  echo "  rebuild" >&2; timed /dev/null "$veritrail" rebuild --store "$store" --json
  put "rebuild (ev/s; wall, CPU, peak)" "$N" "$(rate "$events" "$WALL") ($WALL s, CPU $CPU s, $PEAK MB)"

  echo "  append" >&2
  i=0; append() {
    i=$((i + 1))
    printf '{"type":"scan.recorded","at":"%s","actor":"admin","data":{"scanId":"scale-append-%d-%d","code":"https://verify.veritrail.example/c/SCALE-%d","productName":"Scale Append Probe","category":"Electronics","result":"authentic","mode":"single","source":"camera","flash":false}}\n' \
      "$now" "$i" "$$" "$i" > "$work/append.ndjson"
    "$veritrail" import "$work/append.ndjson" --store "$store"
  }
  put "append 1 event (ms)" "$N" "$(median_ms append)"

  # The rebuild leaves gigabytes of written pages for the kernel to write back; queries timed while it does
  # ran up to 10 ms slower. Written back first, the queries are timed as a person would meet them.
  sync
  echo "  search" >&2
  for needle in e ho er kyo hologram "verify.veritrail" "lace-up boots" "s-0000042" zzqxj "lot=0" "asic-" marco sticker "example/c/role" \
                "/bosc-6" "f?lo" "29?lot=9" "829?lo" "r-51" "-283"; do
    n=$("$veritrail" history --search "$needle" --limit 1 "${q[@]}" | total)
    put "history --search \"$needle\" (ms; matches)" "$N" "$(median_ms "$veritrail" history --search "$needle" "${q[@]}"); $n"
  done
  echo "  queries" >&2
  for spec in "stats" "history --limit 50" "history --type failed" "history --category Watches --by $user" \
              "history --type failed --search serum --window 7d" "lockout $user" "goals $user" "customers"; do
    read -r -a args <<< "$spec"
    put "$spec (ms)" "$N" "$(median_ms "$veritrail" "${args[@]}" "${q[@]}")"
  done
  echo "  as of" >&2
  for spec in "replay --as-of $half" "replay --as-of $half_at" "stats --as-of $half" "history --as-of $half --search e" \
              "goals $user --as-of $half_at" "lockout --as-of $((half + 12345))"; do
    read -r -a args <<< "$spec"
    label=${spec//$half_at/T½}; label=${label//$((half + 12345))/½+12345}; label=${label//$half/½}
    put "$label (ms)" "$N" "$(median_ms "$veritrail" "${args[@]}" --store "$store" --json)"
  done

  read -r psize < <(mdb_stat -e "$store" | awk '/Page size/ { print $3 }')
  # Pages in use: the map's high-water mark less the pages on LMDB's free list.
  read -r used < <(mdb_stat -ef "$store" | awk '/Number of pages used/ { u = $5 } /Free pages/ { f = $3 } END { print u - f }')
  file=$(stat -c %s "$store/data.mdb")
  put "store pages in use / NDJSON" "$N" "$(awk -v u="$used" -v p="$psize" -v b="$bytes" 'BEGIN { printf "%.2f× (%.0f MB)", u * p / b, u * p / 1048576 }')"
  put "data file / pages in use" "$N" "$(awk -v u="$used" -v p="$psize" -v f="$file" 'BEGIN { printf "%.2f× (%.0f MB)", f / (u * p), f / 1048576 }')"
  search_kb=$(mdb_stat -s model.search "$store" 2>/dev/null | awk '/Leaf pages|Overflow pages|Branch pages/ { n += $3 } END { print n }')
  put "search index pages (MB)" "$N" "$(( search_kb * psize / 1048576 ))"
  # A 10M store is several GB: kept only when asked.
  [ -n "${SCALE_KEEP_STORES:-}" ] || rm -rf "$store"
done

sizes=($SIZES)
{
  echo "<!-- bench-scale: written by scripts/bench_scale.sh; do not edit by hand -->"
  echo
  echo "Measured $(date -u +%Y-%m-%dT%H:%M:%SZ) with \`make bench-scale\` ($(nproc) cores, $(uname -m); host load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)."
  echo
  printf '| figure |'; for N in "${sizes[@]}"; do printf ' %s |' "$N"; done; echo
  printf '|---|'; for N in "${sizes[@]}"; do printf '%s' '---|'; done; echo
  for row in "${ROWS[@]}"; do
    printf '| %s |' "$row"; for N in "${sizes[@]}"; do printf ' %s |' "${FIG["$row|$N"]:-}"; done; echo
  done
  echo
  echo "<!-- /bench-scale -->"
} > "$BENCH_DIR/scale.md"
cat "$BENCH_DIR/scale.md"

if [ -n "$DOCS" ] && [ -f "$DOCS" ]; then
  python3 - "$DOCS" "$BENCH_DIR/scale.md" <<'EOF'
import sys
docs, table = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
text = open(docs).read()
start, end = "<!-- bench-scale:", "<!-- /bench-scale -->"
if start in text and end in text:
    a = text.index(start); b = text.index(end) + len(end)
    text = text[:a] + table + text[b:]
else:
    text = text.rstrip("\n") + "\n\n## At ten million events (issue 20, `make bench-scale`)\n\n" + table + "\n"
open(docs, "w").write(text)
EOF
  echo "bench-scale: table written into $DOCS" >&2
fi
