"""server.md §3: streamed batches of scans and imports, all or nothing, with import's limits."""
import json

from conftest import cli
from test_basics import is_problem
from test_writes import head


def test_batch_ndjson_and_csv(server):
    ines = server.sign_in("ines")
    lines = "".join(json.dumps({"code": f"b-{i}", "productName": "P", "category": "Toys", "result": "authentic"}) + "\n"
                    for i in range(50))
    r = server.post("/v1/scans/batch", ines, data=lines.encode(), headers={"Content-Type": "application/x-ndjson"})
    assert r.status_code == 201, r.text
    assert len(r.json()["events"]) == 50
    csv = "code,productName,category,result\nq-1,P,Toys,authentic\nq-2,P,Toys,counterfeit\n"
    r = server.post("/v1/scans/batch", ines, data=csv.encode(), headers={"Content-Type": "text/csv"})
    assert r.status_code == 201, r.text and len(r.json()["events"]) == 2
    before = head(server.store)
    bad = lines + json.dumps({"code": "x", "productName": "P", "category": "Toys", "result": "fake"}) + "\n"
    r = server.post("/v1/scans/batch", ines, data=bad.encode(), headers={"Content-Type": "application/x-ndjson"})
    assert r.status_code in (400, 422), r.text
    huge = b'{"code": "' + b"a" * (1 << 20) + b'"}\n'
    is_problem(server.post("/v1/scans/batch", ines, data=huge, headers={"Content-Type": "application/x-ndjson"}), 413, 65)
    assert head(server.store) == before


def test_a_large_batch_streams_through_the_server(server):
    """A batch is read twice on the server and its answer sent from a spooled file: every event is in the
    answer, with its length; a bad last row of as many writes nothing."""
    ines = server.sign_in("ines")
    rows = "code,productName,category,result\n" + "".join(f"big-{i % 500},P,Toys,authentic\n" for i in range(20000))
    before = head(server.store)
    r = server.post("/v1/scans/batch", ines, data=rows.encode(), headers={"Content-Type": "text/csv", "Idempotency-Key": "big-batch-1"})
    assert r.status_code == 201, r.text[:500]
    assert int(r.headers["Content-Length"]) == len(r.content)
    answer = r.json()
    assert len(answer["events"]) == 20000 and answer["events"][-1]["id"] == "big-batch-1.20000"
    assert [e["seq"] for e in answer["events"]] == list(range(before + 1, before + 20001))
    assert len(answer["seenBefore"]) == 20000 - 500
    assert head(server.store) == before + 20000
    r = server.post("/v1/scans/batch", ines, data=rows.encode(), headers={"Content-Type": "text/csv", "Idempotency-Key": "big-batch-1"})
    assert r.status_code == 200 and r.json()["alreadyRecorded"] is True and len(r.json()["events"]) == 20000
    bad = rows + "big-x,P,Toys,fake\n"
    r = server.post("/v1/scans/batch", ines, data=bad.encode(), headers={"Content-Type": "text/csv"})
    assert r.status_code in (400, 422) and "line 20002" in r.text, r.text[:500]
    assert head(server.store) == before + 20000
    assert cli("log", "verify", store=server.store).returncode == 0

def test_import_is_for_admins(server, tmp_path):
    admin = server.sign_in("admin")
    ines = server.sign_in("ines")
    exported = cli("export", store=server.store).stdout
    is_problem(server.post("/v1/import", ines, data=exported), 403, 77)
    r = server.post("/v1/import", admin, data=exported, headers={"Content-Type": "application/x-ndjson"})
    assert r.status_code == 200, r.text
    assert r.json()["appended"] == 0 and r.json()["existing"] > 0
    line = json.dumps({"type": "search.performed", "at": "2026-11-20T18:05:00Z", "actor": "kwan",
                       "data": {"username": "kwan", "query": "imported"}}) + "\n"
    r = server.post("/v1/import", admin, data=line.encode())
    assert r.status_code == 201 and r.json()["appended"] == 1
    assert cli("log", "verify", store=server.store).returncode == 0
