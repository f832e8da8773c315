#!/usr/bin/env python3
"""Write a large, realistic, valid event log for the benchmarks (scripts/bench.sh, docs/BENCHMARKS.md).

    python3 scripts/gen_bench.py N OUT.ndjson [--seed S]

Deterministic (seeded) and fast (about 1 µs of Python per byte: 1,000,000 events in well under a minute),
standard library only. The log passes every rule of /work/shared/spec/events.md:

- `system` registers the admin `admin` and sets its passcode; the admin registers 200 accounts
  (150 inspectors, 50 customers with addresses, most with geo and company) and sets their passcodes.
- ~92% `scan.recorded` (~400 bytes each as NDJSON): a catalogue of 12 categories, realistic product names and
  brands, locations, notes now and then, a code that repeats now and then (`seenBefore` > 0), single scans and
  batch runs (`mode` batch with a `batchId`; `batchId` never without batch mode).
- `counterfeit.reported` (each scan at most once, mostly of counterfeit scans), `passcode.attempted` with the
  lockout of projections.md §3 modelled exactly (three denials lock for 60 s; a retry inside the minute is
  `locked`; the next try after it starts afresh), `search.performed` (queries taken from the scans' text),
  `settings.changed`, `status.changed` (always to a different status), `account.updated`, `fitness.updated`,
  `goal.set` (month not before the month of `at`; a calories target above 0 only after a fitness.updated),
  `session.recorded` (sessionId unique per user, date not after the date of `at`, end after start).
- `at` never decreases: events fall in working hours (07:00–18:00 UTC) over the 90 days ending 2026-11-20,
  so `--now 2026-11-20T18:00:00Z` is after the last event.
- Every event has an explicit id (`bench-0000001`, …), so seqs and hashes are reproducible.

The passcode credential is computed once (PBKDF2-SHA256, 100 000 iterations) and reused for every passcode.set.
"""
import base64
import datetime as dt
import hashlib
import json
import random
import sys

UTC = dt.timezone.utc
DAYS = 90
END_DAY = dt.datetime(2026, 11, 20, tzinfo=UTC)
FIRST_DAY = END_DAY - dt.timedelta(days=DAYS - 1)  # 2026-08-23
DAY_OPEN = 7 * 3600  # working hours 07:00–18:00 UTC
DAY_LEN = 11 * 3600
NOW = "2026-11-20T18:00:00Z"  # after every event; bench.sh passes it as --now

