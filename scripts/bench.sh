#!/usr/bin/env bash
# The benchmarks of docs/BENCHMARKS.md: `make bench`, or
#
#   scripts/bench.sh [VERITRAIL_BINARY]          # default .build/release/veritrail
#
# Environment:
#   BENCH_DIR      where the generated events, the store and the results go (default /tmp/veritrail-bench)
#   BENCH_EVENTS   how many events (default 1000000); the file is generated once per size and kept
#   BENCH_RUNS     runs per short command, of which the median is reported (default 10)
#   BENCH_LONG_RUNS  runs per long command (import, decode, verify, rebuild, replay), of which the median wall
#                  time and the highest peaks are reported (default 3): the host's cores are shared, and one
#                  run can take twice as long as the next
#   BENCH_SEARCH   the text for `history --search` (default "hologram", in the notes of ~1% of the scans)
#   VERITRAIL_BENCH  the veritrail-bench binary (default: next to VERITRAIL_BINARY)
#
# Plain bash, date +%s%N and /usr/bin/time (GNU time; installed with apt-get when missing).
# Every figure includes process start (fork, exec, dynamic linking, opening the store) unless said otherwise.
# Peak RSS is GNU time's maxresident (%M); for the long commands a sampler also reads /proc/PID/status every
# 50 ms to split the peak into RssAnon (heap) and RssFile (pages of the memory-mapped LMDB file and of the input).
set -euo pipefail

veritrail=${1:-.build/release/veritrail}
[ -x "$veritrail" ] || { echo "bench: $veritrail is not an executable (build with make release)" >&2; exit 64; }
veritrail=$(cd "$(dirname "$veritrail")" && pwd)/$(basename "$veritrail")
bench_bin=${VERITRAIL_BENCH:-$(dirname "$veritrail")/veritrail-bench}
here=$(cd "$(dirname "$0")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/veritrail-bench}
N=${BENCH_EVENTS:-1000000}
RUNS=${BENCH_RUNS:-10}
LONG_RUNS=${BENCH_LONG_RUNS:-3}
SEARCH=${BENCH_SEARCH:-hologram}
export NO_COLOR=1
unset VERITRAIL_NOW VERITRAIL_USER VERITRAIL_STORE

if [ ! -x /usr/bin/time ]; then
  echo "bench: installing GNU time with apt-get" >&2
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO apt-get install -y -qq time >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq time >/dev/null; }
fi

mkdir -p "$BENCH_DIR"
data=$BENCH_DIR/events-$N.ndjson
store=$BENCH_DIR/store-$N
results=$BENCH_DIR/results-$N.tsv
work=$(mktemp -d "$BENCH_DIR/tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [ ! -s "$data" ]; then
  echo "generating $N events into $data" >&2
  t0=$(date +%s%N)
  python3 "$here/scripts/gen_bench.py" "$N" "$data.part"
  mv "$data.part" "$data"
  echo "  generated in $(( ($(date +%s%N) - t0) / 1000000 )) ms" >&2
fi
events=$(wc -l < "$data")
bytes=$(stat -c %s "$data")
last_at=$(tail -n 1 "$data" | sed 's/.*"at":"\([^"]*\)".*/\1/')
NOW=$(date -u -d "${last_at/T/ } + 5 minutes" +%Y-%m-%dT%H:%M:%SZ)
USER_Q=$(grep -m1 '"type":"session.recorded"' "$data" | sed 's/.*"username":"\([^"]*\)".*/\1/')
[ -n "$USER_Q" ] || USER_Q=admin

# ---------------------------------------------------------------- helpers

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

# sample PID OUT: the peaks of RssAnon, RssFile and RssShmem (kB) while PID lives
sample() {
  local pid=$1 out=$2 anon=0 file=0 shm=0 k v u
  while [ -e "/proc/$pid/status" ]; do
    { while read -r k v u; do
        case $k in
          RssAnon:) (( v > anon )) && anon=$v ;;
          RssFile:) (( v > file )) && file=$v ;;
          RssShmem:) (( v > shm )) && shm=$v ;;
        esac
      done < "/proc/$pid/status"; } 2>/dev/null || true
    sleep 0.05
  done
  echo "$anon $file $shm" > "$out"
}

