# Sourced by scripts/reliability.sh: a filtered export with proofs checked by `verify` without its store
# (cli.md §8, issue #23.7), and every kind of tampering with it refused (65), never a crash.
echo "== auditor: export --proofs and verify"
aud=$work/auditor
mkdir -p "$aud"
vt import "$work/base.ndjson" --store "$aud/store" >/dev/null 2>&1
akey=$(vt log key --store "$aud/store")
vt export --store "$aud/store" --type scan.recorded -n 200 --proofs --output "$aud/scans.ndjson" 2>/dev/null
vt verify "$aud/scans.ndjson" --key "$akey" >/dev/null 2>&1; code=$?
check "a filtered export with proofs verifies under the key" [ "$code" = 0 ]
vt export --store "$aud/store" --type scan.recorded -n 200 --output "$aud/plain.ndjson" 2>/dev/null
out=$(vt verify "$aud/plain.ndjson" 2>&1); code=$?
check "the same export without proofs is refused as partial (65), not as broken" \
  bash -c "[ $code = 65 ] && grep -q 'partial export' <<<\"\$1\" && ! grep -q broken <<<\"\$1\"" _ "$out"
# Tampering: an event's field, a hash of a proof, a proof left out, the checkpoint's size, another key.
python3 - "$aud/scans.ndjson" "$aud" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
lines = open(src, encoding="utf-8").read().splitlines()
cp = next(i for i, l in enumerate(lines) if l.startswith('{"checkpoint"'))
def write(name, ls): open(f"{out}/{name}", "w", encoding="utf-8").write("\n".join(ls) + "\n")
e = json.loads(lines[cp // 2]); e["data"]["productName"] = e["data"]["productName"] + "x"
write("t-event", lines[:cp // 2] + [json.dumps(e, ensure_ascii=False, separators=(",", ":"))] + lines[cp // 2 + 1:])
p = json.loads(lines[-1]); h = p["proof"]["path"][0]; p["proof"]["path"][0] = ("1" if h[0] == "0" else "0") + h[1:]
write("t-path", lines[:-1] + [json.dumps(p)])
write("t-missing", lines[:-1])
c = json.loads(lines[cp]); n = c["checkpoint"].split("\n"); n[1] = str(int(n[1]) + 1); c["checkpoint"] = "\n".join(n)
write("t-size", lines[:cp] + [json.dumps(c)] + lines[cp + 1:])
write("t-garbage", lines[:cp] + ['{"checkpoint": 12}'] + lines[cp + 1:])
PY
for t in "event:an event changed" "path:a proof's hash changed" "missing:a proof left out" \
         "size:the checkpoint's size changed" "garbage:a checkpoint line that is no note"; do
  vt verify "$aud/t-${t%%:*}" --key "$akey" >/dev/null 2>&1; code=$?
  check "a proofs file with ${t#*:} is refused (65)" [ "$code" = 65 ]
done
vt import <(head -n 3 "$work/base.ndjson") --store "$aud/other" >/dev/null 2>&1
vt verify "$aud/scans.ndjson" --key "$(vt log key --store "$aud/other")" >/dev/null 2>&1; code=$?
check "a proofs file checked under another store's key is refused (65)" [ "$code" = 65 ]
