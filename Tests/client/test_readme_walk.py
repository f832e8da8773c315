"""README "Working with a served store": the walk runs as printed against a real `veritrail serve`, and each
of its commands answers as the same command on a local copy of the store (login there is `unlock`)."""
import os
import re
import shlex
import subprocess
import time

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
        # What the walk says it shows: the login, the scan and the report (the follower's `-n 1` line may be
        # ines's login itself, when the follower starts after it commits on a busy host).
        for line in ("ines entered the right passcode", "scan s-served-1", "reported scan s-served-1"):
            assert line in followed, followed
        assert "logged out ines from " + server.url in out
        assert not os.path.exists(tmp_path / "state/veritrail/tokens.json") or '"token"' not in (tmp_path / "state/veritrail/tokens.json").read_text()
    finally:
        server.stop()


def follower(args, state=None):
    """`log tail --follow` of the walk, in the background, its output kept."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
    env.update({"VERITRAIL_NOW": NOW, "NO_COLOR": "1"})
    if state:
        env["XDG_STATE_HOME"] = state
    return subprocess.Popen([VT, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def stopped(process):
    process.terminate()
    out, err = process.communicate(timeout=15)
    return out, err


def test_each_command_of_the_walk_answers_as_locally(store, twin, tmp_path):
    """The walk twice, command by command: on the local store (login there is `unlock`) and with --server on
    a copy of it; the same stdout, stderr and exit code for each, the follower's lines too."""
    server = Server(twin)
    state = str(tmp_path / "state")
    os.mkdir(state)
    # the scan's event id is drawn: the rest of the line is the same
    strip = lambda b: re.sub(rb"event [A-Za-z0-9._:-]+\)", b"event ID)", b)
    followers = None
    compared = 0
    try:
        for line in walk().splitlines():
            command = line.split("  #")[0].strip()
            if command.startswith("sleep 1; kill %1") and followers:
                time.sleep(1)
                local, remote = (stopped(p) for p in followers)
                assert local[0].count(b"\n") >= 4, local
                assert (strip(remote[0]), remote[1]) == (strip(local[0]), local[1])
                followers = None
                compared += 1
                continue
            if "veritrail" not in command or command.startswith(("export", "veritrail logout")):
                continue
            stdin = None
            if command.startswith("printf"):
                stdin = b"1234\n"
                command = command.split("|", 1)[1]
            args = shlex.split(command.split(">")[0].rstrip(" &"))[1:]
            if "--follow" in args:
                followers = (follower([*args, "--store", store]), follower([*args, "--server", server.url], state))
                time.sleep(0.5)
                continue
            if args[0] == "login":
                local = cli("unlock", *args[1:], stdin=stdin, store=store)
                remote = client(server.url, state, *args, stdin=stdin)
                assert local.returncode == remote.returncode == 0, (local.stderr, remote.stderr)
                compared += 1
                continue
            local = cli(*args, stdin=stdin, store=store)
            remote = client(server.url, state, *args, stdin=stdin)
            assert (remote.returncode, strip(remote.stdout), remote.stderr) == (local.returncode, strip(local.stdout), local.stderr), args
            compared += 1
        assert compared == 6
    finally:
        for p in followers or ():
            p.kill()
        server.stop()
