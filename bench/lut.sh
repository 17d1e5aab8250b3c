#!/usr/bin/env bash
# The `lut` filter (issue 26, item 4) against FFmpeg's `lut3d` (interp=tetrahedral), one thread each,
# on the same 1080p natural clip and the same 33³ cube, in the same run:
#   - filtercast: `bench --filter lut` at two lengths; the difference is the steady cost a frame
#     (the first frame also builds the LUT's table, once per LUT: reported apart);
#   - ffmpeg: decode alone, decode + yuv420p→gbrp→yuv420p, and the same with lut3d between:
#     lut3d's own cost a frame, and what applying it to a YUV frame costs there (with the conversions).
# Prints ms per frame and the ratios; fails when the lut filter costs more than LUT_BUDGET_MS (3).
# Usage: bench/lut.sh   (BIN, RUNS, CLIPS, LUT_BUDGET_MS from the environment)
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release/filtercast}
RUNS=${RUNS:-3}
CLIPS=${CLIPS:-/tmp/filtercast-bench}
BUDGET=${LUT_BUDGET_MS:-3}
[ -x "$BIN" ] || { echo "lut.sh: $BIN missing: run 'swift build -c release' first" >&2; exit 2; }
mkdir -p "$CLIPS/luts"

natural=$(/usr/bin/python3 bench/natural_clip.py | tail -1)
clip="$CLIPS/natural1080-$(basename "$natural" .mp4).mp4"
if [ ! -s "$clip" ]; then
    ffmpeg -nostdin -loglevel error -y -i "$natural" -vf scale=1920:1080 -t 6 -c:v libx264 -preset fast -crf 20 \
        -pix_fmt yuv420p "$clip"
fi
cube="$CLIPS/luts/grade.cube"
/usr/bin/python3 - "$cube" <<'PY'
import sys
def s(t): return t * t * (3 - 2 * t)
n = 33
lines = ['TITLE "bench grade"', f"LUT_3D_SIZE {n}"]
for b in range(n):
    for g in range(n):
        for r in range(n):
            x, y, z = r / (n - 1), g / (n - 1), b / (n - 1)
            luma = 0.299 * x + 0.587 * y + 0.114 * z
            out = (0.85 * s(x) + 0.1 * y + 0.08 * luma, 0.9 * s(y) + 0.05 * z + 0.03, 0.75 * s(z) + 0.075 * (1 - luma) + 0.05 * x)
            lines.append(" ".join(f"{min(1.0, max(0.0, v)):.6f}" for v in out))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
frames=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$clip")

# filter_total N → the least total filter milliseconds of $RUNS runs of N frames.
filter_total() {
    local best=""
    for _ in $(seq "$RUNS"); do
        total=$("$BIN" bench --json --input "$clip" --luts "$CLIPS/luts" --filter lut --param lut=grade --frames "$1" |
            python3 -c "import json,sys; d=json.load(sys.stdin); print(d['filterMs'] * d['frames'])")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $total < $best else 1)"; then best=$total; fi
    done
    echo "$best"
}

# ffmpeg_seconds ARGS… → the least wall seconds of $RUNS one-thread ffmpeg runs over the clip.
ffmpeg_seconds() {
    local best="" start end took
    for _ in $(seq "$RUNS"); do
        start=$(date +%s.%N)
        ffmpeg -nostdin -loglevel error -threads 1 -filter_threads 1 -i "$clip" "$@" -f null - 
        end=$(date +%s.%N)
        took=$(python3 -c "print($end - $start)")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $took < $best else 1)"; then best=$took; fi
    done
    echo "$best"
}

short=$(( frames / 4 )); long=$frames
short_total=$(filter_total "$short"); long_total=$(filter_total "$long")
decode=$(ffmpeg_seconds)
converted=$(ffmpeg_seconds -vf "format=gbrp,format=yuv420p")
lut3d=$(ffmpeg_seconds -vf "format=gbrp,lut3d=file=$cube:interp=tetrahedral,format=yuv420p")

python3 - "$short" "$short_total" "$long" "$long_total" "$frames" "$decode" "$converted" "$lut3d" "$BUDGET" <<'PY'
import sys
short, short_total, long, long_total, frames, decode, converted, lut3d, budget = map(float, sys.argv[1:])
ours = (long_total - short_total) / (long - short)
build = short_total - ours * short
own = (lut3d - converted) * 1000 / frames
whole = (lut3d - decode) * 1000 / frames
print(f"lut 1080p natural, 33^3 cube, one thread ({int(frames)} frames, best of runs):")
print(f"  filtercast lut:            {ours:6.2f} ms/frame (table built once per LUT: {build:.0f} ms)")
print(f"  ffmpeg lut3d tetrahedral:  {own:6.2f} ms/frame on gbrp; {whole:.2f} ms/frame with yuv420p<->gbrp around it")
print(f"  ratio filtercast/lut3d:    {ours / own:6.2f} (vs lut3d with its conversions: {ours / whole:.2f})")
verdict = "ok" if ours <= budget else "MISS"
print(f"  budget {budget:g} ms/frame: {verdict}")
sys.exit(0 if verdict == "ok" else 1)
PY