# long LABEL OUTFILE CMD...: runs CMD LONG_RUNS times (running $RESET before each when set) under GNU time and
# the sampler; sets WALL (s, the median), PEAK, ANON, FILE (kB, the highest) and WALLS (every run's)
long() {
  local label=$1 out=$2 i walls=() peak=0 anon=0 file=0; shift 2
  for (( i = 0; i < LONG_RUNS; i++ )); do
    [ -n "${RESET:-}" ] && eval "$RESET"
    long_once "$label" "$out" "$@"
    walls+=("$WALL")
    (( PEAK > peak )) && peak=$PEAK
    (( ${ANON:-0} > anon )) && anon=$ANON
    (( ${FILE:-0} > file )) && file=$FILE
  done
  WALLS=$(printf '%s\n' "${walls[@]}" | sort -n | paste -sd, -)
  WALL=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  PEAK=$peak ANON=$anon FILE=$file
}

# long_once LABEL OUTFILE CMD...: runs CMD once under GNU time and the sampler; sets WALL (s), PEAK, ANON, FILE (kB)
long_once() {
  local label=$1 out=$2; shift 2
  local tf=$work/time.$label sf=$work/rss.$label tpid child=
  echo "  $label ..." >&2
  /usr/bin/time -f '%e %M' -o "$tf" "$@" > "$out" 2> "$work/err.$label" &
  tpid=$!
  for _ in $(seq 200); do
    child=$(cat "/proc/$tpid/task/$tpid/children" 2>/dev/null | awk '{print $1}') || true
    [ -n "$child" ] && break
    [ -e "/proc/$tpid" ] || break
    sleep 0.005
  done
  [ -n "$child" ] && sample "$child" "$sf" & local spid=$!
  if ! wait "$tpid"; then
    echo "bench: $label failed:" >&2; cat "$work/err.$label" >&2; exit 1
  fi
  wait "$spid" 2>/dev/null || true
  read -r WALL PEAK < <(tail -n 1 "$tf")
  if [ -s "$sf" ]; then read -r ANON FILE _ < "$sf"; else ANON=; FILE=; fi
}

# short LABEL CMD...: RUNS timed runs (wall ms, process start included) and one more under GNU time for the peak RSS;
# sets MEDIAN, MIN, MAX (ms) and PEAK (kB)
short() {
  local label=$1; shift
  local i t0 times=()
  echo "  $label ..." >&2
  for (( i = 0; i < RUNS; i++ )); do
    t0=$(date +%s%N)
    "$@" > /dev/null 2> "$work/err.$label" || { echo "bench: $label failed:" >&2; cat "$work/err.$label" >&2; exit 1; }
    times+=("$(( ($(date +%s%N) - t0) / 1000 ))")
  done
  median_of "${times[@]}"
  /usr/bin/time -f '%e %M' -o "$work/time.$label" "$@" > /dev/null 2>&1
  read -r _ PEAK < <(tail -n 1 "$work/time.$label")
}

# median_of MICROSECONDS...: sets MEDIAN, MIN, MAX in ms (one decimal)
median_of() {
  local sorted
  mapfile -t sorted < <(printf '%s\n' "$@" | sort -n)
  local n=${#sorted[@]}
  local mid
  if (( n % 2 )); then mid=${sorted[n / 2]}; else mid=$(( (sorted[n / 2 - 1] + sorted[n / 2]) / 2 )); fi
  MEDIAN=$(awk -v x="$mid" 'BEGIN { printf "%.1f", x / 1000 }')
  MIN=$(awk -v x="${sorted[0]}" 'BEGIN { printf "%.1f", x / 1000 }')
  MAX=$(awk -v x="${sorted[n - 1]}" 'BEGIN { printf "%.1f", x / 1000 }')
}

rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "inf" }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
yn() { if "$@"; then echo yes; else echo NO; fi; }

