#!/usr/bin/env bash
# The style beside the picture (issue 42) against every frame's own stylization, on the natural
# 720p25 clip (bench/natural_clip.py): `filtercast bench --against-per-frame` plays 250 frames at
# the source's rate with the network beside the picture, then again with every frame waiting for
# its own stylization, and prints the first run's luma PSNR and SSIM against the second's
# (medians), its flicker ratio (`--flicker`) and how often the style refreshed. Once per network
# slowdown in SLOWDOWNS (FILTERCAST_STYLE_SLOWDOWN: 1 is this processor; issue 42's slower one,
# whose network took 46 ms a run at 144 lines, is 46 / this processor's run at 144 lines, printed
# by `filtercast bench --filter style --style-lines 144`; ~5.5 on an AVX-512 EPYC).
# Usage: bench/style_lag.sh   (BIN, SLOWDOWNS from the environment)
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release/filtercast}
SLOWDOWNS=${SLOWDOWNS:-"1 5.5"}
[ -x "$BIN" ] || { echo "style_lag.sh: $BIN missing: run 'swift build -c release' first" >&2; exit 2; }
if ! grep -q '^style ' <<<"$("$BIN" filters)"; then
    echo "style_lag.sh: no style network here (see 'filtercast filters'): nothing measured"
    exit 0
fi
clip=$(/usr/bin/python3 bench/natural_clip.py | tail -1)
for slowdown in $SLOWDOWNS; do
    echo "network slowed ${slowdown}x:"
    FILTERCAST_STYLE_SLOWDOWN=$slowdown "$BIN" bench --input "$clip" --filter style --frames 250 --flicker --against-per-frame \
        | grep -E '^(flicker|compared|network)' | sed 's/^/  /'
done
