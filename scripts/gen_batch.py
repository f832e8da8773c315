#!/usr/bin/env python3
"""Writes a `scan --batch` file of N rows, CSV or NDJSON by its name's ending, for the bulk bench and checks.

    scripts/gen_batch.py N OUT.csv|OUT.ndjson [--bad-last]

Every row is a valid scan (code, productName, category, result, and a location on every third); codes repeat
every 1,000 rows, so that the answer has scans seen before. With --bad-last the last row's result is `maybe`,
which the batch must refuse, naming its line, with nothing written.
"""
import json
import sys

n, out = int(sys.argv[1]), sys.argv[2]
bad_last = "--bad-last" in sys.argv[3:]
csv = out.endswith(".csv")
products = [("Night Serum", "Cosmetics"), ("Leather Bag", "Handbags"), ("Trail Boot", "Footwear"), ("Single Malt", "Spirits")]
with open(out, "w", buffering=1 << 20) as f:
    if csv:
        f.write("code,productName,category,result,location\n")
    for i in range(n):
        product, category = products[i % 4]
        result = "maybe" if bad_last and i == n - 1 else ("counterfeit" if i % 7 == 0 else "authentic")
        code = f"https://verify.example/p/BULK-{i % 1000:04d}"
        location = "Lyon" if i % 3 == 0 else ""
        if csv:
            f.write(f"{code},{product},{category},{result},{location}\n")
        else:
            row = {"code": code, "productName": product, "category": category, "result": result}
            if location:
                row["location"] = location
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
