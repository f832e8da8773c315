#!/usr/bin/env python3
"""Generate Events/demo.ndjson (deterministic, seeded) and Projections/demo/*.json.

    python3 scripts/gen_demo.py          # writes both, then validates the events with the oracle

The data set: admin `admin` (registered by `system`), a second admin, 4 inspectors, 12 customers
(jsonplaceholder-style details, real city coordinates) across all six statuses, one deleted,
~430 scans over 8 weeks ending 2026-11-20 with reports, searches, settings, passcodes and
lockout episodes, fitness, goals and jump sessions.
"""
import base64
import datetime as dt
import hashlib
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import oracle  # noqa: E402

rng = random.Random(20261120)
EVENTS = []  # (us, counter, raw_at, actor, type, data)
_counter = [0]

UTC = dt.timezone.utc


def T(s):
    """'2026-11-20 10:00:05.25' -> microseconds."""
    d = dt.datetime.fromisoformat(s).replace(tzinfo=UTC)
    return int(d.timestamp()) * 1_000_000 + d.microsecond


def fmt(us, raw_frac=None):
    s = oracle.fmt_us(us)
    if raw_frac is not None:  # spell the fraction un-normalised on purpose (e.g. ".250", ".000")
        s = s.split(".")[0].rstrip("Z") + raw_frac + "Z"
    return s


def emit(us, actor, typ, data, raw_at=None, frac=False):
    """Queue one event; `at` is whole seconds unless spelled (raw_at) or frac=True."""
    if raw_at is None and not frac:
        us -= us % SEC
    _counter[0] += 1
    EVENTS.append((us, _counter[0], raw_at or fmt(us), actor, typ, data))


# Every demo account's passcode, published in README.md so that a newcomer can act as any of them after
# `make demo`. Demo data, not secrets: one fixed passcode and one fixed salt. The random draws a random salt
# and passcode took are still made, so that the rest of the demo (scans, times) stays as it was.
DEMO_PASSCODE = "1234"
DEMO_SALT = b"veritrail-demo-1"


def credential(passcode: str):
    rng.randbytes(16)
    salt = DEMO_SALT
    h = hashlib.pbkdf2_hmac("sha256", DEMO_PASSCODE.encode(), salt, 100000, 32)
    return {"scheme": "pbkdf2-sha256", "iterations": 100000,
            "salt": base64.b64encode(salt).decode(), "hash": base64.b64encode(h).decode()}


def passcode():
    return "".join(rng.choice("0123456789") for _ in range(rng.randint(4, 8)))


MIN = 60 * 1_000_000
SEC = 1_000_000
HOUR = 60 * MIN
DAY = 24 * HOUR

# ------------------------------------------------------------------ accounts

emit(T("2026-09-01 07:58:00"), "system", "account.registered",
     {"username": "admin", "role": "admin", "name": "Amélie Durand", "email": "amelie.durand@veritrail.example",
      "phone": "+33 4 72 10 20 30", "website": "veritrail.example"})
emit(T("2026-09-01 07:58:00"), "system", "passcode.set", {"username": "admin", "credential": credential(passcode())})
emit(T("2026-09-01 08:01:12"), "admin", "passcode.attempted", {"username": "admin", "outcome": "granted"})

INSPECTORS = [
    ("ines", "Inès Moreau", "ines.moreau@veritrail.example", "+33 6 12 34 56 78"),
    ("tmueller", "Thomas Müller", "t.mueller@veritrail.example", "+49 89 1234 5678"),
    ("kwan", "Kai Wan 万凯", "kai.wan@veritrail.example", "+852 5123 4567"),
    ("jweiss", "Jürgen Weiß", "j.weiss@veritrail.example", None),
]
t = T("2026-09-01 08:05:00")
emit(t, "admin", "account.registered",
     {"username": "r.keller", "role": "admin", "name": "Rosa Keller", "email": "rosa.keller@veritrail.example"})
for i, (u, name, email, phone) in enumerate(INSPECTORS):
    d = {"username": u, "role": "inspector", "name": name, "email": email}
    if phone:
        d["phone"] = phone
    emit(t + (i + 1) * MIN, "admin", "account.registered", d)
# passcodes: admin sets some (resets), others set their own
emit(T("2026-09-01 08:20:00"), "admin", "passcode.set", {"username": "r.keller", "credential": credential(passcode())})
emit(T("2026-09-01 08:21:00"), "admin", "passcode.set", {"username": "ines", "credential": credential(passcode())})
emit(T("2026-09-01 08:22:00"), "admin", "passcode.set", {"username": "tmueller", "credential": credential(passcode())})
emit(T("2026-09-01 09:10:00"), "kwan", "passcode.set", {"username": "kwan", "credential": credential(passcode())})
emit(T("2026-09-01 09:40:00"), "jweiss", "passcode.set", {"username": "jweiss", "credential": credential(passcode())})

