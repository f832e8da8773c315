#!/usr/bin/env python3
"""Flips bytes aimed at each kind of page of a store's data file and checks what veritrail makes of it.

    flip_campaign.py VERITRAIL STORE WORKDIR TRIALS_PER_KIND [SEED]

With FLIP_DATABASES set (a regular expression), only pages of the databases whose names it matches are
flipped (FLIP_DATABASES='^model\.' aims at the read models).

For each kind (meta, branch, leaf: `lmdb_pages.py`), TRIALS_PER_KIND times: copy STORE into WORKDIR, XOR one
byte of a random page of that kind (in the bytes the page uses: a meta page's fields, a B-tree page's header,
node offsets and nodes) with a random non-zero mask, then run `log verify` and, whatever it answers, the reads
and a write: `export`, the export imported again into the store (every id looked up, every event read by its
seq), `log tail`, `log prove` of a random seq, `log checkpoint`, `stats`, `history`, and the import of one new
event. It counts:

- a crash or a hang: an exit other than 0, 65 or 74 (a signal, a timeout);
- a read or a write that fails after `log verify` said ok (the bar: a store log verify calls ok answers every
  read and takes every write), the log's reads and the read models' queries alike;
- a damaged store whose `log verify` message sends the user to `rebuild` (the read models alone are damaged),
  and that `rebuild` then does not repair;
- a filled disk: the work folder's file system losing more than 256 MiB during a trial.

Prints one line per bad trial and a summary; exits 1 when any trial was bad.
"""
import os
import random
import re
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)

NOW = "2026-11-20T18:00:00Z"
TIMEOUT = 30


def pages_by_kind(data_file):
    out = subprocess.run([sys.executable, os.path.join(here, "lmdb_pages.py"), data_file],
                         capture_output=True, text=True, check=True).stdout
    kinds = {"meta": [], "branch": [], "leaf": []}
    only = os.environ.get("FLIP_DATABASES")
    for line in out.splitlines():
        pgno, kind, name = line.split(" ", 2)
        if only and not re.search(only, name):
            continue
        if kind in kinds:
            kinds[kind].append((int(pgno), name))
    return kinds


def used_offsets(data, pgno, kind, psize):
    """The offsets (in the file) of the bytes page `pgno` uses."""
    base = pgno * psize
    if kind == "meta":
        return range(base, base + 152)
    lower = int.from_bytes(data[base + 12:base + 14], "little")
    upper = int.from_bytes(data[base + 14:base + 16], "little")
    if not (16 <= lower <= upper <= psize):
        return range(base, base + 16)
    return [*range(base, base + lower), *range(base + upper, base + psize)]


def free_bytes(path):
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def run(vt, args):
    try:
        r = subprocess.run([vt, *args], capture_output=True, timeout=TIMEOUT, env={**os.environ, "NO_COLOR": "1"})
        return r.returncode, r.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
    except subprocess.TimeoutExpired:
        return "timeout", [""]


