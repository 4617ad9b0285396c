#!/usr/bin/env bash
# How the drum case's angle (particle-lab validate drum) depends on the bed's size in beads and
# on the beads' contact coefficients: the glass-bead preset at several sizes, then at the
# reference's size (80 beads across) with the coefficients changed one at a time (--set).
# Prints one line a run (size, overrides, the angle and its spread, the verdict, wall time).
# Runs that would start after PLAB_GPU_DEADLINE (epoch seconds, when set) are skipped.
# Usage: scripts/drum_sweep.sh BIN OUTDIR ['more validate args']
#   e.g. scripts/drum_sweep.sh build/particle-lab /tmp/drum-sweep '--backend cuda'
set -uo pipefail
[ $# -ge 2 ] || { sed -n 2,8p "$0" >&2; exit 2; }
bin=$1 out=$2 extra=${3:---backend cuda}
mkdir -p "$out" || exit 1
status=0
run() {  # run NAME RESOLUTION [--set a=b ...]
    local name=$1 resolution=$2
    shift 2
    if [ -n "${PLAB_GPU_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$PLAB_GPU_DEADLINE" ]; then
        echo "$name: skipped, past the deadline"
        return
    fi
    local start log=$out/$name.log
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$bin" validate drum --resolution "$resolution" --out "$out/$name" $extra "$@" > "$log" 2>&1
    local rc=$?
    local verdict=1  # validate exits 0 on PASS, 2 on FAIL, anything else on an error
    [ $rc -eq 0 ] || [ $rc -eq 2 ] || { verdict=0; status=1; }
    echo "$name: $(grep -E 'samples: angle' "$log" | sed 's/ (reference.*non-finite//')" \
        "[$(($(date +%s) - start)) s]$([ $verdict = 1 ] || echo " ERROR rc=$rc: $(tail -1 "$log")")"
}
# The most telling first, in case the deadline cuts the list: the reference code's input, a
# size between, then the reference's size with each coefficient raised, then the other sizes.
# The open DEM code's input for this experiment: mu 0.3, walls 0.35, its default rolling
# friction 0.1 on the effective radius R/2 (a constant torque), which is 0.05 on the bead's R here.
run size80-reference-input 80 --set friction=0.3 --set wall_friction=0.35 --set rolling_friction=0.05
run size48 48
run size80-walls0.8 80 --set wall_friction=0.8
run size80-rolling0.05 80 --set rolling_friction=0.05
run size80-friction0.5 80 --set friction=0.5
run size32 32
run size64 64
run size80 80
run size24 24
run size80-rolling0.1 80 --set rolling_friction=0.1
exit $status
