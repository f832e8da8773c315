"""Every writing command with `--server` writes what it writes locally and prints what it prints locally:
the same walk on a store and on a served copy of it, command by command (clock pinned, ids given)."""
from conftest import NOW, cli, client, login

PASS = b"1234\n"

# (command, stdin): each run as ines or admin as its --as says, with --id (and --scan-id) so that both runs
# write the same events.
WALK = [
    (["scan", "--as", "ines", "--id", "w-1", "--scan-id", "s-walk-0001", "--code", "https://v.example/p/123",
      "--product", "Serum 30 ml", "--category", "Cosmetics", "--result", "authentic"], None),
    (["scan", "--as", "ines", "--id", "w-2", "--scan-id", "s-walk-0002", "--code", "https://v.example/p/123",
      "--product", "Serum 30 ml", "--category", "Cosmetics", "--result", "counterfeit", "--json"], None),
    (["report", "s-walk-0002", "--as", "ines", "--id", "w-3", "--reason", "packaging"], None),
    (["report", "s-walk-0001", "--as", "ines", "--id", "w-4", "--reason", "other", "--message", "label peels", "--json"], None),
    (["search", "serum", "--as", "ines", "--id", "w-5", "--window", "all", "--limit", "3"], None),
    (["settings", "set", "--as", "ines", "--id", "w-6", "--history-window", "7d"], None),
    (["history", "--as", "ines"], None),
    (["customer", "status", "bret", "INPROCESS", "--as", "admin", "--id", "w-7", "--note", "done"], None),
    (["account", "update", "ines", "--as", "admin", "--id", "w-8", "--phone", "+33 6 00 00 00 00"], None),
    (["fitness", "set", "--as", "tmueller", "--id", "w-9", "--body-type", "1", "--height-inches", "70"], PASS),
    (["goal", "set", "--as", "tmueller", "--id", "w-10", "--metric", "jumps", "--target", "5000", "--month", "2026-11"], None),
    (["session", "record", "--as", "tmueller", "--id", "w-11", "--session-id", "ses-walk", "--park", "Parc", "--start", "10:00",
      "--end", "11:00", "--jumps", "300", "--calories", "250", "--date", "2026-11-20"], None),
    (["register", "newbie", "--as", "admin", "--id", "w-12", "--role", "inspector", "--name", "New Bie", "--email", "nb@example.org"], None),
    (["account", "delete", "newbie", "--as", "admin", "--id", "w-13", "--yes", "--reason", "test"], None),
    # Retries under the same --id: told as already recorded, nothing written, on both sides.
    (["scan", "--as", "ines", "--id", "w-1", "--scan-id", "s-walk-0001", "--code", "https://v.example/p/123",
      "--product", "Serum 30 ml", "--category", "Cosmetics", "--result", "authentic"], None),
    (["scan", "--as", "ines", "--id", "w-2", "--scan-id", "s-walk-0002", "--code", "https://v.example/p/123",
      "--product", "Serum 30 ml", "--category", "Cosmetics", "--result", "counterfeit", "--json"], None),
    (["report", "s-walk-0002", "--as", "ines", "--id", "w-3", "--reason", "packaging"], None),
    (["account", "update", "ines", "--as", "admin", "--id", "w-8", "--phone", "+33 6 00 00 00 00", "--json"], None),
    # Where an address's city was placed: the note on stderr, `placement` in --json, a retry without it.
    (["register", "cusnine", "--as", "admin", "--id", "w-14", "--name", "Cus Nine", "--email", "c9@example.org",
      "--street", "1 Rue", "--city", "Lyon", "--zipcode", "69001"], None),
    (["register", "custen", "--as", "admin", "--id", "w-15", "--name", "Cus Ten", "--email", "c10@example.org",
      "--street", "1 Rue", "--city", "Nowhereville", "--zipcode", "1", "--json"], None),
    (["account", "update", "cusnine", "--as", "admin", "--id", "w-16", "--city", "Paris", "--json"], None),
    (["goals", "tmueller", "--as", "admin"], None), (["customer", "show", "bret", "--as", "admin"], None),
    (["searches", "ines", "--as", "admin"], None), (["stats", "--by", "ines", "--as", "admin"], None), (["lockout", "--as", "admin"], None),
]


def test_walk_writes_the_same_locally_and_remotely(store, server, state):
    for user in ("admin", "ines", "tmueller"):
        r = cli("unlock", "--as", user, "--passcode-stdin", stdin=PASS, store=store)
        assert r.returncode == 0, r.stderr
        login(server.url, state, user)
    for args, stdin in WALK:
        local = cli(*args, stdin=stdin, store=store)
        remote = client(server.url, state, *args, stdin=stdin)
        assert (remote.returncode, remote.stdout, remote.stderr) == (local.returncode, local.stdout, local.stderr), args
        assert local.returncode == 0, (args, local.stderr)
    # The same events, but for the ids of the passcode attempts and the times the server's clock gave them.
    assert cli("log", "verify", store=server.store).returncode == 0


