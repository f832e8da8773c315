#!/usr/bin/env python3
"""Veritrail reference implementation ("oracle") of the event rules and projections.

Independent of the Swift engine; Python 3.11 standard library only.
Contract: /work/shared/spec/events.md, projections.md, cli.md.

Usage:
  python3 scripts/oracle.py EVENTS.ndjson [--now T] [--as-of SEQ|T] [--as USER] -- QUERY...
  python3 scripts/oracle.py --validate FILE [FILE...]
  python3 scripts/oracle.py --export FILE          (out form with seq/id/hash, NDJSON)

QUERY is the veritrail command line after the program name, e.g.
  history --type failed --limit 5 | show S1 | stats --by ines | lockout [USER] |
  customers [--status S] | customer show USER | goals USER [--month M] | accounts |
  settings USER | searches USER | log status | replay

Exit codes: 0 answer on stdout; 64 usage error; 65 refused (unknown user, bad event file...).
"""
from __future__ import annotations

import base64
import calendar
import datetime as _dt
import hashlib
import json
import math
import os
import re
import sys
import uuid
from fractions import Fraction

# --------------------------------------------------------------------------- errors


class UsageError(Exception):
    code = 64


class Refused(Exception):
    code = 65


class EventError(Refused):
    pass


# --------------------------------------------------------------------------- text helpers

WHITE_SPACE = "".join(
    chr(c)
    for c in [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680]
    + list(range(0x2000, 0x200B))
    + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
)


def trim(s: str) -> str:
    return s.strip(WHITE_SPACE)


def lower(s: str) -> str:
    """Full Unicode lower-casing scalar by scalar, without context rules (Σ -> σ always)."""
    return "".join(c.lower() for c in s)


# --------------------------------------------------------------------------- time

TS_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$")
EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def parse_ts(s):
    """Return (microseconds since epoch, normalised string) or None when malformed."""
    if not isinstance(s, str):
        return None
    m = TS_RE.match(s)
    if not m:
        return None
    y, mo, d, h, mi, se = (int(m.group(i)) for i in range(1, 7))
    frac = m.group(7) or ""
    if h > 23 or mi > 59 or se > 59:
        return None
    try:
        dt = _dt.datetime(y, mo, d, h, mi, se, tzinfo=_dt.timezone.utc)
    except ValueError:
        return None
    us = int((frac + "000000")[:6]) if frac else 0
    total = (dt - EPOCH) // _dt.timedelta(seconds=1) * 1_000_000 + us
    f = frac.rstrip("0")
    norm = f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{se:02d}" + (f".{f}" if f else "") + "Z"
    return total, norm


def fmt_us(us: int) -> str:
    secs, frac = divmod(us, 1_000_000)
    dt = EPOCH + _dt.timedelta(seconds=secs)
    s = dt.strftime("%Y-%m-%dT%H:%M:%S")
    if frac:
        s += "." + f"{frac:06d}".rstrip("0")
    return s + "Z"


def us_date(us: int) -> str:
    return (EPOCH + _dt.timedelta(microseconds=us)).strftime("%Y-%m-%d")


def us_month(us: int) -> str:
    return us_date(us)[:7]


DAY_US = 86400 * 1_000_000

# --------------------------------------------------------------------------- numbers


def round4(x) -> float:
    """Round an exact value (Fraction/int) to 4 decimals, half away from zero."""
    x = Fraction(x)
    sign = -1 if x < 0 else 1
    q = math.floor(abs(x) * 10000 + Fraction(1, 2))
    return float(Fraction(sign * q, 10000))


# --------------------------------------------------------------------------- RFC 8785


def _es_number(x) -> str:
    if isinstance(x, bool):
        raise TypeError
    if isinstance(x, int):
        return str(x)
    if x != x or x in (float("inf"), float("-inf")):
        raise ValueError("non-finite number")
    if x == 0:
        return "0"
    if x < 0:
        return "-" + _es_number(-x)
    r = repr(x)  # shortest round-trip digits
    m = re.match(r"^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$", r)
    ip, fp, ex = m.group(1), m.group(2) or "", int(m.group(3) or 0)
    digits = (ip + fp).lstrip("0")
    # position of decimal point relative to start of digits
    lead_zeros = len(ip + fp) - len((ip + fp).lstrip("0"))
    n = len(ip) + ex - lead_zeros
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    es = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return digits + "e" + es
    return digits[0] + "." + digits[1:] + "e" + es


