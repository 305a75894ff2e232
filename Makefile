# The two commands of the README: `make check` (the main job) and `make test` (every test).
SWIFT ?= swift

.PHONY: setup build check test test-loaded bench bench-peer lint

setup:
	@scripts/setup.sh

# On Linux the web process extension too (a library the engine loads from beside the binary; see Package.swift).
EXTENSION_PRODUCT := $(if $(filter Linux,$(shell uname -s)),WebBridgeWebExtension,)

build: setup
	$(SWIFT) build --product webbridge
	$(if $(EXTENSION_PRODUCT),$(SWIFT) build --product $(EXTENSION_PRODUCT))

check: build
	$$($(SWIFT) build --show-bin-path)/webbridge check

# `webbridge doctor` first (WebKitGTK, Xvfb, the display, and test styles SwiftPM's Linux discovery aborts on),
# then the Apple-shape compile check (its self-test, then both SDK variants), then the tests. The bridge contract
# test runs alone first, then inside the whole suite: both must pass.
test: setup
	$(SWIFT) build --product webbridge
	$$($(SWIFT) build --show-bin-path)/webbridge doctor --path Examples/Client --path Examples/Checkout/Tests
	$(SWIFT) build --build-tests
	scripts/apple-shape/check.sh --self-test
	scripts/apple-shape/check.sh
	$(SWIFT) test --skip-build --filter 'BridgeTestingTests.BridgeContractTests/'
	# The tests run in several processes side by side (scripts/run-tests.sh): they wait on the engine more than they
	# compute. Beside them, from the start, the adoption path (scripts/check-adoption.sh): a team's
	# package that depends on WebBridge by path and tests its own bridge, the same package running the tool through
	# the command plugin, and the README's completion, man-page and `make install` lines in bash, zsh and fish.
	# After all of it, no process it started (web processes, Xvfb, servers, stand-ins) may be left.
	scripts/check-no-leftover-processes.sh scripts/run-tests.sh $(SWIFT) \
		scripts/check-adoption.sh $(SWIFT) $$($(SWIFT) build --show-bin-path)

# `make test` on a busy machine: stress-ng holds every core (one CPU worker per core) for the whole run, as other
# jobs hold a shared CI machine's; the suite must pass the same. The hog starts after the build and stops with the
# run, also on SIGINT and SIGTERM (scripts/with-cpu-hog.sh). The run's wall time, load average, replay rates and
# twins' failures go to .build/test-loaded.json, kept as Benchmarks/loaded/<UTC time>-<commit>.json.
test-loaded: setup
	$(SWIFT) build --build-tests
	scripts/record-loaded-run.py $(SWIFT) $(MAKE) test

# Figures, not pass/fail: a table on stdout and .build/bench.json (see Docs/BENCHMARKS.md), kept as
# Benchmarks/history/<UTC time>-<commit>.json: the history of runs is those files, committed.
# The peer figure (Selenium + WebKitWebDriver) is null until `make bench-peer` has installed them.
bench: setup
	$(SWIFT) build -c release --product webbridge
	$(SWIFT) build -c release --product webbridge-bench
	$(SWIFT) build -c release --product webbridge-raw-cold-check
	$$($(SWIFT) build -c release --show-bin-path)/webbridge-bench --output .build/bench.json
	@mkdir -p Benchmarks/history
	@run=Benchmarks/history/$$(date -u +%Y-%m-%dT%H%M%SZ)-$$(git rev-parse --short HEAD 2>/dev/null || echo unknown).json; \
		cp -n .build/bench.json "$$run" && echo "make bench: this run is kept as $$run"

bench-peer:
	@scripts/setup-peer.sh

# The format, and the public API: exactly what Docs/API.md lists, within its bound.
lint:
	$(SWIFT) format lint --strict -r Sources Tests Benchmarks Plugins Examples/Client/ClientTests
	scripts/check-public-api.sh

# `make install PREFIX=…` (default /usr/local): the binary with its resource bundles and, on Linux, its web process
# extension (PREFIX/libexec/webbridge, linked from PREFIX/bin), the bash, zsh and fish completions and the man page
# where the shells and man look.
# `make uninstall PREFIX=…` removes exactly those files. BUILT: a bin folder already built (else a release build).
PREFIX ?= /usr/local
.PHONY: install uninstall
install:
	@built="$(BUILT)"; \
	if [ -z "$$built" ]; then \
		$(SWIFT) build -c release --product webbridge && \
		{ [ -z "$(EXTENSION_PRODUCT)" ] || $(SWIFT) build -c release --product $(EXTENSION_PRODUCT); } && \
		built=$$($(SWIFT) build -c release --show-bin-path); \
	fi; \
	scripts/install.sh install "$(PREFIX)" "$$built"

uninstall:
	@scripts/install.sh uninstall "$(PREFIX)"
