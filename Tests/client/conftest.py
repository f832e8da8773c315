"""Fixtures of the client's tests (`--server`, server.md §8): the real `veritrail` binary run as a client of a
real `veritrail serve` on a free loopback port, with its token file in a directory of the test's own. The
server's fixtures (Tests/server/conftest.py) are loaded from there, not copied."""
import importlib.util
import os
import shutil

import pytest

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
