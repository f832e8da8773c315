#!/usr/bin/env bash
# The main job (`make demo`): a fresh store at ./demo-store (an earlier one is removed first), the demo
# events imported, then a walk through the product: the home screen, a filtered history, the customers in
# colour, a goal ring, a lockout in action, and a verified log. The clock is pinned (VERITRAIL_NOW) so that the
# walk is the same every time. The store is left in place for README's "Using it": every demo account's
# passcode is 1234 (scripts/gen_demo.py), the visitor registered here has 2468.
set -euo pipefail
veritrail=${1:-.build/release/veritrail}
veritrail=$(cd "$(dirname "$veritrail")" && pwd)/$(basename "$veritrail")
here=$(cd "$(dirname "$0")/.." && pwd)
store=$here/demo-store
rm -rf "$store"
export VERITRAIL_STORE=$store VERITRAIL_NOW=2026-11-20T18:00:00Z

# Colour only on a terminal, never with NO_COLOR (as veritrail itself does).
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1;36m' dim=$'\033[2m' off=$'\033[0m'; else bold='' dim='' off=''; fi
step() { printf '\n%s== %s%s\n%s$ veritrail %s%s\n' "$bold" "$1" "$off" "$dim" "${*:2}" "$off"; }
run() { step "$@"; "$veritrail" "${@:2}"; }
refused() { printf '%s(exit %s)%s\n' "$dim" "$1" "$off"; }

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
  printf '%s\n' "$wrong" | "$veritrail" unlock --as visitor --passcode-stdin || refused "$?"
done
run "The lockout: three wrong passcodes lock the account for a minute" lockout visitor
step "Even the right passcode is refused while locked (the attempt is recorded)" unlock --as visitor --passcode-stdin
printf '2468\n' | "$veritrail" unlock --as visitor --passcode-stdin || refused "$?"
export VERITRAIL_NOW=2026-11-20T18:01:30Z
step "A minute later the right passcode opens access for 15 minutes" unlock --as visitor --passcode-stdin
printf '2468\n' | "$veritrail" unlock --as visitor --passcode-stdin
run "Now the visitor can scan" scan --as visitor --code "https://verify.example/p/ABC-123" --product "Eau de Parfum" \
  --brand "Maison Lune" --category Cosmetics --result authentic --location "Paris"
run "The gate after it all" lockout visitor
run "The log: its status" log status
run "And its hash chain, verified from the first event" log verify

printf '\n%sThe store is left at %s. Go on with README'"'"'s "Using it":%s\n' "$bold" "$store" "$off"
printf '  export VERITRAIL_STORE=%s VERITRAIL_NOW=2026-11-20T18:05:00Z\n' "$store"
printf '  every demo account'"'"'s passcode is 1234 (the visitor'"'"'s is 2468)\n'
