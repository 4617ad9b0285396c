#!/usr/bin/env bash
# The bodies' cost to SPH on one machine: the water preset's dam break at 263,022 particles
# with a boulder of 5,120 triangles in the surge's path, against the same dam break without
# it, both over the flow window (every step of the first simulated second). Writes the mesh
# and the two scene files into FOLDER, then runs each ROUNDS times, interleaved
# (scripts/scene_ab.sh).
# Usage: scripts/boulder_bench.sh BIN FOLDER ROUNDS ['more bench args']
#   e.g. scripts/boulder_bench.sh build/particle-lab /tmp/boulder 3 '--graph'
set -uo pipefail
[ $# -ge 3 ] || { sed -n 2,8p "$0" >&2; exit 2; }
bin=$1 folder=$2 rounds=$3 extra=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$folder" || exit 1
python3 "$here/make_boulder.py" "$folder/boulder_5k.stl" --levels 4 || exit 1
# The preset's tank for 263,022 particles is 2.55 × 1.275 × 0.51 m (a column 0.51 m wide).
scene() {  # name, geometry line
    cat > "$folder/$1.json" <<JSON
{
  "name": "$1", "description": "the water preset's dam break, for the SPH bodies benchmark",
  "model": "sph", "preset": "water", "particles": 263022$2
}
JSON
}
scene dam_break ""
scene dam_break_boulder ', "geometry": [{"type": "mesh", "file": "boulder_5k.stl", "scale": [0.2, 0.16, 0.16], "translate": [1.3, 0.04, 0.255]}]'
"$here/scene_ab.sh" "$bin" "$rounds" "--window flow $extra" \
    "$folder/dam_break.json" "$folder/dam_break_boulder.json"
