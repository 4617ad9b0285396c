#!/usr/bin/env bash
# The GPU host's part of the cluster pairs (sim/physics/cluster_pairs.h) in one call, on a bundle
# made elsewhere (scripts/gpu_bundle.sh, unpacked into ./build): their GPU tests and the lists',
# compute-sanitizer's memcheck over the warp pass, then the settled classic pile at each size
# with the default step, the particle lists and the cluster pairs, ROUNDS rounds interleaved
# (the bench's device-side medians; a diverged run is not a result). Logs into OUTDIR.
# Sections that would start after PLAB_GPU_DEADLINE (epoch seconds, when set) are skipped.
# Usage: scripts/gpu_cluster_check.sh OUTDIR [ROUNDS] [SIZES]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_cluster_check.sh OUTDIR [ROUNDS] [SIZES]}
rounds=${2:-3}
sizes=${3:-"262144 1048576"}
# shellcheck source=scripts/gpu_host_common.sh
source scripts/gpu_host_common.sh
gpu_host_setup "$out"

echo "== GPU tests =="
for name in test_cuda_cluster_pairs test_neighbour_list_gpu; do
    [ -x "build/tests/$name" ] || { echo "$name: not in the bundle"; continue; }
    in_time "$name" || continue
    timeout "$(budget 200)" "build/tests/$name" > "$out/$name.log" 2>&1 || status=1
    gtest_counts "$name" "$out/$name.log"
    grep -E 'Failure|Expected|Which is|pair tests|against the CPU' "$out/$name.log" | head -12
done

echo "== compute-sanitizer memcheck over the warp pass =="
if ! in_time "memcheck"; then :
elif timeout "$(budget 150)" compute-sanitizer --tool memcheck --error-exitcode 3 \
    build/tests/test_cuda_cluster_pairs --gtest_filter='*SwitchingOn*:*Overflowed*' \
    > "$out/sanitizer-memcheck-clusters.log" 2>&1; then
    echo "memcheck clusters: clean"
else echo "memcheck clusters: ERRORS ($(tail -1 "$out/sanitizer-memcheck-clusters.log"))"; status=1; fi

median() { sort -g | awk 'NF {v[++n]=$1} END {if (n == 0) print "n/a"; else if (n % 2) print v[(n+1)/2]; else print (v[n/2]+v[n/2+1])/2}'; }
for n in $sizes; do
    in_time "the classic pile $n" || continue
    echo "== classic pile $n, settled, CUDA graph =="
    state=/tmp/plab-classic-$n.plab
    timeout "$(budget 240)" "$bin" bench --backend cuda --preset classic --particles "$n" --graph --steps 50 \
        --warmup 10 --save "$state" > "$out/settle-$n.log" 2>&1 || { echo "settle failed"; tail -3 "$out/settle-$n.log"; status=1; continue; }
    declare -A runs=()
    for r in $(seq "$rounds"); do
        for variant in default lists clusters clusters-inline; do
            extra=""
            [ $variant = lists ] && extra="--neighbour-list"
            [ $variant = clusters ] && extra="--cluster-pairs"
            [ $variant = clusters-inline ] && extra="--cluster-pairs --contact-list=off"
            log="$out/bench-$n-$variant-$r.log"
            # shellcheck disable=SC2086
            in_time "$variant round $r" || continue
            timeout "$(budget 60)" "$bin" bench --backend cuda --load "$state" --graph --steps 400 --warmup 20 \
                $extra > "$log" 2>&1 || { echo "  $variant round $r failed: $(tail -1 "$log")"; status=1; continue; }
            if grep -qE 'DIVERGED|INVALID' "$log"; then echo "  $variant round $r INVALID: not a result"; status=1; continue; fi
            ms=$(awk '/median step/ {print $3}' "$log")
            runs[$variant]="${runs[$variant]:-} $ms"
            echo "  $variant round $r: $ms ms"
        done
    done
    for variant in default lists clusters clusters-inline; do
        echo "  median $variant: $(printf '%s\n' ${runs[$variant]:-} | median) ms"
    done
    grep -hE '^  (lists|clusters) ' "$out/bench-$n-clusters-1.log" "$out/bench-$n-lists-1.log" 2>/dev/null
    unset runs
done
exit $status
