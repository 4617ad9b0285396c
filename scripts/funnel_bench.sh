#!/usr/bin/env bash
# The geometry's cost on one machine: 1M classic beads in a bed with a funnel mesh of 110,592
# triangles buried in it (beads on both sides of the cone, so every bead near it meets
# triangles), against the same bed without the funnel. Writes the mesh and the two scene files
# into FOLDER, then runs each scene ROUNDS times, interleaved (scripts/scene_ab.sh).
# Usage: scripts/funnel_bench.sh BIN FOLDER ROUNDS ['more bench args']
#   e.g. scripts/funnel_bench.sh build/particle-lab /tmp/funnel 3 '--graph'
set -uo pipefail
[ $# -ge 3 ] || { sed -n 2,8p "$0" >&2; exit 2; }
bin=$1 folder=$2 rounds=$3 extra=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$folder" || exit 1
# In the classic preset's units (radius 1/64): a cone 1.5 high from radius 0.3 to 1.9 with a
# 0.3 spout, in a 4 × 4 × 4 box whose lower half holds the bed.
python3 "$here/make_funnel.py" "$folder/funnel_110k.stl" --top-radius 1.9 --bottom-radius 0.3 \
    --height 1.5 --spout 0.3 --segments 1024 --rings 45 || exit 1
scene() {  # name, geometry line
    cat > "$folder/$1.json" <<JSON
{
  "name": "$1", "description": "1M classic beads in a bed, for the geometry benchmark",
  "preset": "classic", "params": {"collider_radius": 0},
  "domain": {"min": [-2, -2, -2], "max": [2, 2, 2]},
  "blocks": [{"shape": "box", "min": [-1.98, -1.98, -1.98], "max": [1.98, 0, 1.98],
              "spacing": 0.03125, "jitter": 0.001}],
  "particles": 1000000$2
}
JSON
}
scene bed_in_box ""
scene bed_with_funnel ', "geometry": [{"type": "mesh", "file": "funnel_110k.stl", "translate": [0, -1.6, 0]}]'
"$here/scene_ab.sh" "$bin" "$rounds" "--steps 400 --warmup 100 $extra" \
    "$folder/bed_in_box.json" "$folder/bed_with_funnel.json"
