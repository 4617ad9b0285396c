#!/usr/bin/env bash
# The GPU host's part of the scene-geometry work, on a build made elsewhere (./build), in two
# calls that each fit ten minutes. Without BASE_BIN: every GPU test program, compute-sanitizer's
# memcheck and racecheck over the geometry tests and over a bench of the funnel scene, the
# funnel benchmark (scripts/funnel_bench.sh), benches of the drum and pour scenes and the SPH
# bodies' benchmark (scripts/boulder_bench.sh). With BASE_BIN (the binary of the commit before
# the geometry): an A/B of the standard scenes without bodies (scripts/ab_bench.sh), since the
# geometry must cost a run without bodies nothing.
# Usage: scripts/gpu_geometry_check.sh OUTDIR [BASE_BIN]
#   GEOMETRY_TESTS="test_cuda_geometry ..." runs only those test programs (default: every GPU one).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_geometry_check.sh OUTDIR [BASE_BIN]}
base=${2:-}
mkdir -p "$out"
bin=./build/particle-lab
status=0
if ! ldconfig -p | grep -q 'libgomp.so.1 ' && [ -d .gpu-libs ]; then
    export LD_LIBRARY_PATH=$PWD/.gpu-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
if [ -f .gpu-host-debs/gpu-host-env.sh ]; then
    # shellcheck disable=SC1091
    source .gpu-host-debs/gpu-host-env.sh > "$out/env.txt" 2>&1 || echo "gpu-host-env.sh failed"
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"

if [ -n "$base" ]; then
    echo "== A/B without bodies: $base vs $bin =="
    scripts/ab_bench.sh "$base" "$bin" 3 \
        '--backend cuda --window start --preset classic --particles 1048576 --steps 400 --warmup 50 --graph' \
        '--backend cuda --window start --preset water --particles 263022 --steps 400 --warmup 50 --graph' \
        '--backend cuda --window start --preset classic --particles 1048576 --steps 400 --warmup 50' \
        '--backend cuda --window start --preset glass-beads --particles 1048576 --steps 400 --warmup 50 --graph' \
        > "$out/ab.log" 2>&1 || status=1
    grep -E '^==|round|median A' "$out/ab.log"
    exit $status
fi

echo "== GPU tests =="
tests=${GEOMETRY_TESTS:-"$(cd build/tests && echo test_cuda_* test_neighbour_list_gpu test_async_export \
    test_large_presets test_packed_vec3_gpu test_interop test_splat_renderer)"}
for name in $tests; do
    t=./build/tests/$name
    [ -x "$t" ] || continue
    if "$t" > "$out/$(basename "$t").log" 2>&1; then r=ok; else r=FAILED; status=1; fi
    echo "$(basename "$t"): $r, $(grep -cE '^\[       OK \]' "$out/$(basename "$t").log") passed," \
        "$(grep -cE '^\[  SKIPPED \]' "$out/$(basename "$t").log") skipped"
done

echo "== compute-sanitizer =="
for tool in memcheck racecheck; do
    # The pile and the capture: the bead's slide downloads after every step (slow under the tools).
    if compute-sanitizer --tool "$tool" --error-exitcode 3 ./build/tests/test_cuda_geometry \
        --gtest_filter='*Pile*:*Capture*:*Liquid*:*Emitter*' > "$out/sanitizer-$tool-tests.log" 2>&1; then echo "$tool geometry tests: clean"
    else echo "$tool geometry tests: ERRORS"; status=1; fi
    if compute-sanitizer --tool "$tool" --error-exitcode 3 "$bin" bench --backend cuda \
        --scene assets/scenes/funnel.json --steps 3 --warmup 1 --graph \
        > "$out/sanitizer-$tool-funnel.log" 2>&1; then echo "$tool funnel bench: clean"
    else echo "$tool funnel bench: ERRORS"; status=1; fi
done

echo "== funnel benchmark =="
scripts/funnel_bench.sh "$bin" /tmp/plab-funnel 3 '--graph' > "$out/funnel.log" 2>&1 || status=1
grep -E 'round|median step:|ratio' "$out/funnel.log"

echo "== the drum (frictional beads in a spinning cylinder) =="
"$bin" bench --backend cuda --scene assets/scenes/drum.json --steps 2000 --warmup 200 --graph \
    > "$out/drum.log" 2>&1 || status=1
grep -E 'median step|DIVERGED|INVALID|contacts' "$out/drum.log"

echo "== emitters and sinks (the pour scene; wall clock includes the applications) =="
"$bin" bench --backend cuda --scene assets/scenes/pour.json --window start --steps 20000 \
    --warmup 0 --graph > "$out/pour.log" 2>&1 || status=1
grep -E 'median step|throughput|final state|DIVERGED|INVALID' "$out/pour.log"

echo "== SPH against a body (a boulder in the dam break's surge) =="
scripts/boulder_bench.sh "$bin" /tmp/plab-boulder 3 '--graph' > "$out/boulder.log" 2>&1 || status=1
grep -E 'round|median step:|ratio' "$out/boulder.log"

exit $status