CUSTOMERS = [
    # username, name, email, phone, website, street, suite, city, zipcode, lat, lng, company, catchPhrase, bs, self?
    ("bret", "Leanne Graham", "Sincere@april.biz", "1-770-736-8031 x56442", "hildegard.org",
     "Kulas Light", "Apt. 556", "Lyon", "69002", 45.764043, 4.835659,
     "Romaguera-Crona", "Multi-layered client-server neural-net", "harness real-time e-markets", False),
    ("antonette", "Ervin Howell", "Shanna@melissa.tv", "010-692-6593 x09125", "anastasia.net",
     "Victor Plains", "Suite 879", "München", "80331", 48.137154, 11.576124,
     "Deckow-Crist", "Proactive didactic contingency", "synergize scalable supply-chains", False),
    ("samantha", "Clementine Bauch", "Nathan@yesenia.net", "1-463-123-4447", "ramiro.info",
     "Douglas Extension", "Suite 847", "Lisboa", "1100-148", 38.722252, -9.139337,
     "Romaguera-Jacobson", "Face to face bifurcated interface", "e-enable strategic applications", False),
    ("karianne", "Patricia Lebsack", "Julianne.OConner@kory.org", "493-170-9623 x156", "kale.biz",
     "Hoeger Mall", "Apt. 692", "Kraków", "31-008", 50.064651, 19.944981,
     "Robel-Corkery", "Multi-tiered zero tolerance productivity", "transition cutting-edge web services", True),
    ("kamren", "Chelsey Dietrich", "Lucio_Hettinger@annie.ca", "(254)954-1289", "demarco.info",
     "Skiles Walks", "Suite 351", "Montréal", "H2Y 1C6", 45.501689, -73.567256,
     "Keebler LLC", "User-centric fault-tolerant solution", "revolutionize end-to-end systems", False),
    ("leopoldo_corkery", "Mrs. Dennis Schulist", "Karley_Dach@jasper.info", "1-477-935-8478 x6430", "ola.org",
     "Norberto Crossing", "Apt. 950", "Zürich", "8001", 47.376887, 8.541694,
     "Considine-Lockman", "Synchronised bottom-line interface", "e-enable innovative applications", False),
    ("elwyn.skiles", "Kurtis Weissnat", "Telly.Hoeger@billy.biz", "210.067.6132", "elvis.io",
     "Rex Trail", "Suite 280", "Ōsaka", "530-0001", 34.693738, 135.502165,
     "Johns Group", "Configurable multimedia task-force", "generate enterprise e-tailers", False),
    ("maxime_nienow", "Nicholas Runolfsdottir V", "Sherwood@rosamond.me", "586.493.6943 x140", "jacynthe.com",
     "Ellsworth Summit", "Suite 729", "Barcelona", "08002", 41.385064, 2.173404,
     "Abernathy Group", "Implemented secondary concept", "e-enable extensible e-tailers", True),
    ("delphine", "Glenna Reichert", "Chaim_McDermott@dana.io", "(775)976-6794 x41206", "conrad.com",
     "Dayna Park", "Suite 449", "Dublin", "D02 X285", 53.349805, -6.26031,
     "Yost and Sons", "Switchable contextually-based project", "aggregate real-time technologies", False),
    ("moriah.stanton", "Clementina DuBuque", "Rey.Padberg@karina.biz", "024-648-3804", "ambrose.net",
     "Kattie Turnpike", "Suite 198", "Seattle", "98104", 47.606209, -122.332071,
     "Hoeger LLC", "Centralized empowering task-force", "target end-to-end models", False),
    ("zoe.chen", "Zoë Chén 陈", "zoe.chen@example.cn", "+86 21 5555 0101", "zoechen.example",
     "Nanjing East Road 200", "", "上海", "200001", 31.230416, 121.473701,
     "Chén Trading 陈氏贸易", "Quality you can verify ✅", "source authentic goods", False),
    ("bjoern", "Björn Åström", "bjorn.astrom@example.se", None, None,
     "Drottninggatan 53", None, "Stockholm", "111 21", 59.329323, 18.068581,
     "Åström & Söner AB", None, None, False),
]

