#!/usr/bin/env bash
# Checks a store's checkpoints and proofs with Go's own sumdb packages (scripts/proofverify), and that
# doctored ones are refused: the auditor's view, for the demo store and the 1M-event benchmark store.
#
#   scripts/proofcheck.sh STORE [VERITRAIL_BINARY] [SAMPLES]
#
# For SAMPLES tree sizes (default 40: the head, 1, powers of two and their neighbours, and random ones) it
# checks `log checkpoint --size N`, `log prove SEQ --size N` for three seqs (the first, the last, one
# drawn at random) and `log consistency OLD --size N` for three old sizes, each against the verifier key of `log key`,
# with the leaf data (the event's canonical form) made from `export` by scripts/oracle.py's own JCS. Each
# proof is then doctored (a hash line changed, the size changed, another event's leaf, another key) and must
# be refused. Prints the counts and exits 1 when anything was accepted that should not be, or refused that
# should not be. Needs go, golang.org/x/mod (make deps) and python3.
set -euo pipefail
store=${1:?usage: scripts/proofcheck.sh STORE [VERITRAIL_BINARY] [SAMPLES]}
veritrail=${2:-.build/release/veritrail}
samples=${3:-40}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$here/proofverify" && GOPATH=/usr/share/gocode GO111MODULE=off GOCACHE=${GOCACHE:-$work/gocache} go build -o "$work/proofverify" .)
pv=$work/proofverify
key=$("$veritrail" log key --store "$store")
# Another key, of a throwaway store with one event.
printf '%s\n' "$("$veritrail" export --store "$store" --to 1 | python3 -c 'import json,sys; e=json.loads(sys.stdin.readline()); [e.pop(k) for k in ("seq","hash")]; print(json.dumps(e))')" > "$work/one.ndjson"
"$veritrail" import "$work/one.ndjson" --store "$work/other" > /dev/null
other=$("$veritrail" log key --store "$work/other")
head=$("$veritrail" log digest --store "$store" | cut -d: -f1)

leaf() {  # leaf SEQ FILE: the canonical form of event SEQ
  "$veritrail" export --store "$store" --from "$1" --to "$1" | python3 -c '
import json, sys
sys.path.insert(0, sys.argv[1]); import oracle
e = json.loads(sys.stdin.readline()); del e["hash"]; sys.stdout.write(oracle.jcs(e))' "$here" > "$2"
}
accepted=0; refused=0; wrong=0
expect() {  # expect ok|refused MODE FILES...
  local want=$1; shift
  if "$pv" "$@" > "$work/out" 2>&1; then got=ok; else got=refused; fi
  if [ "$got" != "$want" ]; then wrong=$((wrong + 1)); echo "WRONG: wanted $want, got $got: $* ($(cat "$work/out"))" >&2;
  elif [ "$got" = ok ]; then accepted=$((accepted + 1)); else refused=$((refused + 1)); fi
}
doctor_hash() { awk -v n="$2" 'NR == n { $0 = (substr($0, 1, 1) == "A" ? "B" : "A") substr($0, 2) } { print }' "$1"; }
doctor_size() { awk 'f == 1 && !done { g++; if (g == 2) { $0 = $0 + 1; done = 1 } } /^$/ { f = 1 } { print }' "$1"; }

sizes=$(python3 - "$head" "$samples" <<'PY'
import random, sys
head, n = int(sys.argv[1]), int(sys.argv[2])
s = {head, 1}
k = 1
while k <= head:
    s.update(x for x in (k - 1, k, k + 1) if 1 <= x <= head)
    k *= 2
rng = random.Random(6962)
while len(s) < n and len(s) < head:
    s.add(rng.randint(1, head))
print(" ".join(map(str, sorted(s))))
PY
)
for n in $sizes; do
  "$veritrail" log checkpoint --size "$n" --store "$store" > "$work/cp"
  expect ok checkpoint "$key" "$work/cp"
  expect refused checkpoint "$other" "$work/cp"
  awk 'NR == 2 { $0 = $0 + 1 } { print }' "$work/cp" > "$work/cp.bad"
  expect refused checkpoint "$key" "$work/cp.bad"
  for seq in 1 "$n" $(( (RANDOM * 32768 + RANDOM) % n + 1 )); do
    "$veritrail" log prove "$seq" --size "$n" --store "$store" > "$work/proof"
    leaf "$seq" "$work/leaf"
    expect ok inclusion "$key" "$work/proof" "$work/leaf"
    expect refused inclusion "$other" "$work/proof" "$work/leaf"
    if [ "$n" -gt 1 ]; then
      doctor_hash "$work/proof" 3 > "$work/proof.bad"; expect refused inclusion "$key" "$work/proof.bad" "$work/leaf"
      leaf $(( seq == n ? seq - 1 : seq + 1 )) "$work/leaf.other"; expect refused inclusion "$key" "$work/proof" "$work/leaf.other"
    fi
    doctor_size "$work/proof" > "$work/proof.bad"; expect refused inclusion "$key" "$work/proof.bad" "$work/leaf"
  done
  for old in 1 $(( n / 2 )) $(( n - 1 )); do
    [ "$old" -ge 1 ] && [ "$old" -lt "$n" ] || continue
    "$veritrail" log checkpoint --size "$old" --store "$store" > "$work/old"
    "$veritrail" log consistency "$old" --size "$n" --store "$store" > "$work/body"
    expect ok consistency "$key" "$work/old" "$work/body"
    expect refused consistency "$other" "$work/old" "$work/body"
    if [ "$(sed -n 2p "$work/body")" != "" ]; then
      doctor_hash "$work/body" 2 > "$work/body.bad"; expect refused consistency "$key" "$work/old" "$work/body.bad"
    fi
    doctor_size "$work/body" > "$work/body.bad"; expect refused consistency "$key" "$work/old" "$work/body.bad"
  done
done
echo "store $store (head $head): $(wc -w <<< "$sizes") tree sizes; $accepted proofs and checkpoints accepted, $refused doctored ones refused, $wrong wrong answers"
[ "$wrong" -eq 0 ]