def main():
    vt, store, work, trials = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else None)
    data = open(os.path.join(store, "data.mdb"), "rb").read()
    psize = int.from_bytes(data[40:44], "little")
    kinds = pages_by_kind(os.path.join(store, "data.mdb"))
    head = int(subprocess.run([vt, "log", "digest", "--store", store], capture_output=True, text=True).stdout.split(":")[0])
    new_line = ('{"type":"search.performed","at":"2026-11-20T18:00:00Z","actor":"admin","data":'
                '{"username":"admin","query":"flip"}}\n')
    extra = os.path.join(work, "extra.ndjson")
    with open(extra, "w") as f:
        f.write(new_line)
    counts = {"trials": 0, "verify_ok": 0, "crash": 0, "read_after_ok": 0, "disk": 0, "rebuild_advised": 0,
              "not_repaired": 0}
    per_kind = {}
    bad = []
    for kind, pages in kinds.items():
        if not pages:
            print(f"      no {kind} pages in {store}")
            continue
        for _ in range(trials):
            pgno, name = rng.choice(pages)
            offset = rng.choice(used_offsets(data, pgno, kind, psize))
            mask = rng.randrange(1, 256)
            s = os.path.join(work, "flip")
            shutil.rmtree(s, ignore_errors=True)
            shutil.copytree(store, s)
            with open(os.path.join(s, "data.mdb"), "r+b") as f:
                f.seek(offset)
                b = f.read(1)[0]
                f.seek(offset)
                f.write(bytes([b ^ mask]))
            free_before = free_bytes(work)
            where = f"{kind} page {pgno} ({name}) byte {offset} ^0x{mask:02x}"
            counts["trials"] += 1
            per_kind[kind] = per_kind.get(kind, 0) + 1
            verify, why = run(vt, ["log", "verify", "--store", s])
            # The store as verify judged it, for the rebuild it may advise (the reads below write to `s`).
            advised = os.path.join(work, "advised")
            shutil.rmtree(advised, ignore_errors=True)
            if verify != 0 and "`veritrail rebuild`" in why[0]:
                shutil.copytree(s, advised)
            exported = os.path.join(work, "export.ndjson")
            # What log verify vouches for: the log read every way (in order, by id, by seq, its proofs).
            log_reads = [
                ["export", "--output", exported, "--store", s],
                ["import", exported, "--store", s],
                ["log", "tail", "-n", "3", "--store", s],
                ["log", "prove", str(rng.randrange(1, head + 1)), "--store", s],
                ["log", "checkpoint", "--store", s],
            ]
            # The read models, and a write (which reads them): `rebuild` makes them again from the log.
            model_reads = [
                ["stats", "--now", NOW, "--store", s],
                ["history", "--window", "all", "--limit", "1000", "--now", NOW, "--store", s],
                ["import", extra, "--store", s],
            ]
            results = [(verify, why, ["log", "verify"])]
            log_results = [(*run(vt, args), args[:2]) for args in log_reads]
            model_results = [(*run(vt, args), args[:2]) for args in model_reads]
            results += log_results + model_results
            if verify == 0:
                counts["verify_ok"] += 1
            problems = []
            if verify != 0 and "`veritrail rebuild`" in why[0]:
                # The read models alone are damaged, says log verify: rebuild must repair them.
                counts["rebuild_advised"] += 1
                rebuilt, rebuilt_why = run(vt, ["rebuild", "--store", advised])
                again = [(*run(vt, ["log", "verify", "--store", advised]), ["log", "verify"])]
                again += [(*run(vt, [a if a != s else advised for a in args]), args[:2]) for args in model_reads]
                results += [(rebuilt, rebuilt_why, ["rebuild"])] + again
                failed = [(code, msg, args) for code, msg, args in again if code != 0]
                if rebuilt != 0 or failed:
                    counts["not_repaired"] += 1
                    problems.append(("not_repaired", f"log verify advised rebuild ({why[0]}); rebuild exited {rebuilt} "
                                     f"({rebuilt_why[0]}), then {[(' '.join(a), c, m[0]) for c, m, a in failed]}"))
            for code, msg, args in results:
                if code not in (0, 65, 74):
                    problems.append(("crash", f"'{' '.join(args)}' exited {code}: {msg[0]}"))
            if verify == 0:
                for code, msg, args in log_results + model_results:
                    if code != 0:
                        problems.append(("read_after_ok", f"log verify ok, then '{' '.join(args)}' exited {code}: {msg[0]}"))
            if free_before - free_bytes(work) > 256 << 20:
                problems.append(("disk", f"the file system lost {(free_before - free_bytes(work)) >> 20} MiB"))
            for kind_of_problem, text in problems:
                counts[kind_of_problem] += 1
            if problems:
                bad.append(where)
                for _, text in problems:
                    print(f"      {where}: {text}", flush=True)
            shutil.rmtree(s, ignore_errors=True)
            shutil.rmtree(advised, ignore_errors=True)
            if counts["trials"] % 100 == 0:
                print(f"      … {counts['trials']} flips, {len(bad)} bad so far", flush=True)
    print(f"      flips: {counts['trials']} ({', '.join(f'{k} {v}' for k, v in per_kind.items())}); "
          f"log verify ok after {counts['verify_ok']}; crashes or hangs {counts['crash']}; "
          f"reads or writes failing after an ok verify {counts['read_after_ok']}; disks filled {counts['disk']}; "
          f"read models found damaged and rebuild advised {counts['rebuild_advised']}, not repaired by it "
          f"{counts['not_repaired']}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
