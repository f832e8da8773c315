#!/usr/bin/env python3
"""Fuzzes `import -` with mutated event lines: `make test-reliability` runs it with 20,000.

    python3 scripts/fuzz_import.py VERITRAIL_BINARY Events/demo.ndjson N

Each input is one line of the demo fixture, mutated (a byte changed, removed or inserted, a member dropped or
given a value of another type or size, a time or an actor changed, the line cut short), imported alone onto a
store that holds the demo (so that most lines meet real accounts and scans). Every import must exit 0 or 65,
a refusal must be one or two lines without raw control characters, and the store must verify at the end.
Prints the exit codes counted; exit 1 when any input broke those rules.
"""
import json, os, random, shutil, subprocess, sys, tempfile
VT=sys.argv[1]; DEMO=sys.argv[2]; N=int(sys.argv[3])
work=tempfile.mkdtemp(prefix='veritrail-fuzz-'); store=os.path.join(work, 'store')
subprocess.run([VT,'import',DEMO,'--store',store],check=True,capture_output=True)
lines=[l.rstrip('\n') for l in open(DEMO) if l.strip()]
random.seed(11)
def mutate(s):
    b=bytearray(s.encode())
    k=random.randrange(8)
    if k==0 and b: i=random.randrange(len(b)); b[i]=random.randrange(256)
    elif k==1 and b: i=random.randrange(len(b)); del b[i]
    elif k==2: i=random.randrange(len(b)+1); b[i:i]=bytes([random.choice(b'{}[]",:0123456789aeZ\\\x00\x1b\n -')])
    elif k==3:
        o=json.loads(s); o.pop('id',None); keys=list(o['data'].keys())
        if keys: o['data'].pop(random.choice(keys))
        b=bytearray(json.dumps(o,ensure_ascii=False).encode())
    elif k==4:
        o=json.loads(s); o.pop('id',None); keys=list(o['data'].keys())
        if keys:
            key=random.choice(keys); o['data'][key]=random.choice([None, 0, -1, 1.5, "", " ", "x"*3000, True, [], {}, "2026-13-01", 10**30])
        b=bytearray(json.dumps(o,ensure_ascii=False).encode())
    elif k==5:
        o=json.loads(s); o.pop('id',None); o['at']=random.choice(["2026-11-20T18:00:00Z","2026-02-30T00:00:00Z","2026-11-20T18:00:00.1234567Z","2026-11-20t18:00:00z","2030-01-01T00:00:00Z","x"])
        b=bytearray(json.dumps(o,ensure_ascii=False).encode())
    elif k==6: b=b[:random.randrange(len(b)+1)]
    else:
        o=json.loads(s); o.pop('id',None); o['actor']=random.choice(["admin","system","nobody","","ines","A"])
        b=bytearray(json.dumps(o,ensure_ascii=False).encode())
    return bytes(b)
codes={}
bad=0  # inputs that broke the rules above
for i in range(N):
    line=mutate(random.choice(lines))
    p=subprocess.run([VT,'import','-','--store',store],input=line+b'\n',capture_output=True,timeout=60)
    codes[p.returncode]=codes.get(p.returncode,0)+1
    err=p.stderr.decode('utf-8','replace')
    if p.returncode not in (0,65) or (p.returncode==65 and (err.count('\n')>2 or '\x1b' in err)):
        bad+=1
        if bad<20: print('BAD',p.returncode,repr(line[:200]),err[:300])
print('inputs',N,'exit codes',codes,'bad',bad)
v=subprocess.run([VT,'log','verify','--store',store],capture_output=True)
print('verify',v.returncode,v.stdout.decode()[:200])
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if bad or v.returncode != 0 else 0)
