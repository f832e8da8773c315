"""The edges of server.md §3, §4 and §7 that a black-box probe of the server found wrong: times and
values in the command line's forms, a long Idempotency-Key, an unknown user in a write's route, a body
whose framing is broken, 405's Allow and HEAD's Content-Length, the edges of a connection (HTTP/1.0,
`Connection: close`, a request that is not HTTP), a long path named by its start. Every refusal writes nothing."""
import json
import os
import shutil
import socket
import subprocess
import threading
import time

from conftest import ROOT, Server, cli
from test_basics import is_problem
from test_writes import head


def exchange(server, request, timeout=5):
    """Sends raw bytes; returns what came back before the server closed the connection, and whether it did
    within `timeout` seconds."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as s:
        s.sendall(request)
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except socket.timeout:
            return answer, False
    return answer, True


def test_times_and_values_are_taken_in_the_command_lines_forms(server):
    admin = server.sign_in("admin")
    # cli.md §8: a date alone, a time with an offset or a space for the T; a leading + of a count.
    for args, route in [
        (["history", "--now", "2026-10-15", "--limit", "3"], "/v1/history?now=2026-10-15&limit=3"),
        (["stats", "--now", "2026-11-10 09:30+01:00"], "/v1/stats?now=2026-11-10%2009:30%2B01:00"),
        (["history", "--limit", "+5"], "/v1/history?limit=%2B5"),
        (["customers", "--status", "awaited"], "/v1/customers?status=awaited"),
    ]:
        expected = cli(*args, "--json", "--as", "admin", store=server.store)
        assert expected.returncode == 0, (args, expected.stderr)
        r = server.get(route, admin)
        assert (r.status_code, r.content) == (200, expected.stdout), route
    expected = cli("export", "--since", "2026-11-01", "--until", "2026-11-02 12:00+02:00", store=server.store)
    assert expected.returncode == 0 and expected.stdout, expected.stderr
    r = server.get("/v1/events?since=2026-11-01&until=2026-11-02%2012:00%2B02:00", admin)
    assert (r.status_code, r.content) == (200, expected.stdout)
    # A range whose start is after its end is a usage error, as on the command line.
    assert cli("export", "--since", "2026-11-03", "--until", "2026-11-02", store=server.store).returncode == 64
    is_problem(server.get("/v1/events?since=2026-11-03&until=2026-11-02", admin), 400, 64)
    r = server.get("/v1/history?now=yesterday", admin)
    is_problem(r, 400, 64)
    assert "2026-11-20 10:00+01:00" in r.json()["detail"]


def test_every_idempotency_key_makes_an_id_that_fits(server):
    ines = server.sign_in("ines")
    key = "k" * 64
    body = {"code": "c-long-key", "productName": "P", "category": "Toys", "result": "authentic"}
    first = server.post("/v1/scans", ines, json=body, headers={"Idempotency-Key": key})
    assert first.status_code == 201, first.text
    scan_id = first.json()["scanId"]
    assert scan_id.startswith("s-") and len(scan_id) == 64
    before = head(server.store)
    again = server.post("/v1/scans", ines, json=body, headers={"Idempotency-Key": key})
    assert (again.status_code, again.content) == (200, first.content)
    assert head(server.store) == before
    # One character shorter and the id is still the key itself.
    short = server.post("/v1/scans", ines, json=body, headers={"Idempotency-Key": "k" * 62})
    assert short.status_code == 201 and short.json()["scanId"] == "s-" + "k" * 62
    kwan = server.sign_in("kwan")
    session = {"park": "Plainfield", "startTime": "13:00", "endTime": "14:00", "jumps": 100, "calories": 50}
    r = server.post("/v1/fitness/kwan/sessions", kwan, json=session, headers={"Idempotency-Key": "s" * 64})
    assert r.status_code == 201, r.text


def test_an_unknown_user_in_a_writes_route_is_404(server):
    admin = server.sign_in("admin")
    before = head(server.store)
    for method, route, body in [
        ("POST", "/v1/customers/nobody/status", {"status": "ONBOARDED"}),
        ("PUT", "/v1/accounts/nobody/passcode", {"passcode": "9999"}),
        ("PATCH", "/v1/accounts/nobody", {"phone": "555-0100"}),
        ("DELETE", "/v1/accounts/nobody", None),
    ]:
        r = server.request(method, route, admin, json=body)
        is_problem(r, 404, 65)
        assert "nobody" in r.json()["detail"], route
    assert head(server.store) == before


def test_a_body_whose_framing_is_broken_is_400_and_writes_nothing(server):
    ines = server.sign_in("ines")
    before = head(server.store)
    answer, closed = exchange(server, b"POST /v1/scans HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + ines.encode()
                              + b"\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line.startswith(b"HTTP/1.1 400"), answer
    # Nothing after the broken body can be read: the answer says the connection ends, and it does.
    headers = b"\r\n" + rest.partition(b"\r\n\r\n")[0].lower() + b"\r\n"
    assert closed and b"\r\nconnection: close\r\n" in headers, answer
    problem = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert problem["exitCode"] == 64 and "HTTP/1.1" in problem["detail"]
    assert head(server.store) == before
    assert server.get("/v1/health").status_code == 200


def test_405_names_the_methods_and_head_has_gets_length(server):
    r = server.request("DELETE", "/v1/health")
    is_problem(r, 405, 64)
    assert r.headers["Allow"] == "GET, HEAD"
    assert server.request("PUT", "/v1/scans").headers["Allow"] == "POST"
    got = server.get("/v1/health")
    headed = server.request("HEAD", "/v1/health")
    assert headed.status_code == 200 and headed.content == b""
    assert headed.headers["Content-Length"] == str(len(got.content))


def test_a_customer_may_not_search_the_history(server):
    bret = server.sign_in("bret")
    before = head(server.store)
    is_problem(server.post("/v1/searches", bret, json={"query": "s-", "window": "all", "limit": 1000}), 403, 77)
    assert head(server.store) == before
    assert server.post("/v1/searches", server.sign_in("ines"), json={"query": "serum"}).status_code == 201


def test_a_wrong_current_passcode_is_401_of_its_own_kind(server):
    ines = server.sign_in("ines")
    before = head(server.store)
    r = server.request("PUT", "/v1/accounts/ines/passcode", ines, json={"passcode": "4321", "current": "9999"})
    body = is_problem(r, 401, 77)
    assert body["type"].endswith("/wrong-passcode") and "wrong passcode" in body["detail"]
    # The attempt is recorded (server.md §2), and nothing else.
    assert head(server.store) == before + 1
    assert server.get("/v1/stats", ines).status_code == 200


def test_the_access_log_names_the_user_of_a_refused_read(server):
    bret = server.sign_in("bret")
    is_problem(server.get("/v1/stats", bret), 403, 77)
    assert any(" /v1/stats 403 " in line and line.endswith(" bret") for line in server.stderr().splitlines())


def test_tile_levels_past_seven_are_tiles_the_log_does_not_hold(server):
    for level in (8, 63):
        is_problem(server.get(f"/tile/{level}/000"), 404, 65)
    is_problem(server.get("/tile/64/000"), 400, 64)


def test_an_unknown_viewer_of_the_log_is_404_as_on_the_command_line(server):
    admin = server.sign_in("admin")
    for route in ["/v1/events?as=nobody", "/v1/events?follow=true&as=nobody", "/v1/log/status?as=nobody",
                  "/v1/log/digest?as=nobody", "/v1/log/verify?as=nobody"]:
        r = server.get(route, admin)
        body = is_problem(r, 404, 65)
        assert "no such account \"nobody\" (the viewer, --as)" in body["detail"], route
    assert cli("log", "status", "--as", "nobody", store=server.store).returncode == 65
    # Viewing as another is an admin's: an inspector viewing as the admin is refused, as before.
    is_problem(server.get("/v1/log/status?as=admin", server.sign_in("ines")), 403, 77)
    assert server.get("/v1/log/status?as=ines", admin).status_code == 200


def refuses_everything_after_a_cut(server, token, data, size):
    """Every request that needs the store is 503 (74) saying the file was cut, the server goes on, and nothing is
    written: the data file keeps the `size` it was cut to."""
    for r in (server.get("/v1/stats", token), server.get("/v1/health"),
              server.post("/v1/scans", token, json={"code": "c", "productName": "P", "category": "Toys", "result": "authentic"})):
        body = is_problem(r, 503, 74)
        assert "cut while the store was open" in body["detail"], body
    assert server.process.poll() is None, server.stderr()
    assert os.path.getsize(data) == size


def test_a_data_file_cut_while_serving_is_503_not_the_end_of_the_server(server):
    """Another program truncating data.mdb under the server made the next read fault past the file's end
    (SIGBUS), which ended the server and every request it was answering. Each transaction now finds the file
    shorter than its pages first: 503 (exit code 74) that says so, the server goes on, and nothing is written."""
    admin = server.sign_in("admin")
    data = os.path.join(server.store, "data.mdb")
    os.truncate(data, 16384)
    refuses_everything_after_a_cut(server, admin, data, 16384)


def test_a_data_file_cut_during_a_read_ends_that_read_not_the_server(tmp_path):
    """A cut while a transaction reads the store (here `log verify`, which reads every page of a 40,000-event store):
    its read past the file's new end faulted (SIGBUS) and ended the server. The page is now mended in the server's
    memory and the transaction refused: the verify is 503 (74) and so is every later request that needs the store,
    the server goes on, and nothing is written. The cut comes sooner in each trial until one lands while the verify
    reads (a debug build's verify takes about a second, a release build's a tenth of that)."""
    log = tmp_path / "events.ndjson"
    subprocess.run(["python3", os.path.join(ROOT, "scripts/gen_bench.py"), "40000", str(log)], check=True,
                   capture_output=True, timeout=120)
    made = str(tmp_path / "made")
    assert cli("import", str(log), store=made).returncode == 0
    during = []
    for trial, delay in enumerate([0.2, 0.05, 0.02, 0.01, 0.005]):
        store = str(tmp_path / f"store-{trial}")
        shutil.copytree(made, store)
        s = Server(store)
        try:
            admin = s.sign_in("admin", "2468")
            data = os.path.join(store, "data.mdb")
            answers = []
            reader = threading.Thread(target=lambda: answers.append(s.get("/v1/log/verify", admin)))
            reader.start()
            time.sleep(delay)
            os.truncate(data, 16384)
            reader.join(60)
            # Done before the cut (200), refused as it began after it (the meta page names pages past the end), or
            # cut while it read: the page it faulted on is named as gone.
            if answers[0].status_code != 200:
                detail = is_problem(answers[0], 503, 74)["detail"]
                during.append("a page of it is gone (the file was cut while the store was open" in detail)
            refuses_everything_after_a_cut(s, admin, data, 16384)
        finally:
            s.stop()
        if any(during):
            break
    assert any(during), during


def test_a_connection_the_request_does_not_keep_ends_with_its_answer(server):
    """RFC 9112 §9.3: HTTP/1.0 ends the connection unless asked to keep it, and `Connection: close` ends it in any
    spelling. A client that reads an answer to the end of its connection (HTTP/1.0's way) must not wait for the
    idle timeout; one that asked to keep it is told it was kept."""
    for request in [b"GET /v1/health HTTP/1.0\r\n\r\n",
                    b"GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n",
                    b"GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: TE, close\r\n\r\n"]:
        answer, closed = exchange(server, request)
        assert closed and answer.startswith(b"HTTP/1.") and b" 200 OK\r\n" in answer, answer
        assert b"\r\nConnection: close\r\n" in answer and answer.endswith(b"}\n") and answer.count(b" 200 OK") == 1
    answer, closed = exchange(server, b"GET /v1/health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", timeout=1)
    assert not closed and b"\r\nConnection: keep-alive\r\n" in answer, answer
    # A body of unknown length (a stream of the log) to HTTP/1.0: no chunks, which HTTP/1.0 does not know; it ends
    # with the connection, even one asked to be kept.
    admin = server.sign_in("admin")
    for keep in [b"", b"Connection: keep-alive\r\n"]:
        answer, closed = exchange(server, b"GET /v1/events HTTP/1.0\r\nAuthorization: Bearer " + admin.encode() + b"\r\n" + keep + b"\r\n")
        headers, _, body = answer.partition(b"\r\n\r\n")
        assert closed and headers.startswith(b"HTTP/1.0 200") and b"Transfer-Encoding" not in headers, headers
        assert b"\r\nConnection: close" in headers and len([json.loads(line) for line in body.splitlines()]) >= 800
    # Pipelined: the first is kept, the second ends the connection after its own answer.
    answer, closed = exchange(server, b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/stats HTTP/1.1\r\nHost: x\r\n"
                                      b"Connection: close\r\n\r\n")
    first, _, second = answer.partition(b"\r\n\r\n")[2].partition(b"HTTP/1.1 ")
    assert closed and b"Connection" not in answer.partition(b"\r\n\r\n")[0] and second.startswith(b"401"), answer


def test_a_request_that_is_not_http_is_a_problem_and_writes_nothing(server):
    """What NIO's parser refuses (a control character in a header, a request line that is not HTTP, a length
    and a chunked coding together) is 400 with a problem body (server.md §7), and the connection ends."""
    ines = server.sign_in("ines")
    before = head(server.store)
    for request in [b"POST /v1/scans HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + ines.encode() + b"\r\nX-Bad: a\x01b\r\n"
                    b"Content-Length: 2\r\n\r\n{}",
                    b"NOT HTTP AT ALL\r\n\r\n",
                    b"GET /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"]:
        answer, closed = exchange(server, request)
        headers, _, body = answer.partition(b"\r\n\r\n")
        assert closed and headers.startswith(b"HTTP/1.1 400") and b"Content-Type: application/problem+json" in headers, answer
        problem = json.loads(body)
        assert problem["status"] == 400 and problem["exitCode"] == 64 and "HTTP/1.1" in problem["detail"], problem
    # After a kept request's answer, a broken one on the same connection is answered the same way.
    answer, closed = exchange(server, b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/health HTTP/1.1\r\nX-Bad: \x7f\r\n\r\n")
    assert closed and answer.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 400" in answer and answer.endswith(b"}\n"), answer
    assert head(server.store) == before
    assert server.get("/v1/health").status_code == 200


def test_a_refusal_names_a_long_path_by_its_start(server):
    """A 60,000-character scan id, username or path is named by its start in the problem, escaped: what a client
    sends is never echoed whole."""
    ines = server.sign_in("ines")
    for path in ["/v1/scans/" + "a" * 60000, "/v1/lockout/" + "a" * 60000, "/v1/nothing/" + "a" * 60000]:
        r = server.get(path, ines)
        assert r.status_code == 404 and len(r.content) < 1000 and "…" in r.json()["detail"], (r.status_code, len(r.content))
    r = server.get("/v1/lockout/%1B%5B31mx", ines)
    assert r.status_code == 404 and "\\u001b[31mx" in r.json()["detail"], r.text


def test_expect_100_continue_is_answered_before_the_body(server):
    """RFC 9110 §10.1.1: a client that sent `Expect: 100-continue` waits for a 100 (or a final answer) before its
    body; the server sent neither, so such a client (curl, for a large upload) waited a second on each request."""
    ines = server.sign_in("ines")
    body = json.dumps({"query": "serum"}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(b"POST /v1/searches HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + ines.encode()
                  + b"\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: "
                  + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n")
        first = s.recv(65536)
        assert first.startswith(b"HTTP/1.1 100 Continue\r\n"), first
        s.sendall(body)
        answer = first
        while chunk := s.recv(65536):
            answer += chunk
    final = answer.split(b"\r\n\r\n", 1)[1]
    assert final.startswith(b"HTTP/1.1 201 "), answer[:300]
