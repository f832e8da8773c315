"""server.md §1, §7: starting, health, the access log, problems for bad requests, graceful stop."""
import json
import signal
import socket
import threading
import time

import requests

from conftest import NOW, Server, cli


def is_problem(r, status, exit_code):
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["Content-Type"] == "application/problem+json"
    body = r.json()
    assert set(body) == {"type", "title", "status", "detail", "exitCode"}
    assert body["status"] == status and body["exitCode"] == exit_code
    assert body["type"].startswith("https://veritrail.invalid/problems/")
    assert body["detail"]
    return body


def test_health_without_token(server):
    r = server.get("/v1/health")
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/json"
    status = json.loads(cli("log", "status", "--json", store=server.store).stdout)
    assert r.json() == {"ok": True, "head": status["head"]["seq"], "origin": status["origin"]}


def test_metrics_name_every_measure_from_the_start(server):
    """`/metrics` (server.md §1): requests by route and status, their latency, commit group sizes and latency (shown
    at zero before the first commit), the head's seq, open event streams."""
    def measures():
        text = server.get("/metrics").text
        return text, {line.split("{")[0].split(" ")[0] for line in text.splitlines() if line and not line.startswith("#")}
    text, names = measures()
    for name in ("veritrail_commit_group_size_count", "veritrail_commit_duration_seconds_count", "veritrail_head_seq",
                 "veritrail_open_event_streams", "veritrail_http_requests_total"):
        assert name in names, (name, text)
    assert "veritrail_commit_group_size_count 0" in text
    ines = server.sign_in("ines")
    r = server.post("/v1/scans", ines, json={"code": "c-m", "productName": "P", "category": "Toys", "result": "authentic"})
    assert r.status_code == 201, r.text
    text, names = measures()
    assert "veritrail_commit_group_size_count 1" in text and "veritrail_http_request_duration_seconds_count" in names, text
    assert 'route="/v1/scans"' in text and 'status="201"' in text


def test_non_loopback_refused_at_start(store):
    r = cli("serve", "--listen", "0.0.0.0:8999", store=store)
    assert r.returncode == 64
    assert b"--tls-cert" in r.stderr and b"--behind-proxy" in r.stderr
    r = cli("serve", "--listen", "nonsense", store=store)
    assert r.returncode == 64


def test_missing_store_is_74(tmp_path):
    r = cli("serve", "--listen", "127.0.0.1:1", store=str(tmp_path / "none"))
    assert r.returncode == 74


def test_bad_requests_are_4xx_problems(server):
    is_problem(server.get("/nowhere"), 404, 64)
    is_problem(server.get("/v1/health?x=1"), 400, 64)
    is_problem(server.request("PUT", "/v1/health"), 405, 64)
    is_problem(server.post("/v1/sessions", data=b"{not json", headers={"Content-Type": "application/json"}), 400, 64)
    is_problem(server.post("/v1/sessions", json={"user": "ines", "passcode": "1234", "extra": 1}), 400, 64)
    is_problem(server.post("/v1/sessions", json=["ines"]), 400, 64)
    is_problem(server.post("/v1/sessions", data=b"x" * (1 << 20 + 1), headers={"Content-Type": "application/json"}), 413, 65)
    token = server.sign_in("admin")
    is_problem(server.get("/v1/history?limit=0", token), 400, 64)
    is_problem(server.get("/v1/history?now=yesterday", token), 400, 64)
    is_problem(server.get("/v1/history?type=fake", token), 400, 64)
    is_problem(server.get("/v1/scans/s-nope-nope", token), 404, 65)
    is_problem(server.get("/v1/goals/nobody", token), 404, 65)
    # A body of another type is a body of the wrong form: 400 (server.md §7's table has no 415).
    is_problem(server.post("/v1/searches", token, data=b"query=x", headers={"Content-Type": "application/x-www-form-urlencoded"}), 400, 64)
    is_problem(server.post("/v1/scans/batch", token, data=b"x", headers={"Content-Type": "image/png"}), 400, 64)


