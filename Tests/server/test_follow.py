"""server.md §5: following the log, as NDJSON and as server-sent events, whoever writes."""
import json
import os
import re
import threading
import time

import requests

import subprocess

from conftest import NOW, VT, Server, cli
from test_basics import is_problem


def read_lines(response, count, timeout=10):
    """The first `count` lines of a streamed response."""
    lines = []
    deadline = time.time() + timeout
    for line in response.iter_lines():
        lines.append(line)
        if len(lines) >= count or time.time() > deadline:
            break
    return lines


def read_heads(heads, last, told):
    """Adds the seq of each line of a heads stream to `told`, until one reaches `last`."""
    for line in heads.iter_lines():
        if "seq" in json.loads(line):
            told.append(json.loads(line)["seq"])
            if told[-1] >= last:
                return


def reading_threads(*readers):
    """Each reader on a thread of its own, started, with a moment for their streams to be open."""
    threads = [threading.Thread(target=reader, daemon=True) for reader in readers]
    for t in threads:
        t.start()
    time.sleep(0.3)
    return threads


def test_follow_ndjson_from_a_seq_then_live_from_another_process(server):
    admin = server.sign_in("admin")
    head = server.get("/v1/health").json()["head"]
    r = requests.get(server.url + f"/v1/events?follow=true&from={head - 2}", headers={"Authorization": "Bearer " + admin},
                     stream=True, timeout=30)
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/x-ndjson"
    lines = iter(r.iter_lines())
    # The backlog ends with its checkpoint; when the follower had not yet told of the sign-in's commit, the
    # backlog ends before it and the commit follows with its own.
    backlog = []
    while len(backlog) < 3:
        line = json.loads(next(lines))
        if "checkpoint" not in line:
            backlog.append(line)
    assert [e["seq"] for e in backlog] == [head - 2, head - 1, head]
    # A write by the command line, another process, reaches the stream with its checkpoint.
    started = time.time()
    done = cli("search", "followed", "--as", "kwan", "--json", store=server.store)
    assert done.returncode == 0
    # The checkpoint of the sign-in's own commit may come first, when the stream saw that commit go by.
    event = json.loads(next(lines))
    while "checkpoint" in event:
        assert f"\n{head}\n" in event["checkpoint"]
        event = json.loads(next(lines))
    assert event["seq"] == head + 1 and event["type"] == "search.performed"
    checkpoint = json.loads(next(lines))
    assert set(checkpoint) == {"checkpoint"} and f"\n{head + 1}\n" in checkpoint["checkpoint"]
    assert time.time() - started < 5
    r.close()


def test_follow_sse_resumes_after_last_event_id(server):
    admin = server.sign_in("admin")
    head = server.get("/v1/health").json()["head"]
    r = requests.get(server.url + "/v1/events?follow=true", stream=True, timeout=30,
                     headers={"Authorization": "Bearer " + admin, "Accept": "text/event-stream", "Last-Event-ID": str(head - 1)})
    assert r.headers["Content-Type"] == "text/event-stream"
    lines = read_lines(r, 3)
    assert lines[0] == b"event: event" and lines[1] == f"id: {head}".encode()
    assert json.loads(lines[2][len(b"data: "):])["seq"] == head
    r.close()


def test_heads_for_any_account_events_for_admins(server):
    ines = server.sign_in("ines")
    is_problem(server.get("/v1/events?follow=true", ines), 403, 77)
    r = requests.get(server.url + "/v1/heads?follow=true", headers={"Authorization": "Bearer " + ines}, stream=True, timeout=30)
    assert r.status_code == 200
    cli("search", "heads", "--as", "kwan", store=server.store)
    head = json.loads(next(r.iter_lines()))
    assert set(head) == {"seq", "at"}
    r.close()


