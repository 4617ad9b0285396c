#!/usr/bin/env bash
# What emitters and sinks cost a run at an equal particle count: the pour scene (beads poured
# from a disc onto a ramp, a sink at its foot) runs until as many leave as arrive and is saved;
# then the checkpoint continues ROUNDS times with its sources and ROUNDS times without them
# (the same scene file with the emitters and sinks taken out), interleaved. Prints each run's
# wall-clock time a step (the sources' work happens between the steps, outside the step's
# device timers) and the median step, then the ratio of the wall times (with / without).
# Usage: scripts/sources_bench.sh BIN FOLDER ROUNDS ['more bench args']
#   e.g. scripts/sources_bench.sh build/particle-lab /tmp/sources 3 '--backend cuda --graph'
set -uo pipefail
[ $# -ge 3 ] || { sed -n 2,9p "$0" >&2; exit 2; }
bin=$1 folder=$2 rounds=$3 extra=${4:---backend cuda --graph}
here=$(cd "$(dirname "$0")" && pwd)
settle_steps=${PLAB_SOURCES_SETTLE_STEPS:-20000} measured_steps=${PLAB_SOURCES_STEPS:-3000}
mkdir -p "$folder" || exit 1
scene=$folder/pour.json
cp "$here/../assets/scenes/pour.json" "$scene" || exit 1
median() { sort -g | awk 'NF {v[++n]=$1} END {if (n == 0) print "n/a"; else if (n % 2) print v[(n+1)/2]; else print (v[n/2]+v[n/2+1])/2}'; }
echo "== pouring until steady: $settle_steps steps =="
# shellcheck disable=SC2086
"$bin" bench --scene "$scene" --steps "$settle_steps" --warmup 0 --save "$folder/steady.plab" \
    $extra > "$folder/settle.txt" 2>&1 || { tail -5 "$folder/settle.txt"; exit 1; }
grep -E "particles|DIVERGED|non-finite" "$folder/settle.txt"
# The same scene with the sources taken out (the checkpoint keeps the geometry).
python3 - "$scene" "$folder/pour_without_sources.json" <<'PY' || exit 1
import json, sys
s = json.load(open(sys.argv[1]))
for key in ("emitters", "sinks", "max_particles"):
    s.pop(key, None)
json.dump(s, open(sys.argv[2], "w"), indent=1)
PY
cp "$scene" "$folder/pour_with_sources.json"
status=0
with=() without=()
for ((r = 1; r <= rounds; ++r)); do
    for side in with without; do
        cp "$folder/pour_${side}_sources.json" "$scene"  # the checkpoint names this file
        # shellcheck disable=SC2086
        out=$("$bin" bench --load "$folder/steady.plab" --steps "$measured_steps" --warmup 200 \
            $extra 2>&1) || { echo "  $side round $r failed:"; echo "$out" | tail -3; status=1; continue; }
        if echo "$out" | grep -q DIVERGED; then echo "  $side round $r DIVERGED: not a result"; status=1; continue; fi
        [ "$r" = 1 ] && echo "$out" | sed 's/^/    /'
        per_s=$(echo "$out" | awk '/throughput/ {print $2}')
        wall_ms=$(awk -v s="$per_s" 'BEGIN { if (s > 0) printf "%.5f", 1000 / s }')
        ms=$(echo "$out" | awk '/median step/ {print $3}')
        echo "  $side sources, round $r: wall $wall_ms ms a step, median step $ms ms"
        if [ "$side" = with ]; then with+=("$wall_ms"); else without+=("$wall_ms"); fi
    done
done
cp "$folder/pour_with_sources.json" "$scene"
mw=$(printf '%s\n' "${with[@]}" | median) mo=$(printf '%s\n' "${without[@]}" | median)
echo "wall a step: with sources $mw ms, without $mo ms"
awk -v a="$mo" -v b="$mw" 'BEGIN { if (a > 0 && b > 0) printf "ratio %.3f (goal <= 1.1)\n", b / a }'
exit $status