ROWS=()
# row COMMAND FIGURE BAR MET PEAK_MB MEM_BAR_MB ANON_MB FILE_MB NOTE
row() {
  local mem_met=-
  [ -n "$5" ] && [ -n "$6" ] && mem_met=$(yn lt "$5" "$6")
  ROWS+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4"$'\t'"$5"$'\t'"${6:+< $6}"$'\t'"$mem_met"$'\t'"${7:--}"$'\t'"${8:--}"$'\t'"${9:-}")
}

# ---------------------------------------------------------------- the runs

echo "veritrail bench: $events events ($(mb $((bytes / 1024))) MB of NDJSON) in $data; store $store; now $NOW" >&2
rm -rf "$store"

# 1. import into a fresh store
RESET="rm -rf '$store'" long import "$work/import.out" "$veritrail" import "$data" --store "$store"
r=$(rate "$events" "$WALL")
row "import FILE" "$r ev/s ($WALL s)" ">= 100000 ev/s" "$(yn ge "$r" 100000)" "$(mb "$PEAK")" 200 "$(mb "${ANON:-0}")" "$(mb "${FILE:-0}")" "median of $LONG_RUNS (runs $WALLS s); $(cat "$work/import.out")"
store_kb=$(du -sk "$store" | awk '{print $1}')

# 2. read every event back and decode it
if [ -x "$bench_bin" ]; then
  long decode "$work/decode.out" "$bench_bin" decode --store "$store"
  read -r dn ds dr < "$work/decode.out"
  row "decode (veritrail-bench)" "$dr ev/s (${ds} s in-process, $WALL s wall)" ">= 1000000 ev/s" "$(yn ge "$dr" 1000000)" "$(mb "$PEAK")" 200 "$(mb "${ANON:-0}")" "$(mb "${FILE:-0}")" "$dn events"
else
  echo "bench: $bench_bin missing; skipping decode (make release builds it)" >&2
fi

# 3. verify the hash chain
long verify "$work/verify.out" "$veritrail" log verify --store "$store" --json
r=$(rate "$events" "$WALL")
row "log verify" "$r ev/s ($WALL s)" ">= 500000 ev/s" "$(yn ge "$r" 500000)" "$(mb "$PEAK")" 200 "$(mb "${ANON:-0}")" "$(mb "${FILE:-0}")" "median of $LONG_RUNS (runs $WALLS s)"

# baseline: process start and opening the store, for reading the short figures
short digest "$veritrail" log digest --store "$store"
row "log digest (baseline)" "$MEDIAN ms" "-" "-" "$(mb "$PEAK")" "" "" "" "process start + open; min $MIN, max $MAX"

# 4. append one event (a new scan after the head), process start included
append_times=()
for (( i = 1; i <= RUNS + 1; i++ )); do
  at=$(date -u -d "${last_at/T/ } + $i seconds" +%Y-%m-%dT%H:%M:%SZ)
  f=$work/append-$i.ndjson
  printf '{"id":"bench-append-%d-%s","type":"scan.recorded","at":"%s","actor":"admin","data":{"scanId":"bench-append-%d-%s","code":"https://verify.veritrail.example/c/BNCH-%06d","productName":"Benchmark Append Probe","brand":"Veritrail","category":"Electronics","result":"authentic","mode":"single","source":"camera","flash":false}}\n' \
    "$i" "$$" "$at" "$i" "$$" "$i" > "$f"
done
echo "  append ..." >&2
for (( i = 1; i <= RUNS; i++ )); do
  t0=$(date +%s%N)
  "$veritrail" import "$work/append-$i.ndjson" --store "$store" > /dev/null 2> "$work/err.append" || { cat "$work/err.append" >&2; exit 1; }
  append_times+=("$(( ($(date +%s%N) - t0) / 1000 ))")
done
median_of "${append_times[@]}"
/usr/bin/time -f '%e %M' -o "$work/time.append" "$veritrail" import "$work/append-$((RUNS + 1)).ndjson" --store "$store" > /dev/null
read -r _ PEAK < <(tail -n 1 "$work/time.append")
row "append 1 event (import 1 line)" "$MEDIAN ms" "< 30 ms" "$(yn lt "$MEDIAN" 30)" "$(mb "$PEAK")" 200 "" "" "median of $RUNS; min $MIN, max $MAX"
total_events=$(( events + RUNS + 1 ))

