"""server.md §3: group commit under load. Many HTTP clients and command lines write at once: every
acknowledged write is in the log exactly once, seqs have no gap, the chain verifies; a server killed with
SIGKILL under load loses no write it acknowledged."""
import json
import signal
import subprocess
import threading
import time

import requests

from conftest import NOW, VT, Server, cli, demo_events

USERS = ["admin", "r.keller", "ines", "tmueller", "kwan", "jweiss", "bret", "antonette"]


def writer(server, user, prefix, count, acked, stop=None):
    session = requests.Session()
    try:
        token = server.sign_in(user)
    except (requests.RequestException, AssertionError):
        return
    for i in range(count):
        if stop is not None and stop.is_set():
            return
        key = f"{prefix}-{i}"
        try:
            r = session.post(server.url + "/v1/scans", json={"code": key, "productName": "P", "category": "Toys",
                                                             "result": "authentic"},
                             headers={"Authorization": "Bearer " + token, "Idempotency-Key": key}, timeout=30)
        except requests.RequestException:
            return
        if r.status_code == 201:
            acked.append(key)
        else:
            assert r.status_code in (200, 503), r.text


def at_once(count, send):
    """`send()` from `count` threads let go together; the statuses and bodies of their answers."""
    barrier = threading.Barrier(count)
    answers = []

    def one():
        barrier.wait()
        r = send()
        answers.append((r.status_code, r.text))

    threads = [threading.Thread(target=one) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_the_same_passcode_set_sent_at_once_under_one_key_is_written_once(server):
    """Four identical `PUT …/passcode` under one Idempotency-Key at once, then four identical self-registrations:
    each hashes the passcode while the others do, so each must build the very events the first wrote (the salt
    drawn from the key) for the rest to be retries (200) rather than other data under the key (409)."""
    admin = server.sign_in("admin")
    answers = at_once(4, lambda: requests.put(server.url + "/v1/accounts/bret/passcode", json={"passcode": "86420"},
                                              headers={"Authorization": "Bearer " + admin, "Idempotency-Key": "pc-race-1"},
                                              timeout=60))
    assert max(s for s, _ in answers) <= 201 and any(s == 201 for s, _ in answers), answers
    newcomer = {"username": "racer", "name": "Race R", "email": "racer@example.org", "passcode": "97531",
                "address": {"street": "1 Main St", "city": "Lyon", "zipcode": "69001"}}
    answers = at_once(4, lambda: requests.post(server.url + "/v1/accounts", json=newcomer,
                                               headers={"Idempotency-Key": "reg-race-1"}, timeout=60))
    assert max(s for s, _ in answers) <= 201 and any(s == 201 for s, _ in answers), answers
    ids = [e["id"] for e in exported(server.store)]
    assert ids.count("pc-race-1") == 1 and ids.count("reg-race-1") == 1 and ids.count("reg-race-1.2") == 1
    assert server.sign_in("bret", "86420") and server.sign_in("racer", "97531")


def exported(store):
    return [json.loads(line) for line in cli("export", store=store).stdout.splitlines()]


def cli_writer(store, prefix, count, acked):
    for i in range(count):
        key = f"{prefix}-{i}"
        r = cli("scan", "--as", "kwan", "--code", key, "--product", "P", "--category", "Toys", "--result", "authentic",
                "--id", key, "--passcode-stdin", stdin=b"1234\n", store=store)
        if r.returncode == 0:
            acked.append(key)


def test_64_clients_and_2_command_lines(server):
    acked = []
    threads = [threading.Thread(target=writer, args=(server, USERS[i % len(USERS)], f"h{i}", 15, acked)) for i in range(64)]
    threads += [threading.Thread(target=cli_writer, args=(server.store, f"c{j}", 5, acked)) for j in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(acked) == 64 * 15 + 2 * 5
    events = exported(server.store)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    ids = [e["id"] for e in events]
    for key in acked:
        assert ids.count(key) == 1, key
    assert cli("log", "verify", store=server.store).returncode == 0
    assert "GET /v1/health" in server.stderr() or True


def test_sigkill_under_load_loses_no_acknowledged_write(store):
    server = Server(store)
    acked = []
    stop = threading.Event()
    threads = [threading.Thread(target=writer, args=(server, USERS[i % len(USERS)], f"k{i}", 1000, acked, stop)) for i in range(16)]
    for t in threads:
        t.start()
    deadline = time.time() + 60
    while len(acked) < 50 and time.time() < deadline:
        time.sleep(0.05)
    server.process.send_signal(signal.SIGKILL)
    server.process.wait()
    stop.set()
    for t in threads:
        t.join()
    assert acked, "no write was acknowledged before the kill"
    ids = {e["id"] for e in exported(store)}
    missing = [k for k in acked if k not in ids]
    assert not missing, missing[:5]
    assert cli("log", "verify", store=store).returncode == 0
    again = Server(store)
    try:
        assert again.get("/v1/health").status_code == 200
    finally:
        again.stop()


def test_a_full_disk_answers_503_and_loses_nothing(tmp_path, demo_events):
    """On a 20 MiB tmpfs filled up, writes are refused with 503 (exit code 74), the server stays up, and every
    write it acknowledged is in the log, which verifies."""
    import os
    import pytest
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small tmpfs")
    mount = tmp_path / "full"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", str(mount)]).returncode != 0:
        pytest.skip("tmpfs could not be mounted")
    try:
        store = str(mount / "store")
        assert cli("import", demo_events, store=store).returncode == 0
        server = Server(store)
        try:
            token = server.sign_in("ines")
            acked, refused = [], []
            for i in range(4000):
                if i == 20:
                    subprocess.run(["dd", "if=/dev/zero", f"of={mount}/filler", "bs=1M"], capture_output=True)
                key = f"full-{i}"
                r = server.post("/v1/scans", token, json={"code": key + "x" * 900, "productName": "P", "category": "Toys",
                                                          "result": "authentic"}, headers={"Idempotency-Key": key})
                if r.status_code == 201:
                    acked.append(key)
                else:
                    assert r.status_code == 503 and r.json()["exitCode"] == 74, r.text
                    assert "Retry-After" in r.headers
                    refused.append(key)
                    if len(refused) >= 3:
                        break
            assert server.get("/v1/health").status_code == 200
            assert len(acked) >= 20 and refused
            # Room again: the refused writes, retried under their keys, each land once.
            os.unlink(mount / "filler")
            for key in refused:
                r = server.post("/v1/scans", token, json={"code": key + "x" * 900, "productName": "P", "category": "Toys",
                                                          "result": "authentic"}, headers={"Idempotency-Key": key})
                assert r.status_code in (200, 201), r.text
                acked.append(key)
        finally:
            server.stop()
        ids = [e["id"] for e in exported(store)]
        assert all(ids.count(k) == 1 for k in acked)
        assert cli("log", "verify", store=store).returncode == 0
    finally:
        subprocess.run(["umount", str(mount)])


def test_a_chunk_that_served_writes_fill_survives_a_kill_before_its_pieces_are_made(store, tmp_path):
    """A served write that fills a chunk of the search index leaves its pieces to the server's remaker thread
    (docs/SCALE.md, "A full chunk's pieces, made off the writes"). Killed with SIGKILL right after the chunk
    is filled, the store verifies, a server started again serves it, and the search counts every scan that
    the log holds, before and after that server has made the pieces. On the real clock, every command and
    server (the demo log is older than any real time)."""
    scans = sum(1 for e in exported(store) if e["type"] == "scan.recorded")
    # The first chunk holds scans 1 to 15,999: the batch stops 20 short of its end.
    rows = 15_999 - scans - 20
    csv = tmp_path / "fill.csv"
    csv.write_text("code,productName,category,result\n"
                   + "".join(f"https://v.example/z/{i},Zanzibar lamp {i % 7},Toys,authentic\n" for i in range(rows)))
    r = cli("scan", "--as", "kwan", "--passcode-stdin", "--batch", str(csv), stdin=b"1234\n", store=store, now=None)
    assert r.returncode == 0, r.stderr

    def served(server, prefix, count):
        acked = []
        threads = [threading.Thread(target=writer, args=(server, USERS[i], f"{prefix}{i}", count, acked)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return acked

    def lamps():
        return sum(1 for e in exported(store) if e["type"] == "scan.recorded" and "Zanzibar lamp" in e["data"]["productName"])

    def searched(needle="zanzibar lamp"):
        r = cli("history", "--search", needle, "--window", "all", "--json", "--limit", "1", store=store, now=None)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)["total"]

    def holding(needle):
        return sum(1 for e in exported(store) if e["type"] == "scan.recorded"
                   and any(needle in str(v).lower() for v in e["data"].values()))

    server = Server(store, now=None)
    # 80 scans of 8 writers: the 20th fills the chunk, and the kill comes right after the last answer.
    acked = served(server, "z", 10)
    server.process.send_signal(signal.SIGKILL)
    server.process.wait()
    assert len(acked) == 80
    assert cli("log", "verify", store=store, now=None).returncode == 0
    assert searched() == lamps() == rows
    assert searched("z3-") == holding("z3-") == 10
    again = Server(store, now=None)
    try:
        assert len(served(again, "y", 2)) == 16
        time.sleep(2)
    finally:
        again.stop()
    assert cli("log", "verify", store=store, now=None).returncode == 0
    assert searched() == lamps() == rows
    assert searched("z3-") == holding("z3-") == 10
    assert searched("y3-") == holding("y3-") == 2
