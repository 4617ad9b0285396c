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

{
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
    nvidia-smi -L
    command -v compute-sanitizer || echo "compute-sanitizer not found"
} > "$out/device.txt" 2>&1
cat "$out/device.txt"

echo "== GPU tests =="
./build/tests/test_cuda_vs_cpu --gtest_output="xml:$out/gpu-tests.xml" 2>&1 | tee "$out/tests.log" \
    || status=1
echo "== CPU tests on this host ==" | tee -a "$out/tests.log"
for t in ./build/tests/test_*; do
    [ "$t" = ./build/tests/test_cuda_vs_cpu ] && continue
    [ -x "$t" ] || continue
    "$t" --gtest_brief=1 >> "$out/tests.log" 2>&1 || { echo "FAILED: $t" | tee -a "$out/tests.log"; status=1; }
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
for n in 65536 262144 1048576 4194304; do
    for extra in "" "--graph"; do
        echo "### classic N=$n ${extra:-plain}" >> "$out/bench.log"
        "$bin" bench --backend cuda --preset classic --particles $n --steps 400 --warmup 50 \
            $extra >> "$out/bench.log" 2>&1 || status=1
    done
done
for n in 65536 262144 1048576 4194304; do
    for tpp in 1 2 4 8; do
        echo "### classic N=$n graph threads-per-particle $tpp" >> "$out/bench.log"
        "$bin" bench --backend cuda --preset classic --particles $n --steps 400 --warmup 50 \
            --graph --threads-per-particle $tpp >> "$out/bench.log" 2>&1 || status=1
    done
done
for n in 65536 1048576; do
    for block in 64 128 512; do
        echo "### classic N=$n graph block $block" >> "$out/bench.log"
        "$bin" bench --backend cuda --preset classic --particles $n --steps 400 --warmup 50 \
            --graph --block $block >> "$out/bench.log" 2>&1 || status=1
    done
done
echo "### granular N=1048576 graph" >> "$out/bench.log"
"$bin" bench --backend cuda --preset granular --particles 1048576 --steps 400 --warmup 50 --graph \
    >> "$out/bench.log" 2>&1 || status=1
echo "### cpu N=100000 on this host" >> "$out/bench.log"
"$bin" bench --backend cpu --preset classic --particles 100000 --steps 50 --warmup 5 \
    >> "$out/bench.log" 2>&1 || status=1
grep -E '^###|median step' "$out/bench.log"
exit $status