cust_reg = {}
base = T("2026-09-02 09:00:00")
for i, c in enumerate(CUSTOMERS):
    (u, name, email, phone, web, street, suite, city, zipc, lat, lng, co, cp, bs, selfreg) = c
    d = {"username": u, "role": "customer", "name": name, "email": email}
    if phone:
        d["phone"] = phone
    if web:
        d["website"] = web
    addr = {"street": street, "city": city, "zipcode": zipc}
    if suite is not None:
        addr["suite"] = suite
    d["address"] = addr
    d["geo"] = {"lat": lat, "lng": lng}
    comp = {"name": co}
    if cp:
        comp["catchPhrase"] = cp
    if bs:
        comp["bs"] = bs
    d["company"] = comp
    at = base + i * 3 * DAY + rng.randint(0, 8 * HOUR)
    cust_reg[u] = at
    emit(at, u if selfreg else rng.choice(["admin", "admin", "r.keller"]), "account.registered", d)
    if selfreg:
        emit(at + 40 * SEC, u, "passcode.set", {"username": u, "credential": credential(passcode())})

# admin sets passcodes for a few customers
for u in ("bret", "antonette", "elwyn.skiles"):
    emit(cust_reg[u] + 2 * HOUR, "admin", "passcode.set", {"username": u, "credential": credential(passcode())})

# status histories (each step differs from the previous)
PATHS = {
    "bret": [("ONBOARDED", None), ("INPROCESS", "Documents received"), ("COMPLETED", "Return filed ✔")],
    "antonette": [("FAILEDTOREACH", "No answer on phone"), ("ONBOARDED", None), ("INPROCESS", None)],
    "samantha": [("ONBOARDED", None)],
    "karianne": [("DENIED", "Outside our service area")],
    "kamren": [("FAILEDTOREACH", "Voicemail full"), ("AWAITED", "Customer called back"), ("FAILEDTOREACH", None)],
    "leopoldo_corkery": [("ONBOARDED", None), ("INPROCESS", "Waiting for W-2 forms"), ("COMPLETED", None)],
    "elwyn.skiles": [("ONBOARDED", None)],
    "maxime_nienow": [],
    "delphine": [("ONBOARDED", "Intro call done — très bien"), ("DENIED", "Could not verify identity")],
    "moriah.stanton": [("ONBOARDED", None), ("INPROCESS", None)],
    "zoe.chen": [("ONBOARDED", "电话确认"), ("INPROCESS", None)],
    "bjoern": [],
}
for u, path in PATHS.items():
    at = cust_reg[u]
    for st, note in path:
        at += rng.randint(2, 9) * DAY + rng.randint(0, 6 * HOUR)
        if u == "elwyn.skiles":
            at = min(at, T("2026-11-05 10:00:00"))
        d = {"username": u, "status": st}
        if note:
            d["note"] = note
        emit(at, rng.choice(["admin", "admin", "r.keller"]), "status.changed", d)

# account updates
emit(T("2026-10-02 11:15:00"), "bret", "account.updated", {"username": "bret", "phone": "+33 4 78 00 11 22"})
emit(T("2026-10-20 14:03:00"), "admin", "account.updated",
     {"username": "samantha", "address": {"street": "Rua Augusta 27", "suite": "3º Esq.", "city": "Porto", "zipcode": "4000-001"},
      "geo": {"lat": 41.157944, "lng": -8.629105}})
emit(T("2026-11-02 16:40:00"), "admin", "account.updated",
     {"username": "kwan", "name": "Kai Wan 万凯", "website": "  kaiwan.example  "})

# ------------------------------------------------------------------ scans

CATALOGUE = {
    "Apparel": [("Hoodie Classic", "Supreme"), ("Polo Shirt", "Lacoste"), ("Denim Jacket", "Levi's"), ("Trench Coat", "Burberry")],
    "Cosmetics": [("Night Serum", "Estée Lauder"), ("Lipstick Rouge", "Dior"), ("Face Cream", "La Mer"), ("Eau de Parfum", "Chanel")],
    "Electronics": [("Wireless Earbuds", "Apple"), ("Phone Charger 20W", "Samsung"), ("Power Bank", "Anker"), ("Smartwatch Band", "Garmin")],
    "Footwear": [("Air Runner", "Nike"), ("Superstar", "adidas"), ("Chelsea Boot", "Dr. Martens"), ("Trail Sneaker", "Salomon")],
    "Watches": [("Submariner", "Rolex"), ("Seamaster", "Omega"), ("Carrera", "TAG Heuer")],
    "Handbags": [("Speedy 30", "Louis Vuitton"), ("Saddle Bag", "Dior"), ("Kelly 28", "Hermès")],
    "Pharmaceuticals": [("Ibuprofen 400 mg", "Nurofen"), ("Vitamin D3", "Centrum"), ("Allergy Relief", "Zyrtec")],
    "Toys": [("Building Set 1200", "LEGO"), ("Plush Bear", "Steiff"), ("Racing Car", "Hot Wheels")],
    "Spirits": [("Single Malt 12", "Glenfiddich"), ("Cognac VSOP", "Hennessy")],
    "Auto Parts": [("Brake Pads", "Bosch"), ("Oil Filter", "Mann")],
}
CAT_WEIGHTS = {"Apparel": 14, "Cosmetics": 13, "Electronics": 12, "Footwear": 12, "Watches": 6, "Handbags": 7,
               "Pharmaceuticals": 9, "Toys": 6, "Spirits": 4, "Auto Parts": 5}
