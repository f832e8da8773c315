"""What someone typed never moves a terminal (cli.md §7): a name with ESC, OSC and carriage returns is printed
escaped by `log tail`, locally and against a server, followed or not, and a parse error quoting what was typed
escapes it too."""
import os
import select
import subprocess
import time

from conftest import NOW, VT, Server, cli, client, login

EVIL = "Evil\x1b[2J\x1b]0;pwned\x07\rRed"
CONTROLS = (b"\x1b", b"\x07", b"\r")


def clean(output):
    return not any(c in output for c in CONTROLS)


def scan_evil(store):
    r = cli("scan", "--as", "ines", "--passcode-stdin", "--code", "c-evil", "--product", EVIL, "--category", "Cosmetics",
            "--result", "authentic", stdin=b"1234\n", store=store)
    assert r.returncode == 0, r.stderr


def first_lines(args, count, state=None):
    """The first `count` lines a `log tail --follow` prints, within 30 seconds."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
    env.update({"VERITRAIL_NOW": NOW, "NO_COLOR": "1", **({"XDG_STATE_HOME": state} if state else {})})
    process = subprocess.Popen([VT, "log", "tail", "--follow", *args], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    out, deadline = b"", time.time() + 30
    try:
        while out.count(b"\n") < count and time.time() < deadline:
            if select.select([process.stdout], [], [], 1)[0]:
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    break
                out += chunk
    finally:
        process.kill()
        process.wait()
    return out


def test_log_tail_escapes_names_locally_and_against_a_server(twin, state):
    scan_evil(twin)
    scans = ["-n", "1", "--type", "scan.recorded"]  # signing in appends an attempt: the scan is compared
    local = cli("log", "tail", *scans, store=twin)
    assert local.returncode == 0 and clean(local.stdout), local.stdout
    assert b"Evil\\u001b[2J" in local.stdout, local.stdout
    assert first_lines([*scans, "--store", twin], 1) == local.stdout
    server = Server(twin)
    try:
        login(server.url, state, "admin")  # the log is the admins' to read
        remote = client(server.url, state, "log", "tail", *scans, "--as", "admin")
        assert remote.returncode == 0 and remote.stdout == local.stdout, (remote.stdout, local.stdout)
        assert first_lines([*scans, "--server", server.url, "--as", "admin"], 1, state) == local.stdout
    finally:
        server.stop()


def test_a_parse_error_escapes_what_was_typed(store):
    r = cli("history", "--window", "\x1b]0;pwned\x07\r7d", store=store)
    assert r.returncode == 64 and clean(r.stderr), r.stderr
    assert b"pwned" in r.stderr, r.stderr
    r = cli("history", "--bogus\x1b[2J", store=store)
    assert r.returncode == 64 and clean(r.stderr), r.stderr
