#!/usr/bin/env bash
# The GPU host's part of the ranks (sim/ranks/) in one call, on a bundle made elsewhere
# (scripts/gpu_bundle.sh test_cuda_ranks test_cuda_scene_edit, unpacked into ./build): ranks
# sharing the one device against one CUDA simulator, bit for bit in deterministic mode, and the
# live edits' GPU tests (the emitter's count among them). Logs into OUTDIR. Sections that would
# start after PLAB_GPU_DEADLINE (epoch seconds, when set) are skipped.
# Usage: scripts/gpu_ranks_check.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_ranks_check.sh OUTDIR}
# shellcheck source=scripts/gpu_host_common.sh
source scripts/gpu_host_common.sh
gpu_host_setup "$out"

echo "== GPU tests =="
for name in test_cuda_ranks test_cuda_scene_edit; do
    [ -x "build/tests/$name" ] || { echo "$name: not in the bundle"; continue; }
    in_time "$name" || continue
    timeout "$(budget 240)" "build/tests/$name" > "$out/$name.log" 2>&1 || status=1
    gtest_counts "$name" "$out/$name.log"
    grep -E 'Failure|Expected|Which is|ranks on one device|emitted|drain' "$out/$name.log" | head -14
done

echo "== compute-sanitizer memcheck over ranks sharing the device =="
if ! in_time "memcheck"; then :
elif timeout "$(budget 200)" compute-sanitizer --tool memcheck --error-exitcode 3 \
    build/tests/test_cuda_ranks --gtest_filter='*Pile*' > "$out/sanitizer-memcheck-ranks.log" 2>&1; then
    echo "memcheck ranks: clean"
else echo "memcheck ranks: ERRORS or past its time ($(tail -1 "$out/sanitizer-memcheck-ranks.log"))"; status=1; fi
exit $status
