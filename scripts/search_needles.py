#!/usr/bin/env python3
"""Draws search needles as a person would type them: a random substring of a random search field of a random scan
(or of a random report's message).

    search_needles.py EVENTS.NDJSON [SEED] [COUNT]      # COUNT needles (default 80), one a line, lower-cased

Why: `history --search` must answer any needle of 1 to 20 characters within its bar (issue 20), and the needles a
benchmark names (`hologram`, `kyo`) are the ones the index was tuned for. Drawn needles fall where people's do: in
names, in a code's head and its random part, in scan ids, lots and addresses. The scans are read from 400,000 lines
at a random place of the log (the first 5 GB), so a 10M log is not read whole. Time each needle with the binary, for
example `perf stat -e task-clock,page-faults veritrail history --search "$needle" --limit 50 --json --store S`.
"""
import json
import random
import sys

FIELDS = ["scanId", "code", "productName", "brand", "category", "location", "batchId", "notes", "actor", "message"]


def main(path, seed=7, count=80):
    rng = random.Random(seed)
    scans = []
    # A report's message is the search text's last field (since 2026-11-30; needles drawn before left it out).
    reports = []
    with open(path, "rb") as f:
        f.seek(0, 2)
        f.seek(rng.randrange(0, max(1, min(f.tell(), 5_000_000_000) - 200_000_000)))
        f.readline()
        for _ in range(400_000):
            line = f.readline()
            if not line:
                break
            if b'"scan.recorded"' in line:
                scans.append(line)
            elif b'"counterfeit.reported"' in line and b'"message"' in line:
                reports.append(line)
    if not scans:
        sys.exit("no scan.recorded event found")
    needles = []
    while len(needles) < count:
        field = rng.choice(FIELDS)
        if field == "message" and not reports:
            continue
        event = json.loads(rng.choice(reports if field == "message" else scans))
        value = event.get("actor") if field == "actor" else event.get("data", {}).get(field)
        if not value:
            continue
        length = rng.randint(1, min(20, len(value)))
        start = rng.randrange(0, len(value) - length + 1)
        needles.append(value[start:start + length].lower())
    for needle in needles:
        print(needle)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 7, int(sys.argv[3]) if len(sys.argv) > 3 else 80)
