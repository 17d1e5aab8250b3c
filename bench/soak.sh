#!/usr/bin/env bash
# Soak test of `filtercast serve` (bench/soak.py does the work): the 720p30 test pattern for
# DURATION seconds (default 1800: 30 minutes) with VIEWERS viewers joining and leaving at random
# (cohorts of bench/fanout), one paused tab, one slow reader (5 fps), the filter changed every
# second and a 30 s recording started every minute (with --churn-every S [--churn-style], a channel
# of another shape added, watched and removed every S s). Every 10 s the server's RSS, open fds,
# delivered fps and log errors go to OUT/soak.csv; the verdict (growth after the first minute
# ≤ 5%, RSS at the end within 20 % of RSS at 5 minutes, normal viewers ≥ 29 fps, no error in the
# log, clean SIGTERM) to OUT/summary.json and stdout. Exit code 0 when every check passes.
#
# Usage: bench/soak.sh [soak.py options…]   Environment (all optional):
#   DURATION=1800  VIEWERS=50  INPUT=test:1280x720@30  OUT=/tmp/filtercast-soak
#   BIN=path/to/filtercast        default .build/release/filtercast (built if missing)
#   SCRATCH=dir                   build with --scratch-path dir (BIN defaults to dir/release/filtercast)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${SCRATCH:-}" ]; then BIN=${BIN:-$SCRATCH/release/filtercast}; fi
BIN=${BIN:-.build/release/filtercast}
OUT=${OUT:-/tmp/filtercast-soak}
DURATION=${DURATION:-1800}
VIEWERS=${VIEWERS:-50}
INPUT=${INPUT:-test:1280x720@30}
PYTHON=${PYTHON:-/usr/bin/python3}

for tool in cc pkg-config "$PYTHON"; do
    command -v "$tool" >/dev/null || { echo "soak.sh: $tool missing: run 'make deps'" >&2; exit 2; }
done
if [ ! -x "$BIN" ]; then
    echo "soak.sh: building the release server ($BIN missing)"
    if [ -n "${SCRATCH:-}" ]; then swift build -c release --scratch-path "$SCRATCH"; else swift build -c release; fi
fi
rm -rf "$OUT"
mkdir -p "$OUT"
cc -O2 -std=c99 -Wall -o "$OUT/fanout" bench/fanout.c $(pkg-config --cflags --libs libwebsockets)
ulimit -n 16384 2>/dev/null || true
echo "soak.sh: $INPUT, $VIEWERS viewers, $DURATION s, $(nproc) cores → $OUT"
NO_PROXY='*' no_proxy='*' exec "$PYTHON" bench/soak.py --bin "$BIN" --fanout "$OUT/fanout" --out "$OUT" \
    --duration "$DURATION" --viewers "$VIEWERS" --input "$INPUT" "$@"
