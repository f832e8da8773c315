#!/usr/bin/env bash
# The reliability suite: what a crash, concurrency and bad-input probe does to a store, on real stores with
# real processes. `make test` runs it with a few trials of each (TRIALS=1); `make test-reliability` with many.
#
#   scripts/reliability.sh [VERITRAIL_BINARY]      # default .build/debug/veritrail
#
# Environment: TRIALS (a multiplier of every trial count, default 1), KEEP=1 keeps the work folder.
#
# Every property is a check that prints `ok` or `FAIL` with what it saw; the last line counts them
# ("reliability: N passed, N failed") and the exit status is 1 when any failed. A check that needs root
# (a small tmpfs for the full disk) or strace is skipped with the reason printed.
set -uo pipefail

veritrail=${1:-.build/debug/veritrail}
[ -x "$veritrail" ] || { echo "reliability: $veritrail is not an executable (swift build first)" >&2; exit 64; }
VT=$(cd "$(dirname "$veritrail")" && pwd)/$(basename "$veritrail")
here=$(cd "$(dirname "$0")/.." && pwd)
T=${TRIALS:-1}
work=$(mktemp -d /tmp/veritrail-reliability.XXXXXX)
cleanup() {
  # The small file systems of the checks (a full disk, damage.sh's), mounted under $work.
  for m in "$work"/*; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
  [ "${KEEP:-}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
unset VERITRAIL_STORE VERITRAIL_USER VERITRAIL_NOW
export NO_COLOR=1
NOW=2026-11-20T18:00:00Z

passed=0 failed=0
ok() { passed=$((passed + 1)); printf 'ok    %s\n' "$1"; }
bad() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$1"; }
skip() { printf 'skip  %s\n' "$1"; }
# check NAME CONDITION-COMMAND...: counts one check.
check() { local name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }
vt() { timeout 60 "$VT" "$@"; }
# The number of events in a store, or "none" when there is no store (or it can not be read).
count() { vt log status --store "$1" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])' 2>/dev/null || echo none; }
verifies() { vt log verify --store "$1" >/dev/null 2>&1; }
imports() { vt import "$1" --store "$2" >/dev/null 2>&1; }
# The read models' answers, to compare before and after a rebuild.
answers() {
  local s=$1
  for q in "stats" "customers" "lockout" "accounts" "history --window all --limit 1000"; do
    vt $q --store "$s" --json --now "$NOW" 2>&1
  done
}
models_match_rebuild() {
  local s=$1 before after
  before=$(answers "$s")
  vt rebuild --store "$s" >/dev/null 2>&1 || return 1
  after=$(answers "$s")
  [ "$before" = "$after" ]
}
# A random number of milliseconds below $1, as seconds for sleep.
random_ms() { local ms=$((RANDOM % $1)); printf '%d.%03d' $((ms / 1000)) $((ms % 1000)); }

echo "== event files"
python3 "$here/scripts/gen_bench.py" 60000 "$work/b60k.ndjson" >/dev/null
head -n 3000 "$work/b60k.ndjson" > "$work/base.ndjson"        # a store to build on
head -n 20000 "$work/b60k.ndjson" > "$work/create.ndjson"     # a new store's import, long enough to be killed
sed -n '3001,13000p' "$work/b60k.ndjson" > "$work/more.ndjson"   # 10,000 events that extend it
DEMO=$here/Events/demo.ndjson
DEMO_EVENTS=$(grep -c . "$DEMO")
(cat "$DEMO"; echo '{"type":"no.such.type","at":"2026-11-20T18:00:00Z","actor":"admin","data":{}}') > "$work/bad.ndjson"
vt import "$work/base.ndjson" --store "$work/base" >/dev/null || { echo "reliability: can not build the base store" >&2; exit 1; }
BASE_EVENTS=$(count "$work/base")
INSPECTOR=anna.moreau000   # passcode 2468, as every account of gen_bench.py

section() { echo "== $1   (so far: $passed passed, $failed failed)"; }
section "a refused import racing a good one into a new store"
for i in $(seq $((10 * T))); do
  s=$work/race-$i
  vt import "$DEMO" --store "$s" >/dev/null 2>&1 & vt import "$work/bad.ndjson" --store "$s" >/dev/null 2>&1; wait
  n=$(count "$s")
  check "race $i: the good import's $DEMO_EVENTS events are kept (found $n)" [ "$n" = "$DEMO_EVENTS" ]
  rm -rf "$s"
done

section "kill -9 while an import creates a store"
for i in $(seq $((5 * T))); do
  s=$work/create-$i
  "$VT" import "$work/create.ndjson" --store "$s" >/dev/null 2>&1 & pid=$!
  sleep "$(random_ms 3000)"; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
  n=$(count "$s")
  if [ "$n" = none ]; then
    check "create kill $i: no store, and the import can be run again" imports "$work/create.ndjson" "$s"
  else
    check "create kill $i: a complete store ($n events) that verifies" bash -c "[ '$n' = 20000 ] && $VT log verify --store '$s' >/dev/null"
  fi
  rm -rf "$s"
done

section "kill -9 during an import into an existing store"
for i in $(seq $((5 * T))); do
  s=$work/grow-$i; cp -r "$work/base" "$s"
  "$VT" import "$work/more.ndjson" --store "$s" >/dev/null 2>&1 & pid=$!
  sleep "$(random_ms 2000)"; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
  n=$(count "$s")
  check "import kill $i: $n events is before ($BASE_EVENTS) or before + all" \
    bash -c "[ '$n' = $BASE_EVENTS ] || [ '$n' = $((BASE_EVENTS + 10000)) ]"
  check "import kill $i: the log verifies" verifies "$s"
  check "import kill $i: the read models equal a rebuild" models_match_rebuild "$s"
  rm -rf "$s"
done

section "kill -9 during one-event writes"
s=$work/one; cp -r "$work/base" "$s"
printf '2468\n' | VERITRAIL_NOW=$NOW vt unlock --as $INSPECTOR --passcode-stdin --store "$s" >/dev/null
for i in $(seq $((20 * T))); do
  before=$(count "$s")
  VERITRAIL_NOW=$NOW "$VT" scan --as $INSPECTOR --code "K-$i" --product P --category C --result authentic \
    --store "$s" >/dev/null 2>&1 & pid=$!
  sleep "$(random_ms 150)"; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
  n=$(count "$s")
  [ "$n" = "$before" ] || [ "$n" = $((before + 1)) ] || bad "scan kill $i: $before events became $n"
done
check "scan kills: the log verifies" verifies "$s"
check "scan kills: the read models equal a rebuild" models_match_rebuild "$s"

if command -v strace >/dev/null; then
  section "killed inside the commit (at LMDB's flush)"
  for call in 1 2; do
    s=$work/commit-$call; cp -r "$work/base" "$s"
    timeout 60 strace -f -o /dev/null -e trace=msync,fdatasync,fsync -e inject=msync:signal=SIGKILL:when=$call \
      "$VT" import "$work/more.ndjson" --store "$s" >/dev/null 2>&1
    n=$(count "$s")
    check "commit kill at flush $call: $n events is before or before + all" \
      bash -c "[ '$n' = $BASE_EVENTS ] || [ '$n' = $((BASE_EVENTS + 10000)) ]"
    check "commit kill at flush $call: the log verifies" verifies "$s"
  done
  s=$work/init-kill
  printf '86420975\n86420975\n' | timeout 60 strace -f -o /dev/null -e trace=msync -e inject=msync:signal=SIGKILL:when=1 \
    "$VT" init --admin root --name R --email r@example.org --passcode-stdin --store "$s" >/dev/null 2>&1
  n=$(count "$s")
  if [ "$n" = none ]; then
    check "init killed at its commit: no store, and init can run again" \
      bash -c "printf '86420975\n86420975\n' | $VT init --admin root --name R --email r@example.org --passcode-stdin --store '$s' >/dev/null 2>&1"
  else
    check "init killed at its commit: a complete store ($n events)" [ "$n" = 2 ]
  fi
  s=$work/eio; cp -r "$work/base" "$s"
  out=$(VERITRAIL_NOW=$NOW timeout 60 strace -f -o /dev/null -e trace=msync -e inject=msync:error=EIO:when=2 \
    "$VT" import "$work/more.ndjson" --store "$s" 2>&1 >/dev/null); code=$?
  check "an I/O error at the commit's second flush: exit 74 (got $code)" [ "$code" = 74 ]
  check "…and the message says the write may have been recorded" grep -q "may have been recorded" <<<"$out"
  # A command's write (through the library's gate) failing at its commit: the message names the id, and the
  # retry under it writes the search once, whether or not the failed commit had landed.
  s=$work/eio-command; cp -r "$work/base" "$s"
  out=$(VERITRAIL_NOW=$NOW timeout 60 strace -f -o /dev/null -e trace=msync -e inject=msync:error=EIO:when=2 \
    "$VT" search hologram --as "$INSPECTOR" --store "$s" 2>&1 >/dev/null); code=$?
  check "a command's commit failing: exit 74 (got $code)" [ "$code" = 74 ]
  check "…its message says once that the write may have been recorded" [ "$(grep -o "may have been recorded" <<<"$out" | wc -l)" = 1 ]
  id=$(sed -n 's/.*run the same command again with --id \([^ ]*\)$/\1/p' <<<"$out")
  check "…and names the id to retry with" [ -n "$id" ]
  VERITRAIL_NOW=$NOW "$VT" search hologram --as "$INSPECTOR" --id "$id" --store "$s" >/dev/null 2>&1
  check "…the retry with that id leaves exactly one search ($(count "$s") events, $BASE_EVENTS before)" [ "$(count "$s")" = $((BASE_EVENTS + 1)) ]
else
  skip "kills inside the commit: strace is not installed"
fi

# How many events of type $3 by $2 the log of store $1 holds while $2 is locked out, the lock followed as
# projections.md §3 keeps it: three wrong passcodes in a row lock for 60 s; a right one or a new passcode
# before the third starts the count again (a wrong try, then the right one, then two wrong: not locked).
after_lock() {
  vt export --store "$1" | python3 -c '
import json, sys
from datetime import datetime
user, kind = sys.argv[1], sys.argv[2]
failures, locked_until, late = 0, None, 0
for line in sys.stdin:
    e = json.loads(line)
    t = datetime.fromisoformat(e["at"].replace("Z", "+00:00")).timestamp()
    if locked_until is not None and t >= locked_until:
        failures, locked_until = 0, None
    mine = e["data"].get("username") == user
    if locked_until is not None and e["type"] == kind and e["actor"] == user:
        late += 1
    elif e["type"] == "passcode.set" and mine:
        failures, locked_until = 0, None
    elif e["type"] == "passcode.attempted" and mine and e["data"]["outcome"] == "granted":
        failures = 0
    elif e["type"] == "passcode.attempted" and mine and e["data"]["outcome"] == "denied":
        failures += 1
        if failures == 3:
            locked_until = t + 60
print(late)' "$2" "$3"
}

section "scans racing the wrong passcodes that lock the account"
for i in $(seq $((6 * T))); do
  s=$work/gate-$i; cp -r "$work/base" "$s"
  printf '2468\n' | VERITRAIL_NOW=$NOW vt unlock --as $INSPECTOR --passcode-stdin --store "$s" >/dev/null
  (for k in 1 2 3 4 5 6; do
     VERITRAIL_NOW=$NOW "$VT" scan --as $INSPECTOR --code "G-$i-$k" --product P --category C --result authentic \
       --store "$s" </dev/null >/dev/null 2>&1 &
   done; wait) &
  for k in 1 2 3; do printf '1111\n' | VERITRAIL_NOW=$NOW "$VT" unlock --as $INSPECTOR --passcode-stdin --store "$s" >/dev/null 2>&1; done
  wait
  late=$(after_lock "$s" $INSPECTOR scan.recorded)
  check "gate race $i: no scan appended after the attempt that locked the account (found $late)" [ "$late" = 0 ]
  rm -rf "$s"
done

section "one's own passcode changed while wrong passcodes lock the account"
# The current passcode is checked, then the new one hashed (a tenth of a second or so): three wrong tries at
# once, a random moment later, lock the account meanwhile in some trials, and must then refuse the change,
# which passes the gate in its own transaction.
changed=0 refused=0
for i in $(seq $((8 * T))); do
  s=$work/change-$i; cp -r "$work/base" "$s"
  (printf '2468\n13579\n13579\n' | VERITRAIL_NOW=$NOW "$VT" passcode set --as $INSPECTOR --passcode-stdin --store "$s" \
     >/dev/null 2>&1; echo $? > "$work/change-code") &
  sleep "$(random_ms 150)"
  for k in 1 2 3; do
    printf '1111\n' | VERITRAIL_NOW=$NOW "$VT" unlock --as $INSPECTOR --passcode-stdin --store "$s" >/dev/null 2>&1 &
  done
  wait
  case $(cat "$work/change-code") in 0) changed=$((changed + 1)) ;; 77) refused=$((refused + 1)) ;; esac
  late=$(after_lock "$s" $INSPECTOR passcode.set)
  check "change race $i: no passcode set after the attempt that locked the account (found $late)" [ "$late" = 0 ]
  rm -rf "$s"
done
check "…each change was made or refused as locked out (exit 77): $changed made, $refused refused" [ $((changed + refused)) = $((8 * T)) ]

section "readers killed while another process holds the store open"
s=$work/readers; cp -r "$work/base" "$s"
mkfifo "$work/hold" "$work/never"
(VERITRAIL_NOW=$NOW "$VT" unlock --as $INSPECTOR --passcode-stdin --store "$s" <"$work/hold" >/dev/null 2>&1) & holder=$!
exec 7>"$work/hold"   # the holder waits at its passcode prompt, with the store open
sleep 0.5
exec 8<>"$work/never"   # a pipe nobody reads: every export blocks in its read transaction
pids=()
for k in $(seq 140); do "$VT" export --store "$s" >&8 2>/dev/null & pids+=($!); done
sleep 2
kill -9 "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null
exec 8>&-
check "after 140 readers killed, the store still answers" bash -c "$VT log status --store '$s' >/dev/null"
check "…and takes a write" bash -c "printf '2468\n' | VERITRAIL_NOW=$NOW $VT unlock --as ben.dubois001 --passcode-stdin --store '$s' >/dev/null"
printf '2468\n' >&7; exec 7>&-; wait $holder 2>/dev/null

section "a full disk"
if [ "$(id -u)" = 0 ] && mkdir -p "$work/full" && mount -t tmpfs -o size=20m tmpfs "$work/full" 2>/dev/null; then
  out=$(vt import "$work/b60k.ndjson" --store "$work/full/new" 2>&1); code=$?
  check "a 23 MB import into a new store on a 20 MB disk: exit 74 (got $code)" [ "$code" = 74 ]
  check "…with a message" grep -q "space" <<<"$out"
  check "…and no store left" [ "$(count "$work/full/new")" = none ]
  # The base store, which more.ndjson continues: the disk, not a rule, is what refuses the import.
  vt import "$work/base.ndjson" --store "$work/full/s" >/dev/null
  out=$(vt import "$work/b60k.ndjson" --store "$work/full/s2" 2>&1); code=$?
  dd if=/dev/zero of="$work/full/filler" bs=1M 2>/dev/null
  before=$(count "$work/full/s")
  out=$(vt import "$work/more.ndjson" --store "$work/full/s" 2>&1); code=$?
  check "an import into an existing store on a full disk: exit 74 (got $code)" [ "$code" = 74 ]
  check "…and the store is as it was" bash -c "[ '$(count "$work/full/s")' = '$before' ] && $VT log verify --store '$work/full/s' >/dev/null"
  out=$(printf '24682468\n24682468\n' | vt init --admin root --name R --email r@example.org --passcode-stdin --store "$work/full/i" 2>&1); code=$?
  check "init on a full disk: exit 74 (got $code)" [ "$code" = 74 ]
  out=$(vt export --store "$work/full/s" --output "$work/full/out.ndjson" 2>&1); code=$?
  check "export --output onto a full disk: exit 74 (got $code)" [ "$code" = 74 ]
  umount "$work/full"
else
  skip "a full disk: needs root to mount a small tmpfs"
fi

section "output that can not be written"
for cmd in "export" "log tail" "history --window all --now $NOW" "replay --json --now $NOW" "stats --now $NOW"; do
  code=$(vt $cmd --store "$work/base" >/dev/full 2>/dev/null; echo $?)
  check "$cmd > /dev/full: exit 74 (got $code)" [ "$code" = 74 ]
done
err=$(vt export --store "$work/base" 2>&1 >/dev/null | head -c 0; vt export --store "$work/base" 2>"$work/pipe.err" | head -n 1 >/dev/null; cat "$work/pipe.err")
check "export | head: ends quietly" [ -z "$err" ]

section "input that can not be events"
for input in /dev/zero /dev/urandom; do
  s=$work/endless
  code=$(timeout 20 "$VT" import "$input" --store "$s" >/dev/null 2>&1; echo $?)
  check "import $input: refused at once with 65 (got $code), nothing written" bash -c "[ '$code' = 65 ] && [ ! -e '$s' ]"
done
code=$(timeout 20 "$VT" import - --store "$work/endless" </dev/zero >/dev/null 2>&1; echo $?)
check "import - < /dev/zero: refused at once with 65 (got $code)" [ "$code" = 65 ]
python3 -c 'print("{\"" + "k" * 10_000_000 + "\":1}")' > "$work/hugekey.ndjson"
msg=$(vt import "$work/hugekey.ndjson" --store "$work/endless" 2>&1 >/dev/null)
check "a 10 MB line: a short refusal (${#msg} characters)" [ "${#msg}" -lt 400 ]
printf '{"type":"scan.recorded","at":"2026-11-01T00:00:00Z","actor":"ines","data":{},"x\\u001b[31m\\nveritrail: forged":1}\n' > "$work/esc.ndjson"
msg=$(vt import "$work/esc.ndjson" --store "$work/endless" 2>&1 >/dev/null)
check "an unknown key with ESC and a newline: one line, no raw ESC" \
  bash -c "[ \$(printf '%s\n' \"\$1\" | wc -l) = 1 ] && ! printf '%s' \"\$1\" | grep -q \$'\\x1b'" _ "$msg"

section "odd values"
code=$(vt import "$DEMO" --store "" >/dev/null 2>&1; echo $?)
check "--store \"\": a usage error (got $code)" [ "$code" = 64 ]
check "…that wrote nothing at /" [ ! -e /data.mdb ]
for q in "history --as" "stats --by" "lockout" "goals" "settings" "searches" "customer show"; do
  code=$(vt $q "" --store "$work/base" --now "$NOW" >/dev/null 2>&1; echo $?)
  check "$q \"\": refused, not a store failure (got $code)" bash -c "[ '$code' = 64 ] || [ '$code' = 65 ]"
done
long=$(printf 'u%.0s' $(seq 600))
code=$(vt lockout "$long" --store "$work/base" >/dev/null 2>&1; echo $?)
check "lockout of a 600-character name: refused, not a store failure (got $code)" [ "$code" = 65 ]
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  chmod 0755 "$work"
  msg=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$VT" log status --store "$work/base" 2>&1); code=$?
  check "a store another user can not enter: exit 74 (got $code), said to be unreadable, not missing" \
    bash -c "[ '$code' = 74 ] && grep -q 'can not be read' <<<\"\$1\"" _ "$msg"
else
  skip "a store another user can not enter: needs root and setpriv"
fi
mkdir -m 0755 "$work/empty"
vt import "$DEMO" --store "$work/empty" >/dev/null
check "an empty directory used as a new store becomes 0700" [ "$(stat -c %a "$work/empty")" = 700 ]

section "flipped bytes never crash or hang"
flips=$((40 * T))
# Bytes flipped in the pages LMDB uses (its meta pages among them), not in the file's unused tail.
used=$(stat -c %s "$work/base/data.mdb")
if command -v mdb_stat >/dev/null; then
  pages=$(mdb_stat -e "$work/base" | awk '/Number of pages used/ {print $NF}')
  [ -n "$pages" ] && used=$((pages * 4096))
fi
crashes=0
for i in $(seq $flips); do
  s=$work/flip; rm -rf "$s"; cp -r "$work/base" "$s"
  offset=$(python3 -c "import random; print(random.randrange($used))")
  python3 - "$s/data.mdb" "$offset" <<'EOF'
import sys
path, offset = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    f.seek(offset); b = f.read(1); f.seek(offset); f.write(bytes([b[0] ^ (1 << (offset % 8))]))
EOF
  for cmd in "log verify" "export" "stats --now $NOW" "history --window all --now $NOW"; do
    timeout 30 "$VT" $cmd --store "$s" >/dev/null 2>&1; code=$?
    case $code in
      0|65|74) ;;
      *) crashes=$((crashes + 1)); echo "      flip at $offset: '$cmd' exited $code" ;;
    esac
  done
done
check "$flips flipped bytes × 4 commands: every one ended with 0, 65 or 74 ($crashes did not)" [ "$crashes" = 0 ]

# Checks kept in files of their own, one per concern (scripts/reliability/*.sh), run in this shell with its
# helpers, counters, binary and work folder.
for part in "$here"/scripts/reliability/*.sh; do
  [ -e "$part" ] || continue
  # shellcheck source=/dev/null
  . "$part"
done

echo "reliability: $passed passed, $failed failed"
[ "$failed" = 0 ]
