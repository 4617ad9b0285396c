#!/usr/bin/env bash
# Nsight Compute report of the force kernel (plain launches, clocks left as they are) at a
# given size, to see what bounds it. Usage: scripts/gpu_profile.sh PARTICLES [OUTFILE] [bench args]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1048576}
outfile=${2:-force-kernel-$n.txt}
shift 2 || true
ncu --clock-control none --kernel-name regex:force_kernel --launch-skip 200 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section SchedulerStats \
    ./build/particle-lab bench --backend cuda --preset classic --particles "$n" --steps 60 \
    --warmup 150 "$@" > "$outfile" 2>&1
grep -E 'Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|L1/TEX Hit|L2 Hit|Registers Per|Compute \(SM\)|Warp Cycles Per Issued|Stall' "$outfile" | head -30
