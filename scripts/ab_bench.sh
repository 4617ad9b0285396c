#!/usr/bin/env bash
# A/B benchmark of two particle-lab binaries on one machine: each configuration runs ROUNDS
# times per binary, A and B interleaved (so drift of clocks or temperature hits both alike),
# and the median step of every run is printed, then the median of each side. A difference
# smaller than the spread between rounds of one side is noise.
# Usage: scripts/ab_bench.sh A_BIN B_BIN ROUNDS 'bench args' ['bench args' ...]
#   e.g. scripts/ab_bench.sh /tmp/old/particle-lab build/particle-lab 3 \
#          '--backend cuda --preset classic --particles 1048576 --steps 400 --warmup 50 --graph'
set -uo pipefail
[ $# -ge 4 ] || { sed -n 2,8p "$0" >&2; exit 2; }
a=$1 b=$2 rounds=$3
shift 3
median() { sort -g | awk 'NF {v[++n]=$1} END {if (n == 0) print "n/a"; else if (n % 2) print v[(n+1)/2]; else print (v[n/2]+v[n/2+1])/2}'; }
step_of() { awk '/median step/ {print $3}'; }
status=0
for args in "$@"; do
    echo "== $args"
    ta=() tb=()
    for ((r = 1; r <= rounds; ++r)); do
        for side in A B; do
            bin=$a; [ $side = B ] && bin=$b
            # shellcheck disable=SC2086
            out=$("$bin" bench $args 2>&1) || { echo "  $side round $r failed:"; echo "$out" | tail -3; status=1; continue; }
            if echo "$out" | grep -q DIVERGED; then echo "  $side round $r DIVERGED: not a result"; status=1; continue; fi
            ms=$(echo "$out" | step_of)
            echo "  $side round $r: $ms ms"
            if [ $side = A ]; then ta+=("$ms"); else tb+=("$ms"); fi
        done
    done
    ma=$(printf '%s\n' "${ta[@]}" | median) mb=$(printf '%s\n' "${tb[@]}" | median)
    echo "  median A $ma ms, B $mb ms"
done
exit $status