def test_a_stream_does_not_stop_the_server_from_stopping(server):
    admin = server.sign_in("admin")
    r = requests.get(server.url + "/v1/events?follow=true", headers={"Authorization": "Bearer " + admin}, stream=True, timeout=30)
    assert r.status_code == 200
    started = time.time()
    assert server.stop() == 0
    assert time.time() - started < 9


def test_a_stream_whose_client_has_gone_is_no_longer_open(server):
    """`/metrics` counts the event streams open now (server.md §1). A stream waits between commits, and learnt that
    its client had closed the connection only when its next heartbeat, up to 15 s later, could not be written: it
    was counted, and told of every commit, until then. It now ends with its connection."""
    admin = server.sign_in("admin")

    def open_streams():
        lines = [line for line in server.get("/metrics").text.splitlines() if line.startswith("veritrail_open_event_streams")]
        return float(lines[0].split()[-1])

    def waited_for(count, timeout=5):
        deadline = time.time() + timeout
        while open_streams() != count and time.time() < deadline:
            time.sleep(0.05)
        return open_streams()

    assert open_streams() == 0
    streams = [requests.get(server.url + path, headers={"Authorization": "Bearer " + admin}, stream=True, timeout=30)
               for path in ["/v1/events?follow=true", "/v1/heads?follow=true"] * 3]
    assert all(r.status_code == 200 for r in streams)
    # The mark by which a stream's answer says it is endless stays inside the server.
    assert not any("veritrail-endless" in (name.lower() for name in r.headers) for r in streams)
    assert waited_for(6) == 6
    for r in streams[:4]:
        r.close()
    assert waited_for(2, timeout=3) == 2
    # The two left are still told of commits.
    assert cli("scan", "--code", "GONE-1", "--product", "P", "--category", "Toys", "--result", "authentic", "--as", "ines",
               store=server.store).returncode == 0
    assert b"GONE-1" in b"".join(read_lines(streams[4], 1))
    for r in streams[4:]:
        r.close()
    assert waited_for(0, timeout=3) == 0


def test_a_large_commit_in_slices_and_a_client_that_does_not_read_is_ended(server, tmp_path):
    """A commit of 30,000 events of a kilobyte reaches a stream that reads in several slices, every seq once, and
    the commit's checkpoint after its last; the heads stream tells its head; a stream whose client reads nothing is ended
    once it holds more than 8 MiB unsent, after what it held (the server does not keep the log for it)."""
    admin = server.sign_in("admin")
    auth = {"Authorization": "Bearer " + admin}
    # ines unlocked first, so that the batch is one commit of 30,000 events and nothing else.
    assert cli("unlock", "--as", "ines", "--passcode-stdin", stdin=b"1234\n", store=server.store).returncode == 0
    start = server.get("/v1/health").json()["head"] + 1
    last = start + 29999
    idle = requests.get(server.url + f"/v1/events?follow=true&from={start}", headers=auth, stream=True, timeout=60)
    reading = requests.get(server.url + f"/v1/events?follow=true&from={start}", headers=auth, stream=True, timeout=60)
    heads = requests.get(server.url + "/v1/heads?follow=true", headers=auth, stream=True, timeout=60)
    assert idle.status_code == reading.status_code == heads.status_code == 200
    seqs, checkpoints, told = [], [], []

    def read_all():
        stream = reading
        while True:
            for line in stream.iter_lines():
                item = json.loads(line)
                if "checkpoint" in item:
                    checkpoints.append(int(item["checkpoint"].split("\n")[1]))
                elif "seq" in item:
                    seqs.append(item["seq"])
                if seqs and seqs[-1] >= last and checkpoints and checkpoints[-1] == seqs[-1]:
                    return
            # Ended more than 8 MiB behind (this reader is slow on a loaded machine): a client follows again from
            # the seq after the last one it read, and misses nothing.
            stream = requests.get(server.url + f"/v1/events?follow=true&from={seqs[-1] + 1 if seqs else start}",
                                  headers=auth, stream=True, timeout=60)

    readers = reading_threads(read_all, lambda: read_heads(heads, last, told))
    path = tmp_path / "big.csv"
    path.write_text("code,productName,category,result\n" + "".join(f"slow-{i}-{'x' * 900},P,Toys,authentic\n" for i in range(30000)))
    r = cli("scan", "--batch", str(path), "--as", "ines", store=server.store)
    assert r.returncode == 0, r.stderr
    for t in readers:
        t.join(60)
    assert server.get("/v1/health").json()["head"] == last
    assert seqs == list(range(start, last + 1)), (seqs[:3], seqs[-3:], len(seqs))
    # One commit, one checkpoint (server.md §5): its slices have none of their own.
    assert checkpoints == [last], checkpoints
    # The unlock's commit may reach the follower after the heads stream opened, and is then told too.
    assert [seq for seq in told if seq >= start] == [last] and all(seq == start - 1 for seq in told[:-1]), told
    # The idle stream: what it was sent, in order, then its end; not the whole commit.
    held = []
    drain = threading.Thread(target=lambda: held.extend(json.loads(line).get("seq") for line in idle.iter_lines()), daemon=True)
    drain.start()
    drain.join(60)
    assert not drain.is_alive(), "the stream that read nothing was not ended"
    held = [s for s in held if s is not None]
    assert held == list(range(start, start + len(held))) and len(held) < 30000, (len(held), held[:3], held[-3:])
    assert re.search(r"ended \d+ stream\(s\) more than 8 MiB behind", server.stderr())
    reading.close(), heads.close()


