"""server.md §4, §6: every query of the README's walk, asked of the command line (`--json`) and of the
server on the same store and clock, gives the same bytes."""
import os
import subprocess

import requests

from conftest import NOW, ROOT, Server, cli

# (the CLI's arguments, the route, who asks)
QUERIES = [
    (["stats"], "/v1/stats", "admin"),
    (["stats", "--by", "ines"], "/v1/stats?by=ines", "admin"),
    (["history", "--type", "failed", "--window", "all", "--search", "serum"], "/v1/history?type=failed&window=all&search=serum", "admin"),
    (["history", "--limit", "5"], "/v1/history?limit=5", "ines"),
    (["history", "--window", "30d", "--category", "Cosmetics", "--offset", "2", "--limit", "3"],
     "/v1/history?window=30d&category=Cosmetics&offset=2&limit=3", "kwan"),
    (["show", "s-0064"], "/v1/scans/s-0064", "admin"),
    (["customers"], "/v1/customers", "admin"),
    (["customers", "--status", "AWAITED"], "/v1/customers?status=AWAITED", "admin"),
    (["customer", "show", "kamren"], "/v1/customers/kamren", "admin"),
    (["customer", "show", "bret"], "/v1/customers/bret", "bret"),
    (["goals", "kwan"], "/v1/goals/kwan", "admin"),
    (["goals", "kwan", "--month", "2026-10"], "/v1/goals/kwan?month=2026-10", "kwan"),
    (["lockout"], "/v1/lockout", "admin"),
    (["lockout", "ines"], "/v1/lockout/ines", "admin"),
    (["accounts"], "/v1/accounts", "admin"),
    (["settings", "ines"], "/v1/settings/ines", "admin"),
    (["searches", "ines"], "/v1/searches/ines", "admin"),
    (["replay", "--as-of", "2026-11-01T00:00:00Z"], "/v1/replay?asOf=2026-11-01T00:00:00Z", "admin"),
    (["replay", "--as-of", "120"], "/v1/replay?asOf=120", "admin"),
    # The empty log, before any account (its viewer is not looked up: the auditor's view is everyone's).
    (["replay", "--as-of", "0"], "/v1/replay?asOf=0", "admin"),
    (["stats", "--now", "2026-11-10T00:00:00Z"], "/v1/stats?now=2026-11-10T00:00:00Z", "admin"),
    (["diff", "--from", "120"], "/v1/diff?from=120", "admin"),
    (["log", "status"], "/v1/log/status", "admin"),
    (["log", "status", "--as-of", "120"], "/v1/log/status?asOf=120", "admin"),
    (["log", "verify"], "/v1/log/verify", "admin"),
    # `--now` hides nothing from the log's own commands (cli.md §7); the routes take it as they do.
    (["log", "status", "--now", "2026-11-01T00:00:00Z"], "/v1/log/status?now=2026-11-01T00:00:00Z", "admin"),
    (["log", "verify", "--now", "2026-11-01T00:00:00Z"], "/v1/log/verify?now=2026-11-01T00:00:00Z", "admin"),
]


def test_every_query_both_ways(server):
    tokens = {}
    # Every sign-in is an event: sign everyone in first, then compare on the same log.
    for _, _, user in QUERIES:
        if user not in tokens:
            tokens[user] = server.sign_in(user)
    for args, route, user in QUERIES:
        viewer = [] if args[0] in ("log",) else ["--as", user]
        expected = cli(*args, "--json", *viewer, store=server.store)
        assert expected.returncode == 0, (args, expected.stderr)
        r = server.get(route, tokens[user])
        assert r.status_code == 200, (route, r.text)
        assert r.headers["Content-Type"] == "application/json"
        assert r.content == expected.stdout, route


