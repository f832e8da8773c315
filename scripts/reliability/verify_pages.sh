# `log verify` walks every table page by page (issue 18's last gap; sourced by scripts/reliability.sh, which gives
# check, ok, bad, skip, vt, $VT, $work, $NOW, $here and the 3,000-event store $work/base).
#
# Each kind of damage below passed `log verify` (exit 0) before `PageAudit`, and then made a query fail. Now
# verify exits 74 naming the table; when only read models are damaged and their pages can be freed, it says to
# run `rebuild`, which repairs the store; when a rebuild would free pages still in use, it says to export.

pages_py=$here/scripts/reliability/lmdb_pages.py
# flip_at FILE OFFSET MASK: XORs one byte.
flip_at() {
  python3 -c '
import sys
path, offset, mask = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0)
with open(path, "r+b") as f:
    f.seek(offset); b = f.read(1)[0]; f.seek(offset); f.write(bytes([b ^ mask]))' "$1" "$2" "$3"
}
# The line in the middle of a list.
middle() { awk '{ a[NR] = $0 } END { if (NR) print a[int((NR + 1) / 2)] }'; }
# The leaf nodes of `--nodes` lines, in order, but for the first and the last of each page.
inner_leaf_nodes() {
  awk '$1 == "leaf" { n[$2]++; line[$2, n[$2]] = $0; order[++k] = $2 }
       END { for (i = 1; i <= k; i++) { p = order[i]; c[p]++; if (c[p] > 1 && c[p] < n[p]) print line[p, c[p]] } }'
}

# damaged_model NAME OFFSET MASK ADVICE: flips one byte of a copy of the base store, then log verify must exit 74
# with ADVICE in its message (rebuild or export); after a rebuild it advises, verify and the queries pass.
damaged_model() {
  local name=$1 offset=$2 mask=$3 advice=$4 s=$work/pages-$1 out code
  rm -rf "$s"; cp -r "$work/base" "$s"
  flip_at "$s/data.mdb" "$offset" "$mask"
  out=$(vt log verify --store "$s" 2>&1); code=$?
  check "$name: log verify exits 74 and says to $advice (exit $code: $out)" \
    eval '[ $code = 74 ] && [[ $out == *"read models are damaged"* ]] && [[ $out == *"$advice"* ]]'
  if [ "$advice" = "veritrail rebuild" ]; then
    vt rebuild --store "$s" >/dev/null 2>&1; code=$?
    local after; after=$(vt log verify --store "$s" 2>&1)
    check "$name: rebuild repairs it (rebuild exit $code; then: $after)" \
      eval '[ $code = 0 ] && [[ $after == ok:* ]] && vt history --window all --limit 1000 --now $NOW --store "$s" >/dev/null 2>&1 && vt stats --now $NOW --store "$s" >/dev/null 2>&1'
  fi
}

section "log verify walks every table's pages (issue 18: read models)"
data=$work/base/data.mdb
# A branch key of the scan list moved by one: lookups of the scans at the edge of its page miss them. Keys outside
# their routed range may as well come from a flipped child pointer, which a rebuild's drop would follow: export.
key=$(python3 "$pages_py" "$data" --branch-keys model.scans | middle)
damaged_model "a branch key of model.scans" "$key" 0x01 "import it into a new store"
# A branch page's node offset: a lookup, and a rebuild's drop of the table, read a child page number from
# elsewhere (a rebuild then put pages in use on the free list): export, not rebuild.
branch=$(python3 "$pages_py" "$data" --nodes model.scans | awk '$1 == "branch"' | middle)
read -r _ page_offset _ _ _ <<<"$branch"
damaged_model "a node offset of a model.scans branch page" $((page_offset + 16 + 2)) 0x40 "import it into a new store"
# A leaf page's lower bound: eight more nodes than the page holds. A rebuild reads the codes table's leaves only
# through the page audit (`KeptCodes.read`), which finds the damage, so it empties the table and writes it again;
# it reads the scan list's by cursor (to keep it when it is right), and ran off such a page: export, not rebuild.
read -r _ page_offset _ _ _ <<<"$(python3 "$pages_py" "$data" --nodes model.codes | awk '$1 == "leaf"' | middle)"
damaged_model "the lower bound of a model.codes leaf page" $((page_offset + 12)) 0x10 "veritrail rebuild"
read -r _ page_offset _ _ _ <<<"$(python3 "$pages_py" "$data" --nodes model.scanIds | awk '$1 == "leaf"' | middle)"
damaged_model "the lower bound of a model.scanIds leaf page" $((page_offset + 12)) 0x10 "import it into a new store"
# A leaf node's key size: its key runs into its value, and the keys are out of order. Not the first or the last
# node of its page: a shorter first key sorts before the range its branch key routes there (as a flipped child
# pointer shows too: export), and which node is in the middle of the table moves with the import's page splits.
read -r _ _ node_offset _ _ <<<"$(python3 "$pages_py" "$data" --nodes model.accounts | inner_leaf_nodes | middle)"
damaged_model "a key size in a model.accounts leaf" $((node_offset + 6)) 0x04 "veritrail rebuild"
# A scan row's seq (its first field, 8 bytes little-endian): the row decodes, and `history` found no scan there.
read -r _ _ node_offset ksize _ <<<"$(python3 "$pages_py" "$data" --nodes model.scans | awk '$1 == "leaf"' | middle)"
damaged_model "the seq of a model.scans row" $((node_offset + 8 + ksize + 5)) 0x01 "veritrail rebuild"

# The meta page that is not current: LMDB writes its header and address once, and the next write makes the page
# current without rewriting them. A flipped byte there passed log verify; after one write no command could open
# the store. Now every command refuses it (74, damaged).
other_meta=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read(2 * 65536)
p = struct.unpack_from("<I", d, 40)[0]
print(p if struct.unpack_from("<Q", d, 144)[0] > struct.unpack_from("<Q", d, p + 144)[0] else 0)' "$data")
for field in "0 page number" "24 map address"; do
  read -r at what <<<"$field"
  s=$work/pages-meta; rm -rf "$s"; cp -r "$work/base" "$s"
  flip_at "$s/data.mdb" $((other_meta + at)) 0x10
  out=$(vt log verify --store "$s" 2>&1); code=$?
  check "the other meta page's $what flipped: log verify exits 74, damaged (exit $code: $out)" \
    eval '[ $code = 74 ] && [[ $out == *damaged* ]]'
done