LOCATIONS = ["Marché de la Croix-Rousse, Lyon", "Hauptbahnhof München", "Port of Rotterdam, Hall 4", "Café de Flore, Paris",
             "Warehouse 7, Gdańsk", "Flohmarkt am Mauerpark", "Zürich Airport Customs", "上海 南京路", "Online order #55812"]
NOTES = ["Stitching uneven", "Hologram missing", "  Seal broken  ", "box crushed 📦", "Price far below retail",
         "Serial number font looks off", "Bought from street seller", "Gift from a friend", "Batch from customs seizure",
         "Label says “Made in Itlay”", "Straße-Verkauf, Quittung fehlt"]
SCANNERS = ["ines", "tmueller", "kwan", "jweiss", "admin"]
SCANNER_WEIGHTS = [30, 26, 20, 16, 4]

scan_no = 0
all_codes = []
scans = []  # (us, actor, scanId, result)
daily_grants = {}  # (actor, date) -> first action us


def new_code(cat, brand):
    abbr = "".join(ch for ch in brand.upper() if ch.isascii() and ch.isalnum())[:4] or "XX"
    return f"https://verify.veritrail.example/c/{abbr}-{rng.getrandbits(40):010x}"


day = T("2026-09-25 00:00:00")
end_day = T("2026-11-20 00:00:00")
batch_no = 0
while day <= end_day:
    date = dt.datetime.fromtimestamp(day / 1e6, UTC)
    weekend = date.weekday() >= 5
    n = rng.randint(2, 4) if weekend else rng.randint(7, 10)
    if day == end_day:
        n = 9
    slots = []
    while len(slots) < n:
        actor = rng.choices(SCANNERS, SCANNER_WEIGHTS)[0]
        start = day + T("1970-01-01 07:30:00") + rng.randint(0, 10 * HOUR)
        if day == end_day:
            start = min(start, day + 17 * HOUR + 30 * MIN)
        k = 1
        if rng.random() < 0.12 and actor != "admin":
            k = rng.randint(3, 5)
        slots.append((start, actor, k))
        if k > 1:
            n -= k - 1
    # customers scan now and then
    if rng.random() < 0.15:
        c = rng.choice(["bret", "zoe.chen", "elwyn.skiles"])
        if not (c == "elwyn.skiles" and day > T("2026-11-08 00:00:00")) and day > cust_reg[c]:
            slots.append((day + 12 * HOUR + rng.randint(0, 5 * HOUR), c, 1))
    for start, actor, k in slots:
        batch_id = None
        if k > 1:
            batch_no += 1
            batch_id = f"B-{date:%m%d}-{batch_no:02d}"
        cat = rng.choices(list(CAT_WEIGHTS), list(CAT_WEIGHTS.values()))[0]
        for j in range(k):
            scan_no += 1
            at = start + j * rng.randint(8, 40) * SEC
            product, brand = rng.choice(CATALOGUE[cat])
            if rng.random() < 0.07 and all_codes:
                code, pcat, product, brand = rng.choice(all_codes)
                cat_j = pcat
                result = "counterfeit" if rng.random() < 0.8 else "authentic"
            else:
                cat_j = cat
                code = new_code(cat, brand)
                if rng.random() < 0.03:
                    code = f"{rng.randint(10**12, 10**13 - 1)}"  # a plain EAN-13 typed in
                all_codes.append((code, cat_j, product, brand))
                result = "counterfeit" if rng.random() < 0.10 else "authentic"
            d = {"scanId": f"s-{scan_no:04d}", "code": code, "productName": product}
            if rng.random() < 0.92:
                d["brand"] = brand
            d.update(category=cat_j, result=result, mode="batch" if batch_id else rng.choices(["single", "batch"], [9, 1])[0],
                     source="manual" if code.isdigit() else rng.choices(["camera", "gallery", "manual"], [80, 12, 8])[0],
                     flash=rng.random() < 0.25)
            if rng.random() < 0.4:
                d["location"] = rng.choice(LOCATIONS)
            if batch_id:
                d["batchId"] = batch_id
            if rng.random() < (0.5 if result == "counterfeit" else 0.1):
                d["notes"] = rng.choice(NOTES)
            raw = None
            if rng.random() < 0.04:
                frac_us = rng.choice([250000, 500000, 0, 120000, 999999])
                at = at - at % SEC + frac_us
                raw = {250000: ".250", 500000: ".500000", 0: ".000", 120000: ".12", 999999: ".999999"}[frac_us]
            emit(at, actor, "scan.recorded", d, raw_at=fmt(at, raw) if raw else None)
            scans.append((at, actor, d["scanId"], result))
            key = (actor, oracle.us_date(at))
            daily_grants[key] = min(daily_grants.get(key, at), at)
    day += DAY

