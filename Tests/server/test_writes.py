"""server.md §3: every writing command as a route, answered as its `--json`; Idempotency-Key as --id;
refusals write nothing."""
import json
import socket
import time

from conftest import NOW, Server, cli
from test_basics import is_problem


def head(store):
    return json.loads(cli("log", "status", "--json", store=store).stdout)["head"]["seq"]


def test_scan_answers_its_scan_and_retries_are_idempotent(server):
    ines = server.sign_in("ines")
    body = {"code": "https://verify.example/p/H-1", "productName": "Night Serum", "category": "Cosmetics",
            "result": "authentic", "scanId": "s-http-1"}
    r = server.post("/v1/scans", ines, json=body, headers={"Idempotency-Key": "k-http-1"})
    assert r.status_code == 201, r.text
    assert r.content == cli("show", "s-http-1", "--json", store=server.store).stdout
    before = head(server.store)
    again = server.post("/v1/scans", ines, json=body, headers={"Idempotency-Key": "k-http-1"})
    assert again.status_code == 200 and again.content == r.content
    assert head(server.store) == before
    other = dict(body, productName="Day Serum")
    is_problem(server.post("/v1/scans", ines, json=other, headers={"Idempotency-Key": "k-http-1"}), 409, 65)
    assert head(server.store) == before
    # Without a scanId, the key still makes the retry the same scan.
    body2 = {"code": "c-2", "productName": "P", "category": "Toys", "result": "counterfeit"}
    first = server.post("/v1/scans", ines, json=body2, headers={"Idempotency-Key": "k-http-2"})
    second = server.post("/v1/scans", ines, json=body2, headers={"Idempotency-Key": "k-http-2"})
    assert (first.status_code, second.status_code) == (201, 200) and first.json()["scanId"] == second.json()["scanId"]


def test_a_retried_search_is_200_and_a_retried_passcode_is_no_oracle(server):
    """A search retried under its key is 200, as every other retry is. A write that sets a passcode, retried under its
    key, passes the gate again (an attempt recorded): answered from the log alone, 200 for the passcode that was set
    and 409 for any other would let anyone with the key try guesses with no attempt and no lockout (a probe did)."""
    ines = server.sign_in("ines")
    first = server.post("/v1/searches", ines, json={"query": "serum"}, headers={"Idempotency-Key": "k-search-1"})
    assert first.status_code == 201, first.text
    before = head(server.store)
    again = server.post("/v1/searches", ines, json={"query": "serum"}, headers={"Idempotency-Key": "k-search-1"})
    assert again.status_code == 200 and again.content == first.content
    assert head(server.store) == before
    is_problem(server.post("/v1/searches", ines, json={"query": "cream"}, headers={"Idempotency-Key": "k-search-1"}), 409, 65)

    def attempts(user):
        return json.loads(cli("lockout", user, "--json", store=server.store).stdout)

    # One's own passcode: the retry tries the current one again; guesses of the new one are wrong passcodes.
    kwan = server.sign_in("kwan")
    change = {"passcode": "5678", "current": "1234"}
    first = server.request("PUT", "/v1/accounts/kwan/passcode", kwan, json=change, headers={"Idempotency-Key": "k-pass-1"})
    assert first.status_code == 201, first.text
    kwan = server.sign_in("kwan", "5678")
    again = server.request("PUT", "/v1/accounts/kwan/passcode", kwan, json={"passcode": "5678", "current": "5678"},
                           headers={"Idempotency-Key": "k-pass-1"})
    assert again.status_code == 200 and [e["seq"] for e in again.json()["events"]] == [e["seq"] for e in first.json()["events"]]
    for guess in ("1111", "2222"):
        is_problem(server.request("PUT", "/v1/accounts/kwan/passcode", kwan, json={"passcode": "5678", "current": guess},
                                  headers={"Idempotency-Key": "k-pass-1"}), 401, 77)
    is_problem(server.request("PUT", "/v1/accounts/kwan/passcode", kwan, json={"passcode": "5678", "current": "3333"},
                              headers={"Idempotency-Key": "k-pass-1"}), 423, 77)
    # A registration of oneself: its retry signs in with the passcode it gives; guesses lock the account.
    body = {"username": "oracle.one", "name": "Oracle One", "email": "o1@example.org", "passcode": "4321",
            "address": {"street": "1 Main St", "city": "Lyon", "zipcode": "69001"}}
    first = server.post("/v1/accounts", json=body, headers={"Idempotency-Key": "k-reg-1"})
    assert first.status_code == 201, first.text
    assert server.post("/v1/accounts", json=body, headers={"Idempotency-Key": "k-reg-1"}).status_code == 200
    for guess in ("1111", "2222"):
        is_problem(server.post("/v1/accounts", json=dict(body, passcode=guess), headers={"Idempotency-Key": "k-reg-1"}), 401, 77)
    is_problem(server.post("/v1/accounts", json=dict(body, passcode="3333"), headers={"Idempotency-Key": "k-reg-1"}), 423, 77)
    is_problem(server.post("/v1/accounts", json=body, headers={"Idempotency-Key": "k-reg-1"}), 423, 77)
    assert attempts("oracle.one")["state"] == "locked"


