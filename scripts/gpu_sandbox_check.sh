#!/usr/bin/env bash
# The GPU host's part of the sandbox and geometry work in one call of ten minutes, on a bundle
# made elsewhere (scripts/gpu_bundle.sh, unpacked into ./build): the live edits' GPU tests and
# the geometry's, compute-sanitizer's memcheck over the edits, the 1M-bead drum's whole frames
# (scripts/drum_bench.sh), the drum validation at the reference size (80 beads across), and the
# sources' cost at an equal count (scripts/sources_bench.sh). Logs into OUTDIR.
# PART: tests (the tests and memcheck), benches (the rest) or all (the default). Sections that
# would start after PLAB_GPU_DEADLINE (epoch seconds, when set) are skipped and said so.
# Usage: scripts/gpu_sandbox_check.sh OUTDIR [PART]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_sandbox_check.sh OUTDIR [tests|benches|all]}
part=${2:-all}
# shellcheck source=scripts/gpu_host_common.sh
source scripts/gpu_host_common.sh
gpu_host_setup "$out"

if [ "$part" != benches ]; then
echo "== GPU tests =="
for name in test_cuda_scene_edit test_cuda_geometry; do
    timeout 150 "build/tests/$name" > "$out/$name.log" 2>&1 || status=1
    gtest_counts "$name" "$out/$name.log"
done
grep -E 'Failure|Expected|Which is|actual' "$out/test_cuda_scene_edit.log" | head -20

echo "== compute-sanitizer memcheck over the pull and the brush =="
if timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 build/tests/test_cuda_scene_edit \
    --gtest_filter='*Pull*:*Brush*' > "$out/sanitizer-memcheck-edits.log" 2>&1; then
    echo "memcheck edits: clean"
else echo "memcheck edits: ERRORS or no tool ($(tail -1 "$out/sanitizer-memcheck-edits.log"))"; status=1; fi
fi
[ "$part" = tests ] && exit $status

in_time "the drum of 1M beads" && { echo "== the drum of 1M beads, whole frames =="
timeout "$(budget 170)" scripts/drum_bench.sh "$bin" /tmp/plab-drum '--warmup 20 --steps 200' \
    > "$out/drum_bench.log" 2>&1 || status=1
grep -E '^==|median|frames/s|FPS|DIVERGED|INVALID' "$out/drum_bench.log" | head -20; }

in_time "the sources" && { echo "== sources at an equal count =="
PLAB_SOURCES_SETTLE_STEPS=${PLAB_SOURCES_SETTLE_STEPS:-20000} timeout "$(budget 120)" \
    scripts/sources_bench.sh "$bin" /tmp/plab-sources 3 '--backend cuda --graph' \
    > "$out/sources.log" 2>&1 || status=1
grep -E 'round|median|ratio|INVALID' "$out/sources.log" | tail -10; }

in_time "the drum validation" && { echo "== the drum validation at the reference size =="
timeout "$(budget 200)" "$bin" validate drum --backend cuda --resolution 80 --out "$out/drum80" \
    > "$out/drum80.log" 2>&1 || status=1
tail -15 "$out/drum80.log"; }

exit $status
