#!/usr/bin/env bash
# Makes web/styles/style-N.jpg, the style picker's thumbnails: a photograph from Debian's
# opencv-doc (examples/data/fruits.jpg, from OpenCV's samples) painted in each shipped style by
# `filtercast snapshot` at its own size, then reduced to 192x112 (96x56 at 2x). The pictures are
# committed: run this again only when the style networks change.
#
# Usage: deps/style_thumbnails.sh [path/to/filtercast]   (default .build/release/filtercast)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/filtercast}
PHOTO=/usr/share/doc/opencv-doc/examples/data/fruits.jpg
OUT=web/styles
[ -x "$BIN" ] || { echo "style_thumbnails.sh: $BIN missing: run 'make build' first" >&2; exit 2; }
[ -f "$PHOTO" ] || { echo "style_thumbnails.sh: $PHOTO missing: run 'make deps' (opencv-doc)" >&2; exit 2; }
styles=$("$BIN" filters --json | /usr/bin/python3 -c '
import json, sys
style = next(f for f in json.load(sys.stdin)["filters"] if f["name"] == "style")
print(" ".join(c["id"] for p in style["params"] if p.get("kind") == "choice" for c in p["choices"]))')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The photo is 512x480: its middle band at the thumbnails' shape.
ffmpeg -hide_banner -loglevel error -i "$PHOTO" -vf "crop=512:298" -q:v 2 "$work/photo.jpg"
mkdir -p "$OUT"
for id in $styles; do
    "$BIN" snapshot --input "$work/photo.jpg" --filter style --param "style=$id" --param detail=0 \
        --quality 95 -o "$work/$id.jpg" >/dev/null
    ffmpeg -hide_banner -loglevel error -y -i "$work/$id.jpg" -vf "scale=192:112:flags=area" -q:v 4 "$OUT/$id.jpg"
done
echo "style_thumbnails.sh: $(echo $styles | wc -w) thumbnails in $OUT ($(du -sh "$OUT" | cut -f1))"
