"""Fixtures of the client's tests (`--server`, server.md §8): the real `veritrail` binary run as a client of a
real `veritrail serve` on a free loopback port, with its token file in a directory of the test's own. The
server's fixtures (Tests/server/conftest.py) are loaded from there, not copied."""
import importlib.util
import os
import shutil
import subprocess
import time

import pytest
import requests

_spec = importlib.util.spec_from_file_location(
    "server_fixtures", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "server", "conftest.py"))
server_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(server_fixtures)

ROOT, VT, NOW, Server, cli = (server_fixtures.ROOT, server_fixtures.VT, server_fixtures.NOW, server_fixtures.Server,
                              server_fixtures.cli)

# The demo's events and a store made of them, as the server's tests have them.
demo_events, store = server_fixtures.demo_events, server_fixtures.store


@pytest.fixture
def twin(tmp_path, store):
    """A copy of `store`, made before anything opened it for writing."""
    path = str(tmp_path / "twin")
    shutil.copytree(store, path)
    return path


@pytest.fixture
def server(twin):
    s = Server(twin)
    yield s
    s.stop()


@pytest.fixture
def state(tmp_path):
    """The client's XDG_STATE_HOME: where it keeps its tokens."""
    path = tmp_path / "state"
    path.mkdir()
    return str(path)


def client(server_url, state, *args, stdin=None, now=NOW, env=None):
    """The command line run against `server_url`, its tokens under `state`."""
    extra = {"XDG_STATE_HOME": state}
    extra.update(env or {})
    return cli(*args, "--server", server_url, stdin=stdin, env=extra, now=now)


def login(server_url, state, user, passcode="1234"):
    r = client(server_url, state, "login", "--as", user, "--passcode-stdin", stdin=(passcode + "\n").encode())
    assert r.returncode == 0, r.stderr
    return r


def serve_at(store, port, now=None):
    """`veritrail serve` on `store` at a given port (a restarted server keeps its URL, the token file's key) and
    clock (`--now`; the real clock without one), once it answers `/v1/health`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
    clock = ["--now", now] if now else []
    process = subprocess.Popen([VT, "serve", "--store", store, "--listen", f"127.0.0.1:{port}", *clock], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).status_code == 200:
                return process
        except requests.ConnectionError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not start")
