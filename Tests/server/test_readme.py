"""README's "Serving" walk, run as printed (on a free port instead of 8420, in a folder of its own)."""
import os
import re
import subprocess

from conftest import ROOT, VT, free_port


def test_the_serving_walk_runs_as_printed(tmp_path):
    readme = open(os.path.join(ROOT, "README.md")).read()
    section = readme.split("## Serving", 1)[1].split("\n## ", 1)[0]
    script = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    port = str(free_port())
    script = script.replace("8420", port)
    os.symlink(os.path.join(ROOT, "Events"), tmp_path / "Events")
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERITRAIL_")}
    env["PATH"] = os.path.dirname(VT) + ":" + env["PATH"]
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", "set +o pipefail\n" + script + "\nwait"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert '"ok":true' in out and '"authentic": ' in out
    assert '"scanId":"s-walk-1"' in out or '"code":"https://verify.example/p/W-1"' in out
    assert '"exitCode":64' in out
    assert "veritrail_http_requests_total" in out
    assert out.count('"seq":') >= 2
    log = open(tmp_path / "serve.log").read()
    assert "POST /v1/scans 201" in log and "GET /v1/events 200" in log
