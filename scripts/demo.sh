#!/usr/bin/env bash
# The main job: a fresh store in a temporary folder, the demo data imported, and the product shown.
set -euo pipefail
veritrail=${1:-.build/release/veritrail}
here=$(cd "$(dirname "$0")/.." && pwd)
store=$(mktemp -d)/store
trap 'rm -rf "$(dirname "$store")"' EXIT
export VERITRAIL_STORE=$store VERITRAIL_NOW=2026-11-20T18:00:00Z

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "import the demo events into a fresh store ($store)"
"$veritrail" import "$here/Events/demo.ndjson"
step "log status"
"$veritrail" log status
step "verify the hash chain"
"$veritrail" log verify
