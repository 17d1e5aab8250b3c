# FilterCast — `make demo` and `make test` are all a fresh Debian 12 machine needs.

SWIFT      ?= swift
BIN        := .build/release/filtercast
# Build: the C libraries. Tests: the ffmpeg CLI (clips, references), Python clients (Debian's
# /usr/bin/python3 sees these python3-* packages), headless Chromium. Benchmarks: tjbench,
# GStreamer (the peer pipeline in bench/compare.sh).
PACKAGES   := pkg-config libavcodec-dev libavformat-dev libavdevice-dev libswscale-dev libavutil-dev \
              libwebsockets-dev libturbojpeg0-dev ffmpeg libjpeg-turbo-progs \
              python3 python3-pytest python3-websockets python3-pil python3-numpy \
              chromium chromium-driver python3-selenium \
              gstreamer1.0-tools gstreamer1.0-libav gstreamer1.0-plugins-base gstreamer1.0-plugins-good
PYTHON     := /usr/bin/python3
# Tests talk to servers on 127.0.0.1 only: never through a proxy.
TEST_ENV   := NO_PROXY='*' no_proxy='*' FILTERCAST_BIN=$(CURDIR)/.build/debug/filtercast FILTERCAST_REQUIRE_BROWSER=1
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build test demo bench bench-serve clean

## deps: install the Debian packages the build, tests and benchmarks need (idempotent, quick when done)
deps:
	@if dpkg -s $(PACKAGES) >/dev/null 2>&1; then \
		echo "deps: all Debian packages present"; \
	else \
		$(SUDO) apt-get -o DPkg::Lock::Timeout=600 update -q && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -q \
			--no-install-recommends $(PACKAGES); \
	fi

## build: the release binary at .build/release/filtercast (no warnings expected)
build: deps
	$(SWIFT) build -c release

## test: unit, integration and end-to-end tests (clips are generated with the ffmpeg CLI), then
## the server and the page against real clients and a real Chromium
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(TEST_ENV) $(PYTHON) -m pytest -q Tests/EndToEnd

## demo: build, then serve the test pattern at http://127.0.0.1:8080
demo: build
	$(BIN) serve --input test --host 127.0.0.1 --port 8080 --web web

## bench: FilterCast against ffmpeg and GStreamer on the same clips (see README, Performance)
bench: build
	bench/compare.sh

## bench-serve: fan-out to many viewers (bench/fanout.sh), then what headless Chromium draws
bench-serve: build
	bench/fanout.sh
	NO_PROXY='*' no_proxy='*' $(PYTHON) bench/browser.py

clean:
	rm -rf .build