# reports
reasons = ["packaging", "label", "serial", "price", "seller", "other"]
ri = 0
OTHER_MSGS = ["Seller refused to give a receipt", "QR code printed on a sticker over the original",
              "Käufer meldet abweichendes Gewicht", "Smells wrong — not the real fragrance"]
for at, actor, sid, result in scans:
    if (result == "counterfeit" and rng.random() < 0.65) or (result == "authentic" and rng.random() < 0.01):
        reason = reasons[ri % 6]
        ri += 1
        d = {"scanId": sid, "reason": reason}
        if reason == "other":
            d["message"] = rng.choice(OTHER_MSGS)
        elif rng.random() < 0.3:
            d["message"] = rng.choice(["Sold at a market stall", "Ask customs for the shipment", "Font differs from the original"])
        rat = at + rng.randint(1, 180) * MIN
        if rat > T("2026-11-20 17:55:00"):
            rat = at + 30 * SEC
        reporter = actor if rng.random() < 0.85 or actor in ("bret", "zoe.chen", "elwyn.skiles") else "admin"
        if actor == "elwyn.skiles" and rat > T("2026-11-08 00:00:00"):
            continue
        emit(rat, reporter, "counterfeit.reported", d)

# daily passcode grants before the first scan of the day (inspectors and admin)
for (actor, date), first in sorted(daily_grants.items()):
    if actor not in ("ines", "tmueller", "kwan", "jweiss", "admin", "bret", "elwyn.skiles"):
        continue
    at = first - rng.randint(20, 300) * SEC
    if rng.random() < 0.08:  # a typo first
        emit(at - 9 * SEC, actor, "passcode.attempted", {"username": actor, "outcome": "denied"})
    emit(at, actor, "passcode.attempted", {"username": actor, "outcome": "granted"})


def episode(u, start, extra=True, grant=True):
    """Three denied within a minute, then a locked attempt, then a granted after the 60 s."""
    emit(start, u, "passcode.attempted", {"username": u, "outcome": "denied"})
    emit(start + 14 * SEC, u, "passcode.attempted", {"username": u, "outcome": "denied"})
    emit(start + 37 * SEC + 500000, u, "passcode.attempted", {"username": u, "outcome": "denied"}, frac=True)
    if extra:
        emit(start + 61 * SEC, u, "passcode.attempted", {"username": u, "outcome": "locked"})
    if grant:
        emit(start + 2 * MIN + 5 * SEC, u, "passcode.attempted", {"username": u, "outcome": "granted"})


episode("ines", T("2026-10-14 06:40:00"))
episode("tmueller", T("2026-11-03 06:15:00"))
episode("kwan", T("2026-11-12 06:05:00"), extra=False)
# at "now" (2026-11-20 18:00): bret is locked (until 18:00:41.5), jweiss has 2 failures, ines is unlocked
emit(T("2026-11-20 17:59:04"), "bret", "passcode.attempted", {"username": "bret", "outcome": "denied"})
emit(T("2026-11-20 17:59:18"), "bret", "passcode.attempted", {"username": "bret", "outcome": "denied"})
emit(T("2026-11-20 17:59:41.5"), "bret", "passcode.attempted", {"username": "bret", "outcome": "denied"}, frac=True)
emit(T("2026-11-20 17:59:55"), "bret", "passcode.attempted", {"username": "bret", "outcome": "locked"})
emit(T("2026-11-20 17:46:10"), "jweiss", "passcode.attempted", {"username": "jweiss", "outcome": "denied"})
emit(T("2026-11-20 17:46:31"), "jweiss", "passcode.attempted", {"username": "jweiss", "outcome": "denied"})
emit(T("2026-11-20 17:51:00"), "ines", "passcode.attempted", {"username": "ines", "outcome": "granted"})
# an admin resets a forgotten passcode, which clears the lock
emit(T("2026-10-21 07:00:00"), "jweiss", "passcode.attempted", {"username": "jweiss", "outcome": "denied"})
emit(T("2026-10-21 07:00:20"), "jweiss", "passcode.attempted", {"username": "jweiss", "outcome": "denied"})
emit(T("2026-10-21 07:00:45"), "jweiss", "passcode.attempted", {"username": "jweiss", "outcome": "denied"})
emit(T("2026-10-21 07:01:10"), "r.keller", "passcode.set", {"username": "jweiss", "credential": credential(passcode())})

