#!/usr/bin/env python3
"""Differential check: asks the same questions of `veritrail` and of the independent oracle (scripts/oracle.py)
over one event file, at several clocks and as-of points, and reports every answer that differs.

    python3 scripts/compare_with_oracle.py .build/debug/veritrail Events/demo.ndjson [USERS]

USERS (optional) samples that many accounts for the per-user questions (a large log has hundreds).
Exit 0 when every answer agrees, 1 otherwise.
"""
import itertools, json, os, random, subprocess, sys, tempfile

V = sys.argv[1]
EV = sys.argv[2]
ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle.py")
STORE = os.path.join(tempfile.mkdtemp(prefix="veritrail-compare-"), "store")
subprocess.run([V, "import", EV, "--store", STORE], check=True, capture_output=True)
events = [json.loads(l) for l in open(EV) if l.strip()]
users = sorted({e["data"]["username"] for e in events if e["type"] == "account.registered"})
random.seed(3); users = random.sample(users, min(len(users), int(sys.argv[3]) if len(sys.argv) > 3 else len(users)))
scans = [e["data"]["scanId"] for e in events if e["type"] == "scan.recorded"]
cats = sorted({e["data"]["category"].strip() for e in events if e["type"] == "scan.recorded"})
ats = [e["at"] for e in events]
random.seed(7)
nows = ["2026-11-20T18:00:00Z", "2026-11-01T00:00:00Z", random.choice(ats), "2026-10-15T12:30:00Z"]
qs = []
for now in nows:
    qs += [(["stats"], now, None, None), (["lockout"], now, None, None), (["customers"], now, None, None),
           (["accounts"], now, None, None), (["replay"], now, None, None)]
    for u in users:
        qs += [(["stats", "--by", u], now, None, None), (["lockout", u], now, None, None), (["goals", u], now, None, None),
               (["settings", u], now, None, None), (["searches", u], now, None, None), (["customer", "show", u], now, None, None),
               (["history", "--by", u, "--limit", "7"], now, None, u)]
        for m in ["2026-09", "2026-10", "2026-11"]:
            qs.append((["goals", u, "--month", m], now, None, None))
    for t, w in itertools.product(["all", "success", "failed"], ["today", "7d", "30d", "90d", "all"]):
        qs.append((["history", "--type", t, "--window", w, "--limit", "5", "--offset", "3"], now, None, None))
    for c in cats[:5]:
        qs.append((["history", "--category", c, "--limit", "4"], now, None, None))
    for s in ["a", "É", "serum", "s-00", "ines", "ß", "zz", ""]:
        qs.append((["history", "--search", s, "--limit", "3"], now, None, None))
    for sid in random.sample(scans, 5):
        qs.append((["show", sid], now, None, None))
for asof in ["1", "100", "400", "2026-10-01T00:00:00Z", random.choice(ats)]:
    qs += [(["replay"], None, asof, None), (["stats"], None, asof, None), (["history", "--limit", "3"], None, asof, None)]
# As of nothing, the clock is the wall clock's: pin it so that both answers can agree.
qs.append((["replay"], "2026-11-20T18:00:00Z", "0", None))
bad = 0
for args, now, asof, viewer in qs:
    extra = []
    if now: extra += ["--now", now]
    if asof: extra += ["--as-of", asof]
    if viewer: extra += ["--as", viewer]
    o = subprocess.run(["python3", ORACLE, EV] + extra + ["--"] + args, capture_output=True, text=True)
    c = subprocess.run([V] + args + ["--json", "--store", STORE] + extra, capture_output=True, text=True)
    oj = json.loads(o.stdout) if o.returncode == 0 and o.stdout.strip() else None
    cj = json.loads(c.stdout) if c.returncode == 0 and c.stdout.strip() else None
    if o.returncode != c.returncode or oj != cj:
        bad += 1
        if bad <= 8:
            print("DIFF", args, extra, o.returncode, c.returncode)
            print("  oracle:", (o.stdout or o.stderr)[:400])
            print("  cli   :", (c.stdout or c.stderr)[:400])
subprocess.run(["rm", "-rf", os.path.dirname(STORE)])
print(len(qs), "queries,", bad, "differ")
sys.exit(1 if bad else 0)
