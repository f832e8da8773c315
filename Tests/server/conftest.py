"""Fixtures of the server's tests: the real `veritrail` binary, a store made from the demo data, and
`veritrail serve` started on a free loopback port, talked to over real sockets with `requests`."""
import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VT = os.environ.get("VERITRAIL", os.path.join(ROOT, ".build/debug/veritrail"))
NOW = "2026-11-20T18:05:00Z"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli(*args, store=None, stdin=None, env=None, now=NOW):
    """Runs the command line on `store`; returns the finished process (stdout and stderr as bytes)."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
    full_env["NO_COLOR"] = "1"
    if now:
        full_env["VERITRAIL_NOW"] = now
    full_env.update(env or {})
    argv = [VT, *args] + (["--store", store] if store else [])
    return subprocess.run(argv, input=stdin, capture_output=True, env=full_env, timeout=120)


class Server:
    """`veritrail serve` on a store, until stopped."""

    def __init__(self, store, now=NOW, extra=()):
        self.store = store
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
        argv = [VT, "serve", "--store", store, "--listen", f"127.0.0.1:{self.port}", *extra]
        if now:
            argv += ["--now", now]
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=self.log, env=env)
        deadline = time.time() + 30
        while True:
            try:
                if requests.get(self.url + "/v1/health", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if self.process.poll() is not None or time.time() > deadline:
                raise RuntimeError("the server did not start: " + self.stderr())
            time.sleep(0.05)

    def stderr(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def get(self, path, token=None, **kw):
        headers = kw.pop("headers", {})
        if token:
            headers["Authorization"] = "Bearer " + token
        return requests.get(self.url + path, headers=headers, timeout=30, **kw)

    def post(self, path, token=None, **kw):
        headers = kw.pop("headers", {})
        if token:
            headers["Authorization"] = "Bearer " + token
        return requests.post(self.url + path, headers=headers, timeout=30, **kw)

    def request(self, method, path, token=None, **kw):
        headers = kw.pop("headers", {})
        if token:
            headers["Authorization"] = "Bearer " + token
        return requests.request(method, self.url + path, headers=headers, timeout=30, **kw)

    def sign_in(self, user, passcode="1234"):
        r = self.post("/v1/sessions", json={"user": user, "passcode": passcode})
        assert r.status_code == 201, r.text
        return r.json()["token"]


@pytest.fixture(scope="session")
def demo_events():
    return os.path.join(ROOT, "Events/demo.ndjson")


@pytest.fixture
def store(tmp_path, demo_events):
    path = str(tmp_path / "store")
    r = cli("import", demo_events, store=path)
    assert r.returncode == 0, r.stderr
    return path


@pytest.fixture
def server(store):
    s = Server(store)
    yield s
    s.stop()
