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