def test_refusals_write_nothing(server):
    ines = server.sign_in("ines")
    before = head(server.store)
    is_problem(server.post("/v1/scans", ines, json={"code": "c", "productName": "p", "category": "Toys", "result": "fake"}), 400, 64)
    is_problem(server.post("/v1/scans", ines, json={"code": "", "productName": "p", "category": "Toys", "result": "authentic"}), 422, 65)
    is_problem(server.post("/v1/scans", ines, json={"code": "c", "productName": "p", "category": "Toys"}), 400, 64)
    is_problem(server.post("/v1/scans", ines, json={"code": "c", "productName": "p", "category": "Toys", "result": "authentic", "x": 1}), 400, 64)
    is_problem(server.post("/v1/customers/bret/status", ines, json={"status": "ONBOARDED"}), 403, 77)
    is_problem(server.post("/v1/scans", json={"code": "c", "productName": "p", "category": "Toys", "result": "authentic"}), 401, 77)
    is_problem(server.post("/v1/scans/s-nope-nope/report", ines, json={"reason": "label"}), 404, 65)
    is_problem(server.request("PUT", "/v1/goals/kwan", ines, json={"metric": "jumps", "target": 10}), 403, 77)
    # null is not "left out" (events.md §1), as import refuses it: not taken for absent.
    for body in ({"code": "c", "productName": "p", "category": "Toys", "result": "authentic", "brand": None},
                 {"code": "c", "productName": "p", "category": "Toys", "result": None}):
        r = server.post("/v1/scans", ines, json=body)
        is_problem(r, 400, 64)
        assert "must not be null" in r.json()["detail"], r.text
    assert head(server.store) == before


def test_every_write_route(server):
    admin = server.sign_in("admin")
    ines = server.sign_in("ines")
    bret = server.sign_in("bret")

    def ok(r, status=201):
        assert r.status_code == status, r.text
        events = r.json()["events"]
        assert events and all(set(e) == {"seq", "id", "type"} for e in events)
        return events

    scan = server.post("/v1/scans", ines, json={"code": "c-r", "productName": "P", "category": "Toys", "result": "counterfeit",
                                                "scanId": "s-rep-1"})
    assert scan.status_code == 201
    assert ok(server.post("/v1/scans/s-rep/report", ines, json={"reason": "label", "message": "smudged"}))[0]["type"] == "counterfeit.reported"
    assert ok(server.post("/v1/accounts", admin, json={"username": "nina", "name": "Nina N", "email": "nina@example.org",
                                                      "role": "inspector"}))[0]["type"] == "account.registered"
    self_registered = ok(server.post("/v1/accounts", json={"username": "zed", "name": "Zed Z", "email": "zed@example.org",
                                                            "address": {"street": "1 Main St", "city": "Lyon", "zipcode": "69001"}, "passcode": "4321"}))
    assert [e["type"] for e in self_registered] == ["account.registered", "passcode.set"]
    assert server.sign_in("zed", "4321")
    assert ok(server.request("PATCH", "/v1/accounts/nina", admin, json={"name": "Nina Nova"}))[0]["type"] == "account.updated"
    assert ok(server.request("PUT", "/v1/accounts/nina/passcode", admin, json={"passcode": "9876"}))[0]["type"] == "passcode.set"
    assert ok(server.request("DELETE", "/v1/accounts/nina", admin, json={"reason": "left"}))[0]["type"] == "account.deleted"
    assert ok(server.post("/v1/customers/bret/status", admin, json={"status": "onboarded", "note": "ok"}))[0]["type"] == "status.changed"
    assert ok(server.request("PATCH", "/v1/settings/ines", ines, json={"historyWindow": "30d", "flash": True}))[0]["type"] == "settings.changed"
    search = server.post("/v1/searches", ines, json={"query": "serum"})
    assert search.status_code == 201
    assert search.content == cli("history", "--search", "serum", "--as", "ines", "--json", store=server.store).stdout
    assert ok(server.request("PUT", "/v1/fitness/ines", ines, json={"bodyType": 1, "heightInches": 66}))[0]["type"] == "fitness.updated"
    assert ok(server.request("PUT", "/v1/goals/ines", ines, json={"metric": "jumps", "target": 1000}))[0]["type"] == "goal.set"
    assert ok(server.post("/v1/fitness/ines/sessions", ines, json={"park": "Plainfield", "startTime": "13:00", "endTime": "14:00",
                                                                  "jumps": 800, "calories": 50}))[0]["type"] == "session.recorded"
    assert ok(server.request("PUT", "/v1/accounts/bret/passcode", bret, json={"passcode": "5555", "current": "1234"}))[0]["type"] == "passcode.set"
    assert cli("log", "verify", store=server.store).returncode == 0


