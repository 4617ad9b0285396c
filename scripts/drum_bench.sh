#!/usr/bin/env bash
# Whole frames of a rotating drum of 1,000,000 frictional glass beads (the drum scene's 1 cm
# beads, preset glass-beads) with the CUDA renderer, in the data and the material look: a
# cylinder 2.4 m across and 1.1 m long, about a third full, turning at 6 rev/min. Writes the
# scene into FOLDER and runs bench on it once per look.
# Usage: scripts/drum_bench.sh BIN FOLDER ['more bench args']
#   e.g. scripts/drum_bench.sh build/particle-lab /tmp/drum '--warmup 20 --steps 200'
set -uo pipefail
[ $# -ge 2 ] || { sed -n 2,7p "$0" >&2; exit 2; }
bin=$1 folder=$2 extra=${3:---warmup 20 --steps 200}
mkdir -p "$folder" || exit 1
cat > "$folder/drum_1m.json" <<JSON
{
  "name": "drum_1m", "description": "1M glass beads in a drum 2.4 m across, for the frame benchmark",
  "model": "dem", "preset": "glass-beads", "params": {"collider_radius": 0},
  "domain": {"min": [-1.25, 0, -0.6], "max": [1.25, 2.5, 0.6]},
  "blocks": [{"shape": "box", "min": [-0.76, 0.37, -0.54], "max": [0.76, 1.1, 0.54],
              "spacing": 0.0105, "jitter": 0.0004}],
  "particles": 1000000,
  "geometry": [
    {"type": "cylinder", "center": [0, 1.25, 0], "axis": [0, 0, 1], "radius": 1.2,
     "length": 1.1, "inside": true,
     "motion": {"spin_axis": [0, 0, 1], "spin_center": [0, 1.25, 0], "spin_rpm": 6}}
  ],
  "camera": {"target": [0, 1.25, 0], "distance": 5.5, "yaw": 0, "pitch": 0}
}
JSON
status=0
for look in data material; do
    echo "== drum 1M, $look look =="
    # shellcheck disable=SC2086
    "$bin" bench --backend cuda --scene "$folder/drum_1m.json" --render interop --renderer cuda \
        --look "$look" --width 1280 --height 720 --graph --window start $extra || status=1
done
exit $status
