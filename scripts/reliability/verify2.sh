# log verify's sweep (issue 20, docs/VERIFY-SPEED.md; sourced by scripts/reliability.sh, which gives check, vt,
# $VT, $work, $here and $work/base.ndjson).
#
# A record's size flipped high (bit 3 of its node's top byte: 2^27 bytes more) makes LMDB hand out a value that
# runs far past the map. The sweep lets go of the pages it read after every chunk, and the id index's walk every
# 65,536 entries: dropping a range that reached outside the map dropped the process's own memory (log verify
# died with SIGSEGV in the flip campaign). Each must end as a broken log (65) or a damaged store (74).
echo "== log verify: records whose size points past the map"
for db in tree ids events; do
  s=$work/verify2-$db
  rm -rf "$s"
  vt import "$work/base.ndjson" --store "$s" >/dev/null 2>&1
  node=$(python3 "$here/scripts/reliability/lmdb_pages.py" "$s/data.mdb" --nodes "$db" | awk '$1 == "leaf" { n[++c] = $3 } END { print n[int((c + 1) / 2)] }')
  python3 -c '
import sys
path, offset = sys.argv[1], int(sys.argv[2]) + 3
with open(path, "r+b") as f:
    f.seek(offset); b = f.read(1)[0]; f.seek(offset); f.write(bytes([b ^ 0x08]))' "$s/data.mdb" "$node"
  code=$(vt log verify --store "$s" >/dev/null 2>&1; echo $?)
  check "a $db record 128 MiB too long: log verify exits 65 or 74 (got $code)" bash -c "[ '$code' = 65 ] || [ '$code' = 74 ]"
done
