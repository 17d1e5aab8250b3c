#!/usr/bin/env bash
# Issue 25's numbers for channels, ratios in one run (bench/channels.py says what each is):
# 8 idle channels' CPU, 3 watched channels vs three single-channel runs, 100 viewers over 4
# channels, the page's channel switch. Prints each figure with the load average beside it, then
# one JSON line; exit 1 when a budget is missed.
#
# Usage: bench/channels.sh     Environment (all optional): BIN (default .build/release/filtercast,
#   built if missing), BUILD (where fanout goes, default /tmp/filtercast-channels), IDLE_SECONDS
#   (30), SECONDS_PER_RUN (15), SWITCHES (8), ONLY=idle,three,fanout,switch,live.
# The machine's other work counts against every figure: run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release/filtercast}
BUILD=${BUILD:-/tmp/filtercast-channels}
for tool in cc pkg-config ffmpeg; do
    command -v "$tool" >/dev/null || { echo "channels.sh: $tool missing: run 'make deps'" >&2; exit 2; }
done
if [ ! -x "$BIN" ]; then
    echo "channels.sh: building the release server ($BIN missing)"
    swift build -c release --product filtercast
fi
mkdir -p "$BUILD"
cc -O2 -std=c99 -Wall -o "$BUILD/fanout" bench/fanout.c $(pkg-config --cflags --libs libwebsockets)
ulimit -n 16384 2>/dev/null || true
BIN=$BIN FANOUT=$BUILD/fanout exec /usr/bin/python3 bench/channels.py
