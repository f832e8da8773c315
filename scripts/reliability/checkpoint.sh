# The kept checkpoint and the secrets file (issue #18: defects 2, 3, 4, 6, 7, 8), on real stores with real
# processes. Sourced by scripts/reliability.sh, with its helpers (check, ok, bad, skip, vt, $VT, $work, $T,
# $NOW, count, verifies, imports) and its base store ($work/base, $INSPECTOR).

section "secrets: neither the key nor the pepper in the data, a copy or an export"
s=$work/secret; cp -r "$work/base" "$s"
printf '2468\n' | VERITRAIL_NOW=$NOW vt unlock --as $INSPECTOR --passcode-stdin --store "$s" >/dev/null
mkdir -p "$work/secret-copy"; mdb_copy "$s" "$work/secret-copy" 2>/dev/null
mdb_dump -a "$s" > "$work/secret-dump" 2>/dev/null
vt export --store "$s" > "$work/secret-export"
found=$(python3 - "$s/secrets" "$s" "$work/secret-copy/data.mdb" "$work/secret-dump" "$work/secret-export" <<'EOF'
import base64, os, sys
lines = open(sys.argv[1]).read().split("\n")
secrets = [base64.b64decode(lines[1].split()[1]), base64.b64decode(lines[2].split()[1])]
forms = [f for s in secrets for f in (s, base64.b64encode(s), s.hex().encode())]
files = [os.path.join(sys.argv[2], n) for n in os.listdir(sys.argv[2]) if n != "secrets"] + sys.argv[3:]
print(" ".join(f for f in files if os.path.isfile(f) and any(x in open(f, "rb").read() for x in forms)) or "none")
EOF
)
check "no file of the store but its secrets file, no mdb_copy, mdb_dump -a or export holds them (found in: $found)" [ "$found" = none ]
check "…and the secrets file is owner-only" [ "$(stat -c %a "$s/secrets")" = 600 ]

