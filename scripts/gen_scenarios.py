#!/usr/bin/env python3
"""Generate Events/scenarios/NAME.ndjson and Projections/scenarios/NAME/*.json.

    python3 scripts/gen_scenarios.py

Each scenario is a small hand-written event list aimed at the edge of one rule. Every question carries
`hand`: the answer (or the parts of it that matter) reasoned from the spec by hand. The script asks the
oracle too and stops if the two disagree, so a wrong oracle can not leak into the expected answers.
The question files hold the oracle's complete answer (which then agrees with the hand-reasoned parts).
"""
import base64
import hashlib
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import oracle  # noqa: E402

_salt = bytes(range(16))
CRED = {"scheme": "pbkdf2-sha256", "iterations": 100000, "salt": base64.b64encode(_salt).decode(),
        "hash": base64.b64encode(hashlib.pbkdf2_hmac("sha256", b"2468", _salt, 100000, 32)).decode()}

D = "2026-11-"  # most scenarios happen in November 2026


class S:
    def __init__(self, name):
        self.name = name
        self.events = []
        self.questions = []

    def ev(self, at, actor, typ, **data):
        if not at[:4].isdigit() or at[4] != "-":
            at = D + at
        if not at.endswith("Z"):
            at += "Z"
        self.events.append({"id": f"{self.name}-{len(self.events) + 1:03d}", "type": typ, "at": at, "actor": actor, "data": data})
        return len(self.events)

    # shorthands
    def init(self, at="01T08:00:00"):
        self.ev(at, "system", "account.registered", username="admin", role="admin", name="Ada Admin", email="admin@vt.example")
        self.ev(at, "system", "passcode.set", username="admin", credential=CRED)

    def user(self, at, username, role="inspector", actor="admin", name=None, email=None, **extra):
        d = {"username": username, "role": role, "name": name or username.title(), "email": email or f"{username}@vt.example"}
        if role == "customer" and "address" not in extra:
            extra["address"] = {"street": "1 Main St", "city": "Lyon", "zipcode": "69001"}
        d.update(extra)
        return self.ev(at, actor, "account.registered", **d)

    def pset(self, at, username, actor="admin"):
        return self.ev(at, actor, "passcode.set", username=username, credential=CRED)

    def attempt(self, at, username, outcome):
        return self.ev(at, username, "passcode.attempted", username=username, outcome=outcome)

    def scan(self, at, actor, sid, code=None, product="Widget", category="Apparel", result="authentic",
             mode="single", source="camera", flash=False, **opt):
        d = {"scanId": sid, "code": code if code is not None else f"CODE-{sid}", "productName": product,
             "category": category, "result": result, "mode": mode, "source": source, "flash": flash}
        d.update(opt)
        return self.ev(at, actor, "scan.recorded", **d)

    def report(self, at, actor, sid, reason, message=None):
        d = {"scanId": sid, "reason": reason}
        if message is not None:
            d["message"] = message
        return self.ev(at, actor, "counterfeit.reported", **d)

    def session(self, at, actor, username, sid, date, jumps, calories, start="10:00", end="11:00", park="Sky Park"):
        return self.ev(at, actor, "session.recorded", username=username, sessionId=sid, date=date, park=park,
                       startTime=start, endTime=end, jumps=jumps, calories=calories)

    def goal(self, at, username, month, metric, target):
        return self.ev(at, username, "goal.set", username=username, month=month, metric=metric, target=target)

    def q(self, name, args, hand=None, now=None, asOf=None, as_=None, exit=0):
        self.questions.append((name, args, now, asOf, as_, exit, hand))


ABSENT = "<absent>"  # in a hand answer: this key must not be there


class Exact(dict):
    """A hand answer that is complete: the key sets must match too (recursively)."""


def subset(hand, actual, path="$", exact=False):
    """Every part of `hand` must equal `actual`; dict keys not named in `hand` are not checked,
    list lengths and order are. Raises AssertionError with the path of the first difference."""
    exact = exact or isinstance(hand, Exact)
    if isinstance(hand, dict):
        assert isinstance(actual, dict), f"{path}: expected object, got {actual!r}"
        if exact:
            assert set(hand) == set(actual), f"{path}: keys {sorted(hand)} vs oracle {sorted(actual)}"
        for k, v in hand.items():
            if v == ABSENT:
                assert k not in actual, f"{path}.{k}: should be absent"
                continue
            assert k in actual, f"{path}.{k}: missing"
            subset(v, actual[k], f"{path}.{k}", exact)
    elif isinstance(hand, list):
        assert isinstance(actual, list) and len(hand) == len(actual), f"{path}: expected {len(hand)} items, got {actual!r}"
        for i, (h, a) in enumerate(zip(hand, actual)):
            subset(h, a, f"{path}[{i}]", exact)
    else:
        assert type(hand) is type(actual) and hand == actual, f"{path}: hand says {hand!r}, oracle says {actual!r}"


SCENARIOS = []


def scenario(fn):
    s = S(fn.__name__.replace("_", "-"))
    fn(s)
    SCENARIOS.append(s)
    return fn


def lock(state, failures, lockedUntil=None, remaining=0, unlockedUntil=None, last=None, outcome=None, totals=None):
    d = {"state": state, "failures": failures, "attemptsLeft": 3 - failures, "lockedUntil": lockedUntil,
         "remainingSeconds": remaining, "unlockedUntil": unlockedUntil, "lastAttemptAt": last, "lastOutcome": outcome}
    if totals is not None:
        d["totals"] = dict(zip(("granted", "denied", "locked"), totals))
    return d


# ============================================================================ lockout