# ------------------------------------------------------------------ settings, searches

emit(T("2026-09-03 08:00:00"), "ines", "settings.changed", {"username": "ines", "historyWindow": "7d", "flash": True})
emit(T("2026-09-10 12:30:00"), "tmueller", "settings.changed", {"username": "tmueller", "captureMode": "batch"})
emit(T("2026-10-01 09:00:00"), "kwan", "settings.changed", {"username": "kwan", "historyWindow": "all"})
emit(T("2026-10-05 09:00:00"), "jweiss", "settings.changed", {"username": "jweiss", "color": "white", "historyWindow": "today"})
emit(T("2026-11-05 15:00:00"), "tmueller", "settings.changed", {"username": "tmueller", "captureMode": "single", "flash": True})
emit(T("2026-11-10 08:00:00"), "bret", "settings.changed", {"username": "bret", "historyWindow": "90d"})

SEARCHES = {
    "ines": ["serum", "Rolex", "sneaker", "B-10", "rolex", "Hologram", "Lyon", "münchen", "SUPREME", "charger",
             "Café", "serum", "lego", "tmueller", "Itlay"],
    "tmueller": ["Nike", "air runner", "NIKE", "Straße", "  counterfeit  "],
    "kwan": ["上海", "Seamaster", "📦"],
    "bret": ["Chanel"],
}
for u, qs in SEARCHES.items():
    at = T("2026-10-01 10:00:00") + rng.randint(0, 5 * HOUR)
    for q in qs:
        at += rng.randint(1, 4) * DAY + rng.randint(0, 3 * HOUR)
        emit(at, u, "search.performed", {"username": u, "query": q})

# ------------------------------------------------------------------ fitness, goals, sessions

emit(T("2026-09-02 07:00:00"), "ines", "fitness.updated", {"username": "ines", "bodyType": 1, "heightInches": 65})
emit(T("2026-09-02 07:30:00"), "tmueller", "fitness.updated", {"username": "tmueller", "bodyType": 2, "heightInches": 74})
emit(T("2026-09-20 18:00:00"), "bret", "fitness.updated", {"username": "bret", "bodyType": 0, "heightInches": 62})
emit(T("2026-11-01 07:00:00"), "tmueller", "fitness.updated", {"username": "tmueller", "bodyType": 1, "heightInches": 74})

GOALS = [
    ("2026-09-02 07:05:00", "ines", "2026-09", "jumps", 20000),
    ("2026-09-02 07:06:00", "ines", "2026-09", "calories", 1500),
    ("2026-09-02 07:06:30", "ines", "2026-09", "scans", 40),
    ("2026-09-02 07:40:00", "tmueller", "2026-09", "jumps", 15000),
    ("2026-09-28 19:00:00", "ines", "2026-10", "jumps", 25000),
    ("2026-09-28 19:01:00", "ines", "2026-10", "calories", 1800),
    ("2026-10-01 08:00:00", "ines", "2026-10", "scans", 120),
    ("2026-10-01 08:10:00", "tmueller", "2026-10", "jumps", 18000),
    ("2026-10-01 08:11:00", "tmueller", "2026-10", "scans", 100),
    ("2026-10-03 09:00:00", "bret", "2026-10", "calories", 900),
    ("2026-10-15 09:00:00", "bret", "2026-10", "jumps", 12000),
    ("2026-11-01 07:05:00", "ines", "2026-11", "jumps", 30000),
    ("2026-11-01 07:06:00", "ines", "2026-11", "calories", 2000),
    ("2026-11-01 07:07:00", "ines", "2026-11", "scans", 90),
    ("2026-11-01 07:10:00", "tmueller", "2026-11", "jumps", 20000),
    ("2026-11-01 07:11:00", "tmueller", "2026-11", "scans", 80),
    ("2026-11-01 07:12:00", "tmueller", "2026-11", "calories", 1200),
    ("2026-11-09 20:00:00", "tmueller", "2026-11", "scans", 0),      # turned off
    ("2026-11-10 08:00:00", "kwan", "2026-11", "scans", 60),
    ("2026-11-10 08:01:00", "kwan", "2026-11", "jumps", 0),          # off, although kwan never jumps
    ("2026-11-15 10:00:00", "ines", "2026-11", "jumps", 32000),      # raised: the last one counts
    ("2026-11-18 21:00:00", "ines", "2026-12", "jumps", 35000),      # a future month
    ("2026-11-02 09:00:00", "bret", "2026-11", "jumps", 10000),
]
for at, u, month, metric, target in GOALS:
    emit(T(at), u, "goal.set", {"username": u, "month": month, "metric": metric, "target": target})

