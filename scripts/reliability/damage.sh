# Damaged files and hostile input against the checks of issue 18 (sourced by scripts/reliability.sh, which gives
# check, ok, bad, skip, vt, $VT, $work, $T, $NOW, $here and the 3,000-event store $work/base).
#
#   - a flipped bit in the meta page's last page number is "damaged" (74), and fills no disk (defect 1);
#   - `import -` of an endless stream keeps its spool in TMPDIR, bounded, and refuses it (defect 10);
#   - flipped branch keys of the log's B-tree are found by `log verify` (defect 12);
#   - bytes flipped at meta, branch and leaf pages: no crash, no hang, no filled disk, and no store that
#     `log verify` calls ok and that then fails a read (FLIPS_PER_KIND, default 35 × TRIALS, per kind);
#   - a flipped byte of the data's record of its key (the table meta) fails `log verify`.

pages=$here/scripts/reliability/lmdb_pages.py
# The offset of the current meta page (the one with the larger txnid) of a data file.
current_meta() {
  python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read(2 * 65536)
p = struct.unpack_from("<I", d, 40)[0]
print(0 if struct.unpack_from("<Q", d, 144)[0] > struct.unpack_from("<Q", d, p + 144)[0] else p)' "$1"
}
# flip FILE OFFSET MASK: XORs one byte.
flip() {
  python3 -c '
import sys
path, offset, mask = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0)
with open(path, "r+b") as f:
    f.seek(offset); b = f.read(1)[0]; f.seek(offset); f.write(bytes([b ^ mask]))' "$1" "$2" "$3"
}
used_kb() { df -k --output=used "$1" | tail -n 1 | tr -d ' '; }
one_event='{"type":"search.performed","at":"2026-11-20T18:00:00Z","actor":"admin","data":{"username":"admin","query":"x"}}'

section "a flipped bit in the meta page's last page number (issue 18, defect 1)"
if [ "$(id -u)" = 0 ]; then
  mnt=$work/meta-fs; mkdir -p "$mnt"
  if mount -t tmpfs -o size=128m tmpfs "$mnt" 2>/dev/null; then
    s=$mnt/s; cp -r "$work/base" "$s"
    base_offset=$(current_meta "$s/data.mdb")
    flip "$s/data.mdb" $((base_offset + 139)) 0x80   # bit 31 of mm_last_pg
    before=$(used_kb "$mnt")
    out=$(vt log verify --store "$s" 2>&1); code=$?
    check "log verify of the flipped meta page: 74, damaged (exit $code: $out)" eval '[ $code = 74 ] && [[ $out == *damaged* ]]'
    printf '%s\n' "$one_event" > "$work/one.ndjson"
    out=$(vt import "$work/one.ndjson" --store "$s" 2>&1); code=$?
    check "a write to it: 74, damaged, not disk full (exit $code: $out)" eval '[ $code = 74 ] && [[ $out == *damaged* ]] && [[ $out != *space* ]]'
    after=$(used_kb "$mnt")
    check "the file system's free space is unchanged ($before KB used before, $after KB after)" [ $((after - before)) -lt 1024 ]
    umount "$mnt"
  else
    skip "a tmpfs could not be mounted"
  fi
else
  skip "the meta page flip needs root for a tmpfs"
fi

section "import - of an endless stream with a small TMPDIR (issue 18, defect 10)"
if [ "$(id -u)" = 0 ]; then
  tmp=$work/spool-fs; mkdir -p "$tmp"
  if mount -t tmpfs -o size=16m tmpfs "$tmp" 2>/dev/null; then
    line='{"type":"account.registered","at":"2026-11-20T18:00:00Z","actor":"system","data":{"username":"ada","role":"admin","name":"Ada","email":"ada@example.org"},"id":"e1"}'
    out=$(yes "$line" | TMPDIR=$tmp timeout 60 "$VT" import - --store "$work/endless" 2>&1); code=$?
    check "an endless valid stream is refused: 65, naming TMPDIR (exit $code: $out)" eval '[ $code = 65 ] && [[ $out == *TMPDIR* ]]'
    check "nothing was written (no store at all)" [ ! -e "$work/endless" ]
    check "the spool is gone from TMPDIR ($(used_kb "$tmp") KB used)" [ "$(used_kb "$tmp")" -lt 1024 ]
    out=$(head -n 100 "$DEMO" | TMPDIR=$tmp "$VT" import - --store "$work/spooled" 2>&1); code=$?
    check "a stream that fits is imported through TMPDIR (exit $code)" [ $code = 0 ]
    umount "$tmp"
  else
    skip "a tmpfs could not be mounted"
  fi
else
  skip "the spool bound needs root for a small tmpfs"
fi