@scenario
def lockout_60s_boundary(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.pset("01T09:01:00", "ines")
    s.attempt("20T10:00:00", "ines", "denied")
    s.attempt("20T10:00:10", "ines", "denied")
    s.attempt("20T10:00:30", "ines", "denied")        # 3rd: lockedUntil 10:01:30
    s.attempt("20T10:01:29", "ines", "locked")        # still locked
    s.attempt("20T10:01:30", "ines", "granted")       # at lockedUntil: the lock has run out
    s.q("locked-at-third-denial", ["lockout", "ines"], now="2026-11-20T10:00:30Z",
        hand=lock("locked", 3, "2026-11-20T10:01:30Z", 60, None, "2026-11-20T10:00:30Z", "denied", (0, 3, 0)))
    s.q("locked-half-second-left", ["lockout", "ines"], now="2026-11-20T10:01:29.5Z",
        hand=lock("locked", 3, "2026-11-20T10:01:30Z", 1, None, "2026-11-20T10:01:29Z", "locked", (0, 3, 1)))
    s.q("lock-ran-out-at-60s", ["lockout", "ines"], asOf="8", now="2026-11-20T10:01:30Z",
        hand=lock("required", 0, None, 0, None, "2026-11-20T10:01:29Z", "locked", (0, 3, 1)))
    s.q("granted-at-locked-until", ["lockout", "ines"], now="2026-11-20T10:01:30Z",
        hand=lock("unlocked", 0, None, 0, "2026-11-20T10:16:30Z", "2026-11-20T10:01:30Z", "granted", (1, 3, 1)))
    s.q("two-denials-one-left", ["lockout", "ines"], now="2026-11-20T10:00:29Z",
        hand=lock("required", 2, None, 0, None, "2026-11-20T10:00:10Z", "denied", (0, 2, 0)))


@scenario
def lockout_unlock_expiry(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "tom")
    s.pset("01T09:01:00", "ines")
    s.pset("01T09:01:00", "tom")
    s.attempt("20T09:00:00", "ines", "granted")       # unlockedUntil 09:15:00
    s.attempt("20T09:00:00", "tom", "granted")
    s.pset("20T09:05:00", "tom")                       # an admin reset clears unlockedUntil
    s.attempt("20T09:10:00", "ines", "denied")        # failures 1, still unlocked
    s.q("unlocked-last-microsecond", ["lockout", "ines"], now="2026-11-20T09:14:59.999999Z",
        hand=lock("unlocked", 1, None, 0, "2026-11-20T09:15:00Z", "2026-11-20T09:10:00Z", "denied", (1, 1, 0)))
    s.q("unlock-expired-at-900s", ["lockout", "ines"], now="2026-11-20T09:15:00Z",
        hand=lock("required", 1, None, 0, None, "2026-11-20T09:10:00Z", "denied", (1, 1, 0)))
    s.q("reset-clears-unlock", ["lockout", "tom"], now="2026-11-20T09:06:00Z",
        hand=lock("required", 0, None, 0, None, "2026-11-20T09:00:00Z", "granted", (1, 0, 0)))
    s.q("before-reset", ["lockout", "tom"], now="2026-11-20T09:04:59Z",
        hand=lock("unlocked", 0, None, 0, "2026-11-20T09:15:00Z", "2026-11-20T09:00:00Z", "granted", (1, 0, 0)))


@scenario
def lockout_fractional_seconds(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.pset("01T09:01:00", "ines")
    s.attempt("20T10:00:00.250Z", "ines", "denied")
    s.attempt("20T10:00:01.000Z", "ines", "denied")
    s.attempt("20T10:00:02.500000Z", "ines", "denied")   # lockedUntil 10:01:02.5
    s.q("remaining-60-at-lock", ["lockout", "ines"], now="2026-11-20T10:00:02.5Z",
        hand=lock("locked", 3, "2026-11-20T10:01:02.5Z", 60, None, "2026-11-20T10:00:02.5Z", "denied", (0, 3, 0)))
    s.q("remaining-rounds-up", ["lockout", "ines"], now="2026-11-20T10:00:03Z",
        hand=lock("locked", 3, "2026-11-20T10:01:02.5Z", 60, None, "2026-11-20T10:00:02.5Z", "denied"))
    s.q("remaining-one-tenth", ["lockout", "ines"], now="2026-11-20T10:01:02.4Z",
        hand=lock("locked", 3, "2026-11-20T10:01:02.5Z", 1, None, "2026-11-20T10:00:02.5Z", "denied"))
    s.q("lock-over", ["lockout", "ines"], now="2026-11-20T10:01:02.5Z",
        hand=lock("required", 0, None, 0, None, "2026-11-20T10:00:02.5Z", "denied", (0, 3, 0)))


@scenario
def lockout_list(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "cara", role="customer")
    s.user("01T09:00:00", "tom")
    s.pset("01T09:01:00", "ines")
    s.pset("01T09:01:00", "tom")
    s.attempt("20T10:00:00", "ines", "denied")
    s.attempt("20T10:00:01", "ines", "denied")
    s.attempt("20T10:00:02", "ines", "denied")
    s.pset("20T10:00:30", "ines")                    # an admin reset clears the lock at once
    s.attempt("20T10:00:40", "ines", "denied")       # allowed: not locked any more
    s.ev("20T11:00:00", "admin", "account.deleted", username="tom", reason="left the company")
    s.q("list-without-deleted", ["lockout"], now="2026-11-20T12:00:00Z", hand={"accounts": [
        {"username": "admin", **lock("required", 0, totals=(0, 0, 0))},
        {"username": "cara", **lock("unset", 0, totals=(0, 0, 0))},
        {"username": "ines", **lock("required", 1, None, 0, None, "2026-11-20T10:00:40Z", "denied", (0, 4, 0))}]})
    s.q("reset-while-locked", ["lockout", "ines"], now="2026-11-20T10:00:35Z",
        hand=lock("required", 0, None, 0, None, "2026-11-20T10:00:02Z", "denied", (0, 3, 0)))
    s.q("deleted-user", ["lockout", "tom"], now="2026-11-20T12:00:00Z", exit=65)
    s.q("deleted-user-before-deletion", ["lockout", "tom"], now="2026-11-20T10:59:59Z",
        hand=lock("required", 0, totals=(0, 0, 0)))
    s.q("unknown-user", ["lockout", "nobody"], now="2026-11-20T12:00:00Z", exit=65)


# ============================================================================ windows and time


@scenario
def window_boundaries(s):
    s.init("2026-10-01T08:00:00Z")
    s.user("2026-10-01T09:00:00Z", "ines")
    s.scan("2026-10-21T12:00:00Z", "ines", "w30-edge")          # exactly now-30d: out of 30d
    s.scan("2026-10-21T12:00:01Z", "ines", "w30-in")
    s.scan("2026-11-13T12:00:00Z", "ines", "w7-edge")           # exactly now-7d: out of 7d
    s.scan("2026-11-13T12:00:00.000001Z", "ines", "w7-in")
    s.scan("2026-11-19T23:59:59.999999Z", "ines", "yesterday")
    s.scan("2026-11-20T00:00:00Z", "ines", "midnight")           # today
    s.scan("2026-11-20T12:00:00Z", "ines", "at-now")             # today, at now: counts
    s.scan("2026-11-20T12:00:01Z", "ines", "future")             # after now: left out everywhere
    now = "2026-11-20T12:00:00Z"
    ids = lambda *xs: {"items": [{"scanId": x} for x in xs]}  # noqa: E731
    s.q("stats-windows", ["stats"], now=now, hand={"total": 7, "today": 2, "last7d": 4, "last30d": 6,
                                                     "firstScanAt": "2026-10-21T12:00:00Z", "lastScanAt": "2026-11-20T12:00:00Z"})
    s.q("history-7d", ["history", "--window", "7d"], now=now, hand={"total": 4, **ids("at-now", "midnight", "yesterday", "w7-in")})
    s.q("history-today", ["history", "--window", "today"], now=now, hand={"total": 2, **ids("at-now", "midnight")})
    s.q("history-30d", ["history", "--window", "30d", "--limit", "2", "--offset", "4"], now=now,
        hand={"total": 6, **ids("w7-edge", "w30-in")})
    s.q("history-all-no-future", ["history", "--window", "all", "--limit", "1"], now=now, hand={"total": 7, **ids("at-now")})
    s.q("today-at-midnight", ["history", "--window", "today"], now="2026-11-20T00:00:00Z", hand={"total": 1, **ids("midnight")})


@scenario
def at_normalisation(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.scan("20T10:00:05.000Z", "ines", "zero-frac")               # kept as 10:00:05Z
    s.scan("20T10:00:05Z", "ines", "whole")                       # the same instant
    s.scan("20T10:00:05.100000Z", "ines", "tenth")                # kept as .1
    s.scan("20T10:00:05.123456Z", "ines", "micro")
    s.scan("20T10:00:05.250Z", "ines", "quarter")                 # kept as .25
    now = "2026-11-20T12:00:00Z"
    s.q("history", ["history"], now=now, hand={"total": 5, "items": [
        {"scanId": "quarter", "at": "2026-11-20T10:00:05.25Z"}, {"scanId": "micro", "at": "2026-11-20T10:00:05.123456Z"},
        {"scanId": "tenth", "at": "2026-11-20T10:00:05.1Z"}, {"scanId": "whole", "at": "2026-11-20T10:00:05Z"},
        {"scanId": "zero-frac", "at": "2026-11-20T10:00:05Z"}]})
    s.q("as-of-time-fraction", ["history"], asOf="2026-11-20T10:00:05.1Z",
        hand={"total": 3, "items": [{"scanId": "tenth"}, {"scanId": "whole"}, {"scanId": "zero-frac"}]})
    s.q("now-before-tenth", ["stats"], now="2026-11-20T10:00:05.099999Z",
        hand={"total": 2, "lastScanAt": "2026-11-20T10:00:05Z", "firstScanAt": "2026-11-20T10:00:05Z"})
    s.q("show-tenth", ["show", "tenth"], now=now, hand={"at": "2026-11-20T10:00:05.1Z"})
    s.q("log-status", ["log", "status"], now=now, hand={"events": 8, "head": {"seq": 8}, "firstAt": "2026-11-01T08:00:00Z",
                                                           "lastAt": "2026-11-20T10:00:05.25Z",
                                                           "byType": {"account.registered": 2, "passcode.set": 1, "scan.recorded": 5}})


@scenario
def as_of(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.scan("18T10:00:00", "ines", "a")          # seq 4
    s.scan("19T10:00:00", "ines", "b")          # seq 5
    s.scan("20T10:00:00", "ines", "c")          # seq 6
    s.report("20T11:00:00", "ines", "a", "label")  # seq 7
    s.scan("27T10:00:00", "ines", "d")          # seq 8
    s.q("as-of-seq-now-defaults-to-its-at", ["stats"], asOf="5",
        hand={"total": 2, "today": 1, "reported": 0, "lastScanAt": "2026-11-19T10:00:00Z"})
    s.q("as-of-time-between", ["stats"], asOf="2026-11-20T10:30:00Z",
        hand={"total": 3, "today": 1, "last7d": 3, "reported": 0})
    s.q("as-of-seq-with-now", ["history", "--window", "today"], asOf="7", now="2026-11-20T23:59:59Z",
        hand={"total": 1, "items": [{"scanId": "c"}]})
    s.q("replay-as-of-seq", ["replay"], asOf="7",
        hand={"asOf": {"seq": 7, "at": "2026-11-20T11:00:00Z"}, "now": "2026-11-20T11:00:00Z", "stats": {"total": 3, "reported": 1}})
    s.q("report-after-now-not-shown", ["show", "a"], now="2026-11-20T10:59:59Z",
        hand={"scanId": "a", "seenBefore": 0, "report": ABSENT})
    s.q("malformed-as-of", ["stats"], asOf="2026-11-20 10:00:00", now="2026-11-30T00:00:00Z", exit=64)


@scenario
def as_of_report(s):
    # A replay of a prefix reads the scan list as it was then: a later report, its message included, is not
    # part of it.
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "kwan")
    s.scan("18T10:00:00", "ines", "a", notes="shelf 3")     # seq 5
    s.scan("18T11:00:00", "kwan", "b", result="counterfeit")  # seq 6
    s.report("19T10:00:00", "kwan", "a", "label", "Hologram peels off")  # seq 7
    s.report("19T11:00:00", "ines", "b", "price")           # seq 8
    s.scan("20T10:00:00", "ines", "c")                      # seq 9
    ids = lambda *xs: {"total": len(xs), "items": [{"scanId": x} for x in xs]}  # noqa: E731
    s.q("message-before-report", ["history", "--search", "peels"], asOf="6", hand=ids())
    s.q("message-after-report", ["history", "--search", "peels"], asOf="7", hand=ids("a"))
    s.q("message-at-head", ["history", "--search", "PEELS"], now="2026-11-21T00:00:00Z", hand=ids("a"))
    s.q("show-before-report", ["show", "a"], asOf="2026-11-19T09:59:59Z", hand={"scanId": "a", "report": ABSENT})
    s.q("show-after-report", ["show", "a"], asOf="7",
        hand={"scanId": "a", "report": {"reason": "label", "message": "Hologram peels off",
                                        "at": "2026-11-19T10:00:00Z", "by": "kwan"}})
    s.q("stats-by-between-reports", ["stats", "--by", "kwan"], asOf="7", hand={"total": 1, "reported": 0})
    s.q("stats-between-reports", ["stats"], asOf="7", hand={"total": 2, "reported": 1})
    s.q("scan-after-prefix-unknown", ["show", "c"], asOf="8", exit=65)
    s.q("history-prefix", ["history"], asOf="8",
        hand={"total": 2, "items": [{"scanId": "b", "report": {"reason": "price", "at": "2026-11-19T11:00:00Z",
                                                                 "by": "ines"}},
                                    {"scanId": "a"}]})
    s.q("replay-prefix", ["replay"], asOf="6",
        hand={"asOf": {"seq": 6, "at": "2026-11-18T11:00:00Z"}, "stats": {"total": 2, "reported": 0}})


# ============================================================================ search


@scenario
def search_case(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "tom.x")
    s.scan("20T09:00:00", "ines", "s1", product="Éclat Serum", category="Cosmetics")
    s.scan("20T09:01:00", "ines", "s2", notes="ΟΔΟΣ")                       # upper case: Σ lowers to σ
    s.scan("20T09:02:00", "ines", "s3", notes="οδος")                       # already lower, final ς
    s.scan("20T09:03:00", "tom.x", "s4", location="İstanbul Grand Bazaar")  # İ lowers to i + U+0307
    s.scan("20T09:04:00", "tom.x", "s5", code="QR:AbC-77", mode="batch", batchId="B-77", brand="STRAẞE")
    s.scan("20T09:05:00", "tom.x", "s6", result="counterfeit")
    s.report("20T09:06:00", "ines", "s6", "other", "Fake HOLOGRAM sticker")
    now = "2026-11-20T12:00:00Z"
    ids = lambda *xs: {"total": len(xs), "items": [{"scanId": x} for x in xs]}  # noqa: E731
    s.q("e-acute-lower", ["history", "--search", "é"], now=now, hand=ids("s1"))
    s.q("e-acute-upper", ["history", "--search", "ÉCLAT"], now=now, hand=ids("s1"))
    s.q("sigma-upper-word", ["history", "--search", "ΟΔΟΣ"], now=now, hand=ids("s2"))
    s.q("final-sigma", ["history", "--search", "ς"], now=now, hand=ids("s3"))
    s.q("capital-sigma", ["history", "--search", "Σ"], now=now, hand=ids("s2"))
    s.q("dotted-capital-i", ["history", "--search", "İSTANBUL"], now=now, hand=ids("s4"))
    s.q("plain-i-does-not-match-dotted", ["history", "--search", "istanbul"], now=now, hand=ids())
    s.q("capital-sharp-s", ["history", "--search", "straße"], now=now, hand=ids("s5"))
    s.q("batch-and-code", ["history", "--search", "abc-7"], now=now, hand=ids("s5"))
    s.q("report-message", ["history", "--search", "hologram"], now=now, hand=ids("s6"))
    s.q("actor", ["history", "--search", "TOM.X"], now=now, hand=ids("s6", "s5", "s4"))
    s.q("search-not-trimmed", ["history", "--search", " serum"], now=now, hand=ids("s1"))
    s.q("search-leading-space-no-match", ["history", "--search", " éclat"], now=now, hand=ids())
    s.q("empty-search-matches-all", ["history", "--search", ""], now=now, hand={"total": 6})


# ============================================================================ goals


@scenario
def goals_target_zero(s):
    s.init("2026-10-01T08:00:00Z")
    s.user("2026-10-01T09:00:00Z", "ines")
    s.ev("2026-10-01T09:30:00Z", "ines", "fitness.updated", username="ines", bodyType=1, heightInches=66)
    s.goal("2026-10-02T08:00:00Z", "ines", "2026-10", "jumps", 100)
    s.goal("2026-10-02T08:01:00Z", "ines", "2026-10", "calories", 0)
    s.session("2026-10-05T12:00:00Z", "ines", "ines", "o1", "2026-10-05", 40, 7)
    s.goal("2026-10-20T08:00:00Z", "ines", "2026-10", "jumps", 0)            # later: off
    s.goal("2026-10-20T08:01:00Z", "ines", "2026-10", "calories", 50)        # later: on
    s.goal("2026-11-01T08:00:00Z", "ines", "2026-11", "jumps", 0)            # off, though there is progress
    s.goal("2026-11-01T08:01:00Z", "ines", "2026-11", "scans", 5)            # target, no progress
    s.goal("2026-11-01T08:02:00Z", "ines", "2027-01", "jumps", 1000)         # a future month: not listed
    s.session("2026-11-03T12:00:00Z", "ines", "ines", "n1", "2026-11-03", 500, 30)
    now = "2026-11-20T12:00:00Z"
    s.q("november", ["goals", "ines"], now=now, hand=Exact({"username": "ines", "month": "2026-11", "metrics": [
        {"metric": "calories", "target": None, "progress": 30, "percent": None, "remaining": None, "complete": False,
         "message": None, "lastSession": {"sessionId": "n1", "date": "2026-11-03", "park": "Sky Park", "startTime": "10:00",
                                          "endTime": "11:00", "jumps": 500, "calories": 30}, "ring": None},
        {"metric": "scans", "target": 5, "progress": 0, "percent": 0, "remaining": 5, "complete": False,
         "message": "No scans yet this month", "lastSession": None,
         "ring": {"progress": 0.0, "lastSession": {"start": 0.0, "end": 0.0}, "remaining": 1.0}}],
        "months": ["2026-11", "2026-10"]}))
    s.q("october", ["goals", "ines", "--month", "2026-10"], now=now, hand={"month": "2026-10", "metrics": [
        {"metric": "calories", "target": 50, "progress": 7, "percent": 14, "remaining": 43, "complete": False, "message": None,
         "lastSession": {"sessionId": "o1"}, "ring": {"progress": 0.14, "lastSession": {"start": 0.0, "end": 0.14}, "remaining": 0.86}}]})
    s.q("october-before-change", ["goals", "ines", "--month", "2026-10"], now="2026-10-19T00:00:00Z", hand={"metrics": [
        {"metric": "jumps", "target": 100, "progress": 40, "percent": 40, "remaining": 60,
         "ring": {"progress": 0.4, "lastSession": {"start": 0.0, "end": 0.4}, "remaining": 0.6}}], "months": ["2026-10"]})
    s.q("empty-month", ["goals", "ines", "--month", "2026-09"], now=now,
        hand={"username": "ines", "month": "2026-09", "metrics": [], "months": ["2026-11", "2026-10"]})
    s.q("future-month", ["goals", "ines", "--month", "2026-12"], now=now, exit=65)
    s.q("malformed-month", ["goals", "ines", "--month", "2026-1"], now=now, exit=64)


@scenario
def goals_ring_rounding(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "tom")
    s.ev("01T10:00:00", "ines", "fitness.updated", username="ines", bodyType=0, heightInches=60)
    s.ev("01T10:00:00", "tom", "fitness.updated", username="tom", bodyType=2, heightInches=80)
    s.goal("01T11:00:00", "ines", "2026-11", "jumps", 32)
    s.goal("01T11:00:00", "ines", "2026-11", "calories", 3)
    s.goal("01T11:00:00", "ines", "2026-11", "scans", 20000)
    s.goal("01T11:00:00", "tom", "2026-11", "jumps", 4000)
    s.goal("01T11:00:00", "tom", "2026-11", "calories", 2)
    s.session("05T20:00:00", "ines", "ines", "a", "2026-11-03", 0, 1)
    s.session("05T20:01:00", "ines", "ines", "b", "2026-11-05", 1, 1)
    s.session("05T20:02:00", "tom", "tom", "x", "2026-11-02", 1, 2)
    s.session("05T20:05:00", "admin", "tom", "y", "2026-11-04", 0, 3)       # recorded by an admin
    for i in range(3):
        s.scan(f"06T09:0{i}:00", "ines", f"i{i}")
    now = "2026-11-20T12:00:00Z"
    s.q("ines", ["goals", "ines"], now=now, hand={"metrics": [
        # 1/32 = 0.03125 -> 0.0313; s = 1/32 so start 0; remaining 31/32 = 0.96875 -> 0.9688
        {"metric": "jumps", "target": 32, "progress": 1, "percent": 3, "remaining": 31, "complete": False,
         "lastSession": {"sessionId": "b"}, "ring": {"progress": 0.0313, "lastSession": {"start": 0.0, "end": 0.0313}, "remaining": 0.9688}},
        # 2/3 -> 0.6667, s = 1/3, start 1/3 -> 0.3333
        {"metric": "calories", "target": 3, "progress": 2, "percent": 66, "remaining": 1,
         "ring": {"progress": 0.6667, "lastSession": {"start": 0.3333, "end": 0.6667}, "remaining": 0.3333}},
        # 3/20000 = 0.00015 exactly -> 0.0002 (half away from zero; float rounding gives 0.0001); 0.99985 -> 0.9999
        {"metric": "scans", "target": 20000, "progress": 3, "percent": 0, "remaining": 19997, "lastSession": None,
         "ring": {"progress": 0.0002, "lastSession": {"start": 0.0002, "end": 0.0002}, "remaining": 0.9999}}]})
    s.q("tom", ["goals", "tom"], now=now, hand={"metrics": [
        # 1/4000 = 0.00025 -> 0.0003; the last session (y, later date) has 0 jumps so start = p
        {"metric": "jumps", "target": 4000, "progress": 1, "percent": 0, "remaining": 3999, "complete": False,
         "lastSession": {"sessionId": "y", "jumps": 0, "calories": 3},
         "ring": {"progress": 0.0003, "lastSession": {"start": 0.0003, "end": 0.0003}, "remaining": 0.9998}},
        # 5 of 2: 250 %, complete, p capped at 1, s = 3/2 so start 0
        {"metric": "calories", "target": 2, "progress": 5, "percent": 250, "remaining": 0, "complete": True, "message": None,
         "ring": {"progress": 1.0, "lastSession": {"start": 0.0, "end": 1.0}, "remaining": 0.0}}],
        "months": ["2026-11"]})


@scenario
def goals_last_session(s):
    s.init("2026-10-01T08:00:00Z")
    s.user("2026-10-01T09:00:00Z", "ines")
    s.goal("2026-11-01T08:00:00Z", "ines", "2026-11", "jumps", 1000)
    s.session("2026-11-10T12:00:00Z", "ines", "ines", "s1", "2026-11-10", 100, 10, "09:00", "10:00")
    s.session("2026-11-10T12:01:00Z", "ines", "ines", "s2", "2026-11-10", 200, 20, "10:00", "11:00")
    s.session("2026-11-10T12:02:00Z", "admin", "ines", "s3", "2026-11-10", 300, 30, "10:30", "11:00")  # same date and end: larger seq wins
    s.session("2026-11-11T09:00:00Z", "ines", "ines", "s4", "2026-11-09", 50, 5, "20:00", "23:00")      # later seq, earlier date
    s.session("2026-11-11T09:01:00Z", "ines", "ines", "s5", "2026-10-31", 999, 99, "08:00", "09:00")    # October, recorded in November
    s.scan("2026-12-01T00:00:00Z", "ines", "dec")      # after now: neither progress nor a month
    now = "2026-11-20T12:00:00Z"
    s.q("november", ["goals", "ines"], now=now, hand={"metrics": [
        {"metric": "jumps", "target": 1000, "progress": 650, "percent": 65, "remaining": 350, "complete": False,
         "lastSession": {"sessionId": "s3", "date": "2026-11-10", "park": "Sky Park", "startTime": "10:30", "endTime": "11:00",
                         "jumps": 300, "calories": 30},
         "ring": {"progress": 0.65, "lastSession": {"start": 0.35, "end": 0.65}, "remaining": 0.35}},
        {"metric": "calories", "target": None, "progress": 65, "lastSession": {"sessionId": "s3"}, "ring": None}],
        "months": ["2026-11", "2026-10"]})
    s.q("october", ["goals", "ines", "--month", "2026-10"], now=now, hand={"metrics": [
        {"metric": "jumps", "target": None, "progress": 999, "percent": None, "remaining": None, "complete": False,
         "lastSession": {"sessionId": "s5"}, "ring": None},
        {"metric": "calories", "progress": 99}]})
    s.q("before-s5-recorded", ["goals", "ines", "--month", "2026-10"], now="2026-11-11T09:00:59Z",
        hand={"metrics": [], "months": ["2026-11"]})
    s.q("unknown-user", ["goals", "nobody"], now=now, exit=65)


# ============================================================================ ordering, stats


@scenario
def newest_first_ties(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.scan("20T10:00:00", "ines", "z-first")
    s.scan("20T10:00:00", "ines", "a-second")
    s.scan("20T10:00:00", "ines", "m-third")
    s.scan("20T10:00:00.5Z", "ines", "later")
    s.scan("20T10:00:00.5Z", "ines", "b-last")
    s.scan("20T10:00:00.5Z", "ines", "c-last")
    now = "2026-11-20T12:00:00Z"
    s.q("history", ["history"], now=now, hand={"total": 6, "items": [
        {"scanId": "c-last"}, {"scanId": "b-last"}, {"scanId": "later"}, {"scanId": "m-third"}, {"scanId": "a-second"}, {"scanId": "z-first"}]})
    s.q("offset-through-a-tie", ["history", "--limit", "2", "--offset", "3"], now=now,
        hand={"total": 6, "items": [{"scanId": "m-third"}, {"scanId": "a-second"}]})
    s.q("stats-recent", ["stats"], now=now, hand={"recent": [
        {"scanId": "c-last"}, {"scanId": "b-last"}, {"scanId": "later"}, {"scanId": "m-third"}, {"scanId": "a-second"}],
        "firstScanAt": "2026-11-20T10:00:00Z", "lastScanAt": "2026-11-20T10:00:00.5Z"})


@scenario
def stats_categories(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "tom")
    s.user("01T09:00:00", "idle")
    s.scan("20T09:00:00", "ines", "t1", category="Toys")
    s.scan("20T09:01:00", "ines", "t2", category="Toys", result="counterfeit")
    s.scan("20T09:02:00", "ines", "a1", category="Apparel")
    s.scan("20T09:03:00", "tom", "a2", category="Apparel", result="counterfeit")
    s.scan("20T09:04:00", "tom", "l1", category="apparel")
    s.scan("20T09:05:00", "tom", "l2", category="apparel")
    s.scan("20T09:06:00", "ines", "e1", category="Électronique", result="counterfeit")
    s.scan("20T09:07:00", "ines", "z1", category="Zubehör")
    s.report("20T09:10:00", "tom", "a1", "price")               # a report on an authentic scan counts
    s.report("20T09:11:00", "ines", "t2", "serial")
    now = "2026-11-20T12:00:00Z"
    s.q("stats", ["stats"], now=now, hand={
        "total": 8, "authentic": 5, "counterfeit": 3, "reported": 2, "counterfeitRate": 0.375, "today": 8, "last7d": 8, "last30d": 8,
        "byCategory": [{"category": "Apparel", "total": 2, "counterfeit": 1}, {"category": "Toys", "total": 2, "counterfeit": 1},
                       {"category": "apparel", "total": 2, "counterfeit": 0}, {"category": "Zubehör", "total": 1, "counterfeit": 0},
                       {"category": "Électronique", "total": 1, "counterfeit": 1}]})
    s.q("stats-by-tom", ["stats", "--by", "tom"], now=now, hand={
        "total": 3, "authentic": 2, "counterfeit": 1, "reported": 0, "counterfeitRate": 0.3333,
        "byCategory": [{"category": "apparel", "total": 2, "counterfeit": 0}, {"category": "Apparel", "total": 1, "counterfeit": 1}]})
    s.q("stats-by-idle", ["stats", "--by", "idle"], now=now, hand={
        "total": 0, "authentic": 0, "counterfeit": 0, "reported": 0, "counterfeitRate": 0.0, "today": 0, "last7d": 0, "last30d": 0,
        "byCategory": [], "recent": [], "firstScanAt": None, "lastScanAt": None})
    s.q("categories-not-narrowed", ["history", "--category", "Toys", "--type", "failed"], now=now, hand={
        "total": 1, "items": [{"scanId": "t2", "report": {"reason": "serial", "at": "2026-11-20T09:11:00Z", "by": "ines"}}],
        "categories": ["Apparel", "Toys", "Zubehör", "apparel", "Électronique"]})
    s.q("category-exact", ["history", "--category", "apparel"], now=now,
        hand={"total": 2, "items": [{"scanId": "l2"}, {"scanId": "l1"}]})


@scenario
def seen_before(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.scan("20T09:00:00", "ines", "x1", code="CODE-X")
    s.scan("20T09:01:00", "ines", "x2", code="CODE-X")
    s.scan("20T09:02:00", "ines", "lower", code="code-x")          # codes are compared exactly
    s.scan("20T09:03:00", "ines", "spaced", code=" CODE-X")        # codes are not trimmed
    s.scan("20T09:04:00", "ines", "x3", code="CODE-X", result="counterfeit")
    now = "2026-11-20T12:00:00Z"
    s.q("history", ["history"], now=now, hand={"items": [
        {"scanId": "x3", "seenBefore": 2, "code": "CODE-X"}, {"scanId": "spaced", "seenBefore": 0, "code": " CODE-X"},
        {"scanId": "lower", "seenBefore": 0}, {"scanId": "x2", "seenBefore": 1}, {"scanId": "x1", "seenBefore": 0}]})
    s.q("show-x3", ["show", "x3"], now=now, hand={"scanId": "x3", "seenBefore": 2})
    s.q("show-unknown", ["show", "x9"], now=now, exit=65)
    s.q("show-not-yet", ["show", "x3"], now="2026-11-20T09:03:59Z", exit=65)


@scenario
def history_params(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "tom")
    for i in range(1, 8):
        s.scan(f"20T09:0{i}:00", "ines" if i % 2 else "tom", f"h{i}", result="counterfeit" if i in (2, 5) else "authentic",
               category="Toys" if i > 4 else "Apparel")
    now = "2026-11-20T12:00:00Z"
    s.q("success-by-ines", ["history", "--type", "success", "--by", "ines"], now=now,
        hand={"total": 3, "items": [{"scanId": "h7"}, {"scanId": "h3"}, {"scanId": "h1"}]})
    s.q("failed-toys", ["history", "--type", "failed", "--category", "Toys"], now=now, hand={"total": 1, "items": [{"scanId": "h5"}]})
    s.q("offset-past-end", ["history", "--offset", "7"], now=now, hand={"total": 7, "items": [], "categories": ["Apparel", "Toys"]})
    s.q("limit-1000", ["history", "--limit", "1000", "--by", "tom"], now=now,
        hand={"total": 3, "items": [{"scanId": "h6"}, {"scanId": "h4"}, {"scanId": "h2"}]})
    s.q("limit-0", ["history", "--limit", "0"], now=now, exit=64)
    s.q("offset-negative", ["history", "--offset", "-1"], now=now, exit=64)
    s.q("limit-not-a-number", ["history", "--limit", "ten"], now=now, exit=64)
    s.q("window-bad", ["history", "--window", "1d"], now=now, exit=64)
    s.q("type-bad", ["history", "--type", "fake"], now=now, exit=64)
    s.q("usage-wins-over-unknown-user", ["history", "--by", "nobody", "--limit", "0"], now=now, exit=64)
    s.q("by-unknown", ["history", "--by", "nobody"], now=now, exit=65)


@scenario
def report_shape(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "tom")
    s.scan("20T09:00:00", "ines", "r1", result="counterfeit", brand="  Acme  ", location="Lyon", notes=" box torn ")
    s.scan("20T09:01:00", "ines", "r2", mode="batch", batchId="B1", source="gallery", flash=True)
    s.report("20T09:05:00", "tom", "r1", "other", "  Sticker over the original QR  ")
    s.report("20T09:06:00", "ines", "r2", "packaging")
    now = "2026-11-20T12:00:00Z"
    s.q("show-r1", ["show", "r1"], now=now, hand=Exact({
        "scanId": "r1", "at": "2026-11-20T09:00:00Z", "actor": "ines", "code": "CODE-r1", "productName": "Widget", "brand": "Acme",
        "category": "Apparel", "result": "counterfeit", "mode": "single", "source": "camera", "flash": False, "location": "Lyon",
        "notes": "box torn", "seenBefore": 0,
        "report": {"reason": "other", "message": "Sticker over the original QR", "at": "2026-11-20T09:05:00Z", "by": "tom"}}))
    s.q("show-r2", ["show", "r2"], now=now, hand=Exact({
        "scanId": "r2", "at": "2026-11-20T09:01:00Z", "actor": "ines", "code": "CODE-r2", "productName": "Widget",
        "category": "Apparel", "result": "authentic", "mode": "batch", "source": "gallery", "flash": True, "batchId": "B1",
        "seenBefore": 0, "report": {"reason": "packaging", "at": "2026-11-20T09:06:00Z", "by": "ines"}}))
    s.q("stats-reported", ["stats"], now=now, hand={"reported": 2, "counterfeit": 1, "counterfeitRate": 0.5})
    s.q("reported-later", ["stats"], now="2026-11-20T09:05:30Z", hand={"reported": 1})


# ============================================================================ customers


@scenario
def customers_order(s):
    s.init()
    s.user("02T09:00:00", "zed", role="customer", name="bob")
    s.user("02T09:01:00", "abe", role="customer", name="Bob", phone="+1 555 0100")
    s.user("02T09:02:00", "emile", role="customer", name="Émile")
    s.user("02T09:03:00", "alice2", role="customer", name="ALICE")
    s.user("02T09:04:00", "alice1", role="customer", name="alice")
    s.user("02T09:05:00", "zoe", role="customer", name="Zoé")
    s.user("02T09:06:00", "gone", role="customer", name="Aaron")
    s.user("02T09:07:00", "ines", name="Aardvark Inspector")
    s.ev("03T10:00:00", "admin", "status.changed", username="abe", status="ONBOARDED")
    s.ev("03T10:05:00", "admin", "status.changed", username="gone", status="DENIED")
    s.ev("03T11:00:00", "admin", "account.deleted", username="gone")
    s.ev("04T10:00:00", "admin", "account.updated", username="zoe", name="Anna Zoé")   # renamed: moves up
    now = "2026-11-20T12:00:00Z"
    s.q("list", ["customers"], now=now, hand={"customers": [
        {"username": "alice1"}, {"username": "alice2"}, {"username": "zoe", "name": "Anna Zoé"},
        {"username": "abe", "phone": "+1 555 0100", "status": "ONBOARDED", "color": "light-green",
         "since": "2026-11-03T10:00:00Z", "changedBy": "admin", "city": "Lyon"},
        {"username": "zed", "name": "bob", "status": "AWAITED", "color": "yellow", "since": "2026-11-02T09:00:00Z", "changedBy": "admin"},
        {"username": "emile"}],
        "counts": {"AWAITED": 5, "FAILEDTOREACH": 0, "ONBOARDED": 1, "INPROCESS": 0, "COMPLETED": 0, "DENIED": 0}})
    s.q("before-rename", ["customers", "--status", "AWAITED"], now="2026-11-03T12:00:00Z", hand={"customers": [
        {"username": "alice1"}, {"username": "alice2"}, {"username": "zed"}, {"username": "zoe", "name": "Zoé"}, {"username": "emile"}],
        "counts": {"AWAITED": 5, "FAILEDTOREACH": 0, "ONBOARDED": 1, "INPROCESS": 0, "COMPLETED": 0, "DENIED": 0}})
    s.q("filter-empty", ["customers", "--status", "COMPLETED"], now=now, hand={"customers": [],
        "counts": {"AWAITED": 5, "FAILEDTOREACH": 0, "ONBOARDED": 1, "INPROCESS": 0, "COMPLETED": 0, "DENIED": 0}})
    s.q("status-bad", ["customers", "--status", "await"], now=now, exit=64)


@scenario
def customer_status_history(s):
    s.init()
    s.user("01T09:00:00", "r.keller", role="admin", name="Rosa Keller")
    s.user("02T09:00:00", "mlopez", role="customer", name="Maria López", email="m@ex.org", website="lopez.example",
           address={"street": "5 Rue de la République", "suite": "", "city": "Lyon", "zipcode": "69002"},
           geo={"lat": 45.764043, "lng": 4.835659}, company={"name": "López SARL", "catchPhrase": "", "bs": "file taxes"})
    s.user("02T10:00:00", "selfie", role="customer", actor="selfie", name="Sam Self",
           address={"street": "1 Self St", "city": "Dublin", "zipcode": "D02"})
    s.ev("03T09:00:00", "admin", "status.changed", username="mlopez", status="FAILEDTOREACH", note="  No answer  ")
    s.ev("04T09:00:00", "r.keller", "status.changed", username="mlopez", status="AWAITED")
    s.ev("05T09:00:00", "admin", "status.changed", username="mlopez", status="ONBOARDED", note="Call done ✔")
    s.ev("06T09:00:00", "admin", "account.updated", username="mlopez", phone="+33 4 00 00 00 00",
         address={"street": "9 Quai Saint-Antoine", "city": "Lyon", "zipcode": "69002"})
    now = "2026-11-20T12:00:00Z"
    s.q("show-mlopez", ["customer", "show", "mlopez"], now=now, hand=Exact({
        "username": "mlopez", "name": "Maria López", "email": "m@ex.org", "phone": "+33 4 00 00 00 00", "website": "lopez.example",
        "address": {"street": "9 Quai Saint-Antoine", "city": "Lyon", "zipcode": "69002"}, "geo": {"lat": 45.764043, "lng": 4.835659},
        "company": {"name": "López SARL", "catchPhrase": "", "bs": "file taxes"}, "registeredAt": "2026-11-02T09:00:00Z",
        "status": "ONBOARDED", "color": "light-green", "statusHistory": [
            {"status": "AWAITED", "at": "2026-11-02T09:00:00Z", "by": "admin"},
            {"status": "FAILEDTOREACH", "at": "2026-11-03T09:00:00Z", "by": "admin", "note": "No answer"},
            {"status": "AWAITED", "at": "2026-11-04T09:00:00Z", "by": "r.keller"},
            {"status": "ONBOARDED", "at": "2026-11-05T09:00:00Z", "by": "admin", "note": "Call done ✔"}]}))
    s.q("show-selfie", ["customer", "show", "selfie"], now=now, hand=Exact({
        "username": "selfie", "name": "Sam Self", "email": "selfie@vt.example",
        "address": {"street": "1 Self St", "city": "Dublin", "zipcode": "D02"}, "registeredAt": "2026-11-02T10:00:00Z",
        "status": "AWAITED", "color": "yellow", "statusHistory": [{"status": "AWAITED", "at": "2026-11-02T10:00:00Z", "by": "selfie"}]}))
    s.q("list-since", ["customers"], now=now, hand={"customers": [
        {"username": "mlopez", "since": "2026-11-05T09:00:00Z", "changedBy": "admin", "phone": "+33 4 00 00 00 00"},
        {"username": "selfie", "since": "2026-11-02T10:00:00Z", "changedBy": "selfie"}]})
    s.q("back-to-awaited", ["customers"], now="2026-11-04T12:00:00Z", hand={"customers": [
        {"username": "mlopez", "status": "AWAITED", "color": "yellow", "since": "2026-11-04T09:00:00Z", "changedBy": "r.keller"},
        {"username": "selfie"}], "counts": {"AWAITED": 2, "FAILEDTOREACH": 0, "ONBOARDED": 0, "INPROCESS": 0, "COMPLETED": 0, "DENIED": 0}})
    s.q("show-inspector-is-not-a-customer", ["customer", "show", "r.keller"], now=now, exit=65)


@scenario
def deleted_account(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("02T09:00:00", "cara", role="customer", actor="cara", name="Cara Clark", email="Cara@Example.org")
    s.pset("02T09:00:30", "cara", actor="cara")
    s.scan("10T09:00:00", "cara", "c1", result="counterfeit")
    s.scan("10T09:01:00", "cara", "c2")
    s.report("10T09:02:00", "cara", "c1", "seller")
    s.ev("10T10:00:00", "cara", "search.performed", username="cara", query="watch")
    s.ev("11T10:00:00", "admin", "account.deleted", username="cara", reason="Fake identity")
    s.user("12T09:00:00", "cara2", role="customer", name="Cara Clark", email="cara@example.ORG")   # the email is free again
    s.scan("12T10:00:00", "ines", "i1")
    now = "2026-11-20T12:00:00Z"
    s.q("stats-keeps-deleted-scans", ["stats"], now=now, hand={"total": 3, "counterfeit": 1, "reported": 1})
    s.q("history-by-deleted", ["history", "--by", "cara"], now=now, hand={"total": 2, "items": [{"scanId": "c2"}, {"scanId": "c1"}]})
    s.q("accounts", ["accounts"], now=now, hand={"accounts": [
        {"username": "admin", "role": "admin", "name": "Ada Admin", "email": "admin@vt.example", "deleted": False, "registeredAt": "2026-11-01T08:00:00Z"},
        {"username": "cara", "role": "customer", "name": "Cara Clark", "email": "Cara@Example.org", "deleted": True, "registeredAt": "2026-11-02T09:00:00Z"},
        {"username": "cara2", "role": "customer", "name": "Cara Clark", "email": "cara@example.ORG", "deleted": False, "registeredAt": "2026-11-12T09:00:00Z"},
        {"username": "ines", "role": "inspector", "name": "Ines", "email": "ines@vt.example", "deleted": False, "registeredAt": "2026-11-01T09:00:00Z"}]})
    s.q("customers-without-deleted", ["customers"], now=now, hand={"customers": [{"username": "cara2"}],
        "counts": {"AWAITED": 1, "FAILEDTOREACH": 0, "ONBOARDED": 0, "INPROCESS": 0, "COMPLETED": 0, "DENIED": 0}})
    s.q("searches-deleted", ["searches", "cara"], now=now, exit=65)
    s.q("settings-deleted", ["settings", "cara"], now=now, exit=65)
    s.q("viewer-deleted", ["stats"], now=now, as_="cara", exit=65)
    s.q("before-deletion", ["searches", "cara"], now="2026-11-11T09:59:59Z", hand={"username": "cara", "recent": ["watch"]})


# ============================================================================ settings, searches


@scenario
def settings_and_viewer(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "tom")
    s.user("01T09:00:00", "kim")
    s.ev("02T09:00:00", "ines", "settings.changed", username="ines", historyWindow="today", flash=True)
    s.ev("03T09:00:00", "ines", "settings.changed", username="ines", captureMode="batch")
    s.ev("04T09:00:00", "ines", "settings.changed", username="ines", flash=False, color="white")
    s.ev("04T09:00:00", "kim", "settings.changed", username="kim", historyWindow="all")
    s.scan("05T09:00:00", "tom", "old")             # 15 days before now: in 30d, not in 7d or today
    s.scan("20T09:00:00", "tom", "new")
    now = "2026-11-20T12:00:00Z"
    s.q("ines", ["settings", "ines"], now=now, hand={"username": "ines", "flash": False, "captureMode": "batch",
                                                    "historyWindow": "today", "color": "white",
                                                    "windows": ["today", "7d", "30d", "90d", "all"]})
    s.q("defaults", ["settings", "tom"], now=now, hand={"username": "tom", "flash": False, "captureMode": "single",
                                                       "historyWindow": "30d", "color": "white",
                                                       "windows": ["today", "7d", "30d", "90d", "all"]})
    s.q("viewer-window-today", ["history"], now=now, as_="ines", hand={"total": 1, "items": [{"scanId": "new"}]})
    s.q("viewer-window-overridden", ["history", "--window", "all"], now=now, as_="ines", hand={"total": 2})
    s.q("viewer-default-30d", ["history"], now="2026-12-06T09:00:00Z", as_="tom", hand={"total": 1, "items": [{"scanId": "new"}]})
    s.q("no-viewer-all", ["history"], now="2026-12-06T09:00:00Z", hand={"total": 2})
    s.q("viewer-unknown", ["history"], now=now, as_="nobody", exit=65)


@scenario
def searches_recent(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("01T09:00:00", "tom")
    for i, q in enumerate(["οδος", "ΟΔΟΣ", "Οδοσ", "Straße", "STRASSE"]):
        s.ev(f"09T1{i}:00:00", "tom", "search.performed", username="tom", query=q)
    qs = ["alpha", "Beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "BETA", "  Mu  "]
    for i, q in enumerate(qs):
        s.ev(f"{10 + i}T09:00:00", "ines", "search.performed", username="ines", query=q)
    now = "2026-11-30T12:00:00Z"
    s.q("ten-newest-distinct", ["searches", "ines"], now=now, hand={"username": "ines", "recent": [
        "Mu", "BETA", "lambda", "kappa", "iota", "theta", "eta", "zeta", "epsilon", "delta"]})
    s.q("before-beta-again", ["searches", "ines"], now="2026-11-21T08:59:59Z", hand={"recent": [
        "lambda", "kappa", "iota", "theta", "eta", "zeta", "epsilon", "delta", "gamma", "Beta"]})
    s.q("sigma-and-sharp-s", ["searches", "tom"], now=now, hand={"username": "tom", "recent": ["STRASSE", "Straße", "Οδοσ", "οδος"]})
    s.q("none", ["searches", "admin"], now=now, hand={"username": "admin", "recent": []})


# ============================================================================ the log


@scenario
def first_admin_only(s):
    s.init()
    now = "2026-11-20T12:00:00Z"
    s.q("stats-empty", ["stats"], now=now, hand={"total": 0, "authentic": 0, "counterfeit": 0, "reported": 0, "counterfeitRate": 0.0,
                                                "today": 0, "last7d": 0, "last30d": 0, "byCategory": [], "recent": [],
                                                "firstScanAt": None, "lastScanAt": None})
    s.q("history-empty", ["history"], now=now, hand={"total": 0, "items": [], "categories": []})
    s.q("customers-empty", ["customers"], now=now, hand={"customers": [], "counts": {
        "AWAITED": 0, "FAILEDTOREACH": 0, "ONBOARDED": 0, "INPROCESS": 0, "COMPLETED": 0, "DENIED": 0}})
    s.q("lockout-admin", ["lockout", "admin"], now=now, hand={"username": "admin", **lock("required", 0, totals=(0, 0, 0))})
    s.q("goals-admin", ["goals", "admin"], now=now, hand={"username": "admin", "month": "2026-11", "metrics": [], "months": ["2026-11"]})
    s.q("log-status", ["log", "status"], now=now, hand={"events": 2, "head": {"seq": 2}, "firstAt": "2026-11-01T08:00:00Z",
                                                           "lastAt": "2026-11-01T08:00:00Z", "byType": {"account.registered": 1, "passcode.set": 1}})


@scenario
def replay_small(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.user("02T09:00:00", "cara", role="customer", name="Cara")
    s.user("02T09:00:00", "dan", role="customer", name="Dan")
    s.scan("10T09:00:00", "ines", "r1")
    s.ev("12T09:00:00", "admin", "account.deleted", username="dan")
    s.scan("20T09:00:00", "ines", "r2")
    s.q("replay", ["replay"], now="2026-11-20T12:00:00Z", hand={
        "asOf": {"seq": 8, "at": "2026-11-20T09:00:00Z"}, "now": "2026-11-20T12:00:00Z",
        "stats": {"total": 2, "today": 1}, "lockout": {"accounts": [{"username": "admin"}, {"username": "cara"}, {"username": "ines"}]},
        "customers": {"customers": [{"username": "cara"}]},
        "accounts": {"accounts": [{"username": "admin"}, {"username": "cara"}, {"username": "dan", "deleted": True}, {"username": "ines"}]},
        "goals": {"admin": {"month": "2026-11", "metrics": []}, "cara": {"metrics": []},
                  "ines": {"metrics": [{"metric": "scans", "target": None, "progress": 2}], "months": ["2026-11"]}}})
    s.q("replay-as-of-time", ["replay"], asOf="2026-11-15T00:00:00Z", hand={
        "asOf": {"seq": 7, "at": "2026-11-12T09:00:00Z"}, "now": "2026-11-15T00:00:00Z", "stats": {"total": 1, "last7d": 1}})
    s.q("replay-as-of-seq", ["replay"], asOf="3", hand={
        "asOf": {"seq": 3, "at": "2026-11-01T09:00:00Z"}, "now": "2026-11-01T09:00:00Z",
        "accounts": {"accounts": [{"username": "admin"}, {"username": "ines"}]}, "goals": {"admin": {}, "ines": {}}})


@scenario
def idempotent_ids(s):
    s.init()
    s.user("01T09:00:00", "ines")
    s.ev("20T10:00:05", "ines", "scan.recorded", scanId="s1", code="C1", productName="Widget", category="Toys",
         result="authentic", mode="single", source="camera", flash=False)
    # the same event again under the same id, spelled differently: a no-op, not a second event
    s.events.append({"data": {"flash": False, "source": "camera", "mode": "single", "result": "authentic", "category": " Toys",
                              "productName": "Widget\u00a0", "code": "C1", "scanId": "s1"},
                     "actor": "ines", "at": "2026-11-20T10:00:05.000Z", "type": "scan.recorded", "id": s.events[-1]["id"]})
    s.scan("20T10:00:06", "ines", "s2", code="C1")
    now = "2026-11-20T12:00:00Z"
    s.q("log-status", ["log", "status"], now=now, hand={"events": 5, "head": {"seq": 5}, "lastAt": "2026-11-20T10:00:06Z",
                                                           "byType": {"account.registered": 2, "passcode.set": 1, "scan.recorded": 2}})
    s.q("history", ["history"], now=now, hand={"total": 2, "items": [{"scanId": "s2", "seenBefore": 1}, {"scanId": "s1", "seenBefore": 0}]})
    s.q("replay-as-of-3", ["replay"], asOf="3", hand={"asOf": {"seq": 3, "at": "2026-11-01T09:00:00Z"}, "stats": {"total": 0}})


# ============================================================================ main


def main():
    ev_dir = os.path.join(ROOT, "Events", "scenarios")
    pr_dir = os.path.join(ROOT, "Projections", "scenarios")
    os.makedirs(ev_dir, exist_ok=True)
    for f in os.listdir(ev_dir):
        if f.endswith(".ndjson"):
            os.remove(os.path.join(ev_dir, f))
    shutil.rmtree(pr_dir, ignore_errors=True)
    total = 0
    bad = 0
    for sc in SCENARIOS:
        path = os.path.join(ev_dir, sc.name + ".ndjson")
        with open(path, "w", encoding="utf-8") as f:
            for e in sc.events:
                f.write(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n")
        log = oracle.load_log(path)
        names = set()
        for name, args, now, as_of, viewer, exit_, hand in sc.questions:
            assert name not in names, name
            names.add(name)
            q = oracle.make_question(log, args, now=now, as_of=as_of, viewer=viewer)
            try:
                assert q["exit"] == exit_, f"exit: hand says {exit_}, oracle says {q['exit']}"
                if exit_ == 0 and hand is not None:
                    subset(hand, q["expect"])
            except AssertionError as e:
                bad += 1
                print(f"MISMATCH {sc.name}/{name}: {e}", file=sys.stderr)
            oracle.write_question(os.path.join(pr_dir, sc.name), name, q)
            total += 1
        print(f"{sc.name}: {len(log)} events, {len(sc.questions)} questions")
    print(f"{len(SCENARIOS)} scenarios, {total} questions")
    if bad:
        print(f"{bad} mismatches between hand and oracle", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
