"""Every refusal class of cli.md §6 gives the same exit code and sentence with `--server` as on the server's
store (64 usage, 65 rule or unknown, 74 store failure / server down, 77 not allowed / locked), and writes
nothing more than locally."""
import time

from conftest import cli, client, login, Server


def same(server, state, args, stdin=None, code=None):
    local = cli(*args, stdin=stdin, store=server.store)
    remote = client(server.url, state, *args, stdin=stdin)
    assert (remote.returncode, remote.stderr, remote.stdout) == (local.returncode, local.stderr, local.stdout), args
    if code is not None:
        assert local.returncode == code, (args, local.stderr)
    return remote


def test_unknown_scan_user_and_rules(server, state):
    login(server.url, state, "admin")
    login(server.url, state, "ines")
    same(server, state, ["show", "s-nothing-like-this", "--as", "ines"], code=65)
    same(server, state, ["report", "s-nothing-like-this", "--as", "ines", "--reason", "packaging"], code=65)
    same(server, state, ["settings", "nobody", "--as", "admin"], code=65)
    same(server, state, ["customer", "status", "nobody", "COMPLETED", "--as", "admin"], code=65)
    same(server, state, ["log", "prove", "99999"], code=65)


def test_usage(server, state):
    login(server.url, state, "admin")
    same(server, state, ["history", "--limit", "0", "--as", "admin"], code=64)
    same(server, state, ["stats", "--as-of", "yesterday", "--as", "admin"], code=64)
    r = client(server.url, state, "rebuild", "--as", "admin")
    assert r.returncode == 64 and b"local store only" in r.stderr
    r = cli("init", "--admin", "x", "--name", "X", "--email", "x@example.org", "--server", server.url)
    assert r.returncode == 64


def test_not_allowed(server, state):
    login(server.url, state, "ines")
    # an inspector may not change a customer's status: the library's sentence, exit 77, nothing written
    before = cli("log", "digest", store=server.store).stdout
    same(server, state, ["customer", "status", "bret", "COMPLETED", "--as", "ines"], code=77)
    assert cli("log", "digest", store=server.store).stdout == before


def test_wrong_passcode_and_lockout(server, state):
    r = client(server.url, state, "login", "--as", "kwan", "--passcode-stdin", stdin=b"0000\n")
    assert r.returncode == 77, r.stderr
    local = cli("unlock", "--as", "kwan", "--passcode-stdin", stdin=b"0000\n", store=server.store)
    assert local.returncode == 77
    client(server.url, state, "login", "--as", "kwan", "--passcode-stdin", stdin=b"0000\n")
    # three wrong ones: locked, refused at once with its seconds, even with the right passcode
    r = client(server.url, state, "login", "--as", "kwan", "--passcode-stdin", stdin=b"1234\n")
    assert r.returncode == 77 and b"locked out" in r.stderr and b" s" in r.stderr, r.stderr
    local = cli("unlock", "--as", "kwan", "--passcode-stdin", stdin=b"1234\n", store=server.store)
    assert local.returncode == 77 and local.stderr == r.stderr


def test_a_server_that_is_down(server, state):
    login(server.url, state, "ines")
    url = server.url
    server.stop()
    for args in (["stats", "--as", "ines"], ["scan", "--as", "ines", "--code", "c", "--product", "p", "--category", "c",
                                            "--result", "authentic"]):
        r = client(url, state, *args)
        assert r.returncode == 74, r.stderr
        assert r.stderr.startswith(f"veritrail: can not reach {url}".encode()), r.stderr


def test_a_server_that_does_not_answer_in_time(state):
    import socket
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        url = "http://127.0.0.1:%d" % listener.getsockname()[1]
        start = time.time()
        r = client(url, state, "log", "key", env={"VERITRAIL_SERVER_TIMEOUT": "1"})
        assert r.returncode == 74 and url.encode() in r.stderr and b"did not answer within 1 s" in r.stderr, r.stderr
        assert time.time() - start < 15


def test_plain_http_only_on_loopback(state):
    r = client("http://veritrail.example.org", state, "stats", "--as", "ines")
    assert r.returncode == 64 and b"loopback" in r.stderr, r.stderr
    r = client("ftp://127.0.0.1", state, "stats", "--as", "ines")
    assert r.returncode == 64, r.stderr
    r = client("https://127.0.0.1:1", state, "stats", "--as", "ines", "--cacert", "/nonexistent.pem")
    assert r.returncode == 64 and b"--cacert" in r.stderr, r.stderr