def test_many_malformed_requests_never_crash(server):
    """Raw bytes on a socket: broken request lines, huge headers, bad escapes; the server stays up."""
    garbage = [
        b"GET /v1/%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /tile/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
        b"NOTAMETHOD / HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nX: " + b"a" * 100_000 + b"\r\n\r\n",
        b"\x00\x01\x02\r\n\r\n",
        b"POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n{\"a\":",
    ]
    for _ in range(20):
        for raw in garbage:
            with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
                s.sendall(raw)
                try:
                    answer = s.recv(200)
                except socket.timeout:
                    answer = b""
                assert not answer.startswith(b"HTTP/1.1 5"), answer
    assert server.get("/v1/health").status_code == 200
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(b"GET /v1/history?search=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert s.recv(100).startswith(b"HTTP/1.1 400")


def test_slow_headers_do_not_block_others(server):
    slow = socket.create_connection(("127.0.0.1", server.port))
    slow.sendall(b"GET /v1/health HTTP/1.1\r\nHo")
    started = time.time()
    for _ in range(20):
        assert server.get("/v1/health").status_code == 200
    assert time.time() - started < 5
    slow.close()


def test_access_log_and_graceful_stop(server):
    r = server.post("/v1/sessions", json={"user": "ines", "passcode": "1234"})
    token = r.json()["token"]
    server.get("/v1/stats", token)
    # A sign-in of a name that is no account's (a passcode typed in the wrong field) does not write it in the log.
    is_problem(server.post("/v1/sessions", json={"user": "secret98765", "passcode": "1234"}), 404, 65)
    assert server.stop() == 0
    log = server.stderr()
    assert "POST /v1/sessions 201" in log and "GET /v1/stats 200" in log and " ines" in log
    assert token not in log and "1234" not in log.replace("µs", "")
    assert "POST /v1/sessions 404" in log and "secret98765" not in log


def test_a_stop_waits_for_writes_at_most_about_10_s(store, tmp_path):
    """server.md §1: on SIGTERM the server finishes the requests in flight, at most 10 s, and exits 0. A batch whose
    write takes longer (here 200,000 rows of a debug build) is not waited for: the process exits soon after the 10 s,
    and the store holds all of the batch or none of it."""
    path = tmp_path / "long.csv"
    path.write_text("code,productName,category,result\n" + "".join(f"stop-{i},P,Toys,authentic\n" for i in range(200_000)))
    s = Server(store)
    try:
        ines = s.sign_in("ines")
        before = json.loads(cli("log", "status", "--json", store=store).stdout)["head"]["seq"]
        answers = []
        sender = threading.Thread(target=lambda: answers.append(_post_quietly(s, ines, path)), daemon=True)
        sender.start()
        time.sleep(2)
        started = time.time()
        s.process.send_signal(signal.SIGTERM)
        code = s.process.wait(60)
        took = time.time() - started
    finally:
        s.stop()
    assert code == 0
    assert took < 14, f"stopped after {took:.1f} s"
    after = json.loads(cli("log", "status", "--json", store=store).stdout)["head"]["seq"]
    assert after in (before, before + 200_000), (before, after)
    assert cli("log", "verify", store=store).returncode == 0


def _post_quietly(server, token, path):
    try:
        with open(path, "rb") as body:
            return server.post("/v1/scans/batch", token, data=body, headers={"Content-Type": "text/csv"}).status_code
    except requests.RequestException as error:
        return type(error).__name__


def test_the_access_log_escapes_what_a_client_sent(store):
    """A user named in a request, and X-Forwarded-For behind a proxy, are the client's words: escaped, neither
    forges a line of the log nor reaches a terminal's control characters. (A header with a control character
    never reaches the server's routes: HTTP's parser refuses it with 400.)"""
    server = Server(store, extra=("--behind-proxy",))
    try:
        for user in ("ines\nGET /v1/forged 200 0µs admin", "ines\x1b[2J\x1b]0;pwned\x07"):
            r = server.post("/v1/sessions", json={"user": user, "passcode": "1234"},
                            headers={"X-Forwarded-For": "10.0.0.1 \u202e".encode()})
            assert 400 <= r.status_code < 500, r.text
    finally:
        server.stop()
    log = server.stderr()
    assert all("POST /v1/sessions" in line for line in log.splitlines() if "forged" in line), log
    assert not any(c in log for c in "\x1b\x07\u202e"), log
    assert log.count("POST /v1/sessions") == 2, log


def test_tls_beyond_loopback(store, tmp_path):
    """With --tls-cert/--tls-key the server listens beyond loopback and speaks HTTPS."""
    import subprocess as sp
    cert, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
    sp.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
            "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    from conftest import VT, free_port
    port = free_port()
    p = sp.Popen([VT, "serve", "--store", store, "--listen", f"0.0.0.0:{port}", "--tls-cert", cert, "--tls-key", key],
                 stderr=sp.DEVNULL)
    try:
        deadline = time.time() + 20
        while True:
            try:
                r = requests.get(f"https://127.0.0.1:{port}/v1/health", verify=False, timeout=1)
                break
            except requests.ConnectionError:
                assert time.time() < deadline and p.poll() is None
                time.sleep(0.1)
        assert r.status_code == 200 and r.json()["ok"] is True
    finally:
        p.terminate()
        assert p.wait(15) == 0


def test_tls_files_that_do_not_serve_are_refused_by_name(store, tmp_path):
    """A missing, non-PEM or mismatched --tls-cert/--tls-key is refused at start (64), naming the file."""
    import subprocess as sp
    from conftest import VT, free_port
    pairs = []
    for name in ("a", "b"):
        cert, key = str(tmp_path / f"{name}-cert.pem"), str(tmp_path / f"{name}-key.pem")
        sp.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
        pairs.append((cert, key))
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    for cert, key, says in [
        (str(tmp_path / "missing.pem"), pairs[0][1], "missing.pem: no such file"),
        (str(junk), pairs[0][1], "junk.pem holds no PEM certificate"),
        (pairs[0][0], str(junk), "junk.pem holds no PEM private key"),
        (pairs[0][0], pairs[1][1], "is not the key of the certificate"),
        (str(tmp_path), pairs[0][1], "is a directory"),
    ]:
        r = sp.run([VT, "serve", "--store", store, "--listen", f"127.0.0.1:{free_port()}", "--tls-cert", cert, "--tls-key", key],
                   capture_output=True, timeout=30)
        assert r.returncode == 64 and says in r.stderr.decode(), (cert, key, r.returncode, r.stderr)


def test_the_dashboard_is_served_with_a_strict_policy(server):
    """server.md §9: the dashboard's files run no script but their own, load nothing from elsewhere, can not be
    framed, and give no page's address away."""
    for path, kind in (("/", "text/html"), ("/app.js", "text/javascript"), ("/app.css", "text/css")):
        r = server.get(path)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith(kind), (path, r.headers)
        policy = [p.strip() for p in r.headers["Content-Security-Policy"].split(";")]
        for directive in ("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "base-uri 'none'",
                          "form-action 'self'"):
            assert directive in policy, (path, policy)
        assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers["Referrer-Policy"] == "no-referrer"