section "rollbacks never fork: a write is refused, or its checkpoint agrees with every one signed before"
# A checkpoint's root, by size, from its note: "SIZE ROOT".
note_root() { sed -n '2p;3p' "$1" | paste -sd' '; }
forks=0 unsigned=0
for scenario in "data alone" "data and checkpoint deleted" "dangling symlink" "symlink to a file" "FIFO"; do
  for i in $(seq $((2 * T))); do
    s=$work/fork; rm -rf "$s" "$work/signed"; cp -r "$work/base" "$s"; mkdir "$work/signed"
    cp "$s/data.mdb" "$work/fork-old.mdb"
    for k in 1 2 3; do
      VERITRAIL_NOW=$NOW vt search "fork-$k" --as $INSPECTOR --store "$s" >/dev/null 2>&1 || unsigned=$((unsigned + 1))
      cp "$s/checkpoint" "$work/signed/$k"
    done
    cp "$work/fork-old.mdb" "$s/data.mdb"
    case $scenario in
      "data and checkpoint deleted") rm "$s/checkpoint" ;;
      "dangling symlink") rm "$s/checkpoint"; ln -s "$work/nothing-here" "$s/checkpoint" ;;
      "symlink to a file") rm "$s/checkpoint"; ln -s "$work/signed/1" "$s/checkpoint" ;;
      FIFO) rm "$s/checkpoint"; mkfifo "$s/checkpoint" ;;
    esac
    before=$(count "$s")
    timeout 20 "$VT" search "after-$i" --as $INSPECTOR --store "$s" >/dev/null 2>&1; code=$?
    timeout 20 "$VT" log checkpoint --store "$s" > "$work/fork-new" 2>/dev/null; shown=$?
    if [ "$code" = 124 ] || [ "$shown" = 124 ]; then
      forks=$((forks + 1)); echo "      $scenario: a command hung"
    elif [ "$code" = 0 ] || [ "$shown" = 0 ]; then
      # Whatever it signs now must have, at each size signed before, the root signed then.
      for f in "$work"/signed/*; do
        read -r size root <<<"$(note_root "$f")"
        now=$(vt log checkpoint --size "$size" --store "$s" 2>/dev/null | sed -n 3p)
        [ -n "$now" ] && [ "$now" != "$root" ] && { forks=$((forks + 1)); echo "      $scenario: size $size signed with two roots"; }
      done
    else
      [ "$(count "$s")" = "$before" ] || { forks=$((forks + 1)); echo "      $scenario: refused ($code) but wrote"; }
    fi
  done
done
check "the writes before the rollbacks were taken ($unsigned were not)" [ "$unsigned" = 0 ]
check "$((10 * T)) rollbacks (data alone, data + checkpoint deleted, dangling or not symlink, FIFO): 0 forks or hangs (found $forks)" [ "$forks" = 0 ]
s=$work/fork
check "…and the last one takes writes again after \`log reseal --accept-loss\`" \
  bash -c "$VT log reseal --store '$s' >/dev/null 2>&1; [ \$? = 64 ] && $VT log reseal --accept-loss --store '$s' >/dev/null && VERITRAIL_NOW=$NOW $VT search again --as $INSPECTOR --store '$s' >/dev/null && $VT log verify --store '$s' >/dev/null"

section "a FIFO or a symlink where the checkpoint's temporary file was"
s=$work/tmpfile; cp -r "$work/base" "$s"
mkfifo "$s/checkpoint.tmp"
VERITRAIL_NOW=$NOW timeout 20 "$VT" search fifo --as $INSPECTOR --store "$s" >/dev/null 2>&1; code=$?
check "a FIFO at checkpoint.tmp: the write ends at once (exit $code)" [ "$code" = 0 ]
rm "$s/checkpoint.tmp"; echo precious > "$work/precious"; ln -s "$work/precious" "$s/checkpoint.tmp"
VERITRAIL_NOW=$NOW vt search link --as $INSPECTOR --store "$s" >/dev/null 2>&1
check "a symlink at checkpoint.tmp is never written through" [ "$(cat "$work/precious")" = precious ]
check "…and the store verifies" verifies "$s"

if command -v strace >/dev/null; then
  section "a checkpoint that can not be put in place after the commit: said so, and the next write keeps it first"
  # Written beside its place inside the transaction (a full disk refuses the write then: the tmpfs section
  # below), it is flushed and renamed after the commit.
  for fault in fsync:error=EIO rename:error=EIO rename:error=EACCES flock:error=ENOLCK; do
    s=$work/unkept; rm -rf "$s"; cp -r "$work/base" "$s"
    before=$(count "$s")
    out=$(VERITRAIL_NOW=$NOW timeout 60 strace -f -o /dev/null -e trace=fsync,rename,flock -e inject=$fault:when=1 \
      "$VT" search hologram --as "$INSPECTOR" --store "$s" 2>&1 >/dev/null); code=$?
    id=$(sed -n 's/.*(with --id \([^ ]*\) it writes nothing twice).*/\1/p' <<<"$out")
    check "$fault: exit 74 (got $code), 'was recorded' ($(count "$s") events, $before before) and the id" \
      bash -c "[ '$code' = 74 ] && grep -q 'was recorded' <<<\"\$1\" && [ -n '$id' ] && [ '$(count "$s")' = $((before + 1)) ]" _ "$out"
    # While the checkpoint still can not be kept, the next write is refused before it writes anything.
    out=$(VERITRAIL_NOW=$NOW timeout 60 strace -f -o /dev/null -e trace=fsync,rename,flock -e inject=$fault \
      "$VT" search other --as "$INSPECTOR" --store "$s" 2>&1 >/dev/null); code=$?
    check "…the next write, while it still can not: exit 74 (got $code), nothing written, and says what to do" \
      bash -c "[ '$code' = 74 ] && [ '$(count "$s")' = $((before + 1)) ] && grep -q 'nothing was written' <<<\"\$1\"" _ "$out"
    VERITRAIL_NOW=$NOW vt search hologram --as "$INSPECTOR" --id "$id" --store "$s" >/dev/null 2>&1
    n=$(count "$s")
    check "…the retry with its id writes nothing twice ($n events) and keeps the checkpoint; the log verifies" \
      bash -c "[ '$n' = $((before + 1)) ] && [ \"\$(sed -n 2p '$s/checkpoint')\" = '$n' ] && $VT log verify --store '$s' >/dev/null"
  done

  section "kill -9 while a new store is published"
  for call in link:when=1 link:when=2 rename:when=1 rename:when=2 rename:when=3; do
    s=$work/publish-${call/:/-}
    printf '24682468\n24682468\n' > "$work/passcodes"
    (timeout 60 strace -f -o /dev/null -e trace=link,rename -e inject=${call%%:*}:signal=SIGKILL:${call#*:} \
      "$VT" init --admin root --name R --email r@example.org --passcode-stdin --store "$s" <"$work/passcodes") >/dev/null 2>&1 &
    wait $! 2>/dev/null
    n=$(count "$s")
    if [ "$n" = none ]; then
      check "publish killed at $call: no store, and init runs again to a store that verifies and unlocks" \
        bash -c "printf '24682468\n24682468\n' | $VT init --admin root --name R --email r@example.org --passcode-stdin --store '$s' >/dev/null 2>&1 && $VT log verify --store '$s' >/dev/null && printf '24682468\n' | $VT unlock --as root --passcode-stdin --store '$s' >/dev/null"
    else
      check "publish killed at $call: a complete store ($n events) that verifies and takes a write" \
        bash -c "[ '$n' = 2 ] && $VT log verify --store '$s' >/dev/null && printf '24682468\n' | $VT unlock --as root --passcode-stdin --store '$s' >/dev/null"
    fi
    check "…and no .new-* directory is left once it is opened" [ -z "$(ls -A "$s" | grep '^\.new-')" ]
  done
else
  skip "checkpoint faults and kills at publication: strace is not installed"
fi

section "a disk with no space or no inode left for the checkpoint"
if [ "$(id -u)" = 0 ] && mkdir -p "$work/tiny" && mount -t tmpfs -o size=16m,nr_inodes=64 tmpfs "$work/tiny" 2>/dev/null; then
  printf '24682468\n24682468\n' | vt init --admin root --name R --email r@example.org --passcode-stdin --store "$work/tiny/s" >/dev/null
  printf '24682468\n' | vt unlock --as root --passcode-stdin --store "$work/tiny/s" >/dev/null
  for what in inode space; do
    if [ $what = inode ]; then
      i=0; while touch "$work/tiny/f$i" 2>/dev/null; do i=$((i + 1)); done
    else
      rm -f "$work/tiny"/f*; dd if=/dev/zero of="$work/tiny/filler" bs=64k 2>/dev/null
    fi
    before=$(count "$work/tiny/s")
    out=$(vt search full --as root --store "$work/tiny/s" 2>&1 >/dev/null); code=$?
    check "no $what left: exit 74 (got $code), nothing written ($(count "$work/tiny/s") events, $before before), no temporary file left" \
      bash -c "[ '$code' = 74 ] && [ '$(count "$work/tiny/s")' = '$before' ] && ! grep -q 'recorded' <<<\"\$1\" \
        && [ -z \"\$(ls '$work/tiny/s' | grep '^checkpoint.*tmp')\" ]" _ "$out"
    rm -f "$work/tiny"/f* "$work/tiny/filler"
    vt search full --as root --store "$work/tiny/s" >/dev/null 2>&1
    check "…the same command once there is room writes once ($(count "$work/tiny/s") events), signed, and verifies" \
      bash -c "[ '$(count "$work/tiny/s")' = $((before + 1)) ] && [ \"\$(sed -n 2p '$work/tiny/s/checkpoint')\" = $((before + 1)) ] && $VT log verify --store '$work/tiny/s' >/dev/null"
  done
  umount "$work/tiny"
else
  skip "a disk with no space or inode: needs root to mount a small tmpfs"
fi