def test_a_write_on_the_real_clock_verifies(tmp_path, demo_events, state):
    from conftest import Server
    path = str(tmp_path / "real")
    assert cli("import", demo_events, store=path, now=None).returncode == 0
    s = Server(path, now=None)
    try:
        r = client(s.url, state, "login", "--as", "ines", "--passcode-stdin", stdin=PASS, now=None)
        assert r.returncode == 0, r.stderr
        r = client(s.url, state, "scan", "--as", "ines", "--code", "c-1", "--product", "P", "--category", "C", "--result",
                   "authentic", now=None)
        assert r.returncode == 0 and r.stdout.startswith(b"recorded scan s-"), r.stderr
        r = client(s.url, state, "history", "--as", "ines", "--limit", "1", "--json", now=None)
        assert b'"code":"c-1"' in r.stdout, r.stdout
        # An upload on the real clock: a batch, and an import over 1 MiB (the map reserved for it, paged).
        batch = tmp_path / "real.csv"
        batch.write_text("code,productName,category,result\n" + "".join(f"r-{i},P,Cosmetics,authentic\n" for i in range(300)))
        r = client(s.url, state, "scan", "--batch", str(batch), "--as", "ines", now=None)
        assert r.returncode == 0, r.stderr
        r = client(s.url, state, "login", "--as", "admin", "--passcode-stdin", stdin=PASS, now=None)
        assert r.returncode == 0, r.stderr
        import datetime
        import json
        at = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")  # after every event so far
        lines = [json.dumps({"type": "search.performed", "at": at, "actor": "ines",
                             "data": {"username": "ines", "query": f"imported {i} " + "x" * 60}}) + "\n" for i in range(12_000)]
        events = tmp_path / "real.ndjson"
        events.write_text("".join(lines))
        assert events.stat().st_size > 1 << 20
        r = client(s.url, state, "import", str(events), "--as", "admin", now=None)
        assert r.returncode == 0 and r.stdout.startswith(b"appended 12000 events"), (r.stdout, r.stderr)
    finally:
        s.stop()
    assert cli("log", "verify", store=path, now=None).returncode == 0


def test_batch_and_import_stream_to_the_server(tmp_path, store, server, state):
    login(server.url, state, "ines")
    login(server.url, state, "admin")
    for user in ("ines", "admin"):
        cli("unlock", "--as", user, "--passcode-stdin", stdin=PASS, store=store)
    batch = tmp_path / "scans.csv"
    batch.write_text("code,productName,category,result,scanId\n" +
                     "".join(f"c-{i},Product {i},Cosmetics,authentic,s-batch-{i:04}\n" for i in range(200)))
    local = cli("scan", "--batch", str(batch), "--as", "ines", "--id", "b-1", "--json", store=store)
    remote = client(server.url, state, "scan", "--batch", str(batch), "--as", "ines", "--id", "b-1", "--json")
    assert (remote.returncode, remote.stdout) == (local.returncode, local.stdout)
    assert local.returncode == 0, local.stderr
    # Its retry is told as one, on both sides.
    local = cli("scan", "--batch", str(batch), "--as", "ines", "--id", "b-1", store=store)
    remote = client(server.url, state, "scan", "--batch", str(batch), "--as", "ines", "--id", "b-1")
    assert (remote.returncode, remote.stdout) == (local.returncode, local.stdout)
    assert local.stdout.startswith(b"already recorded (seq ") and local.stdout.endswith(b"event b-1): nothing written\n"), local.stdout
    # import: the events of an export of another store, appended all or nothing.
    other = str(tmp_path / "other")
    exported = tmp_path / "exported.ndjson"
    assert cli("export", "--output", str(exported), store=store).returncode == 0
    r = client(server.url, state, "import", str(exported), "--as", "admin")
    assert r.returncode == 65, (r.stdout, r.stderr)  # another history: refused, nothing written
    events = tmp_path / "new.ndjson"
    events.write_text('{"type":"search.performed","at":"2026-11-20T18:06:00Z","actor":"ines","data":{"username":"ines","query":"imported"}}\n')
    before = cli("log", "status", "--json", store=server.store).stdout
    r = client(server.url, state, "import", str(events), "--as", "admin")
    head = cli("log", "digest", store=server.store).stdout
    # As a local import says it: two lines.
    assert r.returncode == 0 and r.stdout == b"appended 1 event\nhead " + head, (r.stdout, r.stderr)
    assert cli("log", "status", "--json", store=server.store).stdout != before
    assert other