section "flipped branch keys of the log's B-tree (issue 18, defect 12)"
keys=$(python3 "$pages" "$work/base/data.mdb" --branch-keys events | awk -v n=$((8 * T)) 'NR <= n')
[ -n "$keys" ] || bad "the base store's events B-tree has no branch keys"
passed_over=0 flips=0
for offset in $keys; do
  s=$work/branch; rm -rf "$s"; cp -r "$work/base" "$s"
  flip "$s/data.mdb" "$offset" 0x01   # the lowest bit of a seq's last byte: the key moves by one
  flips=$((flips + 1))
  vt log verify --store "$s" >/dev/null 2>&1 || continue
  vt export --output "$work/branch.ndjson" --store "$s" >/dev/null 2>&1 \
    && vt import "$work/branch.ndjson" --store "$s" >/dev/null 2>&1 && continue
  passed_over=$((passed_over + 1)); echo "      branch key at byte $offset: log verify ok, the re-import failed"
done
check "$flips flipped branch keys: none passes log verify with a store whose events can not be read back ($passed_over did)" [ "$passed_over" = 0 ]

section "bytes flipped at meta, branch and leaf pages"
# On a tmpfs of its own: a flip that made a write allocate without bound must not reach the machine's disk.
campaign=$work/campaign; mkdir -p "$campaign"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=512m tmpfs "$campaign" 2>/dev/null; then
  per_kind=${FLIPS_PER_KIND:-$((35 * T))}
  if python3 "$here/scripts/reliability/flip_campaign.py" "$VT" "$work/base" "$campaign" "$per_kind" "${FLIP_SEED:-$RANDOM}"; then
    ok "$((3 * per_kind)) flips: no crash, hang or filled disk, and no store log verify calls ok that then fails a read"
  else
    bad "$((3 * per_kind)) flips: see the lines above"
  fi
  umount "$campaign"
else
  skip "the flip campaign needs root for a tmpfs of its own"
fi

section "a flipped byte of the data's record of its key (the table meta)"
# What the flip campaign once found: a byte of `pepper-id` flipped in place. Nothing but the secrets file can
# tell, so `log verify` compares them, as every write does, rather than call a store ok that then signs nothing.
s=$work/meta-key; cp -r "$work/base" "$s"
mdb_dump -s meta "$s" | python3 -c '
import sys
lines = sys.stdin.read().split("\n")
at = lines.index(" " + b"pepper-id".hex()) + 1
lines[at] = " " + format(int(lines[at][1:3], 16) ^ 0x10, "02x") + lines[at][3:]
print("\n".join(lines), end="")' | mdb_load -s meta "$s" 2>/dev/null
out=$(vt log verify --store "$s" 2>&1); code=$?
check "log verify: 74 (got $code), saying the data and the secrets do not agree and naming the table meta" \
  bash -c "[ '$code' = 74 ] && grep -q 'do not agree' <<<\"\$1\" && grep -q 'table meta' <<<\"\$1\"" _ "$out"
out=$(vt log verify --store "$work/base" 2>&1); code=$?
check "the same store unflipped verifies (exit $code)" test "$code" = 0

section "a data file that is not a store's, or is gone"
s=$work/empty; cp -r "$work/base" "$s"; : > "$s/data.mdb"
out=$(vt search gone --as "$INSPECTOR" --store "$s" 2>&1); code=$?
check "a data.mdb of zero bytes: a write is refused (74, got $code) as empty, and the file stays empty" \
  bash -c "[ '$code' = 74 ] && grep -q 'is empty' <<<\"\$1\" && [ ! -s '$s/data.mdb' ]" _ "$out"
s=$work/foreign; mkdir -p "$s"
printf 'VERSION=3\nformat=bytevalue\ntype=btree\nHEADER=END\n 6b\n 76\nDATA=END\n' | mdb_load -s other "$s" 2>/dev/null
out=$(vt log status --store "$s" 2>&1); code=$?
check "another program's LMDB file: 74 (got $code), 'holds no log', and no database is added to it" \
  bash -c "[ '$code' = 74 ] && grep -q 'holds no log' <<<\"\$1\" && ! mdb_stat -a '$s' | grep -q 'Status of events'" _ "$out"
s=$work/orphan; cp -r "$work/base" "$s"; rm "$s/data.mdb" "$s/lock.mdb"; cp "$s/checkpoint" "$work/orphan-kept"
out=$(printf '24682468\n24682468\n' | vt init --admin root --name R --email r@example.org --passcode-stdin --store "$s" 2>&1); code=$?
check "init where a store's data file is gone: 74 (got $code), its checkpoint kept as it was, no data file made" \
  bash -c "[ '$code' = 74 ] && grep -q 'data file (data.mdb) is missing' <<<\"\$1\" && cmp -s '$s/checkpoint' '$work/orphan-kept' && [ ! -e '$s/data.mdb' ]" _ "$out"
