"""README "Working with a served store": the walk runs as printed against a real `veritrail serve`, and each
of its commands answers as the same command on a local copy of the store (login there is `unlock`)."""
import os
import re
import shlex
import subprocess

from conftest import NOW, ROOT, VT, Server, cli, client


def walk():
    text = open(os.path.join(ROOT, "README.md")).read()
    section = text.split("## Working with a served store", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_the_walk_runs_as_printed(twin, tmp_path):
    server = Server(twin)
    try:
        script = walk().replace("http://127.0.0.1:8420", server.url)
        env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
        env.update({"PATH": os.path.dirname(VT) + ":" + env["PATH"], "XDG_STATE_HOME": str(tmp_path / "state")})
        r = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env, capture_output=True, timeout=120)
        assert r.returncode == 0, r.stderr.decode()
        out = r.stdout.decode()
        assert "logged in as ines on " + server.url in out
        assert "recorded scan s-served-1 (seq " in out
        assert "reported scan s-served-1 (packaging)" in out
        followed = (tmp_path / "followed.txt").read_text()
        assert "s-served-1" in followed and followed.count("\n") >= 4, followed
        assert "logged out ines from " + server.url in out
        assert not os.path.exists(tmp_path / "state/veritrail/tokens.json") or '"token"' not in (tmp_path / "state/veritrail/tokens.json").read_text()
    finally:
        server.stop()


def test_each_command_of_the_walk_answers_as_locally(store, twin, tmp_path):
    server = Server(twin)
    state = str(tmp_path / "state")
    os.mkdir(state)
    try:
        for line in walk().splitlines():
            command = line.split("  #")[0].strip()
            if "veritrail" not in command or "&" in command or command.startswith(("export", "sleep", "veritrail logout")):
                continue
            stdin = None
            if command.startswith("printf"):
                stdin = b"1234\n"
                command = command.split("|", 1)[1]
            args = shlex.split(command)[1:]
            if args[0] == "login":
                local = cli("unlock", *args[1:], stdin=stdin, store=store)
                remote = client(server.url, state, *args, stdin=stdin)
                assert local.returncode == remote.returncode == 0, (local.stderr, remote.stderr)
                continue
            local = cli(*args, stdin=stdin, store=store)
            remote = client(server.url, state, *args, stdin=stdin)
            # the scan's event id is drawn: the rest of the line is the same
            strip = lambda b: re.sub(rb"event [A-Za-z0-9._:-]+\)", b"event ID)", b)
            assert (remote.returncode, strip(remote.stdout), remote.stderr) == (local.returncode, strip(local.stdout), local.stderr), args
    finally:
        server.stop()