def test_each_commit_has_its_checkpoint_and_its_head_whoever_made_it(store):
    """server.md §5: after the events of each commit, that commit's checkpoint, and a head line after each commit,
    also for commits that land between two looks of the follower: 24 writes at once, one commit each
    (`--commit-each`), and 6 command lines writing at once from other processes, one commit each."""
    s = Server(store, extra=("--commit-each",))
    try:
        admin, ines = s.sign_in("admin"), s.sign_in("ines")
        auth = {"Authorization": "Bearer " + admin}
        start = s.get("/v1/health").json()["head"] + 1
        last = start + 24 + 6 - 1
        events = requests.get(s.url + f"/v1/events?follow=true&from={start}", headers=auth, stream=True, timeout=60)
        heads = requests.get(s.url + "/v1/heads?follow=true", headers=auth, stream=True, timeout=60)
        items, told = [], []

        def read_events():
            for line in events.iter_lines():
                item = json.loads(line)
                if "heartbeat" not in item:
                    items.append(item)
                if "checkpoint" in item and int(item["checkpoint"].split("\n")[1]) >= last:
                    return

        readers = reading_threads(read_events, lambda: read_heads(heads, last, told))
        scan = {"productName": "P", "category": "Toys", "result": "authentic"}
        writers = [threading.Thread(target=lambda i=i: s.post("/v1/scans", ines, json=dict(scan, code=f"each-{i}"))) for i in range(24)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")} | {"VERITRAIL_NOW": NOW}
        others = [subprocess.Popen([VT, "search", f"each-{i}", "--as", "kwan", "--store", s.store], env=env,
                                   stdout=subprocess.DEVNULL) for i in range(6)]
        for t in writers:
            t.start()
        for t in writers:
            t.join(60)
        assert all(p.wait(60) == 0 for p in others)
        for t in readers:
            t.join(60)
        assert s.get("/v1/health").json()["head"] == last
        # Every event its own commit: each followed by its checkpoint, and told as a head.
        expected = []
        for seq in range(start, last + 1):
            expected += [("event", seq), ("checkpoint", seq)]
        got = [("checkpoint", int(i["checkpoint"].split("\n")[1])) if "checkpoint" in i else ("event", i["seq"]) for i in items]
        assert got == expected, got
        assert [seq for seq in told if seq >= start] == list(range(start, last + 1)), told
        events.close(), heads.close()
    finally:
        s.stop()
