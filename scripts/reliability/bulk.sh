# The data file's bar and `scan --batch` streaming (issue 20; sourced by scripts/reliability.sh, which gives
# check, ok, bad, skip, vt, $VT, $work, $NOW, $here, the 3,000-event store $work/base and $work/b60k.ndjson).
#
# The bar: data.mdb no larger than 1.25 × its pages in use (`mdb_stat -e`: (last page + 1) × page size) + 64 MiB,
# after an import into a new store (its file cut back before it is published), after a streamed batch into an
# existing one (the map grown by what the batch said it needed), and after many single writes (steps of a
# fifth). On a small tmpfs, a batch the disk has no room for (no room for a step, or for part of one) is exit
# 74 with the store as it was, never a SIGBUS, and the same batch after room is made goes in.

section "bulk: the data file's bar, a streamed batch"
bulk_inspector=anna.moreau000   # passcode 2468, as every account of gen_bench.py

# in_use STORE: the bytes of the data file's pages in use, from mdb_stat.
in_use() {
  mdb_stat -e "$1" 2>/dev/null | awk '/Page size:/ { p = $3 } /Number of pages used:/ { n = $5 } END { if (p && n) printf "%.0f\n", p * n }'
}
# within_bar STORE: the data file is at most 1.25 × its pages in use + 64 MiB.
within_bar() {
  local used size
  used=$(in_use "$1"); size=$(stat -c %s "$1/data.mdb" 2>/dev/null)
  [ -n "$used" ] && [ -n "$size" ] && [ "$size" -le $((used * 5 / 4 + (64 << 20))) ]
}
bar_said() { echo "file $(stat -c %s "$1/data.mdb" 2>/dev/null) bytes, pages in use $(in_use "$1") bytes"; }
# scans_in STORE: how many scans the log holds (a refused batch may leave its passcode attempt, which stands).
scans_in() { vt log status --store "$1" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["byType"].get("scan.recorded", 0))' 2>/dev/null || echo none; }
# batch_csv N FILE [bad-last]: a CSV batch of N valid rows (the last one's result `maybe` with bad-last).
batch_csv() { python3 "$here/scripts/gen_batch.py" "$1" "$2" ${3:+--bad-last}; }

if command -v mdb_stat >/dev/null; then
  s=$work/bulk-bar
  vt import "$work/b60k.ndjson" --store "$s" >/dev/null 2>&1
  check "an import of 60,000 events into a new store keeps the bar ($(bar_said "$s"))" within_bar "$s"
  # Below the 64 MiB of slack, what the cut promises: the pages in use and one step (64 MiB) at most.
  check "…its file cut to its pages in use and one step of growth" \
    bash -c "[ $(stat -c %s "$s/data.mdb") -le $(( $(in_use "$s") + (64 << 20) + 65536 )) ]"
  batch_csv 100000 "$work/bulk-100k.csv"
  before=$(scans_in "$s")
  out=$(printf '2468\n' | VERITRAIL_NOW=$NOW /usr/bin/time -f 'rss %M' "$VT" scan --batch "$work/bulk-100k.csv" --as "$bulk_inspector" \
        --passcode-stdin --store "$s" 2>&1 >/dev/null); code=$?
  check "a streamed batch of 100,000 scans into it: exit 0 (got $code: $(tail -n 2 <<<"$out" | tr '\n' ' '))" [ "$code" = 0 ]
  check "…100,000 scans more, and the log verifies" bash -c "[ '$(scans_in "$s")' = $((before + 100000)) ] && $VT log verify --store '$s' >/dev/null"
  check "…and the bar holds ($(bar_said "$s"))" within_bar "$s"
  rss=$(sed -n 's/^rss //p' <<<"$out")
  # Issue 20's bar for a batch of 5,000,000 rows: 300 MB. 200 MB, this check's bound before the search index
  # held a chunk's shared pieces, is now within the run-to-run swing of one binary on a shared host (184–233 MB:
  # the worker's chunk of 16,000 scans ~110 MB of heap, the mapped pages 30–80 MB between drops), so it
  # failed or passed by luck; what it is for is that the rows are not held (400,000 rows once took 899 MB).
  check "…in bounded memory: peak RSS $((rss / 1024)) MB for 100,000 rows (<= 300 MB)" [ "${rss:-999999}" -le 307200 ]
  # A bad last row (record 100,000, line 100,001) writes nothing.
  batch_csv 100000 "$work/bulk-bad.csv" bad-last
  before=$(scans_in "$s")
  out=$(printf '2468\n' | VERITRAIL_NOW=$NOW vt scan --batch "$work/bulk-bad.csv" --as "$bulk_inspector" --passcode-stdin --store "$s" 2>&1); code=$?
  check "a batch whose last row is bad: exit 65 naming line 100001 (got $code: $out)" \
    bash -c "[ $code = 65 ] && grep -q 'record 100000 (line 100001): result' <<<'$out'"
  check "…nothing written" [ "$(scans_in "$s")" = "$before" ]

  # Single writes: the map of a small store grows by one step of 64 MiB from 4 MiB, within the bar.
  s=$work/bulk-single
  cp -r "$work/base" "$s"
  for i in $(seq 1 20); do
    printf '2468\n' | VERITRAIL_NOW=$NOW vt scan --code "C-single-$i" --product P --category Cosmetics --result authentic \
      --as "$bulk_inspector" --passcode-stdin --store "$s" >/dev/null 2>&1
  done
  check "20 single writes: all written" [ "$(count "$s")" -ge $((BASE_EVENTS + 20)) ]
  check "…and the bar holds ($(bar_said "$s"))" within_bar "$s"