CATALOGUE = {
    "Apparel": [
        ("Classic Fit Polo Shirt L.12.12, Navy, Size M", "Lacoste"), ("Box Logo Hooded Sweatshirt, Heather Grey", "Supreme"),
        ("501 Original Fit Jeans, Stonewash 32/34", "Levi's"), ("Kensington Heritage Trench Coat, Honey", "Burberry"),
        ("Nuptse 1996 Retro Down Jacket, Black", "The North Face"), ("Oversized Logo T-Shirt, White", "Balenciaga")],
    "Cosmetics": [
        ("Advanced Night Repair Serum 50 ml", "Estée Lauder"), ("Rouge Dior Lipstick 999 Velvet", "Dior"),
        ("Crème de la Mer Moisturizing Cream 60 ml", "La Mer"), ("N°5 Eau de Parfum Spray 100 ml", "Chanel"),
        ("Ultra Facial Cream 125 ml", "Kiehl's"), ("Double Wear Stay-in-Place Foundation", "Estée Lauder")],
    "Electronics": [
        ("AirPods Pro (2nd generation) with MagSafe Case", "Apple"), ("25W Super Fast Charger USB-C", "Samsung"),
        ("PowerCore 20000 mAh Power Bank", "Anker"), ("QuickFit 22 Silicone Watch Band", "Garmin"),
        ("WH-1000XM5 Wireless Noise Cancelling Headphones", "Sony"), ("Lightning to USB-C Cable 1 m", "Apple")],
    "Footwear": [
        ("Air Max 90 Running Shoe, White/Black, EU 42", "Nike"), ("Superstar Shell Toe Sneaker, EU 40", "adidas"),
        ("1460 Smooth Leather Lace-Up Boots, EU 41", "Dr. Martens"), ("XT-6 Trail Sneaker, EU 44", "Salomon"),
        ("Chuck 70 High Top, Parchment, EU 39", "Converse"), ("Gel-Kayano 30, EU 43", "ASICS")],
    "Watches": [
        ("Submariner Date 126610LN, Oystersteel", "Rolex"), ("Seamaster Diver 300M Co-Axial", "Omega"),
        ("Carrera Chronograph 42 mm", "TAG Heuer"), ("Royal Oak Selfwinding 41 mm", "Audemars Piguet")],
    "Handbags": [
        ("Speedy Bandoulière 30 Monogram Canvas", "Louis Vuitton"), ("Saddle Bag Oblique Jacquard", "Dior"),
        ("Kelly 28 Togo Leather, Gold Hardware", "Hermès"), ("GG Marmont Small Shoulder Bag", "Gucci")],
    "Pharmaceuticals": [
        ("Ibuprofen 400 mg Film-Coated Tablets x24", "Nurofen"), ("Vitamin D3 1000 IU Softgels x90", "Centrum"),
        ("Cetirizine 10 mg Allergy Relief x30", "Zyrtec"), ("Paracetamol 500 mg Caplets x16", "Panadol")],
    "Toys": [
        ("Technic Porsche 911 GT3 RS Building Set 42056", "LEGO"), ("Original Teddy Bear 30 cm, Blond", "Steiff"),
        ("Track Builder Unlimited Racing Set", "Hot Wheels"), ("Barbie Dreamhouse 2023", "Mattel")],
    "Spirits": [
        ("Single Malt Scotch Whisky 12 Year Old 70 cl", "Glenfiddich"), ("Cognac VSOP Privilège 70 cl", "Hennessy"),
        ("Reserva Exclusiva Rum 70 cl", "Diplomático")],
    "Auto Parts": [
        ("Front Brake Pad Set BP1234, Ceramic", "Bosch"), ("Oil Filter HU 719/7 x", "Mann-Filter"),
        ("Iridium Spark Plug IK20TT (4 pcs)", "Denso")],
    "Eyewear": [
        ("Wayfarer Classic RB2140 Sunglasses, Black/G-15", "Ray-Ban"), ("Holbrook Polarized Sunglasses", "Oakley"),
        ("Aviator Titanium Optical Frame 55 mm", "Persol")],
    "Accessories": [
        ("Leather Bifold Wallet with Coin Pocket", "Montblanc"), ("Silk Twill Scarf 90 cm", "Hermès"),
        ("Reversible Leather Belt 35 mm", "Gucci"), ("Monogram Key Pouch", "Louis Vuitton")],
}
CAT_WEIGHTS = {"Apparel": 14, "Cosmetics": 13, "Electronics": 12, "Footwear": 12, "Watches": 6, "Handbags": 7,
               "Pharmaceuticals": 9, "Toys": 6, "Spirits": 4, "Auto Parts": 5, "Eyewear": 6, "Accessories": 6}
LOCATIONS = [
    "Marché de la Croix-Rousse, Boulevard de la Croix-Rousse, Lyon", "Hauptbahnhof München, Ladenpassage Ost",
    "Port of Rotterdam, Maasvlakte II, Hall 4", "Zürich Airport Customs, Cargo Building 3",
    "Flohmarkt am Mauerpark, Berlin Prenzlauer Berg", "Warehouse 7, Port of Gdańsk", "上海 南京路步行街",
    "Online order #55812 (marketplace seller)", "Mercado de San Miguel, Madrid", "Camden Market, Stables Yard, London",
    "Porta Portese flea market, Roma", "Customs office Antwerp, Bay 12", "Duty-free shop, Lisbon Terminal 1",
    "Street stall near Piazza Navona, Roma", "Distribution centre Venlo, Dock 22", "Brick Lane Sunday Upmarket"]
NOTES = ["Stitching uneven along the collar", "Hologram sticker missing on the box", "Seal broken, tamper tape re-applied",
         "Box crushed, contents intact 📦", "Price far below retail (about 70% off)", "Serial number font looks off",
         "Bought from a street seller without receipt", "Gift from a friend, origin unknown",
         "Batch from a customs seizure, see case file", "Label says “Made in Itlay”", "Straße-Verkauf, Quittung fehlt",
         "Logo embossing shallower than reference", "QR sticker printed over the original code",
         "Weight differs from reference sample by 12 g", "Packaging colour slightly off (Pantone mismatch)"]
SEARCHES = ["rolex", "serum", "Nike", "hologram", "Lyon", "münchen", "SUPREME", "charger", "Itlay", "batch",
            "Glenfiddich", "lego", "Gdańsk", "receipt", "Ray-Ban", "customs", "Hermès", "Air Max", "上海", "seal"]