def test_text_routes_both_ways(server):
    admin = server.sign_in("admin")
    assert server.get("/v1/log/digest", admin).content == cli("log", "digest", store=server.store).stdout
    assert server.get("/v1/log/digest?now=2026-11-01T00:00:00Z", admin).content == cli("log", "digest", store=server.store).stdout
    pairs = [
        (["log", "key"], "/v1/log/key"),
        (["log", "checkpoint"], "/v1/log/checkpoint"),
        (["log", "checkpoint", "--size", "50"], "/v1/log/checkpoint?size=50"),
        (["log", "prove", "120"], "/v1/log/prove/120"),
        (["log", "prove", "3", "--size", "50"], "/v1/log/prove/3?size=50"),
        # A seq or count with a leading `+`, as the command line takes it.
        (["log", "prove", "+3", "--size", "+50"], "/v1/log/prove/%2B3?size=%2B50"),
        (["log", "consistency", "100"], "/v1/log/consistency?old=100"),
    ]
    for args, route in pairs:
        text = server.get(route)
        assert text.status_code == 200 and text.headers["Content-Type"] == "text/plain; charset=utf-8"
        assert text.content == cli(*args, store=server.store).stdout, route
        js = server.get(route, headers={"Accept": "application/json"})
        assert js.content == cli(*args, "--json", store=server.store).stdout, route
    export = server.get("/v1/events?from=3&to=40&type=scan.recorded&type=status.changed", admin)
    assert export.headers["Content-Type"] == "application/x-ndjson"
    assert export.content == cli("export", "--from", "3", "--to", "40", "--type", "scan.recorded", "--type", "status.changed",
                                 store=server.store).stdout


def test_the_events_of_a_log_of_several_windows_are_its_export(tmp_path):
    """`GET /v1/events` reads and sends the log 16,384 seqs at a time (`Routes.events`), never gathered whole: over
    a log of 40,000 events, with bounds on the windows' edges and filters across them, the bytes `export` writes."""
    log = tmp_path / "events.ndjson"
    subprocess.run(["python3", os.path.join(ROOT, "scripts/gen_bench.py"), "40000", str(log)], check=True,
                   capture_output=True, timeout=120)
    store = str(tmp_path / "store")
    r = cli("import", str(log), store=store)
    assert r.returncode == 0, r.stderr
    s = Server(store)
    try:
        admin = s.sign_in("admin", "2468")
        for query, args in [("", []),
                            ("?from=16384&to=32769", ["--from", "16384", "--to", "32769"]),
                            ("?from=16385", ["--from", "16385"]),
                            ("?type=goal.set&type=status.changed", ["--type", "goal.set", "--type", "status.changed"]),
                            ("?actor=admin&from=2", ["--actor", "admin", "--from", "2"])]:
            got = s.get("/v1/events" + query, admin)
            assert got.status_code == 200 and got.headers["Content-Type"] == "application/x-ndjson", query
            assert got.content == cli("export", *args, store=store).stdout, query
        # A follow from the first seq sends the same backlog a window at a time, then waits for commits.
        export = cli("export", store=store).stdout
        follow = requests.get(s.url + "/v1/events?follow=true&from=1", headers={"Authorization": "Bearer " + admin},
                              stream=True, timeout=60)
        try:
            lines = follow.iter_lines()
            backlog = [next(lines) + b"\n" for _ in range(export.count(b"\n"))]
        finally:
            follow.close()
        assert b"".join(backlog) == export
        # As server-sent events, each with its seq as its id, across a window's edge.
        sse = requests.get(s.url + "/v1/events?follow=true&from=16380", stream=True, timeout=60,
                           headers={"Authorization": "Bearer " + admin, "Accept": "text/event-stream"})
        try:
            ids = []
            for line in sse.iter_lines():
                if line.startswith(b"id: "):
                    ids.append(int(line[4:]))
                if len(ids) == 10:
                    break
        finally:
            sse.close()
        assert ids == list(range(16380, 16390))
        # A refusal found in the first window is still a problem with its status, before any event is sent.
        refused = s.get("/v1/events?actor=nobody", admin)
        assert refused.status_code == 404 and refused.json()["exitCode"] == 65, refused.text
    finally:
        s.stop()
