#!/usr/bin/env bash
# The figures of the proofs' bars (issue 13) on a large store, with a release build:
#
#   scripts/proofbench.sh STORE [VERITRAIL_BINARY] [BASELINE_BINARY]
#
# STORE is a store made by `import` of the benchmark file (scripts/gen_bench.py, see scripts/bench.sh); it
# gets RUNS events appended. Prints the median wall time, process start included, of `log digest` (the
# baseline: starting and opening the store), `log prove`,
# `log consistency` and `log checkpoint` (RUNS runs each, default 10, at seqs and sizes spread over the log),
# of appending one event (`import` of a one-line file), and of `log verify` (3 runs). With BASELINE_BINARY
# (a build without the tree, on a copy of the store made by it), the append and verify figures of both,
# alternated run by run, so that a shared machine's load falls on both alike.
set -euo pipefail
store=${1:?usage: scripts/proofbench.sh STORE [VERITRAIL_BINARY] [BASELINE_BINARY]}
veritrail=${2:-.build/release/veritrail}
baseline=${3:-}
RUNS=${RUNS:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ms() { echo "scale=2; $1 / 1000000" | bc; }
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { printf "%.0f\n", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
timed() { local t0; t0=$(date +%s%N); "$@" > /dev/null; echo $(( $(date +%s%N) - t0 )); }

head=$("$veritrail" log digest --store "$store" | cut -d: -f1)
echo "store $store: $head events"
for what in digest prove consistency checkpoint; do
  times=()
  for (( i = 1; i <= RUNS; i++ )); do
    n=$(( head - (i - 1) * (head / RUNS / 3) ))
    case $what in
      prove) args=(log prove $(( (i * 104729) % n + 1 )) --size "$n") ;;
      consistency) args=(log consistency $(( (i * 7919) % n + 1 )) --size "$n") ;;
      checkpoint) args=(log checkpoint --size "$n") ;;
      digest) args=(log digest) ;;
    esac
    times+=("$(timed "$veritrail" "${args[@]}" --store "$store")")
  done
  echo "log $what: median $(ms "$(median "${times[@]}")") ms of $RUNS $([ "$what" = digest ] && echo "(process start and opening the store, for reference)" || echo "(bar < 30 ms)")"
done

# Appending one event: a new scan after the head, one file per run.
last_at=$("$veritrail" log tail -n 1 --json --store "$store" | sed 's/.*"at":"\([^"]*\)".*/\1/')
append() {  # append BINARY STORE I
  local at; at=$(date -u -d "${last_at/T/ } + $3 seconds" +%Y-%m-%dT%H:%M:%SZ)
  printf '{"id":"proofbench-%s-%d","type":"scan.recorded","at":"%s","actor":"admin","data":{"scanId":"proofbench-%s-%d","code":"https://verify.veritrail.example/c/PB-%06d","productName":"Proof Bench Probe","brand":"Veritrail","category":"Electronics","result":"authentic","mode":"single","source":"camera","flash":false}}\n' \
    "$$" "$3" "$at" "$$" "$3" "$3" > "$work/append.ndjson"
  timed "$1" import "$work/append.ndjson" --store "$2"
}
new=(); old=()
for (( i = 1; i <= RUNS; i++ )); do
  new+=("$(append "$veritrail" "$store" "$i")")
  [ -z "$baseline" ] || old+=("$(append "$baseline" "$store.baseline" "$i")")
done
echo "append 1 event: median $(ms "$(median "${new[@]}")") ms of $RUNS${baseline:+; baseline $(ms "$(median "${old[@]}")") ms (bar: checkpoint adds < 2 ms)}"

new=(); old=()
for (( i = 1; i <= 3; i++ )); do
  new+=("$(timed "$veritrail" log verify --store "$store")")
  [ -z "$baseline" ] || old+=("$(timed "$baseline" log verify --store "$store.baseline")")
done
n=$("$veritrail" log digest --store "$store" | cut -d: -f1)
rate() { echo "$n * 1000000000 / $1" | bc; }
echo "log verify: median $(ms "$(median "${new[@]}")") ms = $(rate "$(median "${new[@]}")") ev/s of 3 (bar >= 500000)${baseline:+; baseline $(ms "$(median "${old[@]}")") ms = $(rate "$(median "${old[@]}")") ev/s}"
