"""server.md §2 and §5 at the edges a black-box probe found: a stream ends with its session (a sign-out,
a lockout), a follow without `from` starts after the head the request finds, and a server-sent checkpoint
reads back as the signed note, final newline included."""
import json
import time

import requests

from conftest import cli
from test_basics import is_problem


def open_stream(server, path, token, sse=False):
    headers = {"Authorization": "Bearer " + token}
    if sse:
        headers["Accept"] = "text/event-stream"
    r = requests.get(server.url + path, headers=headers, stream=True, timeout=20)
    assert r.status_code == 200, r.text
    return r


def rest_of(stream, within=10):
    """Everything the stream sends until it ends, which must be within `within` seconds (heartbeats would keep
    a read timeout from ever firing)."""
    sent = b""
    deadline = time.time() + within
    for chunk in stream.iter_content(None):
        sent += chunk
        assert time.time() < deadline, "the stream did not end: " + sent[-300:].decode(errors="replace")
    return sent


def test_a_stream_ends_when_its_session_does(server):
    admin = server.sign_in("admin")
    events = open_stream(server, "/v1/events?follow=true", admin)
    customer = server.sign_in("bret")
    heads = open_stream(server, "/v1/heads?follow=true", customer)
    assert server.request("DELETE", "/v1/sessions/current", admin).status_code == 204
    assert server.request("DELETE", "/v1/sessions/current", customer).status_code == 204
    signed_out = server.get("/v1/health").json()["head"]
    written = cli("search", "after-the-sign-out", "--as", "kwan", "--json", store=server.store)
    assert written.returncode == 0, written.stderr
    assert b"after-the-sign-out" not in rest_of(events)
    # Commits from before the sign-out (the customer's own sign-in) may have reached the heads stream.
    assert all(json.loads(line)["seq"] <= signed_out for line in rest_of(heads).splitlines())
    is_problem(server.get("/v1/events?follow=true", admin), 401, 77)


def test_a_stream_ends_when_its_account_is_locked(server):
    admin = server.sign_in("r.keller")
    events = open_stream(server, "/v1/events?follow=true", admin, sse=True)
    for _ in range(3):
        server.post("/v1/sessions", json={"user": "r.keller", "passcode": "0000"})
    written = cli("search", "after-the-lock", "--as", "kwan", "--json", store=server.store)
    assert written.returncode == 0, written.stderr
    assert b"after-the-lock" not in rest_of(events)


def test_a_follow_without_from_starts_after_the_head_the_request_finds(server):
    admin = server.sign_in("admin")
    for i in range(8):
        # A write just before: the follower, which looks every 20 ms, may not have told of it yet.
        server.post("/v1/searches", admin, json={"query": f"before-{i}"})
        head = server.get("/v1/health").json()["head"]
        stream = open_stream(server, "/v1/events?follow=true", admin)
        lines = stream.iter_lines()
        server.post("/v1/searches", admin, json={"query": f"after-{i}"})
        first = json.loads(next(lines))
        while "checkpoint" in first:
            first = json.loads(next(lines))
        assert first["seq"] == head + 1 and first["data"]["query"] == f"after-{i}", (i, head, first["seq"])
        stream.close()
    is_problem(server.get("/v1/events?follow=true&from=0", admin), 400, 64)


def test_a_server_sent_checkpoint_is_the_signed_note(server):
    admin = server.sign_in("admin")
    stream = open_stream(server, "/v1/events?follow=true", admin, sse=True)
    assert cli("search", "noted", "--as", "kwan", store=server.store).returncode == 0
    event, data = None, []
    for line in stream.iter_lines():
        if line.startswith(b"event: "):
            event, data = line[len(b"event: "):], []
        elif line.startswith(b"data: ") or line == b"data:":
            data.append(line[len(b"data: "):])
        elif line == b"" and event == b"checkpoint":
            break
    stream.close()
    # An EventSource client joins the data lines with newlines.
    note = b"\n".join(data)
    assert note == cli("log", "checkpoint", store=server.store).stdout


def test_a_backlog_ends_with_the_checkpoint_of_its_last_event(server):
    admin = server.sign_in("admin")
    head = server.get("/v1/health").json()["head"]
    time.sleep(0.2)  # the follower has told of the sign-in's commit: the backlog is all the stream sends of it
    stream = open_stream(server, f"/v1/events?follow=true&from={head - 2}", admin)
    lines = stream.iter_lines()
    assert [json.loads(next(lines))["seq"] for _ in range(3)] == [head - 2, head - 1, head]
    assert json.loads(next(lines)) == {"checkpoint": cli("log", "checkpoint", store=server.store).stdout.decode()}
    stream.close()