PARKS = ["Plainfield Trampoline Park", "Sky Zone Lyon", "Jump House München", "Parc de la Tête d'Or", "Trampolinhalle Süd"]
sess_no = {}
for u, months, per_month in (("ines", ["2026-09", "2026-10", "2026-11"], 7), ("tmueller", ["2026-09", "2026-10", "2026-11"], 5),
                             ("bret", ["2026-10", "2026-11"], 4)):
    for m in months:
        days = sorted(rng.sample(range(1, 29 if m != "2026-11" else 20), per_month))
        for dd in days:
            date = f"{m}-{dd:02d}"
            sh = rng.randint(7, 19)
            dur = rng.choice([30, 45, 60, 90])
            st = f"{sh:02d}:{rng.choice([0, 15, 30]):02d}"
            e = dt.datetime.fromisoformat(f"{date}T{st}") + dt.timedelta(minutes=dur)
            et = f"{min(e.hour, 23):02d}:{e.minute if e.hour < 24 else 59:02d}"
            jumps = rng.randint(1500, 6000) * dur // 60
            cal = jumps * rng.randint(55, 70) // 1000
            sess_no[u] = sess_no.get(u, 0) + 1
            rec = T(f"{date} {et}:00") + rng.randint(5, 90) * MIN
            if rng.random() < 0.2:
                rec += DAY  # recorded the next day
            if rec > T("2026-11-20 17:00:00"):
                rec = T("2026-11-20 17:00:00")
            actor = "admin" if (u == "bret" and sess_no[u] == 2) else u
            emit(rec, actor, "session.recorded",
                 {"username": u, "sessionId": f"{u[:3]}-{sess_no[u]:03d}", "date": date, "park": rng.choice(PARKS),
                  "startTime": st, "endTime": et, "jumps": jumps, "calories": cal})
# two sessions on the same date: the later endTime is the "last session"
emit(T("2026-11-19 20:00:00"), "ines", "session.recorded",
     {"username": "ines", "sessionId": "ine-eve", "date": "2026-11-19", "park": "Sky Zone Lyon",
      "startTime": "18:00", "endTime": "19:30", "jumps": 4100, "calories": 260})
emit(T("2026-11-19 20:05:00"), "ines", "session.recorded",
     {"username": "ines", "sessionId": "ine-noon", "date": "2026-11-19", "park": "Parc de la Tête d'Or",
      "startTime": "12:00", "endTime": "12:45", "jumps": 2300, "calories": 150})

# ------------------------------------------------------------------ the deletion

emit(T("2026-11-12 10:30:00"), "admin", "account.deleted",
     {"username": "elwyn.skiles", "reason": "Identity could not be verified — data not real"})

# ------------------------------------------------------------------ write


