#!/usr/bin/env bash
# Two scene files benched against each other on one machine: each runs ROUNDS times,
# interleaved, with the same bench arguments; prints every run's median step, the median of
# each side and their ratio (B / A). A run that fails or diverges is reported and not counted.
# Usage: scripts/scene_ab.sh BIN ROUNDS 'bench args' A.json B.json
#   e.g. scripts/scene_ab.sh build/particle-lab 3 '--graph --steps 400' box.json funnel.json
set -uo pipefail
[ $# -eq 5 ] || { sed -n 2,6p "$0" >&2; exit 2; }
bin=$1 rounds=$2 args=$3 a_scene=$4 b_scene=$5
median() { sort -g | awk 'NF {v[++n]=$1} END {if (n == 0) print "n/a"; else if (n % 2) print v[(n+1)/2]; else print (v[n/2]+v[n/2+1])/2}'; }
status=0
a=() b=()
for ((r = 1; r <= rounds; ++r)); do
    for scene in "$a_scene" "$b_scene"; do
        name=$(basename "$scene" .json)
        # shellcheck disable=SC2086
        out=$("$bin" bench --backend cuda --scene "$scene" $args 2>&1) ||
            { echo "  $name round $r failed:"; echo "$out" | tail -3; status=1; continue; }
        if echo "$out" | grep -q DIVERGED; then echo "  $name round $r DIVERGED: not a result"; status=1; continue; fi
        [ "$r" = 1 ] && echo "$out" | sed 's/^/    /'
        ms=$(echo "$out" | awk '/median step/ {print $3}')
        echo "  $name round $r: $ms ms"
        if [ "$scene" = "$a_scene" ]; then a+=("$ms"); else b+=("$ms"); fi
    done
done
ma=$(printf '%s\n' "${a[@]}" | median) mb=$(printf '%s\n' "${b[@]}" | median)
echo "median step: $(basename "$a_scene" .json) $ma ms, $(basename "$b_scene" .json) $mb ms"
awk -v a="$ma" -v b="$mb" 'BEGIN { if (a > 0 && b > 0) printf "ratio %.3f\n", b / a }'
exit $status
