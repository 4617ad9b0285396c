#!/usr/bin/env bash
# DRAM bytes of one whole CUDA step, per particle, against a copy rate: Nsight Compute profiles
# one replay of the step's CUDA graph as a single workload (--graph-profiling graph) inside the
# measured window, then `bench` runs the same configuration without the profiler for the
# median step. Prints the bytes read and written, bytes per particle-step, the time those bytes
# take at the copy rate (the floor) and how far above it the median step is.
# ncu flushes the caches before the profiled replay, so its counts are those of a step that
# starts with an empty L2: an upper bound for the steady state.
# Usage: scripts/gpu_step_bytes.sh PARTICLES SKIP 'bench args' [COPY_RATE_BYTES_PER_S]
#   SKIP: graph replays before the profiled one; it must fall inside the measured steps, e.g.
#   3100 with --steps 3500 for the settled window (which settles within 3,000 steps).
#   e.g. scripts/gpu_step_bytes.sh 1048576 3100 '--preset classic --steps 3500'
set -uo pipefail
[ $# -ge 3 ] || { sed -n 2,12p "$0" >&2; exit 2; }
n=$1 skip=$2 args=$3 rate=${4:-4.3e12}
bin=${PLAB_BIN:-./build/particle-lab}
command -v ncu >/dev/null || { echo "gpu_step_bytes: ncu not found (CUDA toolkit's bin on PATH?)" >&2; exit 2; }
[ -x "$bin" ] || { echo "gpu_step_bytes: $bin not found (set PLAB_BIN)" >&2; exit 2; }
# shellcheck disable=SC2086
prof=$(ncu --clock-control none --graph-profiling graph --launch-skip "$skip" --launch-count 1 \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum \
    "$bin" bench --backend cuda --graph --particles "$n" $args 2>&1)
to_bytes() { # ncu prints "<name> <unit> <value>"
    awk -v m="$1" '$1 == m {u = $2; v = $3; gsub(",", "", v);
        f = (u == "byte") ? 1 : (u == "Kbyte") ? 1e3 : (u == "Mbyte") ? 1e6 : (u == "Gbyte") ? 1e9 : -1;
        if (f > 0) printf "%.0f\n", v * f}'
}
read_b=$(echo "$prof" | to_bytes dram__bytes_read.sum)
write_b=$(echo "$prof" | to_bytes dram__bytes_write.sum)
if [ -z "$read_b" ] || [ -z "$write_b" ]; then
    echo "gpu_step_bytes: no step was profiled (is SKIP inside the measured steps?)" >&2
    echo "$prof" | grep -E "WARNING|ERROR|window" >&2
    exit 1
fi
# shellcheck disable=SC2086
out=$("$bin" bench --backend cuda --graph --particles "$n" $args 2>&1)
if echo "$out" | grep -q INVALID; then
    echo "gpu_step_bytes: the run is INVALID, no result" >&2
    exit 1
fi
ms=$(echo "$out" | awk '/median step/ {print $3}')
echo "$out" | grep -E "window|launch"
awk -v r="$read_b" -v w="$write_b" -v n="$n" -v rate="$rate" -v ms="$ms" 'BEGIN {
    total = r + w; floor_ms = total / rate * 1e3;
    printf "  DRAM         %.1f MB read + %.1f MB written = %.0f B a particle-step\n", r / 1e6, w / 1e6, total / n;
    printf "  floor        %.4f ms at %.2f TB/s; median step %s ms = %.1fx the floor, %.2f TB/s achieved\n",
        floor_ms, rate / 1e12, ms, ms / floor_ms, total / (ms * 1e-3) / 1e12 }'