def test_a_client_that_disconnects_mid_body_writes_nothing(server):
    ines = server.sign_in("ines")
    before = head(server.store)
    body = json.dumps({"code": "c", "productName": "p", "category": "Toys", "result": "authentic"}).encode()
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(b"POST /v1/scans HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer " + ines.encode()
                  + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:20])
        time.sleep(0.2)
    time.sleep(0.3)
    assert head(server.store) == before
    assert server.get("/v1/health").status_code == 200


def test_writes_on_the_real_clock_verify(store):
    real = Server(store, now=None)
    try:
        token = real.sign_in("ines")
        for i in range(5):
            r = real.post("/v1/scans", token, json={"code": f"rc-{i}", "productName": "P", "category": "Toys", "result": "authentic"})
            assert r.status_code == 201, r.text
        # A passcode set under a key (its salt drawn from the key), and its retry: written once.
        admin = real.sign_in("admin")
        for status in (201, 200):
            r = real.request("PUT", "/v1/accounts/kwan/passcode", admin, json={"passcode": "97531"},
                             headers={"Idempotency-Key": "rc-passcode"})
            assert r.status_code == status, r.text
        assert real.sign_in("kwan", "97531")
    finally:
        real.stop()
    assert cli("log", "verify", store=store, now=None).returncode == 0


def test_the_same_refusal_has_the_command_lines_exit_code(server):
    """A request the command line refuses with 64 (a value of the wrong form, nothing to change) or 65 (a new
    passcode that is not 4–8 digits) is refused with that exitCode, and nothing is written either way: one check
    in the library for both."""
    admin, kwan, ines = server.sign_in("admin"), server.sign_in("kwan"), server.sign_in("ines")
    before = head(server.store)
    session = {"park": "P", "startTime": "10:00", "endTime": "11:00", "jumps": 1, "calories": 1}
    newcomer = {"username": "newcomer", "name": "New Comer", "email": "nc@example.org",
                "address": {"street": "1 Main St", "city": "Lyon", "zipcode": "69001"}}
    cases = [
        (server.request("PATCH", "/v1/accounts/bret", admin, json={}), 400, 64,
         cli("account", "update", "bret", "--as", "admin", "--passcode-stdin", stdin=b"1234\n", store=server.store)),
        (server.request("PATCH", "/v1/accounts/bret", admin, json={"address": {}, "company": {}}), 400, 64,
         cli("account", "update", "bret", "--as", "admin", "--passcode-stdin", stdin=b"1234\n", store=server.store)),
        (server.post("/v1/accounts", json={**newcomer, "passcode": "12345678901"}), 422, 65,
         cli("register", "newcomer", "--role", "customer", "--name", "New Comer", "--email", "nc@example.org",
             "--street", "1 Main St", "--city", "Lyon", "--zipcode", "69001", "--passcode-stdin",
             stdin=b"12345678901\n12345678901\n", store=server.store)),
        (server.request("PATCH", "/v1/settings/ines", ines, json={}), 400, 64,
         cli("settings", "set", "--as", "ines", "--passcode-stdin", stdin=b"1234\n", store=server.store)),
        (server.request("PUT", "/v1/accounts/kwan/passcode", kwan, json={"passcode": "12ab", "current": "1234"}), 422, 65,
         cli("passcode", "set", "--as", "kwan", "--passcode-stdin", stdin=b"1234\n12ab\n12ab\n", store=server.store)),
        (server.post("/v1/fitness/kwan/sessions", kwan, json={**session, "date": "2026-13-01"}), 400, 64,
         cli("session", "record", "--as", "kwan", "--date", "2026-13-01", "--park", "P", "--start", "10:00", "--end", "11:00",
             "--jumps", "1", "--calories", "1", "--passcode-stdin", stdin=b"1234\n", store=server.store)),
        (server.post("/v1/fitness/kwan/sessions", kwan, json={**session, "startTime": "25:00"}), 400, 64,
         cli("session", "record", "--as", "kwan", "--park", "P", "--start", "25:00", "--end", "11:00",
             "--jumps", "1", "--calories", "1", "--passcode-stdin", stdin=b"1234\n", store=server.store)),
    ]
    for r, status, code, local in cases:
        is_problem(r, status, code)
        assert local.returncode == code, (r.json()["detail"], local.returncode, local.stderr)
    # The passcode set's check of the current one is an attempt, recorded as the command line records it.
    written = [e["type"] for e in json.loads("[" + ",".join(
        cli("export", "--from", str(before + 1), store=server.store).stdout.decode().splitlines()) + "]")]
    assert set(written) <= {"passcode.attempted"}, written
