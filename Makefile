# Veritrail: `make demo` walks through the product on a fresh store; `make test` runs the whole suite.
# Both install what the build needs (LMDB from Debian's liblmdb-dev) when it is missing, and what the tests need
# (Go and golang.org/x/mod from Debian, for the independent proof verifier in scripts/proofverify).

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release demo test bench clean

deps:
	@pkg-config --exists lmdb 2>/dev/null || { \
	  echo "installing liblmdb-dev (LMDB) with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq liblmdb-dev pkg-config; }
	@{ command -v go >/dev/null && [ -d /usr/share/gocode/src/golang.org/x/mod ]; } || { \
	  echo "installing golang-go golang-golang-x-mod-dev (the tests' independent proof verifier) with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq golang-go golang-golang-x-mod-dev; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

demo: release
	scripts/demo.sh .build/release/veritrail

test: build
	$(SWIFT) test

bench: release
	scripts/bench.sh .build/release/veritrail

clean:
	rm -rf .build
