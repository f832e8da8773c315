"""server.md §2: a token ends when its account's access ends — decided from the log at each request, with the
gate's own rules (projections.md §3), and cheaply: a log that grew by thousands of wrong passcodes (an import
by another process) costs the next request one pass over the new events, not a replay of the log for each."""
import json
import time

from conftest import Server, cli
from test_basics import is_problem

START = 1795219200  # 2026-11-21T00:00:00Z: after every event of the demo store


def at(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(START + seconds))


def attempt(i, user, outcome, seconds):
    return json.dumps({"id": f"gate-{i:05d}", "type": "passcode.attempted", "at": at(seconds), "actor": user,
                       "data": {"username": user, "outcome": outcome}}) + "\n"


def test_thousands_of_wrong_passcodes_cost_one_pass(store, tmp_path):
    server = Server(store)
    try:
        admin, kwan, ines = server.sign_in("admin"), server.sign_in("kwan"), server.sign_in("ines")
        assert server.get("/v1/stats", admin).status_code == 200
        # 3,000 wrong passcodes of kwan, 61 s apart: every third locks the account for a minute, which runs out
        # before the next; ines gets two wrong ones, a right one, then two wrong ones: never three in a row.
        lines = [attempt(i, "kwan", "denied", 61 * i) for i in range(3000)]
        lines += [attempt(3000 + i, "ines", outcome, 61 * 3000 + i) for i, outcome in
                  enumerate(["denied", "denied", "granted", "denied", "denied"])]
        path = tmp_path / "gate.ndjson"
        path.write_text("".join(lines))
        r = cli("import", str(path), store=store, now=None)
        assert r.returncode == 0, r.stderr
        started = time.time()
        assert server.get("/v1/stats", admin).status_code == 200
        assert time.time() - started < 10, "the first request after the import took %.1f s" % (time.time() - started)
        is_problem(server.get("/v1/stats", kwan), 401, 77)  # the first lock ended kwan's session
        assert server.get("/v1/stats", ines).status_code == 200  # two in a row, twice: not a lock
    finally:
        server.stop()


def test_a_third_wrong_passcode_after_a_right_one_does_not_end_the_session(server):
    ines = server.sign_in("ines")
    for passcode in (b"0000\n", b"0000\n", b"1234\n", b"0000\n"):
        cli("unlock", "--as", "ines", "--passcode-stdin", stdin=passcode, store=server.store)
    assert server.get("/v1/stats", ines).status_code == 200
    r = cli("unlock", "--as", "ines", "--passcode-stdin", stdin=b"0000\n", store=server.store)
    assert r.returncode == 77
    # the second wrong one since the right one: still two in a row
    assert server.get("/v1/stats", ines).status_code == 200
    cli("unlock", "--as", "ines", "--passcode-stdin", stdin=b"0000\n", store=server.store)
    is_problem(server.get("/v1/stats", ines), 401, 77)
