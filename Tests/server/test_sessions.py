"""server.md §2: the passcode gate over HTTP, the same gate as the command line's; tokens and their end."""
import json
import os
import stat

from conftest import NOW, Server, cli
from test_basics import is_problem


def lockout(store, user, now=NOW):
    return json.loads(cli("lockout", user, "--json", store=store, now=now).stdout)


def test_grant_records_the_attempt(server):
    r = server.post("/v1/sessions", json={"user": "ines", "passcode": "1234"})
    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"token", "user", "role", "expiresAt"}
    assert body["user"] == "ines" and body["role"] == "inspector" and body["expiresAt"] == "2026-11-20T18:20:00Z"
    assert len(body["token"]) == 43 and "=" not in body["token"]
    tail = cli("log", "tail", "-n", "1", "--json", store=server.store).stdout
    event = json.loads(tail)
    assert event["type"] == "passcode.attempted" and event["data"] == {"username": "ines", "outcome": "granted"}
    # Kept only as its hash, 0600, outside the log.
    sessions = os.path.join(server.store, "server-sessions")
    assert stat.S_IMODE(os.stat(sessions).st_mode) == 0o600
    assert body["token"] not in open(sessions).read()
    assert body["token"].encode() not in cli("export", store=server.store).stdout


def test_three_wrong_over_http_lock_the_cli_too(server):
    for i in range(2):
        is_problem(server.post("/v1/sessions", json={"user": "ines", "passcode": "0000"}), 401, 77)
    r = server.post("/v1/sessions", json={"user": "ines", "passcode": "0000"})
    is_problem(r, 423, 77)
    assert int(r.headers["Retry-After"]) == 60
    r = server.post("/v1/sessions", json={"user": "ines", "passcode": "1234"})
    is_problem(r, 423, 77)
    assert lockout(server.store, "ines")["state"] == "locked"
    r = cli("scan", "--as", "ines", "--code", "c", "--product", "p", "--category", "Cosmetics", "--result", "authentic",
            "--passcode-stdin", stdin=b"1234\n", store=server.store)
    assert r.returncode == 77 and b"locked out" in r.stderr


def test_three_wrong_at_the_cli_lock_http(server):
    for _ in range(3):
        cli("unlock", "--as", "kwan", "--passcode-stdin", stdin=b"0000\n", store=server.store)
    r = server.post("/v1/sessions", json={"user": "kwan", "passcode": "1234"})
    is_problem(r, 423, 77)
    assert "Retry-After" in r.headers


def test_token_dies_with_a_lockout_a_new_passcode_a_deletion_and_logout(server):
    ines = server.sign_in("ines")
    assert server.get("/v1/stats", ines).status_code == 200
    # A lockout: three wrong passcodes at the command line.
    for _ in range(3):
        cli("unlock", "--as", "ines", "--passcode-stdin", stdin=b"0000\n", store=server.store)
    is_problem(server.get("/v1/stats", ines), 401, 77)

    kwan = server.sign_in("kwan")
    r = cli("passcode", "set", "--as", "kwan", "--passcode-stdin", stdin=b"1234\n5678\n5678\n", store=server.store)
    assert r.returncode == 0, r.stderr
    r = server.get("/v1/stats", kwan)
    is_problem(r, 401, 77)
    assert r.headers["WWW-Authenticate"] == "Bearer"
    # Signing in again after the end works, and the old token stays dead.
    kwan2 = server.sign_in("kwan", "5678")
    assert server.get("/v1/stats", kwan2).status_code == 200
    is_problem(server.get("/v1/stats", kwan), 401, 77)

    admin = server.sign_in("admin")
    assert server.request("DELETE", "/v1/sessions/current", admin).status_code == 204
    is_problem(server.get("/v1/stats", admin), 401, 77)

    is_problem(server.get("/v1/stats"), 401, 77)
    is_problem(server.get("/v1/stats", "not-a-token"), 401, 77)


def test_token_survives_restart_and_expires_after_15_minutes(store):
    first = Server(store, now="2026-11-20T18:05:00Z")
    token = first.sign_in("ines")
    first.stop()
    second = Server(store, now="2026-11-20T18:19:59Z")
    try:
        assert second.get("/v1/stats", token).status_code == 200
    finally:
        second.stop()
    third = Server(store, now="2026-11-20T18:20:00Z")
    try:
        is_problem(third.get("/v1/stats", token), 401, 77)
    finally:
        third.stop()


def test_who_reads_what(server):
    customer = server.sign_in("bret")
    assert server.get("/v1/customers/bret", customer).status_code == 200
    assert server.get("/v1/settings/bret", customer).status_code == 200
    assert server.get("/v1/goals/bret", customer).status_code == 200
    assert server.get("/v1/lockout/bret", customer).status_code == 200
    assert server.get("/v1/searches/bret", customer).status_code == 200
    for path in ["/v1/stats", "/v1/history", "/v1/customers", "/v1/settings/ines", "/v1/accounts", "/v1/lockout",
                 "/v1/log/status", "/v1/events", "/v1/replay"]:
        is_problem(server.get(path, customer), 403, 77)
    ines = server.sign_in("ines")
    assert server.get("/v1/stats", ines).status_code == 200
    is_problem(server.get("/v1/events", ines), 403, 77)
    is_problem(server.get("/v1/replay", ines), 403, 77)
    is_problem(server.get("/v1/history?as=kwan", ines), 403, 77)
    admin = server.sign_in("admin")
    assert server.get("/v1/history?as=ines", admin).status_code == 200
    assert server.get("/v1/events", admin).status_code == 200
    # The hashes are public.
    assert server.get("/v1/log/key").status_code == 200
    assert server.get("/v1/log/checkpoint").status_code == 200


def test_an_unknown_or_deleted_user_is_refused_as_unlock_refuses_it(server):
    """cli.md §6: an unknown or deleted user is exit 65, so the sign-in is 404 with exitCode 65 and `unlock`'s
    sentence; the refusal writes nothing (there is no account to count an attempt against)."""
    before = cli("log", "digest", store=server.store).stdout
    for user in ("nobody", "elwyn.skiles"):
        r = server.post("/v1/sessions", json={"user": user, "passcode": "1234"})
        is_problem(r, 404, 65)
        local = cli("unlock", "--as", user, "--passcode-stdin", store=server.store, stdin=b"1234\n")
        assert local.returncode == 65
        assert r.json()["detail"] in local.stderr.decode(), (r.json(), local.stderr)
    assert cli("log", "digest", store=server.store).stdout == before
