"""Several `veritrail serve` processes on one store (server.md §3: writers in other processes are the usual case).

LMDB's reader table has 126 slots. Tied to threads, every thread of a server that had ever read kept one, so
three servers took them all and every read answered 503 while the followers logged 50 failures a second."""
import subprocess
import threading

import requests

from conftest import Server, cli

SERVERS = 5


def test_five_servers_on_one_store_answer_reads_and_writes(store):
    servers = [Server(store) for _ in range(SERVERS)]
    try:
        tokens = [server.sign_in("kwan") for server in servers]
        failures = []

        def client(server, token, n):
            session = requests.Session()
            for i in range(15):
                r = session.get(server.url + "/v1/history?limit=5", headers={"Authorization": "Bearer " + token},
                                timeout=30)
                if r.status_code != 200:
                    failures.append((server.port, r.status_code, r.text))
            key = f"many-{server.port}-{n}"
            r = session.post(server.url + "/v1/scans", json={"code": key, "productName": "P", "category": "Toys",
                                                             "result": "authentic"},
                             headers={"Authorization": "Bearer " + token, "Idempotency-Key": key}, timeout=30)
            if r.status_code != 201:
                failures.append((server.port, r.status_code, r.text))

        threads = [threading.Thread(target=client, args=(server, token, n))
                   for server, token in zip(servers, tokens) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
        # Between requests a server holds a reader slot only while its follower reads the head (at most one
        # each); tied to threads, each held one for every thread that had read (dozens).
        table = subprocess.run(["mdb_stat", "-r", store], capture_output=True, text=True).stdout
        slots = [line for line in table.splitlines() if line.strip()[:1].isdigit()]
        assert len(slots) <= SERVERS, table
    finally:
        logs = [(server.stop(), server.stderr()) for server in servers]
    for code, log in logs:
        assert code == 0, log
        assert "READERS_FULL" not in log, log
    assert cli("log", "verify", store=store).returncode == 0


def test_servers_on_one_store_share_their_sessions(store):
    """server.md §2 keeps only tokens' hashes, in the store's directory, so that a restart logs nobody out. Two
    servers on one store share that file: sign-ins at once on both are all granted (a shared temporary file once
    made some 503), a token either granted is good on the other, and a restart of either keeps both's tokens (each
    wrote the whole file from its own memory, and the last erased the other's)."""
    a, b = Server(store), Server(store)
    try:
        granted, failures = [], []

        def sign_in(server, user):
            r = requests.post(server.url + "/v1/sessions", json={"user": user, "passcode": "1234"}, timeout=30)
            (granted if r.status_code == 201 else failures).append((server.port, user, r.status_code, r.text[:200]))
            return r.json().get("token") if r.status_code == 201 else None

        tokens = []
        threads = [threading.Thread(target=lambda s=s, u=u: tokens.append((s, sign_in(s, u))))
                   for _ in range(5) for s in (a, b) for u in ("kwan", "ines")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failures and len(granted) == 20, failures
        for _, token in tokens:
            for server in (a, b):
                assert server.get("/v1/stats", token).status_code == 200
        a.stop()
        a = Server(store)
        for _, token in tokens:
            assert a.get("/v1/stats", token).status_code == 200
        # A sign-out on one ends the session on the other too.
        _, ended = tokens[0]
        assert b.request("DELETE", "/v1/sessions/current", ended).status_code == 204
        assert a.get("/v1/stats", ended).status_code == 401
    finally:
        a.stop()
        b.stop()


def test_a_session_another_server_granted_ends_as_its_own_would(store):
    """A token granted by one server, whose access ended (a new passcode) before another server first read the log for
    its own sessions, is refused by that other server too, even once its account signed in again: that server reads
    the log again from the older grant."""
    a, b = Server(store), Server(store)
    try:
        token = a.sign_in("bret")
        changed = cli("passcode", "set", "bret", "--as", "admin", "--passcode-stdin", stdin=b"1234\n4321\n4321\n", store=store)
        assert changed.returncode == 0, changed.stderr
        # bret signs in again: unlocked, so only the end after the first token's grant refuses that token.
        assert a.sign_in("bret", "4321")
        kwan = b.sign_in("kwan")
        assert b.get("/v1/stats", kwan).status_code == 200
        assert a.get("/v1/customers/bret", token).status_code == 401
        assert b.get("/v1/customers/bret", token).status_code == 401
    finally:
        a.stop()
        b.stop()
