#!/usr/bin/env bash
# The GPU host's part of the bead–triangle pass in one call, on a bundle made elsewhere
# (scripts/gpu_bundle.sh test_cuda_geometry, unpacked into ./build): the geometry's GPU tests,
# compute-sanitizer's memcheck over the classic law's mesh contacts, and the funnel benchmark
# (scripts/funnel_bench.sh) for this build and, when given, an earlier one (BEFORE_BIN), so the
# two ratios come from the same machine. Logs into OUTDIR. Sections that would start after
# PLAB_GPU_DEADLINE (epoch seconds, when set) are skipped.
# Usage: scripts/gpu_mesh_check.sh OUTDIR [BEFORE_BIN]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_mesh_check.sh OUTDIR [BEFORE_BIN]}
before=${2:-}
# shellcheck source=scripts/gpu_host_common.sh
source scripts/gpu_host_common.sh
gpu_host_setup "$out"

if in_time "test_cuda_geometry"; then
    echo "== GPU tests =="
    timeout "$(budget 150)" build/tests/test_cuda_geometry > "$out/test_cuda_geometry.log" 2>&1 || status=1
    gtest_counts test_cuda_geometry "$out/test_cuda_geometry.log"
    grep -E 'Failure|Expected|Which is|FAILED  \]' "$out/test_cuda_geometry.log" | head -12
fi

echo "== compute-sanitizer memcheck over the classic law's mesh contacts =="
if ! in_time "memcheck"; then :
elif timeout "$(budget 120)" compute-sanitizer --tool memcheck --error-exitcode 3 \
    build/tests/test_cuda_geometry --gtest_filter='*FinelyCutSphere*:*APileOnTheMesh*' \
    > "$out/sanitizer-memcheck-mesh.log" 2>&1; then
    echo "memcheck mesh: clean"
else echo "memcheck mesh: ERRORS or past its time ($(tail -1 "$out/sanitizer-memcheck-mesh.log"))"; status=1; fi

for side in before after; do
    b=$bin
    if [ "$side" = before ]; then [ -n "$before" ] || continue; b=$before; fi
    in_time "the funnel, $side" || continue
    echo "== the funnel benchmark, $side =="
    timeout "$(budget 200)" scripts/funnel_bench.sh "$b" "/tmp/plab-funnel-$side" 3 '--graph' \
        > "$out/funnel-$side.log" 2>&1 || status=1
    grep -E 'round|median|ratio|failed|DIVERGED' "$out/funnel-$side.log" | tail -10
done
exit $status