# 5. the projections (--json, --now after the last event)
qopts=(--store "$store" --json --now "$NOW")
for spec in "stats|stats" "lockout $USER_Q|lockout $USER_Q" "customers|customers" "goals $USER_Q|goals $USER_Q" \
            "history --limit 50|history --limit 50"; do
  name=${spec%%|*}; read -r -a args <<< "${spec#*|}"
  short "$name" "$veritrail" "${args[@]}" "${qopts[@]}"
  row "$name" "$MEDIAN ms" "< 50 ms" "$(yn lt "$MEDIAN" 50)" "$(mb "$PEAK")" 300 "" "" "median of $RUNS; min $MIN, max $MAX"
done
matches=$("$veritrail" history --search "$SEARCH" --limit 1 "${qopts[@]}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])') || matches=
short "history --search" "$veritrail" history --search "$SEARCH" "${qopts[@]}"
row "history --search $SEARCH" "$MEDIAN ms" "< 1000 ms" "$(yn lt "$MEDIAN" 1000)" "$(mb "$PEAK")" 300 "" "" "median of $RUNS; ${matches:-?} matches; min $MIN, max $MAX"

# 6. rebuild and replay
long rebuild "$work/rebuild.out" "$veritrail" rebuild --store "$store" --json
r=$(rate "$total_events" "$WALL")
row "rebuild" "$r ev/s ($WALL s)" ">= 300000 ev/s" "$(yn ge "$r" 300000)" "$(mb "$PEAK")" 300 "$(mb "${ANON:-0}")" "$(mb "${FILE:-0}")" "median of $LONG_RUNS (runs $WALLS s); $(cat "$work/rebuild.out")"

long replay /dev/null "$veritrail" replay --store "$store" --json --now "$NOW"
r=$(rate "$total_events" "$WALL")
row "replay --json" "$r ev/s ($WALL s)" ">= 1000000 ev/s" "$(yn ge "$r" 1000000)" "$(mb "$PEAK")" 300 "$(mb "${ANON:-0}")" "$(mb "${FILE:-0}")" "every event kept: answered from the stored read models"

# replay of a prefix: the engine replays the kept events into in-memory models (the auditor's as-of view)
asof=$(( total_events - 1 ))
long replay-asof /dev/null "$veritrail" replay --store "$store" --json --as-of "$asof"
r=$(rate "$asof" "$WALL")
row "replay --as-of $asof --json" "$r ev/s ($WALL s)" ">= 1000000 ev/s" "$(yn ge "$r" 1000000)" "$(mb "$PEAK")" 300 "$(mb "${ANON:-0}")" "$(mb "${FILE:-0}")" "all but the last event, replayed into memory; median of $LONG_RUNS (runs $WALLS s)"

# ---------------------------------------------------------------- the table

{
  echo "# veritrail bench $(date -u +%Y-%m-%dT%H:%M:%SZ): $events events, $(mb $((bytes / 1024))) MB NDJSON, store $(mb "$store_kb") MB, $(nproc) cores, now $NOW"
  printf 'command\tfigure\tbar\tmet\tpeak RSS MB\tmemory bar\tmet\tRssAnon MB\tRssFile MB\tnote\n'
  printf '%s\n' "${ROWS[@]}"
} > "$results"

echo
echo "veritrail bench: $events events ($(mb $((bytes / 1024))) MB NDJSON, store $(mb "$store_kb") MB), $(nproc) cores, $(uname -m)"
echo "user for lockout/goals: $USER_Q; --now $NOW; results also in $results"
echo
tail -n +2 "$results" | awk -F '\t' '
  { for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } rows = NR; if (NF > nf) nf = NF }
  END {
    for (r = 1; r <= rows; r++) {
      line = ""
      for (i = 1; i <= nf; i++) line = line sprintf("%-" w[i] "s  ", cell[r, i])
      sub(/ +$/, "", line); print line
    }
  }'
