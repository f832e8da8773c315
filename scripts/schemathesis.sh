#!/usr/bin/env bash
# Runs schemathesis (PyPI) against a live `veritrail serve` on a demo store: every route of the OpenAPI
# document (Sources/VeritrailServer/Resources/openapi.json, served at /v1/openapi.json) is called with
# generated requests, as an admin; no answer may be a 5xx, and every answer must match the document
# (status, content type, schema). EXAMPLES (default 30) sets how many cases per route. (The coverage phase
# is left out: schemathesis 4.32 fails inside hypothesis on it, whatever the API. GET /v1/heads and
# GET /v1/events?follow=true are streams that never end, which Tests/server/test_follow.py checks instead.)
#
#   scripts/schemathesis.sh [VERITRAIL_BINARY]
set -euo pipefail
veritrail=${1:-.build/debug/veritrail}
here=$(cd "$(dirname "$0")/.." && pwd)
command -v schemathesis >/dev/null || python3 -m pip install -q schemathesis
work=$(mktemp -d /tmp/veritrail-schemathesis.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export VERITRAIL_NOW=2026-11-20T18:05:00Z
"$veritrail" import "$here/Events/demo.ndjson" --store "$work/store" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$veritrail" serve --store "$work/store" --listen "127.0.0.1:$port" 2>"$work/serve.log" &
pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null && break; sleep 0.1; done
token=$(curl -sf -X POST "http://127.0.0.1:$port/v1/sessions" -H 'Content-Type: application/json' \
  -d '{"user": "admin", "passcode": "1234"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
# `GET /v1/events?follow=true` is the same never-ending stream as /v1/heads (Tests/server/test_follow.py checks
# it): the document the fuzzer gets has no `follow` parameter, or a case that draws it waits until it times out.
curl -sf "http://127.0.0.1:$port/v1/openapi.json" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
get = doc["paths"]["/v1/events"]["get"]
get["parameters"] = [p for p in get.get("parameters", []) if p.get("name") != "follow"]
json.dump(doc, sys.stdout)' > "$work/openapi.json"
schemathesis run "$work/openapi.json" --url "http://127.0.0.1:$port" -H "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --exclude-path /v1/heads --phases examples,fuzzing --max-examples "${EXAMPLES:-30}" --workers 2 --seed 1 --warnings off
if grep -q '" 5[0-9][0-9] \| 5[0-9][0-9] [0-9]*µs' "$work/serve.log"; then
  echo "schemathesis: the server answered 5xx:"; grep ' 5[0-9][0-9] [0-9]*µs' "$work/serve.log" | head; exit 1
fi