FIRST = ["anna", "ben", "chloe", "david", "emma", "felix", "giulia", "hugo", "ines", "jonas", "kai", "lea", "marco",
         "nora", "oscar", "paula", "quentin", "rosa", "sven", "tessa", "umut", "vera", "wei", "yara", "zoe"]
LAST = ["moreau", "mueller", "wan", "weiss", "rossi", "nowak", "garcia", "dubois", "silva", "jensen", "kowalski",
        "fischer", "bernard", "costa", "novak", "lindqvist", "schmidt", "martin", "lopez", "berg"]
DISPLAY = {"ines": "Inès", "zoe": "Zoë", "umut": "Ümüt", "wei": "Wei 伟"}
CITIES = [("Lyon", "69002", 45.764043, 4.835659), ("München", "80331", 48.137154, 11.576124),
          ("Lisboa", "1100-148", 38.722252, -9.139337), ("Kraków", "31-008", 50.064651, 19.944981),
          ("Montréal", "H2Y 1C6", 45.501689, -73.567256), ("Zürich", "8001", 47.376887, 8.541694),
          ("Ōsaka", "530-0001", 34.693738, 135.502165), ("Barcelona", "08002", 41.385064, 2.173404),
          ("Dublin", "D02 X285", 53.349805, -6.26031), ("Seattle", "98104", 47.606209, -122.332071),
          ("上海", "200001", 31.230416, 121.473701), ("Stockholm", "111 21", 59.329323, 18.068581),
          ("Gent", "9000", None, None)]
STREETS = ["Kulas Light", "Victor Plains", "Douglas Extension", "Hoeger Mall", "Skiles Walks", "Norberto Crossing",
           "Rex Trail", "Ellsworth Summit", "Dayna Park", "Kattie Turnpike", "Rua Augusta", "Drottninggatan"]
COMPANIES = [("Romaguera-Crona", "Multi-layered client-server neural-net", "harness real-time e-markets"),
             ("Deckow-Crist", "Proactive didactic contingency", "synergize scalable supply-chains"),
             ("Keebler LLC", "User-centric fault-tolerant solution", None), ("Åström & Söner AB", None, None),
             ("Chén Trading 陈氏贸易", "Quality you can verify ✅", "source authentic goods")]
STATUSES = ["AWAITED", "FAILEDTOREACH", "ONBOARDED", "INPROCESS", "COMPLETED", "DENIED"]
NEXT_STATUS = {"AWAITED": ["ONBOARDED", "FAILEDTOREACH"], "FAILEDTOREACH": ["AWAITED", "ONBOARDED", "DENIED"],
               "ONBOARDED": ["INPROCESS", "DENIED"], "INPROCESS": ["COMPLETED", "FAILEDTOREACH"],
               "COMPLETED": ["INPROCESS"], "DENIED": ["AWAITED"]}
PARKS = ["Plainfield Trampoline Park", "Sky Zone Lyon", "Jump House München", "Parc de la Tête d'Or",
         "Trampolinhalle Süd"]
REASONS = ["packaging", "label", "serial", "price", "seller", "other"]


def js(s):
    return json.dumps(s, ensure_ascii=False)