def jcs(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return _es_number(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ",".join(jcs(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + jcs(v[k]) for k in sorted(v)) + "}"
    raise TypeError(type(v))


ZERO_HASH = "0" * 64


def chain(prev: str, out_event: dict) -> str:
    return hashlib.sha256((prev + "\n" + jcs(out_event)).encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- strict JSON parsing


def _pairs(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError(f"duplicate key {k!r}")
        d[k] = v
    return d


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def _check_no_null_surrogate(v, path="event"):
    if v is None:
        raise ValueError(f"{path}: null is not allowed")
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"{path}: lone surrogate")
    elif isinstance(v, dict):
        for k, x in v.items():
            _check_no_null_surrogate(k, path)
            _check_no_null_surrogate(x, f"{path}.{k}")
    elif isinstance(v, list):
        for i, x in enumerate(v):
            _check_no_null_surrogate(x, f"{path}[{i}]")


def read_ndjson(path):
    """Yield (line_number, raw_object). Raises EventError on malformed lines."""
    data = open(path, "rb").read()
    if data.startswith(b"\xef\xbb\xbf"):
        raise EventError("line 1: byte-order mark is refused")
    text = data.decode("utf-8")
    for n, line in enumerate(text.split("\n"), 1):
        if line.endswith("\r"):
            line = line[:-1]
        if line.strip(" \t\r") == "":
            continue
        try:
            obj = json.loads(line, object_pairs_hook=_pairs, parse_constant=_no_constant)
            if not isinstance(obj, dict):
                raise ValueError("not a JSON object")
            _check_no_null_surrogate(obj)
        except ValueError as e:
            raise EventError(f"line {n}: {e}")
        yield n, obj


# --------------------------------------------------------------------------- event rules

USERNAME_RE = re.compile(r"^[a-z][a-z0-9._-]{2,31}$")
ID_RE = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")
DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
TIME_RE = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
STATUSES = ["AWAITED", "FAILEDTOREACH", "ONBOARDED", "INPROCESS", "COMPLETED", "DENIED"]
COLORS = {
    "AWAITED": "yellow", "FAILEDTOREACH": "light-red", "ONBOARDED": "light-green",
    "INPROCESS": "mid-green", "COMPLETED": "dark-green", "DENIED": "red",
}
WINDOWS = ["today", "7d", "30d", "90d", "all"]
DEFAULT_SETTINGS = {"flash": False, "captureMode": "single", "historyWindow": "30d", "color": "white"}
METRICS = ["jumps", "calories", "scans"]
REASONS = ["packaging", "label", "serial", "price", "seller", "other"]


def valid_month(s):
    m = MONTH_RE.match(s) if isinstance(s, str) else None
    return bool(m) and 1 <= int(m.group(2)) <= 12


def valid_date(s):
    if not isinstance(s, str) or not DATE_RE.match(s):
        return False
    try:
        _dt.date.fromisoformat(s)
        return True
    except ValueError:
        return False


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class Ev:
    __slots__ = ("seq", "id", "type", "at", "us", "actor", "data", "hash")

    def out(self):
        return {"seq": self.seq, "id": self.id, "type": self.type, "at": self.at, "actor": self.actor, "data": self.data}


class Checker:
    """Validation helpers for one event's data."""

    def __init__(self, ev, where):
        self.ev = ev
        self.where = where

    def fail(self, field, rule):
        raise EventError(f"{self.where}{self.ev.type}: {field}: {rule}")

    def keys(self, obj, required, optional, path="data"):
        if not isinstance(obj, dict):
            self.fail(path, "must be an object")
        for k in obj:
            if k not in required and k not in optional:
                self.fail(f"{path}.{k}", "unknown key")
        for k in required:
            if k not in obj:
                self.fail(f"{path}.{k}", "is required")

    def text(self, obj, key, lo, hi, path="data", required=True):
        if key not in obj:
            if required:
                self.fail(f"{path}.{key}", "is required")
            return
        v = obj[key]
        if not isinstance(v, str):
            self.fail(f"{path}.{key}", "must be a string")
        v = trim(v)
        obj[key] = v
        if not (lo <= len(v) <= hi):
            self.fail(f"{path}.{key}", f"must be {lo}-{hi} characters after trimming, got {len(v)}")

    def ident(self, obj, key, path="data"):
        v = obj.get(key)
        if not isinstance(v, str) or not ID_RE.match(v):
            self.fail(f"{path}.{key}", "must be 1-64 of [A-Za-z0-9._:-]")

    def enum(self, obj, key, values, path="data"):
        v = obj.get(key)
        if not isinstance(v, str) or v not in values:
            self.fail(f"{path}.{key}", f"must be one of {values}, got {v!r}")

    def boolean(self, obj, key, path="data"):
        if not isinstance(obj.get(key), bool):
            self.fail(f"{path}.{key}", "must be a boolean")

    def integer(self, obj, key, lo, hi, path="data"):
        v = obj.get(key)
        if not is_int(v) or not (lo <= v <= hi):
            self.fail(f"{path}.{key}", f"must be an integer {lo}-{hi}")

    def b64(self, obj, key, lo, hi, path):
        v = obj.get(key)
        if not isinstance(v, str) or not re.fullmatch(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?", v):
            self.fail(f"{path}.{key}", "must be standard base64 with padding")
        n = len(base64.b64decode(v, validate=True))
        if base64.b64encode(base64.b64decode(v)).decode() != v:
            self.fail(f"{path}.{key}", "must be canonical base64")
        if not (lo <= n <= hi):
            self.fail(f"{path}.{key}", f"must decode to {lo}-{hi} bytes")


class LockState:
    def __init__(self):
        self.has = False
        self.failures = 0
        self.locked_until = None
        self.unlocked_until = None
        self.totals = {"granted": 0, "denied": 0, "locked": 0}
        self.last_at = None
        self.last_outcome = None

    def tick(self, t):
        if self.locked_until is not None and t >= self.locked_until:
            self.locked_until = None
            self.failures = 0


class State:
    """The model: applies events in seq order, enforcing every rule of events.md."""

    def __init__(self):
        self.events: list[Ev] = []
        self.ids: dict[str, Ev] = {}
        self.head = ZERO_HASH
        self.accounts: dict[str, dict] = {}
        self.admin_ever = False
        self.scans: dict[str, dict] = {}
        self.scan_order: list[dict] = []
        self.code_count: dict[str, int] = {}
        self.lock: dict[str, LockState] = {}
        self.settings: dict[str, dict] = {}
        self.searches: dict[str, list] = {}
        self.fitness: set[str] = set()
        self.goals: list[Ev] = []
        self.sessions: dict[str, list] = {}
        self.last_us = None

    # ---- helpers
    def active(self, u):
        a = self.accounts.get(u)
        return a is not None and not a["deleted"]

    def is_admin(self, u):
        return self.active(u) and self.accounts[u]["role"] == "admin"

    def email_taken(self, email):
        le = lower(email)
        return any(not a["deleted"] and lower(a["email"]) == le for a in self.accounts.values())

    # ---- normalising one raw line
    def normalise(self, raw, where=""):
        if not isinstance(raw, dict):
            raise EventError(f"{where}event must be an object")
        for k in raw:
            if k not in ("type", "at", "actor", "data", "id", "seq", "hash"):
                raise EventError(f"{where}{k}: unknown top-level key")
        for k in ("type", "at", "actor", "data"):
            if k not in raw:
                raise EventError(f"{where}{k}: is required")
        ev = Ev()
        ev.type = raw["type"]
        if ev.type not in HANDLERS:
            raise EventError(f"{where}type: unknown event type {ev.type!r}")
        p = parse_ts(raw["at"])
        if p is None:
            raise EventError(f"{where}{ev.type}: at: must be YYYY-MM-DDTHH:MM:SS[.ffffff]Z, got {raw['at']!r}")
        ev.us, ev.at = p
        if not isinstance(raw["actor"], str):
            raise EventError(f"{where}{ev.type}: actor: must be a string")
        ev.actor = raw["actor"]
        if "id" in raw:
            if not isinstance(raw["id"], str) or not ID_RE.match(raw["id"]):
                raise EventError(f"{where}{ev.type}: id: must be 1-64 of [A-Za-z0-9._:-]")
            ev.id = raw["id"]
        else:
            ev.id = None
        ev.data = json.loads(json.dumps(raw["data"]))  # deep copy
        if not isinstance(ev.data, dict):
            raise EventError(f"{where}{ev.type}: data: must be an object")
        ev.hash = None
        return ev, raw.get("seq"), raw.get("hash")

    def append(self, raw, where=""):
        ev, claimed_seq, claimed_hash = self.normalise(raw, where)
        c = Checker(ev, where)
        # field rules (also trims) are checked before the history rules
        HANDLERS[ev.type][0](self, ev, c)
        if ev.id is not None and ev.id in self.ids:
            old = self.ids[ev.id]
            same = (old.type, old.at, old.actor, jcs(old.data)) == (ev.type, ev.at, ev.actor, jcs(ev.data))
            if not same:
                raise EventError(f"{where}id: {ev.id!r} is already in the log with different content")
            return None
        if self.last_us is not None and ev.us < self.last_us:
            raise EventError(f"{where}{ev.type}: at: time never runs backwards ({ev.at} is before the previous event)")
        HANDLERS[ev.type][1](self, ev, c)
        ev.seq = len(self.events) + 1
        if ev.id is None:
            ev.id = str(uuid.uuid4())
        if claimed_seq is not None and claimed_seq != ev.seq:
            raise EventError(f"{where}seq: {claimed_seq} does not match {ev.seq}")
        ev.hash = chain(self.head, ev.out())
        if claimed_hash is not None and claimed_hash != ev.hash:
            raise EventError(f"{where}hash: does not match the chain")
        self.head = ev.hash
        self.last_us = ev.us
        self.ids[ev.id] = ev
        self.events.append(ev)
        HANDLERS[ev.type][2](self, ev)
        return ev

    # ---- actor rule
    def need_actor(self, ev, c):
        if not self.active(ev.actor):
            c.fail("actor", f"{ev.actor!r} is not an existing, not deleted account")


# ---- per type: (field rules, history rules, apply)

def _address(c, d, key):
    a = d[key]
    c.keys(a, ["street", "city", "zipcode"], ["suite"], f"data.{key}")
    c.text(a, "street", 1, 100, f"data.{key}")
    c.text(a, "suite", 0, 100, f"data.{key}", required=False)
    c.text(a, "city", 1, 100, f"data.{key}")
    c.text(a, "zipcode", 1, 20, f"data.{key}")


def _geo(c, d):
    g = d["geo"]
    c.keys(g, ["lat", "lng"], [], "data.geo")
    if not is_num(g["lat"]) or not (-90 <= g["lat"] <= 90):
        c.fail("data.geo.lat", "must be a number -90..90")
    if not is_num(g["lng"]) or not (-180 <= g["lng"] <= 180):
        c.fail("data.geo.lng", "must be a number -180..180")


def _company(c, d):
    co = d["company"]
    c.keys(co, ["name"], ["catchPhrase", "bs"], "data.company")
    c.text(co, "name", 1, 100, "data.company")
    c.text(co, "catchPhrase", 0, 200, "data.company", required=False)
    c.text(co, "bs", 0, 200, "data.company", required=False)


def _details(c, d):
    if "name" in d:
        c.text(d, "name", 1, 100)
    if "phone" in d:
        c.text(d, "phone", 1, 40)
    if "website" in d:
        c.text(d, "website", 1, 200)
    if "address" in d:
        _address(c, d, "address")
    if "geo" in d:
        _geo(c, d)
    if "company" in d:
        _company(c, d)


def reg_fields(s, ev, c):
    d = ev.data
    c.keys(d, ["username", "role", "name", "email"], ["phone", "website", "address", "geo", "company"])
    if not isinstance(d["username"], str) or not USERNAME_RE.match(d["username"]) or d["username"] == "system":
        c.fail("data.username", "must match ^[a-z][a-z0-9._-]{2,31}$ and not be 'system'")
    c.enum(d, "role", ["admin", "inspector", "customer"])
    _details(c, d)
    c.text(d, "email", 3, 254)
    e = d["email"]
    if e.count("@") != 1 or e.startswith("@") or e.endswith("@"):
        c.fail("data.email", "must have exactly one @ with text on both sides")
    if d["role"] == "customer" and "address" not in d:
        c.fail("data.address", "is required for a customer")


def reg_rules(s, ev, c):
    d = ev.data
    u = d["username"]
    if ev.actor == "system":
        if d["role"] != "admin" or s.admin_ever:
            c.fail("actor", "system may only register the first admin")
    elif ev.actor == u:
        if d["role"] != "customer":
            c.fail("actor", "only a customer may register themselves")
        if u in s.accounts:
            c.fail("data.username", f"{u!r} already exists")
    else:
        s.need_actor(ev, c)
        if not s.is_admin(ev.actor):
            c.fail("actor", "only an admin may register another account")
    if u in s.accounts:
        c.fail("data.username", f"{u!r} already exists (names are never reused)")
    if s.email_taken(d["email"]):
        c.fail("data.email", "already used by another account")


def reg_apply(s, ev):
    d = ev.data
    a = dict(d)
    a.update(deleted=False, registeredAt=ev.at, registeredBy=ev.actor, registeredSeq=ev.seq, bySystem=(ev.actor == "system"))
    s.accounts[d["username"]] = a
    if d["role"] == "admin":
        s.admin_ever = True
    if d["role"] == "customer":
        a["status"] = "AWAITED"
        a["since"] = ev.at
        a["changedBy"] = ev.actor
        a["history"] = [{"status": "AWAITED", "at": ev.at, "by": ev.actor}]
    s.lock[d["username"]] = LockState()


def upd_fields(s, ev, c):
    d = ev.data
    for k in ("email", "role"):
        if k in d:
            c.fail(f"data.{k}", "can not be changed")
    c.keys(d, ["username"], ["name", "phone", "website", "address", "geo", "company"])
    if len(d) < 2:
        c.fail("data", "needs at least one of name, phone, website, address, geo, company")
    _details(c, d)


def upd_rules(s, ev, c):
    s.need_actor(ev, c)
    u = ev.data["username"]
    if not s.active(u):
        c.fail("data.username", f"{u!r} is not an existing, not deleted account")
    if ev.actor != u and not s.is_admin(ev.actor):
        c.fail("actor", "only the account itself or an admin")


def upd_apply(s, ev):
    a = s.accounts[ev.data["username"]]
    for k, v in ev.data.items():
        if k != "username":
            a[k] = v


def del_fields(s, ev, c):
    c.keys(ev.data, ["username"], ["reason"])
    if "reason" in ev.data:
        c.text(ev.data, "reason", 1, 200)


def del_rules(s, ev, c):
    s.need_actor(ev, c)
    if not s.is_admin(ev.actor):
        c.fail("actor", "only an admin may delete an account")
    u = ev.data["username"]
    if not s.active(u):
        c.fail("data.username", f"{u!r} is not an existing, not deleted account")
    if s.accounts[u]["role"] == "admin":
        if sum(1 for a in s.accounts.values() if a["role"] == "admin" and not a["deleted"]) <= 1:
            c.fail("data.username", "the last admin can not be deleted")


def del_apply(s, ev):
    s.accounts[ev.data["username"]]["deleted"] = True


def pset_fields(s, ev, c):
    d = ev.data
    c.keys(d, ["username", "credential"], [])
    cr = d["credential"]
    c.keys(cr, ["scheme", "iterations", "salt", "hash"], [], "data.credential")
    c.enum(cr, "scheme", ["pbkdf2-sha256", "pbkdf2-sha256-hmac"], "data.credential")
    c.integer(cr, "iterations", 100000, 10000000, "data.credential")
    c.b64(cr, "salt", 16, 64, "data.credential")
    c.b64(cr, "hash", 32, 32, "data.credential")


def pset_rules(s, ev, c):
    u = ev.data["username"]
    if not s.active(u):
        c.fail("data.username", f"{u!r} is not an existing, not deleted account")
    if ev.actor == "system":
        a = s.accounts[u]
        if not (a["role"] == "admin" and a["bySystem"] and not s.lock[u].has):
            c.fail("actor", "system may only set the first admin's first passcode")
        return
    s.need_actor(ev, c)
    if ev.actor != u and not s.is_admin(ev.actor):
        c.fail("actor", "only the account itself or an admin")


def pset_apply(s, ev):
    L = s.lock[ev.data["username"]]
    L.tick(ev.us)
    L.has = True
    L.failures = 0
    L.locked_until = None
    L.unlocked_until = None


def patt_fields(s, ev, c):
    c.keys(ev.data, ["username", "outcome"], [])
    c.enum(ev.data, "outcome", ["granted", "denied", "locked"])


def patt_rules(s, ev, c):
    u = ev.data["username"]
    if ev.actor != u:
        c.fail("actor", "must equal data.username: one enters one's own passcode")
    s.need_actor(ev, c)
    L = s.lock[u]
    if not L.has:
        c.fail("data.username", "has no passcode")
    L.tick(ev.us)
    locked = L.locked_until is not None and ev.us < L.locked_until
    o = ev.data["outcome"]
    if locked and o != "locked":
        c.fail("data.outcome", f"{u} is locked out at {ev.at}; only 'locked' is possible")
    if not locked and o == "locked":
        c.fail("data.outcome", f"{u} is not locked out at {ev.at}")


def patt_apply(s, ev):
    L = s.lock[ev.data["username"]]
    t = ev.us
    L.tick(t)
    o = ev.data["outcome"]
    L.totals[o] += 1
    L.last_at = ev.at
    L.last_outcome = o
    if o == "granted":
        L.failures = 0
        L.unlocked_until = t + 900 * 1_000_000
    elif o == "denied":
        L.failures += 1
        if L.failures >= 3:
            L.locked_until = t + 60 * 1_000_000
            L.unlocked_until = None


def scan_fields(s, ev, c):
    d = ev.data
    c.keys(d, ["scanId", "code", "productName", "category", "result", "mode", "source", "flash"],
           ["brand", "location", "batchId", "notes"])
    c.ident(d, "scanId")
    code = d["code"]
    if not isinstance(code, str) or not (1 <= len(code) <= 2048) or trim(code) == "":
        c.fail("data.code", "must be 1-2048 characters with one that is not white space")
    c.text(d, "productName", 1, 200)
    c.text(d, "brand", 1, 100, required=False)
    c.text(d, "category", 1, 60)
    c.enum(d, "result", ["authentic", "counterfeit"])
    c.enum(d, "mode", ["single", "batch"])
    c.enum(d, "source", ["camera", "gallery", "manual"])
    c.boolean(d, "flash")
    c.text(d, "location", 1, 200, required=False)
    c.text(d, "batchId", 1, 64, required=False)
    c.text(d, "notes", 1, 500, required=False)
    if "batchId" in d and d["mode"] != "batch":
        c.fail("data.batchId", "only with mode batch")


def scan_rules(s, ev, c):
    s.need_actor(ev, c)
    if ev.data["scanId"] in s.scans:
        c.fail("data.scanId", f"{ev.data['scanId']!r} is already in the log")


def scan_apply(s, ev):
    d = ev.data
    sc = {"seq": ev.seq, "us": ev.us, "at": ev.at, "actor": ev.actor, "data": d,
          "seenBefore": s.code_count.get(d["code"], 0), "report": None}
    s.code_count[d["code"]] = sc["seenBefore"] + 1
    s.scans[d["scanId"]] = sc
    s.scan_order.append(sc)


def rep_fields(s, ev, c):
    d = ev.data
    c.keys(d, ["scanId", "reason"], ["message"])
    c.ident(d, "scanId")
    c.enum(d, "reason", REASONS)
    c.text(d, "message", 1, 280, required=(d["reason"] == "other"))


def rep_rules(s, ev, c):
    s.need_actor(ev, c)
    sid = ev.data["scanId"]
    if sid not in s.scans:
        c.fail("data.scanId", f"no scan {sid!r}")
    if s.scans[sid]["report"] is not None:
        c.fail("data.scanId", f"{sid!r} was already reported")


def rep_apply(s, ev):
    r = {"reason": ev.data["reason"], "at": ev.at, "by": ev.actor}
    if "message" in ev.data:
        r["message"] = ev.data["message"]
    s.scans[ev.data["scanId"]]["report"] = r


def set_fields(s, ev, c):
    d = ev.data
    c.keys(d, ["username"], ["flash", "captureMode", "historyWindow", "color"])
    if len(d) < 2:
        c.fail("data", "needs at least one setting")
    if "flash" in d:
        c.boolean(d, "flash")
    if "captureMode" in d:
        c.enum(d, "captureMode", ["single", "batch"])
    if "historyWindow" in d:
        c.enum(d, "historyWindow", WINDOWS)
    if "color" in d:
        c.enum(d, "color", ["white"])


def self_rules(s, ev, c):
    s.need_actor(ev, c)
    if ev.data["username"] != ev.actor:
        c.fail("data.username", "must equal actor (only the account itself)")


def set_apply(s, ev):
    st = s.settings.setdefault(ev.actor, dict(DEFAULT_SETTINGS))
    for k, v in ev.data.items():
        if k != "username":
            st[k] = v


def search_fields(s, ev, c):
    c.keys(ev.data, ["username", "query"], [])
    c.text(ev.data, "query", 1, 100)


def search_apply(s, ev):
    s.searches.setdefault(ev.actor, []).append(ev.data["query"])


def status_fields(s, ev, c):
    d = ev.data
    c.keys(d, ["username", "status"], ["note"])
    c.enum(d, "status", STATUSES)
    c.text(d, "note", 1, 200, required=False)


def status_rules(s, ev, c):
    s.need_actor(ev, c)
    if not s.is_admin(ev.actor):
        c.fail("actor", "only an admin")
    u = ev.data["username"]
    if not s.active(u) or s.accounts[u]["role"] != "customer":
        c.fail("data.username", f"{u!r} is not an existing, not deleted customer")
    if s.accounts[u]["status"] == ev.data["status"]:
        c.fail("data.status", f"{u} is already {ev.data['status']}")


def status_apply(s, ev):
    a = s.accounts[ev.data["username"]]
    a["status"] = ev.data["status"]
    a["since"] = ev.at
    a["changedBy"] = ev.actor
    h = {"status": ev.data["status"], "at": ev.at, "by": ev.actor}
    if "note" in ev.data:
        h["note"] = ev.data["note"]
    a["history"].append(h)


def fit_fields(s, ev, c):
    d = ev.data
    c.keys(d, ["username", "bodyType", "heightInches"], [])
    c.integer(d, "bodyType", 0, 2)
    c.integer(d, "heightInches", 36, 96)


def fit_apply(s, ev):
    s.fitness.add(ev.actor)


def goal_fields(s, ev, c):
    d = ev.data
    c.keys(d, ["username", "month", "metric", "target"], [])
    if not valid_month(d["month"]):
        c.fail("data.month", "must be YYYY-MM")
    if d["month"] < ev.at[:7]:
        c.fail("data.month", f"must not be before the month of at ({ev.at[:7]})")
    c.enum(d, "metric", METRICS)
    c.integer(d, "target", 0, 100000000)


def goal_rules(s, ev, c):
    self_rules(s, ev, c)
    d = ev.data
    if d["metric"] == "calories" and d["target"] > 0 and ev.actor not in s.fitness:
        c.fail("data.target", "a calories goal needs fitness.updated first")


def goal_apply(s, ev):
    s.goals.append(ev)


def sess_fields(s, ev, c):
    d = ev.data
    c.keys(d, ["username", "sessionId", "date", "park", "startTime", "endTime", "jumps", "calories"], [])
    c.ident(d, "sessionId")
    if not valid_date(d["date"]):
        c.fail("data.date", "must be YYYY-MM-DD")
    if d["date"] > ev.at[:10]:
        c.fail("data.date", f"must not be after the date of at ({ev.at[:10]})")
    c.text(d, "park", 1, 100)
    for k in ("startTime", "endTime"):
        if not isinstance(d[k], str) or not TIME_RE.match(d[k]):
            c.fail(f"data.{k}", "must be HH:MM")
    if not d["endTime"] > d["startTime"]:
        c.fail("data.endTime", "must be after startTime")
    c.integer(d, "jumps", 0, 1000000)
    c.integer(d, "calories", 0, 100000)


def sess_rules(s, ev, c):
    s.need_actor(ev, c)
    u = ev.data["username"]
    if not s.active(u):
        c.fail("data.username", f"{u!r} is not an existing, not deleted account")
    if ev.actor != u and not s.is_admin(ev.actor):
        c.fail("actor", "only the account itself or an admin")
    if any(x["sessionId"] == ev.data["sessionId"] for x in s.sessions.get(u, [])):
        c.fail("data.sessionId", "already used for this account")


def sess_apply(s, ev):
    x = dict(ev.data)
    x["seq"] = ev.seq
    s.sessions.setdefault(ev.data["username"], []).append(x)


def _self_fields(keys_req):
    def f(s, ev, c):
        c.keys(ev.data, keys_req, [])
    return f


def user_field_check(fn):
    def f(s, ev, c):
        u = ev.data.get("username") if isinstance(ev.data, dict) else None
        fn(s, ev, c)
        if not isinstance(ev.data.get("username"), str):
            c.fail("data.username", "must be a string")
    return f


def goal_user_rules(s, ev, c):
    goal_rules(s, ev, c)


HANDLERS = {
    "account.registered": (reg_fields, reg_rules, reg_apply),
    "account.updated": (user_field_check(upd_fields), upd_rules, upd_apply),
    "account.deleted": (user_field_check(del_fields), del_rules, del_apply),
    "passcode.set": (user_field_check(pset_fields), pset_rules, pset_apply),
    "passcode.attempted": (user_field_check(patt_fields), patt_rules, patt_apply),
    "scan.recorded": (scan_fields, scan_rules, scan_apply),
    "counterfeit.reported": (rep_fields, rep_rules, rep_apply),
    "settings.changed": (user_field_check(set_fields), self_rules, set_apply),
    "search.performed": (user_field_check(search_fields), self_rules, search_apply),
    "status.changed": (user_field_check(status_fields), status_rules, status_apply),
    "fitness.updated": (user_field_check(fit_fields), self_rules, fit_apply),
    "goal.set": (user_field_check(goal_fields), goal_rules, goal_apply),
    "session.recorded": (user_field_check(sess_fields), sess_rules, sess_apply),
}


def load_log(path) -> list[Ev]:
    """Read and validate a whole NDJSON file; returns the log (out-form events with seq, id, hash)."""
    s = State()
    for n, raw in read_ndjson(path):
        s.append(raw, where=f"line {n}: ")
    return s.events


# --------------------------------------------------------------------------- projections


class View:
    """State after the kept events, with `now`."""

    def __init__(self, log: list[Ev], now_us: int, kept: list[Ev]):
        self.log = log
        self.now = now_us
        self.kept = kept
        self.s = State()
        for ev in kept:
            raw = {"type": ev.type, "at": ev.at, "actor": ev.actor, "data": ev.data, "id": ev.id}
            self.s.append(raw)

    # ---- shared
    def need_user(self, u, allow_deleted=False):
        a = self.s.accounts.get(u)
        if a is None:
            raise Refused(f"unknown user {u!r}")
        if a["deleted"] and not allow_deleted:
            raise Refused(f"{u!r} is deleted")
        return a

    def in_window(self, us, w):
        if us > self.now:
            return False
        if w == "all":
            return True
        if w == "today":
            return us_date(us) == us_date(self.now)
        n = {"7d": 7, "30d": 30, "90d": 90}[w]
        return self.now - n * DAY_US < us

    def scan_json(self, sc):
        d = sc["data"]
        o = {"scanId": d["scanId"], "at": sc["at"], "actor": sc["actor"], "code": d["code"],
             "productName": d["productName"], "category": d["category"], "result": d["result"],
             "mode": d["mode"], "source": d["source"], "flash": d["flash"], "seenBefore": sc["seenBefore"]}
        for k in ("brand", "location", "batchId", "notes"):
            if k in d:
                o[k] = d[k]
        if sc["report"] is not None:
            o["report"] = dict(sc["report"])
        return o

    def newest_first(self, scans):
        return sorted(scans, key=lambda sc: (sc["us"], sc["seq"]), reverse=True)

    # ---- history
    def history(self, typ="all", window=None, category=None, search=None, by=None, limit=50, offset=0, viewer=None):
        if by is not None:
            self.need_user(by, allow_deleted=True)
        if window is None:
            window = self.settings(viewer)["historyWindow"] if viewer else "all"
        out = []
        q = lower(search) if search is not None else None
        for sc in self.s.scan_order:
            d = sc["data"]
            if typ == "success" and d["result"] != "authentic":
                continue
            if typ == "failed" and d["result"] != "counterfeit":
                continue
            if not self.in_window(sc["us"], window):
                continue
            if category is not None and d["category"] != category:
                continue
            if by is not None and sc["actor"] != by:
                continue
            if q is not None and q != "":
                fields = [d.get(k) for k in ("scanId", "code", "productName", "brand", "category", "location", "batchId", "notes")]
                fields.append(sc["actor"])
                if sc["report"] is not None:
                    fields.append(sc["report"].get("message"))
                if not any(f is not None and q in lower(f) for f in fields):
                    continue
            out.append(sc)
        out = self.newest_first(out)
        return {"total": len(out), "items": [self.scan_json(x) for x in out[offset:offset + limit]],
                "categories": sorted({sc["data"]["category"] for sc in self.s.scan_order})}

    def show(self, sid):
        sc = self.s.scans.get(sid)
        if sc is None:
            raise Refused(f"unknown scan {sid!r}")
        return self.scan_json(sc)

    # ---- stats
    def stats(self, by=None):
        if by is not None:
            self.need_user(by, allow_deleted=True)
        scans = [sc for sc in self.s.scan_order if by is None or sc["actor"] == by]
        total = len(scans)
        cf = sum(1 for sc in scans if sc["data"]["result"] == "counterfeit")
        cats = {}
        for sc in scans:
            r = cats.setdefault(sc["data"]["category"], [0, 0])
            r[0] += 1
            if sc["data"]["result"] == "counterfeit":
                r[1] += 1
        nf = self.newest_first(scans)
        return {
            "total": total, "authentic": total - cf, "counterfeit": cf,
            "reported": sum(1 for sc in scans if sc["report"] is not None),
            "counterfeitRate": round4(Fraction(cf, total)) if total else 0.0,
            "today": sum(1 for sc in scans if self.in_window(sc["us"], "today")),
            "last7d": sum(1 for sc in scans if self.in_window(sc["us"], "7d")),
            "last30d": sum(1 for sc in scans if self.in_window(sc["us"], "30d")),
            "byCategory": [{"category": k, "total": v[0], "counterfeit": v[1]}
                           for k, v in sorted(cats.items(), key=lambda kv: (-kv[1][0], kv[0]))],
            "recent": [self.scan_json(x) for x in nf[:5]],
            "firstScanAt": min(scans, key=lambda sc: (sc["us"], sc["seq"]))["at"] if scans else None,
            "lastScanAt": nf[0]["at"] if scans else None,
        }

    # ---- lockout
    def lockout_one(self, u):
        self.need_user(u)
        L = self.s.lock[u]
        failures, lu, uu = L.failures, L.locked_until, L.unlocked_until
        if lu is not None and self.now >= lu:
            lu = None
            failures = 0
        if not L.has:
            state = "unset"
        elif lu is not None and self.now < lu:
            state = "locked"
        elif uu is not None and self.now < uu:
            state = "unlocked"
        else:
            state = "required"
        locked_in_force = lu is not None and self.now < lu
        unlocked_in_force = uu is not None and self.now < uu
        rem = 0
        if state == "locked":
            rem = -((self.now - lu) // 1_000_000)  # ceil((lu - now) / 1e6)
        return {"username": u, "state": state, "failures": failures, "attemptsLeft": 3 - failures,
                "lockedUntil": fmt_us(lu) if locked_in_force else None, "remainingSeconds": rem,
                "unlockedUntil": fmt_us(uu) if unlocked_in_force else None,
                "lastAttemptAt": L.last_at, "lastOutcome": L.last_outcome, "totals": dict(L.totals)}

    def lockout_all(self):
        return {"accounts": [self.lockout_one(u) for u in sorted(self.s.accounts) if not self.s.accounts[u]["deleted"]]}

    # ---- customers
    def customers(self, status=None):
        cs = [a for a in self.s.accounts.values() if a["role"] == "customer" and not a["deleted"]]
        counts = {k: 0 for k in STATUSES}
        for a in cs:
            counts[a["status"]] += 1
        cs.sort(key=lambda a: (lower(a["name"]), a["username"]))
        out = []
        for a in cs:
            if status is not None and a["status"] != status:
                continue
            o = {"username": a["username"], "name": a["name"], "email": a["email"], "city": a["address"]["city"],
                 "status": a["status"], "color": COLORS[a["status"]], "since": a["since"], "changedBy": a["changedBy"]}
            if "phone" in a:
                o["phone"] = a["phone"]
            out.append(o)
        return {"customers": out, "counts": counts}

    def customer_show(self, u):
        a = self.s.accounts.get(u)
        if a is None or a["role"] != "customer":
            raise Refused(f"unknown customer {u!r}")
        if a["deleted"]:
            raise Refused(f"customer {u!r} is deleted")
        o = {k: a[k] for k in ("username", "name", "email", "phone", "website", "address", "geo", "company") if k in a}
        o.update(registeredAt=a["registeredAt"], status=a["status"], color=COLORS[a["status"]],
                 statusHistory=[dict(h) for h in a["history"]])
        return o

    # ---- goals
    def goals(self, u, month=None):
        self.need_user(u)
        now_month = us_month(self.now)
        if month is None:
            month = now_month
        if month > now_month:
            raise Refused("only this month and past months")
        targets = {}
        for g in self.s.goals:
            d = g.data
            if d["username"] == u and d["month"] == month:
                targets[d["metric"]] = d["target"]
        sessions = [x for x in self.s.sessions.get(u, []) if x["date"][:7] == month]
        last = max(sessions, key=lambda x: (x["date"], x["endTime"], x["seq"])) if sessions else None
        nscans = sum(1 for sc in self.s.scan_order if sc["actor"] == u and sc["at"][:7] == month)
        metrics = []
        for m in METRICS:
            target = targets.get(m)
            progress = nscans if m == "scans" else sum(x[m] for x in sessions)
            if not ((target is not None and target > 0) or (target is None and progress > 0)):
                continue
            ls = last if m != "scans" else None
            o = {"metric": m, "target": target, "progress": progress,
                 "percent": (100 * progress) // target if target else None,
                 "remaining": max(0, target - progress) if target else None,
                 "complete": target is not None and progress >= target,
                 "message": f"No {m} yet this month" if progress == 0 else None,
                 "lastSession": None, "ring": None}
            if ls is not None:
                o["lastSession"] = {k: ls[k] for k in ("sessionId", "date", "park", "startTime", "endTime", "jumps", "calories")}
            if target:
                p = min(Fraction(1), Fraction(progress, target))
                sv = Fraction(ls[m], target) if ls is not None else Fraction(0)
                o["ring"] = {"progress": round4(p), "lastSession": {"start": round4(max(Fraction(0), p - sv)), "end": round4(p)},
                             "remaining": round4(1 - p)}
            metrics.append(o)
        months = {now_month}
        for g in self.s.goals:
            if g.data["username"] == u:
                months.add(g.data["month"])
        for x in self.s.sessions.get(u, []):
            months.add(x["date"][:7])
        for sc in self.s.scan_order:
            if sc["actor"] == u:
                months.add(sc["at"][:7])
        return {"username": u, "month": month, "metrics": metrics,
                "months": sorted((m for m in months if m <= now_month), reverse=True)}

    # ---- accounts, settings, searches
    def accounts(self):
        return {"accounts": [{"username": u, "role": a["role"], "name": a["name"], "email": a["email"],
                              "deleted": a["deleted"], "registeredAt": a["registeredAt"]}
                             for u, a in sorted(self.s.accounts.items())]}

    def settings(self, u):
        self.need_user(u)
        st = self.s.settings.get(u, DEFAULT_SETTINGS)
        return {"username": u, **{k: st[k] for k in DEFAULT_SETTINGS}, "windows": list(WINDOWS)}

    def searches(self, u):
        self.need_user(u)
        seen, recent = set(), []
        for q in reversed(self.s.searches.get(u, [])):
            k = lower(q)
            if k in seen:
                continue
            seen.add(k)
            recent.append(q)
            if len(recent) == 10:
                break
        return {"username": u, "recent": recent}

    # ---- log
    def log_status(self):
        log = self.log
        by = {}
        for e in log:
            by[e.type] = by.get(e.type, 0) + 1
        # `veritrail check` imports every fixture under this origin (proofs.md §2), so that answers repeat.
        return {"events": len(log), "head": {"seq": len(log), "hash": log[-1].hash if log else ZERO_HASH},
                "firstAt": log[0].at if log else None, "lastAt": log[-1].at if log else None, "byType": by,
                "origin": "veritrail.invalid/check"}

    def replay(self):
        last = self.kept[-1] if self.kept else None
        return {"asOf": {"seq": last.seq if last else 0, "at": last.at if last else None},
                "now": fmt_us(self.now), "stats": self.stats(), "lockout": self.lockout_all(),
                "customers": self.customers(), "accounts": self.accounts(),
                "goals": {u: self.goals(u) for u in sorted(self.s.accounts) if not self.s.accounts[u]["deleted"]}}


# --------------------------------------------------------------------------- command line


def parse_opts(args, spec):
    """spec: option -> kind ('str'); returns (positionals, opts). Unknown option -> usage error."""
    pos, opts = [], {}
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--"):
            name, eq, val = a.partition("=")
            if name not in spec:
                raise UsageError(f"unknown option {name}")
            if not eq:
                i += 1
                if i >= len(args):
                    raise UsageError(f"{name} needs a value")
                val = args[i]
            opts[name] = val
        else:
            pos.append(a)
        i += 1
    return pos, opts


def int_opt(v, name, lo, hi=None):
    if not re.fullmatch(r"\d+", v or ""):
        raise UsageError(f"{name} must be an integer")
    n = int(v)
    if n < lo or (hi is not None and n > hi):
        raise UsageError(f"{name} out of range")
    return n


def parse_query(q):
    """Check the query's usage; returns a callable View -> answer."""
    if not q:
        raise UsageError("no command")
    cmd, rest = q[0], q[1:]

    def npos(pos, n):
        if len(pos) != n:
            raise UsageError(f"{cmd}: expected {n} argument(s)")

    if cmd == "history":
        pos, o = parse_opts(rest, {"--type", "--window", "--category", "--search", "--by", "--limit", "--offset"})
        npos(pos, 0)
        typ = o.get("--type", "all")
        if typ not in ("all", "success", "failed"):
            raise UsageError("--type must be all, success or failed")
        win = o.get("--window")
        if win is not None and win not in WINDOWS:
            raise UsageError("--window must be today, 7d, 30d, 90d or all")
        limit = int_opt(o.get("--limit", "50"), "--limit", 1, 1000)
        offset = int_opt(o.get("--offset", "0"), "--offset", 0)
        return lambda v, viewer: v.history(typ, win, o.get("--category"), o.get("--search"), o.get("--by"), limit, offset, viewer)
    if cmd == "show":
        pos, o = parse_opts(rest, set())
        npos(pos, 1)
        return lambda v, viewer: v.show(pos[0])
    if cmd == "stats":
        pos, o = parse_opts(rest, {"--by"})
        npos(pos, 0)
        return lambda v, viewer: v.stats(o.get("--by"))
    if cmd == "lockout":
        pos, o = parse_opts(rest, set())
        if len(pos) > 1:
            raise UsageError("lockout takes at most one user")
        return (lambda v, viewer: v.lockout_one(pos[0])) if pos else (lambda v, viewer: v.lockout_all())
    if cmd == "customers":
        pos, o = parse_opts(rest, {"--status"})
        npos(pos, 0)
        st = o.get("--status")
        st = st.upper() if st is not None else None  # any case, as `customer status USER onboarded` takes it
        if st is not None and st not in STATUSES:
            raise UsageError("--status must be one of " + ", ".join(STATUSES))
        return lambda v, viewer: v.customers(st)
    if cmd == "customer":
        pos, o = parse_opts(rest, set())
        if len(pos) != 2 or pos[0] != "show":
            raise UsageError("customer show USER")
        return lambda v, viewer: v.customer_show(pos[1])
    if cmd == "goals":
        pos, o = parse_opts(rest, {"--month"})
        npos(pos, 1)
        m = o.get("--month")
        if m is not None and not valid_month(m):
            raise UsageError("--month must be YYYY-MM")
        return lambda v, viewer: v.goals(pos[0], m)
    if cmd in ("accounts", "replay"):
        pos, o = parse_opts(rest, set())
        npos(pos, 0)
        return (lambda v, viewer: v.accounts()) if cmd == "accounts" else (lambda v, viewer: v.replay())
    if cmd in ("settings", "searches"):
        pos, o = parse_opts(rest, set())
        npos(pos, 1)
        return (lambda v, viewer: v.settings(pos[0])) if cmd == "settings" else (lambda v, viewer: v.searches(pos[0]))
    if cmd == "log":
        if rest != ["status"]:
            raise UsageError("only `log status` is answered by the oracle")
        return lambda v, viewer: v.log_status()
    raise UsageError(f"unknown command {cmd}")


def answer(log: list[Ev], query: list[str], now=None, as_of=None, viewer=None):
    """Return (exit_code, answer_or_None, message)."""
    try:
        fn = parse_query(query)
        now_us = None
        if now is not None:
            p = parse_ts(now)
            if p is None:
                raise UsageError("--now: malformed time")
            now_us = p[0]
        kept = log
        if as_of is not None:
            if re.fullmatch(r"\d+", as_of):
                n = int(as_of)
                kept = [e for e in log if e.seq <= n]
                if now_us is None and kept:
                    now_us = kept[-1].us
            else:
                p = parse_ts(as_of)
                if p is None:
                    raise UsageError("--as-of: malformed time or seq")
                kept = [e for e in log if e.us <= p[0]]
                if now_us is None:
                    now_us = p[0]
        if now_us is None:
            env = os.environ.get("VERITRAIL_NOW")
            if env:
                p = parse_ts(env)
                if p is None:
                    raise UsageError("VERITRAIL_NOW: malformed time")
                now_us = p[0]
            else:
                now_us = int(_dt.datetime.now(_dt.timezone.utc).timestamp()) * 1_000_000
        kept = [e for e in kept if e.us <= now_us]
        v = View(log, now_us, kept)
        if viewer is not None:
            v.need_user(viewer)
        return 0, fn(v, viewer), ""
    except (UsageError, Refused) as e:
        return e.code, None, str(e)


def make_question(log, args, now=None, as_of=None, viewer=None):
    """A question file's content (projections question format of scripts/README.md)."""
    q = {"args": list(args)}
    if now is not None:
        q["now"] = now
    if as_of is not None:
        q["asOf"] = str(as_of)
    if viewer is not None:
        q["as"] = viewer
    code, ans, msg = answer(log, list(args), now, None if as_of is None else str(as_of), viewer)
    q["exit"] = code
    if code == 0:
        q["expect"] = ans
    return q


def write_question(directory, name, q):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(q, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main(argv):
    if argv and argv[0] == "--validate":
        rc = 0
        for f in argv[1:]:
            try:
                log = load_log(f)
                print(f"{f}: ok, {len(log)} events, head {log[-1].hash if log else ZERO_HASH}")
            except EventError as e:
                print(f"{f}: {e}", file=sys.stderr)
                rc = 65
        return rc
    if argv and argv[0] == "--export":
        for e in load_log(argv[1]):
            o = e.out()
            o["hash"] = e.hash
            print(json.dumps(o, ensure_ascii=False, separators=(",", ":")))
        return 0
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 64
    i = argv.index("--")
    head, query = argv[:i], argv[i + 1:]
    if not head:
        print("missing EVENTS file", file=sys.stderr)
        return 64
    path, gopts = head[0], head[1:]
    try:
        _, o = parse_opts(gopts, {"--now", "--as-of", "--as"})
    except UsageError as e:
        print(e, file=sys.stderr)
        return 64
    try:
        log = load_log(path)
    except EventError as e:
        print(f"{path}: {e}", file=sys.stderr)
        return 65
    code, ans, msg = answer(log, query, o.get("--now"), o.get("--as-of"), o.get("--as"))
    if code:
        print(msg, file=sys.stderr)
        return code
    print(json.dumps(ans, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
