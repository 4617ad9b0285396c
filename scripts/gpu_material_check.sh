#!/usr/bin/env bash
# The GPU host's part of the material look (render/material_passes.h), on a build made
# elsewhere (./build): its kernels against the CPU reference (and under memcheck), the data
# look's agreement tests, the look's frame benchmarks of docs/benchmarks.md, before/after
# pictures and a short movie of the dam break. Also the geometry tests (the emitter's first
# run on a GPU).
# Usage: scripts/gpu_material_check.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_material_check.sh OUTDIR}
mkdir -p "$out"
bin=./build/particle-lab
status=0
if [ -f .gpu-host-debs/gpu-host-env.sh ]; then
    # shellcheck disable=SC1091
    source .gpu-host-debs/gpu-host-env.sh > "$out/env.txt" 2>&1 || echo "gpu-host-env.sh failed"
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"

echo "== GPU tests =="
for name in ${MATERIAL_TESTS:-test_material_gpu test_splat_renderer test_cuda_geometry}; do
    t=./build/tests/$name
    [ -x "$t" ] || { echo "$name: missing"; status=1; continue; }
    if "$t" > "$out/$name.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
    echo "$name: $r, $(grep -cE '^\[       OK \]' "$out/$name.log") passed," \
        "$(grep -cE '^\[  SKIPPED \]' "$out/$name.log") skipped"
done
if compute-sanitizer --tool memcheck --error-exitcode 3 ./build/tests/test_material_gpu \
    > "$out/memcheck-material.log" 2>&1; then echo "memcheck material kernels: clean"
else echo "memcheck material kernels: ERRORS"; status=1; fi

# Whole frames, 1280x720, the CUDA renderer fed on the device, pipelined: each case in both
# looks (the data look is the before).
frames() {  # name, then bench arguments
    local name=$1
    shift
    for look in data material; do
        "$bin" bench --backend cuda --render interop --renderer cuda --look "$look" \
            --width 1280 --height 720 --graph "$@" > "$out/frames-$name-$look.log" 2>&1 || status=1
        echo "$name $look: $(grep -E 'frame, pipelined' "$out/frames-$name-$look.log" | head -1)" \
            "$(grep -E 'INVALID|DIVERGED' "$out/frames-$name-$look.log" | head -1)"
        grep -E 'renderer: ' "$out/frames-$name-$look.log" | sed 's/^/    /'
    done
}
echo "== frames =="
frames dam-break-1M --preset water --particles 1000000 --window start --warmup 20 --steps 100
frames water-10M --preset water --particles 10000000 --window start --warmup 5 --steps 50
frames granular-10M --preset granular --particles 10000000 --window start --warmup 5 --steps 50
# The granular preset's tall domain needs a grid of 1.2e9 cells at 100M (over the 2^28 limit):
# the classic preset's grains stand in for it.
frames classic-100M --preset classic --particles 100000000 --window start --warmup 2 --steps 20

echo "== pictures =="
for look in data material; do
    "$bin" bench --backend cuda --scene assets/scenes/dam_break.json --render interop --renderer cuda \
        --look "$look" --width 1280 --height 720 --window start --warmup 7000 --steps 2 \
        --screenshot "$out/dam-break-$look.png" > "$out/pic-dam-$look.log" 2>&1 || status=1
    "$bin" bench --backend cuda --scene assets/scenes/granular_pile.json --render interop \
        --renderer cuda --look "$look" --width 1280 --height 720 --window start --warmup 4000 \
        --steps 2 --screenshot "$out/pile-$look.png" > "$out/pic-pile-$look.log" 2>&1 || status=1
done
ls -la "$out"/*.png 2>/dev/null | awk '{print $5, $9}'

echo "== movie =="
"$bin" bench --backend cuda --scene assets/scenes/dam_break.json --render interop --renderer cuda \
    --look material --width 1280 --height 720 --video "$out/dam-break-material.mp4" \
    --video-seconds 1.2 --video-fps 30 > "$out/movie.log" 2>&1 || status=1
tail -3 "$out/movie.log"
exit $status
