#!/usr/bin/env bash
# The main job (`make demo`): a fresh store in a temporary folder, the demo events imported, then a walk
# through the product: the home screen, a filtered history, the customers in colour, a goal ring, a lockout
# in action, and a verified log. The clock is pinned (VERITRAIL_NOW) so that the walk is the same every time.
set -euo pipefail
veritrail=${1:-.build/release/veritrail}
veritrail=$(cd "$(dirname "$veritrail")" && pwd)/$(basename "$veritrail")
here=$(cd "$(dirname "$0")/.." && pwd)
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
export VERITRAIL_STORE=$workdir/store VERITRAIL_NOW=2026-11-20T18:00:00Z

step() { printf '\n\033[1;36m== %s\033[0m\n\033[2m$ veritrail %s\033[0m\n' "$1" "${*:2}"; }
run() { step "$@"; "$veritrail" "${@:2}"; }
try() { step "$@"; "$veritrail" "${@:2}" || printf '\033[2m(exit %s)\033[0m\n' "$?"; }

run "Import the demo events into a fresh store" import "$here/Events/demo.ndjson"
run "The home screen: scan statistics and the recent scans" stats
run "History: counterfeit scans of the last 7 days" history --type failed --window 7d --limit 8
run "Search the history (case-insensitive, in every field)" history --search "serum" --limit 5
run "The customers and their process status" customers
run "Kwan's monthly goals: the progress ring" goals kwan
run "The same goal, the last session's share of it" goals kwan --view last-session

step "A new customer registers (the passcode 2468 is set twice)" register visitor ...
printf '2468\n2468\n' | "$veritrail" register visitor --name "Vic Visitor" --email vic@example.org \
  --street "5 Avenue Anatole France" --city Paris --zipcode 75007 --passcode-stdin
for wrong in 1111 2222 3333; do
  step "Unlock with a wrong passcode ($wrong)" unlock --as visitor --passcode-stdin
  printf '%s\n' "$wrong" | "$veritrail" unlock --as visitor --passcode-stdin || printf '\033[2m(exit %s)\033[0m\n' "$?"
done
run "The lockout: three wrong passcodes lock the account for a minute" lockout visitor
step "Even the right passcode is refused while locked (the attempt is recorded)" unlock --as visitor --passcode-stdin
printf '2468\n' | "$veritrail" unlock --as visitor --passcode-stdin || printf '\033[2m(exit %s)\033[0m\n' "$?"
export VERITRAIL_NOW=2026-11-20T18:01:30Z
step "A minute later the right passcode opens access for 15 minutes" unlock --as visitor --passcode-stdin
printf '2468\n' | "$veritrail" unlock --as visitor --passcode-stdin
run "Now the visitor can scan" scan --as visitor --code "https://verify.example/p/ABC-123" --product "Eau de Parfum" \
  --brand "Maison Lune" --category Cosmetics --result authentic --location "Paris"
run "The gate after it all" lockout visitor
run "The log: its status" log status
run "And its hash chain, verified from the first event" log verify