def build():
    ev = sorted(EVENTS, key=lambda e: (e[0], e[1]))
    lines = []
    for i, (us, _, raw_at, actor, typ, data) in enumerate(ev, 1):
        lines.append(json.dumps({"id": f"demo-{i:04d}", "type": typ, "at": raw_at, "actor": actor, "data": data},
                                ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n"


NOW = "2026-11-20T18:00:00Z"

QUESTIONS = [
    ("history-default", ["history"], {}),
    ("history-failed-limit5", ["history", "--type", "failed", "--limit", "5"], {}),
    ("history-success-7d", ["history", "--type", "success", "--window", "7d", "--limit", "10"], {}),
    ("history-today", ["history", "--window", "today"], {}),
    ("history-30d-offset", ["history", "--window", "30d", "--limit", "7", "--offset", "20"], {}),
    ("history-90d-watches", ["history", "--window", "90d", "--category", "Watches", "--limit", "1000"], {}),
    ("history-category-apparel-failed", ["history", "--category", "Apparel", "--type", "failed"], {}),
    ("history-search-serum", ["history", "--search", "SERUM"], {}),
    ("history-search-cafe-accent", ["history", "--search", "CAFÉ", "--limit", "3"], {}),
    ("history-search-batch", ["history", "--search", "b-10", "--limit", "20"], {}),
    ("history-search-report-message", ["history", "--search", "sticker over"], {}),
    ("history-search-actor", ["history", "--search", "WEISS", "--limit", "5"], {}),
    ("history-search-emoji", ["history", "--search", "📦", "--limit", "5"], {}),
    ("history-search-empty", ["history", "--search", "", "--limit", "2"], {}),
    ("history-by-deleted-customer", ["history", "--by", "elwyn.skiles"], {}),
    ("history-by-ines-viewer-default-window", ["history", "--by", "ines"], {"as": "ines"}),
    ("history-viewer-today-window", ["history"], {"as": "jweiss"}),
    ("history-as-of-seq", ["history", "--limit", "3"], {"asOf": "400", "now": None}),
    ("history-as-of-time", ["history", "--window", "7d", "--limit", "3"], {"asOf": "2026-10-15T12:00:00Z", "now": None}),
    ("history-limit-0", ["history", "--limit", "0"], {}),
    ("history-limit-1001", ["history", "--limit", "1001"], {}),
    ("history-window-1d", ["history", "--window", "1d"], {}),
    ("history-type-fake", ["history", "--type", "fake"], {}),
    ("history-by-unknown", ["history", "--by", "nobody"], {}),
    ("show-scan", ["show", "s-0007"], {}),
    ("show-unknown", ["show", "s-9999"], {}),
    ("stats", ["stats"], {}),
    ("stats-by-kwan", ["stats", "--by", "kwan"], {}),
    ("stats-by-deleted", ["stats", "--by", "elwyn.skiles"], {}),
    ("stats-as-of-october", ["stats"], {"asOf": "2026-10-31T23:59:59Z", "now": None}),
    ("lockout-all", ["lockout"], {}),
    ("lockout-bret-locked", ["lockout", "bret"], {}),
    ("lockout-ines-unlocked", ["lockout", "ines"], {}),
    ("lockout-bret-after-lock", ["lockout", "bret"], {"now": "2026-11-20T18:00:41.5Z"}),
    ("lockout-deleted", ["lockout", "elwyn.skiles"], {}),
    ("lockout-unknown", ["lockout", "ghost"], {}),
    ("customers", ["customers"], {}),
    ("customers-inprocess", ["customers", "--status", "INPROCESS"], {}),
    ("customers-status-bad", ["customers", "--status", "DONE"], {}),
    ("customer-show-bret", ["customer", "show", "bret"], {}),
    ("customer-show-kamren", ["customer", "show", "kamren"], {}),
    ("customer-show-deleted", ["customer", "show", "elwyn.skiles"], {}),
    ("customer-show-inspector", ["customer", "show", "ines"], {}),
    ("goals-ines", ["goals", "ines"], {}),
    ("goals-ines-october", ["goals", "ines", "--month", "2026-10"], {}),
    ("goals-tmueller", ["goals", "tmueller"], {}),
    ("goals-bret", ["goals", "bret", "--month", "2026-10"], {}),
    ("goals-kwan", ["goals", "kwan"], {}),
    ("goals-future-month", ["goals", "ines", "--month", "2026-12"], {}),
    ("goals-bad-month", ["goals", "ines", "--month", "2026-13"], {}),
    ("goals-deleted", ["goals", "elwyn.skiles"], {}),
    ("accounts", ["accounts"], {}),
    ("settings-ines", ["settings", "ines"], {}),
    ("settings-defaults", ["settings", "samantha"], {}),
    ("settings-tmueller", ["settings", "tmueller"], {}),
    ("searches-ines", ["searches", "ines"], {}),
    ("searches-tmueller", ["searches", "tmueller"], {}),
    ("searches-none", ["searches", "admin"], {}),
    ("log-status", ["log", "status"], {}),
    ("replay", ["replay"], {}),
    ("replay-as-of-seq", ["replay"], {"asOf": "120", "now": None}),
    ("viewer-deleted", ["stats"], {"as": "elwyn.skiles"}),
]


def main():
    text = build()
    path = os.path.join(ROOT, "Events", "demo.ndjson")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    log = oracle.load_log(path)  # validates every rule
    print(f"{path}: {len(log)} events, head {log[-1].hash}")
    out = os.path.join(ROOT, "Projections", "demo")
    shutil.rmtree(out, ignore_errors=True)
    for name, args, kw in QUESTIONS:
        now = kw.get("now", NOW)
        q = oracle.make_question(log, args, now=now, as_of=kw.get("asOf"), viewer=kw.get("as"))
        oracle.write_question(out, name, q)
        print(f"  {name}: exit {q['exit']}")


if __name__ == "__main__":
    main()