def fmt_at(sec):
    return dt.datetime.fromtimestamp(sec, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def credential():
    salt = hashlib.sha256(b"veritrail-bench-salt").digest()[:16]
    h = hashlib.pbkdf2_hmac("sha256", b"2468", salt, 100000, 32)
    return {"scheme": "pbkdf2-sha256", "iterations": 100000,
            "salt": base64.b64encode(salt).decode(), "hash": base64.b64encode(h).decode()}


class Gen:
    def __init__(self, n, out, seed):
        self.n = n
        self.out = out
        self.rng = random.Random(seed)
        self.count = 0
        self.cred = credential()
        self.t = int(FIRST_DAY.timestamp()) + DAY_OPEN  # seconds
        self._at_sec = -1
        self._at_str = ""
        self.buf = []

    # -- writing
    def at(self):
        if self.t != self._at_sec:
            self._at_sec = self.t
            self._at_str = fmt_at(self.t)
        return self._at_str

    def raw(self, typ, actor, data_json):
        """Append one event whose data is already JSON text."""
        self.count += 1
        self.buf.append(f'{{"id":"bench-{self.count:07d}","type":"{typ}","at":"{self.at()}","actor":"{actor}",'
                        f'"data":{data_json}}}\n')
        if len(self.buf) >= 8192:
            self.flush()

    def emit(self, typ, actor, data):
        self.raw(typ, actor, json.dumps(data, ensure_ascii=False, separators=(",", ":")))

    def flush(self):
        self.out.write("".join(self.buf))
        self.buf.clear()

    def step(self, lo, hi):
        self.t += self.rng.randint(lo, hi)

    # -- the log
    def setup(self):
        rng = self.rng
        self.emit("account.registered", "system",
                  {"username": "admin", "role": "admin", "name": "Amélie Durand",
                   "email": "amelie.durand@veritrail.example", "phone": "+33 4 72 10 20 30"})
        self.emit("passcode.set", "system", {"username": "admin", "credential": self.cred})
        self.inspectors, self.customers = [], []
        self.status = {}
        self.fit = set()
        self.sessions = {}
        self.lock = {}  # user -> [failures, lockedUntil or None]
        used = set()
        for i in range(200):
            if self.count >= self.n:
                return
            first, last = FIRST[i % len(FIRST)], LAST[(i * 7 + i // len(FIRST)) % len(LAST)]
            u = f"{first}.{last}{i:03d}"
            assert u not in used
            used.add(u)
            name = f"{DISPLAY.get(first, first.capitalize())} {last.capitalize()}"
            self.step(5, 40)
            if i % 4 == 3 and len(self.customers) < 50:
                city, zipc, lat, lng = CITIES[i % len(CITIES)]
                d = {"username": u, "role": "customer", "name": name, "email": f"{u}@customers.example",
                     "phone": f"+33 6 {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)}",
                     "address": {"street": f"{rng.randint(1, 250)} {rng.choice(STREETS)}", "suite": f"Apt. {rng.randint(1, 999)}",
                                 "city": city, "zipcode": zipc}}
                if lat is not None:
                    d["geo"] = {"lat": lat, "lng": lng}
                if i % 3 == 0:
                    cn, cp, bs = COMPANIES[i % len(COMPANIES)]
                    c = {"name": cn}
                    if cp:
                        c["catchPhrase"] = cp
                    if bs:
                        c["bs"] = bs
                    d["company"] = c
                self.customers.append(u)
                self.status[u] = "AWAITED"
            else:
                d = {"username": u, "role": "inspector", "name": name, "email": f"{u}@veritrail.example"}
                if i % 5 == 0:
                    d["website"] = f"{first}-{last}.example"
                self.inspectors.append(u)
            self.emit("account.registered", "admin", d)
        for u in self.inspectors + self.customers:
            if self.count >= self.n:
                return
            self.step(1, 10)
            self.emit("passcode.set", "admin", {"username": u, "credential": self.cred})
            self.lock[u] = [0, None]
        self.scanners = self.inspectors * 9 + self.customers  # customers scan now and then
        self.movers = self.inspectors[:60] + self.customers[:20]  # the ones with fitness goals

    def main(self):
        rng = self.rng
        remaining = self.n - self.count
        if remaining <= 0:
            return
        start_day = int(FIRST_DAY.timestamp())
        base_pos = self.t - start_day - DAY_OPEN  # working seconds already used on day 0
        total = DAYS * DAY_LEN - base_pos - 60
        per = total / remaining
        self.scan_no = 0
        self.batch_no = 0
        self.codes = []  # recent codes, to repeat now and then
        self.to_report = []  # scan ids not yet reported (recent counterfeit ones first)
        self.reported = 0
        cats = list(CAT_WEIGHTS)
        cat_cum = []
        acc = 0
        for c in cats:
            acc += CAT_WEIGHTS[c]
            cat_cum.append(acc)
        self.cat_pick = (cats, cat_cum, acc)
        # pre-serialised fragments of the catalogue
        self.frag = {c: [(f'"productName":{js(p)},"brand":{js(b)},"category":{js(c)}',
                          f'"productName":{js(p)},"category":{js(c)}', b) for p, b in CATALOGUE[c]] for c in cats}
        self.loc_frag = [f',"location":{js(x)}' for x in LOCATIONS]
        self.note_frag = [f',"notes":{js(x)}' for x in NOTES]
        first = self.count
        while self.count < self.n:
            # where this event falls in the working time of the 90 days
            pos = base_pos + int((self.count - first) * per)
            day, off = divmod(pos, DAY_LEN)
            planned = start_day + day * 86400 + DAY_OPEN + off
            if planned > self.t:
                self.t = planned
            r = rng.random()
            if r < 0.905:
                self.scans()
            elif r < 0.925:
                self.report()
            elif r < 0.955:
                self.attempts()
            elif r < 0.968:
                self.emit_search()
            elif r < 0.972:
                self.settings()
            elif r < 0.974:
                self.status_change()
            elif r < 0.975:
                self.account_update()
            elif r < 0.977:
                self.fitness()
            elif r < 0.982:
                self.goal()
            else:
                self.session()

    def scans(self):
        """One scan, or a batch run of 3–12 by the same actor, seconds apart."""
        rng = self.rng
        actor = rng.choice(self.scanners)
        k = 1
        batch = None
        if rng.random() < 0.025:
            k = min(rng.randint(3, 12), self.n - self.count)
            self.batch_no += 1
            batch = f',"batchId":"B-{self.at()[5:10].replace("-", "")}-{self.batch_no:05d}"'
        cats, cat_cum, total = self.cat_pick
        x = rng.random() * total
        i = 0
        while cat_cum[i] <= x:
            i += 1
        cat = cats[i]
        for j in range(k):
            if j:
                self.step(2, 9)
            self.scan_no += 1
            sid = f"s-{self.scan_no:07d}"
            r = rng.random()
            if r < 0.06 and self.codes:
                code, frag_both, frag_nobrand = self.codes[rng.randrange(len(self.codes))]
                result = "counterfeit" if rng.random() < 0.7 else "authentic"
            else:
                fb, fn, brand = self.frag[cat][rng.randrange(len(self.frag[cat]))]
                frag_both, frag_nobrand = fb, fn
                abbr = "".join(ch for ch in brand.upper() if ch.isascii() and ch.isalnum())[:4]
                if r < 0.09:
                    code = f"{rng.randrange(10**12, 10**13)}"  # a plain EAN-13 typed in
                else:
                    code = f"https://verify.veritrail.example/c/{abbr}-{rng.getrandbits(48):012x}?lot={rng.randrange(100000):05d}"
                if len(self.codes) < 20000:
                    self.codes.append((code, fb, fn))
                else:
                    self.codes[rng.randrange(20000)] = (code, fb, fn)
                result = "counterfeit" if rng.random() < 0.08 else "authentic"
            names = frag_both if rng.random() < 0.92 else frag_nobrand
            if batch:
                mode, source = "batch", "camera"
            else:
                mode = "single"
                source = "manual" if code[0] != "h" else ("camera" if rng.random() < 0.85 else "gallery")
            flash = "true" if rng.random() < 0.25 else "false"
            loc = self.loc_frag[rng.randrange(len(self.loc_frag))] if rng.random() < 0.75 else ""
            notes = ""
            if rng.random() < (0.6 if result == "counterfeit" else 0.12):
                notes = self.note_frag[rng.randrange(len(self.note_frag))]
            self.raw("scan.recorded", actor,
                     f'{{"scanId":"{sid}","code":"{code}",{names},"result":"{result}","mode":"{mode}",'
                     f'"source":"{source}","flash":{flash}{loc}{batch or ""}{notes}}}')
            if result == "counterfeit" or rng.random() < 0.004:
                self.to_report.append(sid)
                if len(self.to_report) > 5000:
                    self.to_report.pop(0)
            if self.count >= self.n:
                return

    def report(self):
        rng = self.rng
        if not self.to_report:
            return self.scans()
        sid = self.to_report.pop(rng.randrange(len(self.to_report)))
        reason = REASONS[rng.randrange(6)]
        d = {"scanId": sid, "reason": reason}
        if reason == "other" or rng.random() < 0.3:
            d["message"] = rng.choice(["Seller refused to give a receipt", "QR code printed on a sticker over the original",
                                       "Käufer meldet abweichendes Gewicht", "Smells wrong — not the real fragrance",
                                       "Sold at a market stall", "Ask customs for the shipment"])
        self.emit("counterfeit.reported", rng.choice(self.scanners), d)

    def attempts(self):
        """A user unlocks: granted, or a typo or two first; now and then three denials and a lockout."""
        rng = self.rng
        u = rng.choice(self.scanners)
        st = self.lock[u]
        bad = rng.random()
        tries = 0 if bad < 0.85 else (1 if bad < 0.96 else (2 if bad < 0.99 else 3))
        for n in range(tries + 1):
            if self.count >= self.n:
                return
            if n:
                self.step(4, 20)
            if st[1] is not None and self.t >= st[1]:  # the lock ran out
                st[0], st[1] = 0, None
            if st[1] is not None:
                self.emit("passcode.attempted", u, {"username": u, "outcome": "locked"})
                return
            if n < tries:
                st[0] += 1
                self.emit("passcode.attempted", u, {"username": u, "outcome": "denied"})
                if st[0] >= 3:
                    st[1] = self.t + 60
                    if rng.random() < 0.5 and self.count < self.n:  # tries again inside the minute
                        self.step(5, 30)
                        self.emit("passcode.attempted", u, {"username": u, "outcome": "locked"})
                    return
            else:
                st[0] = 0
                self.emit("passcode.attempted", u, {"username": u, "outcome": "granted"})

    def emit_search(self):
        u = self.rng.choice(self.scanners)
        self.emit("search.performed", u, {"username": u, "query": self.rng.choice(SEARCHES)})

    def settings(self):
        rng = self.rng
        u = rng.choice(self.scanners)
        d = {"username": u}
        r = rng.random()
        if r < 0.4:
            d["historyWindow"] = rng.choice(["today", "7d", "30d", "90d", "all"])
        elif r < 0.7:
            d["captureMode"] = rng.choice(["single", "batch"])
        elif r < 0.95:
            d["flash"] = rng.random() < 0.5
        else:
            d["color"] = "white"
            d["flash"] = False
        self.emit("settings.changed", u, d)

    def status_change(self):
        rng = self.rng
        u = rng.choice(self.customers)
        new = rng.choice(NEXT_STATUS[self.status[u]])
        self.status[u] = new
        d = {"username": u, "status": new}
        if rng.random() < 0.3:
            d["note"] = rng.choice(["Documents received", "No answer on phone", "Intro call done — très bien",
                                    "Waiting for W-2 forms", "Return filed ✔"])
        self.emit("status.changed", "admin", d)

    def account_update(self):
        rng = self.rng
        u = rng.choice(self.inspectors + self.customers)
        d = {"username": u, "phone": f"+49 {rng.randint(100, 999)} {rng.randint(100000, 999999)}"}
        self.emit("account.updated", u if rng.random() < 0.7 else "admin", d)

    def fitness(self):
        rng = self.rng
        u = rng.choice(self.movers)
        self.fit.add(u)
        self.emit("fitness.updated", u, {"username": u, "bodyType": rng.randint(0, 2), "heightInches": rng.randint(58, 78)})

    def goal(self):
        rng = self.rng
        u = rng.choice(self.movers)
        month = self.at()[:7]
        if rng.random() < 0.2:  # next month
            y, m = int(month[:4]), int(month[5:7])
            month = f"{y + m // 12}-{m % 12 + 1:02d}"
        metric = rng.choice(["jumps", "calories", "scans"])
        target = {"jumps": rng.randint(50, 400) * 100, "calories": rng.randint(10, 60) * 100,
                  "scans": rng.randint(20, 400)}[metric]
        if rng.random() < 0.05 or (metric == "calories" and u not in self.fit):
            target = 0
        self.emit("goal.set", u, {"username": u, "month": month, "metric": metric, "target": target})

    def session(self):
        rng = self.rng
        u = rng.choice(self.movers)
        n = self.sessions.get(u, 0) + 1
        self.sessions[u] = n
        today = dt.datetime.fromtimestamp(self.t, UTC).date()
        date = today - dt.timedelta(days=rng.choice([0, 0, 0, 1, 1, 2]))
        sh = rng.randint(6, 20)
        sm = rng.choice([0, 15, 30, 45])
        dur = rng.choice([30, 45, 60, 90])
        e = min(sh * 60 + sm + dur, 23 * 60 + 59)
        jumps = rng.randint(1500, 6000) * dur // 60
        self.emit("session.recorded", u if rng.random() < 0.95 else "admin",
                  {"username": u, "sessionId": f"{u.split('.')[0]}-{n:05d}", "date": date.isoformat(),
                   "park": rng.choice(PARKS), "startTime": f"{sh:02d}:{sm:02d}", "endTime": f"{e // 60:02d}:{e % 60:02d}",
                   "jumps": jumps, "calories": jumps * rng.randint(55, 70) // 1000})


def main(argv):
    args = [a for a in argv if not a.startswith("--seed")]
    seed = 20261120
    for a in argv:
        if a.startswith("--seed="):
            seed = int(a.split("=", 1)[1])
    if len(args) != 2 or not args[0].isdigit():
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 64
    n, path = int(args[0]), args[1]
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        g = Gen(n, f, seed)
        g.setup()
        g.main()
        g.flush()
    print(f"{path}: {g.count} events, last at {g.at()}, now {NOW}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
