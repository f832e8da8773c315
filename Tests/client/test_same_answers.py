"""`--server` answers as the command does on the server's store (server.md §8): for every query, the same
stdout, stderr and exit code as the local command run on the very store the server serves."""
import pytest

from conftest import cli, client, login

QUERIES = [
    ["stats"], ["stats", "--by", "ines"],
    ["history", "--window", "all", "--limit", "5"], ["history", "--type", "failed", "--window", "all", "--search", "serum"],
    ["history", "--limit", "3"],
    ["lockout"], ["lockout", "ines"], ["customers"], ["customers", "--status", "ONBOARDED"],
    ["customer", "show", "bret"], ["goals", "tmueller"], ["goals", "tmueller", "--month", "2026-10", "--view", "remaining"],
    ["accounts"], ["settings", "ines"], ["searches", "ines"], ["replay"], ["replay", "--as-of", "300"],
    ["stats", "--as-of", "2026-10-15T00:00:00Z"], ["history", "--as-of", "200", "--window", "all", "--limit", "4"],
    ["diff", "--from", "800"],
    ["log", "status"], ["log", "status", "--as-of", "100"], ["log", "status", "--as-of", "400"],
    # The note of the events a clock left out (cli.md §8), on stderr.
    ["stats", "--now", "2026-11-10T00:00:00Z"], ["history", "--now", "2026-11-15T00:00:00Z", "--window", "all", "--limit", "2"], ["log", "digest"], ["log", "digest", "--as-of", "120"],
    ["log", "verify"], ["log", "verify", "--as-of", "50"],
    ["log", "tail"], ["log", "tail", "-n", "4", "--actor", "ines", "--type", "scan.recorded"],
    # Read back from the end in windows that grow fourfold: matches few, far back, cut by --to, --as-of or time.
    ["log", "tail", "-n", "3", "--type", "goal.set"], ["log", "tail", "-n", "2", "--actor", "admin", "--to", "400"],
    ["log", "tail", "-n", "5", "--type", "status.changed", "--as-of", "300"], ["log", "tail", "-n", "1", "--from", "845"],
    ["log", "tail", "-n", "2", "--until", "2026-10-01T00:00:00Z"], ["log", "tail", "-n", "500", "--type", "account.registered"],
    ["log", "tail", "-n", "3", "--type", "scan.recorded", "--as-of", "2026-10-15T00:00:00Z", "--until", "2026-10-20T00:00:00Z"],
    ["log", "tail", "-n", "2", "--until", "2026-10-01T00:00:00Z", "--to", "100"], ["log", "tail", "--until", "2020-01-01"],
    ["export", "-n", "3"], ["export", "--from", "840"],
    # The proofs of one snapshot, the last N among them; times as people type them (cli.md §8).
    ["export", "--proofs", "--from", "10", "--to", "12"], ["export", "--proofs", "--actor", "ines", "-n", "4"],
    ["export", "--proofs", "--actor", "nobody"], ["export", "--since", "2026-11-01", "--until", "2026-11-02 12:00+02:00"],
    ["log", "tail", "-n", "2", "--until", "2026-10-01"], ["export", "--since", "2026-11-03", "--until", "2026-11-02"],
    ["log", "key"], ["log", "checkpoint"], ["log", "checkpoint", "--size", "100"], ["log", "prove", "5"],
    ["log", "consistency", "100"],
]


@pytest.mark.parametrize("args", QUERIES, ids=[" ".join(q) for q in QUERIES])
def test_query_matches_the_served_store(server, state, args):
    login(server.url, state, "admin")
    for json in ([], ["--json"]):
        local = cli(*args, *json, "--as", "admin", store=server.store)
        remote = client(server.url, state, *args, *json, "--as", "admin")
        assert (remote.returncode, remote.stdout, remote.stderr) == (local.returncode, local.stdout, local.stderr), args + json


def test_show_with_a_short_id(server, state):
    login(server.url, state, "ines")
    scan_id = cli("history", "--window", "all", "--limit", "1", "--json", store=server.store).stdout.decode()
    import json
    full = json.loads(scan_id)["items"][0]["scanId"]
    for args in (["show", full], ["show", full[:6]], ["--json", "show", full]):
        local = cli(*args, "--as", "ines", store=server.store)
        remote = client(server.url, state, *args, "--as", "ines")
        assert (remote.returncode, remote.stdout, remote.stderr) == (local.returncode, local.stdout, local.stderr)


def test_diff_from_a_digest(server, state):
    """`diff --from SEQ:HASH` checks the digest against the log first (cli.md §8), against a server too."""
    login(server.url, state, "admin")
    digest = cli("log", "digest", "--as-of", "400", store=server.store).stdout.decode().strip()
    wrong = digest[:-4] + ("0000" if not digest.endswith("0000") else "1111")
    for args in (["diff", "--from", digest, "--to", "410"], ["diff", "--from", digest, "--json"], ["diff", "--from", wrong]):
        local = cli(*args, "--as", "admin", store=server.store)
        remote = client(server.url, state, *args, "--as", "admin")
        assert (remote.returncode, remote.stdout, remote.stderr) == (local.returncode, local.stdout, local.stderr), args
    assert local.returncode == 65


def test_a_viewer_without_a_session_is_asked_through_an_admins(server, state):
    """A query needs no passcode (cli.md §5): with only an admin's session, `--as USER` asks as the admin viewing as
    USER (server.md §2, `as`), and an unknown USER is refused as a local query refuses it (65)."""
    login(server.url, state, "admin")
    for args in (["history", "--limit", "3"], ["stats"], ["goals", "kwan"], ["history", "--limit", "2", "--json"]):
        for user in ("ines", "kwan", "nobody"):
            local = cli(*args, "--as", user, store=server.store)
            remote = client(server.url, state, *args, "--as", user)
            assert (remote.returncode, remote.stdout, remote.stderr) == (local.returncode, local.stdout, local.stderr), (args, user)
    assert local.returncode == 65
