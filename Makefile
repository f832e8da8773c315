# Veritrail: `make demo` walks through the product on a fresh store; `make test` runs the whole suite.
# Both install what the build needs (LMDB from Debian's liblmdb-dev) when it is missing, and what the tests need
# (Go and golang.org/x/mod from Debian, for the independent proof verifier in scripts/proofverify).

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PREFIX ?= /usr/local
BINDIR := $(PREFIX)/bin
SHAREDIR := $(PREFIX)/share

.PHONY: deps reliability-deps completion-deps server-test-deps browser-deps test-dashboard build release demo test test-reliability bench bench-scale serve bench-serve bench-client bench-dashboard bench-bulk clean install uninstall

deps:
	@pkg-config --exists lmdb 2>/dev/null || { \
	  echo "installing liblmdb-dev (LMDB) with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq liblmdb-dev pkg-config; }
	@{ command -v go >/dev/null && [ -d /usr/share/gocode/src/golang.org/x/mod ]; } || { \
	  echo "installing golang-go golang-golang-x-mod-dev (the tests' independent proof verifier) with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq golang-go golang-golang-x-mod-dev; }

# The completion tests drive the generated scripts in real zsh and fish (bash is there already), and the man page
# tests read the generated pages with man.
completion-deps:
	@command -v zsh >/dev/null && command -v fish >/dev/null && command -v man >/dev/null || { \
	  echo "installing zsh, fish and man-db (the completion and man page tests) with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq zsh fish man-db; }

# The reliability suite kills writers inside LMDB's commit with strace and flips bytes in the pages that
# mdb_stat says are used; without them it skips those checks.
reliability-deps:
	@command -v strace >/dev/null && command -v mdb_stat >/dev/null || { \
	  echo "installing strace and lmdb-utils with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq strace lmdb-utils; }

# The dashboard's test drives Debian's headless Chromium with Selenium (PyPI).
browser-deps:
	@{ command -v chromium >/dev/null && command -v chromedriver >/dev/null; } || { \
	  echo "installing chromium chromium-driver (the dashboard's test browser) with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium chromium-driver; }
	@python3 -c 'import selenium' 2>/dev/null || { echo "installing selenium with pip"; python3 -m pip install -q selenium; }

build: deps
	$(SWIFT) build

# The release binary carries the Swift runtime and Foundation inside (`--static-swift-stdlib`): every query is a
# process of its own, and binding twenty shared libraries' symbols at each start cost ~4 ms (docs/SCALE.md). Every
# module, the packages' too, makes a generic type's metadata through its accessor instead of looking its mangled
# name up: each lookup checked the type's requirements by scanning every conformance the binary holds (~1 ms of a
# command's start, docs/SCALE.md "Process start").
RELEASE_FLAGS := --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors

release: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS)

demo: release
	scripts/demo.sh .build/release/veritrail

# `make install` (PREFIX=/usr/local by default): the release binary, its shell completions and its man pages
# (scripts/gen_man.py: one page per command, from the binary's own description of its command line, with the
# exit codes and the environment). Not swift-argument-parser's generate-manual plugin: it rebuilt the whole
# package in release mode with its own build parameters, so that the next `make release` rebuilt it all again.
install: release
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(SHAREDIR)/bash-completion/completions" \
	  "$(DESTDIR)$(SHAREDIR)/zsh/site-functions" "$(DESTDIR)$(SHAREDIR)/fish/vendor_completions.d" \
	  "$(DESTDIR)$(SHAREDIR)/man/man1"
	install -m 0755 .build/release/veritrail "$(DESTDIR)$(BINDIR)/veritrail"
	.build/release/veritrail --generate-completion-script bash > "$(DESTDIR)$(SHAREDIR)/bash-completion/completions/veritrail"
	.build/release/veritrail --generate-completion-script zsh > "$(DESTDIR)$(SHAREDIR)/zsh/site-functions/_veritrail"
	.build/release/veritrail --generate-completion-script fish > "$(DESTDIR)$(SHAREDIR)/fish/vendor_completions.d/veritrail.fish"
	python3 scripts/gen_man.py .build/release/veritrail "$(DESTDIR)$(SHAREDIR)/man/man1"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/veritrail" "$(DESTDIR)$(SHAREDIR)/bash-completion/completions/veritrail" \
	  "$(DESTDIR)$(SHAREDIR)/zsh/site-functions/_veritrail" "$(DESTDIR)$(SHAREDIR)/fish/vendor_completions.d/veritrail.fish" \
	  "$(DESTDIR)$(SHAREDIR)/man/man1/veritrail.1" "$(DESTDIR)$(SHAREDIR)/man/man1/veritrail."*.1

# The unit and end-to-end suite, then a short run of the reliability suite (kills, races, a full disk,
# damaged files: scripts/reliability.sh), the server over real sockets (Tests/server, schemathesis against the
# OpenAPI document) and the dashboard in headless Chromium.
test: build reliability-deps completion-deps server-test-deps browser-deps
	$(SWIFT) test
	scripts/reliability.sh .build/debug/veritrail
	python3 -m pytest -q Tests/server
	scripts/schemathesis.sh .build/debug/veritrail
	python3 -m pytest -q Tests/client
	python3 scripts/dashboard_test.py .build/debug/veritrail

# The server's tests talk HTTP to a real `veritrail serve` with requests, under pytest (Tests/server).
server-test-deps:
	@python3 -c 'import pytest, requests' 2>/dev/null || python3 -m pip install -q pytest requests

# The dashboard in headless Chromium against `veritrail serve` on the demo store; its screenshots go to
# .build/dashboard-screenshots (docs/screenshots holds the README's copies).
test-dashboard: build browser-deps
	python3 scripts/dashboard_test.py .build/debug/veritrail

# The reliability suite with ten times the trials, and 20,000 fuzzed import lines (half an hour or so).
test-reliability: build reliability-deps
	TRIALS=10 scripts/reliability.sh .build/debug/veritrail
	python3 scripts/fuzz_import.py .build/debug/veritrail Events/demo.ndjson 20000

bench: release
	scripts/bench.sh .build/release/veritrail

# Issue 20's figures at 1M and 10M events side by side (a 10M log is ~3.9 GB under BENCH_DIR, default
# /tmp/veritrail-bench-scale), written into docs/BENCHMARKS.md: docs/SCALE.md says what they measure.
bench-scale: release reliability-deps
	scripts/bench_scale.sh .build/release/veritrail

# `veritrail serve` on the demo store (./demo-store, imported from the demo events when missing), on
# 127.0.0.1:8420 with the demo's clock: README's "Serving" walks through it.
serve: build
	@[ -d demo-store ] || VERITRAIL_NOW=2026-11-20T18:05:00Z .build/debug/veritrail import Events/demo.ndjson --store demo-store
	VERITRAIL_NOW=2026-11-20T18:05:00Z .build/debug/veritrail serve --store demo-store

# The server's bars with wrk: group commit against --commit-each, GET /v1/stats, follow latency, memory.
# docs/BULK.md: scan --batch of 5,000,000 rows (CSV and NDJSON), import of the 1M log (BULK_BASELINE=path/to/main's
# veritrail side by side), 10,000 single writes; the data file against its pages in use after each.
bench-bulk: release reliability-deps
	scripts/bench_bulk.sh .build/release/veritrail $(BULK_BASELINE)

bench-serve: release
	scripts/bench_serve.sh .build/release/veritrail

# The dashboard's bars (issue 22) in headless Chromium on a generated log of BENCH_DASHBOARD_EVENTS (default
# 1,000,000): the home screen's stats after navigation, a search's results after each keystroke, searched in the
# history window BENCH_DASHBOARD_WINDOW (default: the user's setting; `all` searches the whole log).
BENCH_DASHBOARD_EVENTS ?= 1000000
BENCH_DASHBOARD_WINDOW ?=
bench-dashboard: release browser-deps
	@[ -f /tmp/veritrail-bench-$(BENCH_DASHBOARD_EVENTS).ndjson ] || python3 scripts/gen_bench.py $(BENCH_DASHBOARD_EVENTS) /tmp/veritrail-bench-$(BENCH_DASHBOARD_EVENTS).ndjson
	python3 scripts/dashboard_bench.py .build/release/veritrail /tmp/veritrail-bench-$(BENCH_DASHBOARD_EVENTS).ndjson $(if $(BENCH_DASHBOARD_WINDOW),--window $(BENCH_DASHBOARD_WINDOW))

clean:
	rm -rf .build

# The bars of issue 21 (docs/CLIENT.md): every read command with --server against the same command run locally
# (median of 20, demo store), and import --server against a local import of a generated log (BENCH_CLIENT_EVENTS,
# default 1,000,000; BENCH_CLIENT_LOG to use one already made), on the release build. BENCH_PART=queries or
# import runs one half.
BENCH_CLIENT_EVENTS ?= 1000000
BENCH_CLIENT_LOG ?= /tmp/veritrail-bench-client-$(BENCH_CLIENT_EVENTS).ndjson
bench-client: release
	@[ -s $(BENCH_CLIENT_LOG) ] || python3 scripts/gen_bench.py $(BENCH_CLIENT_EVENTS) $(BENCH_CLIENT_LOG)
	python3 scripts/bench_client.py .build/release/veritrail $(BENCH_CLIENT_LOG)
