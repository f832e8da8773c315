"""The session tokens `login` keeps (server.md §8): their file's modes, one per server and user, asked again
when missing or over, ended and forgotten by `logout`, and never shown: not in output, the server's log, the
arguments of a process or its environment."""
import json
import os
import stat
import subprocess
import time

import requests

from conftest import NOW, VT, Server, client, login, serve_at


def tokens(state):
    with open(os.path.join(state, "veritrail", "tokens.json")) as f:
        return json.load(f)["tokens"]


def test_file_modes_and_one_token_per_server_and_user(twin, server, state):
    login(server.url, state, "ines")
    directory = os.path.join(state, "veritrail")
    assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(os.path.join(directory, "tokens.json")).st_mode) == 0o600
    login(server.url, state, "ines")
    login(server.url, state, "admin")
    other = Server(twin)
    try:
        login(other.url, state, "ines")
        kept = sorted((t["server"], t["user"]) for t in tokens(state))
        assert kept == sorted([(server.url, "ines"), (server.url, "admin"), (other.url, "ines")])
    finally:
        other.stop()
    assert not [f for f in os.listdir(directory) if f != "tokens.json"]


def test_default_place_is_under_home(tmp_path, server):
    env = {"HOME": str(tmp_path), "XDG_STATE_HOME": ""}
    r = client(server.url, str(tmp_path / "unused"), "login", "--as", "ines", "--passcode-stdin", stdin=b"1234\n", env=env)
    assert r.returncode == 0, r.stderr
    assert os.path.exists(tmp_path / ".local/state/veritrail/tokens.json")


def test_logout_ends_the_session_and_forgets_it(server, state):
    login(server.url, state, "ines")
    token = tokens(state)[0]["token"]
    r = client(server.url, state, "logout", "--as", "ines")
    assert r.returncode == 0 and r.stdout == f"logged out ines from {server.url}\n".encode(), r.stderr
    assert tokens(state) == []
    assert server.get("/v1/stats", token=token).status_code == 401
    # without a token and without a terminal, a query says how to sign in (77)
    r = client(server.url, state, "stats", "--as", "ines")
    assert r.returncode == 77 and b"veritrail login" in r.stderr, r.stderr


def test_a_refused_token_asks_the_passcode_again(server, state):
    login(server.url, state, "ines")
    path = os.path.join(state, "veritrail", "tokens.json")
    kept = tokens(state)
    kept[0]["token"] = "A" * 43  # as a token the server no longer knows (expired, or ended elsewhere)
    with open(path, "w") as f:
        json.dump({"tokens": kept}, f)
    r = client(server.url, state, "scan", "--as", "ines", "--passcode-stdin", "--code", "c", "--product", "p", "--category", "c",
               "--result", "authentic", stdin=b"1234\n")
    assert r.returncode == 0, r.stderr
    assert tokens(state)[0]["token"] != "A" * 43
    # a wrong passcode on the way is the gate's refusal
    kept = tokens(state)
    kept[0]["token"] = "B" * 43
    with open(path, "w") as f:
        json.dump({"tokens": kept}, f)
    r = client(server.url, state, "scan", "--as", "ines", "--passcode-stdin", "--code", "c", "--product", "p", "--category", "c",
               "--result", "authentic", stdin=b"9999\n")
    assert r.returncode == 77, r.stderr


def test_the_token_is_never_shown(server, state):
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
    env.update({"XDG_STATE_HOME": state, "VERITRAIL_NOW": NOW})
    outputs = [login(server.url, state, "admin")]
    token = tokens(state)[0]["token"]
    # a long command: its arguments and environment, as `ps` sees them, hold no token
    follower = subprocess.Popen([VT, "log", "tail", "--follow", "--as", "admin", "--server", server.url], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(1)
        with open(f"/proc/{follower.pid}/cmdline", "rb") as f:
            assert token.encode() not in f.read()
        with open(f"/proc/{follower.pid}/environ", "rb") as f:
            assert token.encode() not in f.read()
        ps = subprocess.run(["ps", "-eo", "args"], capture_output=True).stdout
        assert token.encode() not in ps
    finally:
        follower.terminate()
        out, err = follower.communicate(timeout=10)
    outputs += [client(server.url, state, *args, "--as", "admin") for args in
                (["stats"], ["--json", "stats"], ["log", "tail"], ["unlock", "--passcode-stdin"], ["logout"])]
    for r in outputs:
        assert token.encode() not in r.stdout + r.stderr
    assert token.encode() not in out + err
    assert token not in server.stderr()


def test_an_expired_token_asks_the_passcode_again(twin, state):
    # Signed in at NOW; the server then runs 16 minutes later (its sessions outlive a restart): the
    # session is over by the server's clock, not because the token was tampered with.
    first = Server(twin)
    port, url = first.port, first.url
    try:
        login(url, state, "ines")
        expired = tokens(state)[0]["token"]
    finally:
        first.stop()
    later = "2026-11-20T18:21:00Z"
    server = serve_at(twin, port, later)
    try:
        assert requests.get(url + "/v1/stats", headers={"Authorization": "Bearer " + expired}, timeout=10).status_code == 401
        # a query has no --passcode-stdin: it says how to sign in again (77), as a local query says nothing of the gate
        r = client(url, state, "stats", "--as", "ines", now=later)
        assert r.returncode == 77 and f"veritrail login --server {url} --as ines".encode() in r.stderr, r.stderr
        # a write asks the passcode again and goes on with a new token
        r = client(url, state, "scan", "--as", "ines", "--passcode-stdin", "--code", "c", "--product", "p", "--category", "c",
                   "--result", "authentic", stdin=b"1234\n", now=later)
        assert r.returncode == 0 and b"recorded scan" in r.stdout, r.stderr
        renewed = tokens(state)
        assert len(renewed) == 1 and renewed[0]["token"] != expired
        assert expired.encode() not in r.stdout + r.stderr and renewed[0]["token"].encode() not in r.stdout + r.stderr
        r = client(url, state, "stats", "--as", "ines", now=later)
        assert r.returncode == 0, r.stderr
    finally:
        server.terminate()
        server.wait()


def test_without_a_session_the_refusal_names_only_what_the_command_takes(server, state):
    query = client(server.url, state, "stats", "--as", "ines", stdin=b"")
    assert query.returncode == 77 and b"veritrail login --server" in query.stderr, query.stderr
    assert b"--passcode-stdin" not in query.stderr  # a query takes no passcode
    write = client(server.url, state, "report", "s-0064", "--reason", "label", "--as", "ines", stdin=b"")
    assert write.returncode == 77 and b"or pass --passcode-stdin" in write.stderr, write.stderr
    # `login` and `unlock` without a terminal or --passcode-stdin: a wrong command line, as a local `unlock` says (64).
    for command in ("login", "unlock"):
        asked = client(server.url, state, command, "--as", "ines", stdin=b"")
        assert asked.returncode == 64 and b"a passcode is read from a terminal or with --passcode-stdin" in asked.stderr, asked.stderr
