"""server.md §6: the log as C2SP tlog-tiles, checked by Go's tlog.TileHashReader (scripts/tileverify)."""
import os
import subprocess

import pytest

from conftest import ROOT, cli
from test_basics import is_problem


@pytest.fixture(scope="session")
def tileverify(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("go") / "tileverify")
    env = dict(os.environ, GOPATH="/usr/share/gocode", GO111MODULE="off", GOCACHE=str(tmp_path_factory.mktemp("gocache")))
    subprocess.run(["go", "build", "-o", out, "./scripts/tileverify"], cwd=ROOT, env=env, check=True)
    return out


def test_go_proves_inclusion_and_consistency_from_the_tiles(server, tileverify):
    admin = server.sign_in("admin")
    size = server.get("/v1/health").json()["head"]
    r = subprocess.run([tileverify, server.url, admin, "1", "100", "256", str(size - 1)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == f"ok {size}"


def test_tile_paths_are_strict(server):
    assert server.get("/tile/0/000").status_code == 200
    assert len(server.get("/tile/0/000").content) == 256 * 32
    assert server.get("/checkpoint").text == cli("log", "checkpoint", store=server.store).stdout.decode()
    ines = server.sign_in("ines")
    is_problem(server.get("/tile/entries/000", ines), 403, 77)
    for path in ["/tile/0/0", "/tile/0/x000/001", "/tile/0/00a", "/tile/8/000", "/tile/0/000.p/0", "/tile/0/000.p/256",
                 "/tile/00/000", "/tile/0/000.p/", "/tile/0/..%2f..%2fetc", "/tile/0/000/extra"]:
        r = server.get(path)
        assert 400 <= r.status_code < 500, (path, r.status_code)
    is_problem(server.get("/tile/0/x999/000"), 404, 65)


def test_indices_at_the_edge_of_64_bits_are_refused_and_the_server_lives(server):
    """A tile index past 2^64 − 1 (parsed), or whose tile would end past it (index·256 + 256), and a Last-Event-ID of
    2^64 − 1 once ended the server with an arithmetic overflow, without a token."""
    admin = server.sign_in("admin")
    is_problem(server.get("/tile/0/x018/x446/x744/x073/x709/x551/616"), 400, 64)
    is_problem(server.get("/tile/entries/x018/x446/x744/x073/x709/x551/616", admin), 400, 64)
    for level in range(8):
        is_problem(server.get(f"/tile/{level}/x072/x057/x594/x037/x927/935"), 404, 65)
    is_problem(server.get("/tile/entries/x072/x057/x594/x037/x927/935", admin), 404, 65)
    is_problem(server.get("/tile/0/x018/x446/x744/x073/x709/x551/615"), 404, 65)
    r = server.get("/v1/events?follow=true", headers={"Last-Event-ID": str(2**64 - 1)})
    is_problem(r, 401, 77)
    with server.get("/v1/events?follow=true", admin, headers={"Last-Event-ID": str(2**64 - 1)}, stream=True) as r:
        assert r.status_code == 200
    assert server.get("/v1/health").json()["ok"] is True
