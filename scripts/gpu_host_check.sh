#!/usr/bin/env bash
# The GPU host's part of the work, on a build made elsewhere (./build): the GPU tests, the
# compute-sanitizer checks and the benchmark table of docs/benchmarks.md. Writes its logs into
# OUTDIR (default ./gpu-out): tests.log, sanitizers.log, bench.log, gpu-tests.xml, device.txt.
# Usage: scripts/gpu_host_check.sh [OUTDIR] [quick]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-out}
mode=${2:-full}
mkdir -p "$out"
bin=./build/particle-lab
status=0

# The host may lack the OpenMP runtime the binaries link; a copy can travel in .gpu-libs/.
if ! ldconfig -p | grep -q 'libgomp.so.1 ' && [ -d .gpu-libs ]; then
    export LD_LIBRARY_PATH=$PWD/.gpu-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

# GL/EGL runtime for the render and interop tests (see the gpu-host notes in docs/benchmarks.md).
if [ -f .gpu-host-debs/gpu-host-env.sh ]; then
    # shellcheck disable=SC1091
    source .gpu-host-debs/gpu-host-env.sh > "$out/env.txt" 2>&1 || echo "gpu-host-env.sh failed"
fi

{
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
    nvidia-smi -L
    command -v compute-sanitizer || echo "compute-sanitizer not found"
} > "$out/device.txt" 2>&1
cat "$out/device.txt"

echo "== GPU tests =="
./build/tests/test_cuda_vs_cpu --gtest_output="xml:$out/gpu-tests.xml" 2>&1 | tee "$out/tests.log" \
    || status=1
echo "== other tests on this host ==" | tee -a "$out/tests.log"
for t in ./build/tests/test_*; do
    [ "$t" = ./build/tests/test_cuda_vs_cpu ] && continue
    echo "-- $t" >> "$out/tests.log"
    [ -x "$t" ] || continue
    "$t" >> "$out/tests.log" 2>&1 || { echo "FAILED: $t" | tee -a "$out/tests.log"; status=1; }
done
grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/tests.log"

echo "== compute-sanitizer =="
small=(bench --backend cuda --particles 20000 --steps 5 --warmup 1)
for tool in memcheck racecheck initcheck synccheck; do
    for extra in "" "--graph"; do
        echo "-- $tool ${extra:-plain}" >> "$out/sanitizers.log"
        if compute-sanitizer --tool "$tool" --error-exitcode 3 "$bin" "${small[@]}" $extra \
            >> "$out/sanitizers.log" 2>&1; then
            echo "$tool ${extra:-plain}: clean"
        else
            echo "$tool ${extra:-plain}: ERRORS (see sanitizers.log)"; status=1
        fi
    done
done
grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizers.log"

[ "$mode" = quick ] && exit $status

echo "== benchmarks ==" | tee "$out/bench.log"
bench() {  # label, then bench arguments
    local label=$1; shift
    echo "### $label" >> "$out/bench.log"
    "$bin" bench --backend cuda --steps 400 --warmup 50 "$@" >> "$out/bench.log" 2>&1 || status=1
}
for n in 65536 262144 1048576 4194304; do
    bench "classic N=$n plain" --preset classic --particles $n
    bench "classic N=$n graph" --preset classic --particles $n --graph
    bench "classic N=$n graph single-pass" --preset classic --particles $n --graph --contact-list=off
    bench "classic N=$n separate integrate" --preset classic --particles $n --fuse-integrate=off
done
for n in 65536 262144 1048576; do
    for tpp in 1 2 4; do
        bench "classic N=$n graph threads-per-particle $tpp" --preset classic --particles $n --graph \
            --threads-per-particle $tpp
    done
done
for n in 65536 1048576; do
    for block in 64 128 512; do
        bench "classic N=$n graph block $block" --preset classic --particles $n --graph --block-size $block
    done
done
bench "granular N=1048576 graph" --preset granular --particles 1048576 --graph
echo "### cpu N=100000 on this host" >> "$out/bench.log"
"$bin" bench --backend cpu --preset classic --particles 100000 --steps 50 --warmup 5 \
    >> "$out/bench.log" 2>&1 || status=1
grep -E '^###|median step' "$out/bench.log"

echo "== force kernel profile (1M) =="
if command -v ncu > /dev/null; then
    scripts/gpu_profile.sh 1048576 "$out/ncu-force-1M.txt" || status=1
fi
exit $status