else
  skip "bulk: the data file's bar: needs mdb_stat (lmdb-utils)"
fi

section "bulk: growth steps on a full disk"
if [ "$(id -u)" = 0 ] && mkdir -p "$work/bulkfull" && mount -t tmpfs -o size=120m tmpfs "$work/bulkfull" 2>/dev/null; then
  f=$work/bulkfull
  vt import "$work/base.ndjson" --store "$f/s" >/dev/null 2>&1
  batch_csv 60000 "$work/bulk-60k.csv"
  # Leave 30 MiB: the batch needs about 70 MiB of map. Its growth by a step (64 MiB) can not be allocated, nor
  # can enough by the halves of a step tried after it (Environment.growMap).
  free_kb=$(df --output=avail -k "$f" | tail -n 1)
  dd if=/dev/zero of="$f/filler" bs=1K count=$((free_kb - 30 * 1024)) 2>/dev/null
  before=$(scans_in "$f/s")
  out=$(printf '2468\n' | VERITRAIL_NOW=$NOW vt scan --batch "$work/bulk-60k.csv" --as "$bulk_inspector" --passcode-stdin --store "$f/s" 2>&1); code=$?
  check "a batch the disk has no room for: exit 74, not a SIGBUS (got $code)" [ "$code" = 74 ]
  check "…with a message" grep -q "space" <<<"$out"
  check "…and the store is as it was" bash -c "[ '$(scans_in "$f/s")' = '$before' ] && $VT log verify --store '$f/s' >/dev/null"
  # Half-way: room for part of a step, the data file and the room left 50 MiB together (the refused batch
  # may have left the file grown). posix_fallocate allocates what it can, then fails.
  rm -f "$f/filler"
  free_kb=$(df --output=avail -k "$f" | tail -n 1)
  file_kb=$(( $(stat -c %s "$f/s/data.mdb") / 1024 ))
  dd if=/dev/zero of="$f/filler" bs=1K count=$((free_kb - (50 * 1024 - file_kb))) 2>/dev/null
  out=$(printf '2468\n' | VERITRAIL_NOW=$NOW vt scan --batch "$work/bulk-60k.csv" --as "$bulk_inspector" --passcode-stdin --store "$f/s" 2>&1); code=$?
  check "a growth with room for part of a step: exit 74, not a SIGBUS (got $code)" [ "$code" = 74 ]
  check "…and the store is as it was" bash -c "[ '$(scans_in "$f/s")' = '$before' ] && $VT log verify --store '$f/s' >/dev/null"
  out=$(printf '2468\n' | VERITRAIL_NOW=$NOW vt scan --code C-full --product P --category Cosmetics --result authentic \
        --as "$bulk_inspector" --passcode-stdin --store "$f/s" 2>&1); code=$?
  check "…a single write in the room left still goes in (got $code)" bash -c "[ $code = 0 ] && [ '$(scans_in "$f/s")' = $((before + 1)) ]"
  rm -f "$f/filler"
  out=$(printf '2468\n' | VERITRAIL_NOW=$NOW vt scan --batch "$work/bulk-60k.csv" --as "$bulk_inspector" --passcode-stdin --store "$f/s" 2>&1); code=$?
  check "with room made, the same batch goes in (got $code) and the log verifies" \
    bash -c "[ $code = 0 ] && [ '$(scans_in "$f/s")' = $((before + 1 + 60000)) ] && $VT log verify --store '$f/s' >/dev/null"
  # An import into a new store on the small disk: its map is sized ahead (3 × the input), so this one fails at once.
  out=$(vt import "$work/b60k.ndjson" --store "$f/new" 2>&1); code=$?
  check "an import too large for the disk into a new store: exit 74 (got $code), no store left" \
    bash -c "[ $code = 74 ] && [ '$(count "$f/new")' = none ]"
  umount "$f"
else
  skip "bulk: growth steps on a full disk: needs root to mount a small tmpfs"
fi
