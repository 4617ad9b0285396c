#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-16, ASan + UBSan + float-cast-overflow; preset `fuzz`)
# and runs each over its seed corpus and its regression inputs for a bounded time.
#
#   scripts/fuzz.sh [SECONDS] [RUNS] [TARGET...]   # per target; defaults 60 s, no run
#                                                   # limit, every target
#
# A crash, a sanitizer report, a leak or an input slower than 10 s fails the run; libFuzzer
# writes the input under build-fuzz/artifacts/, and it belongs in tests/fuzz/regressions/<target>/
# once fixed, so every later run replays it. New coverage-increasing inputs collect in
# build-fuzz/corpus/<target> (not in the repository) and seed the next local run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
runs=${2:--1}
shift $(( $# < 2 ? $# : 2 ))
only=" $* "
case $seconds in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2 ;; esac
case $runs in -1) ;; '' | *[!0-9]*) echo "fuzz.sh: RUNS must be a whole number, got '$runs'" >&2; exit 2 ;; esac

cmake --preset fuzz > /dev/null
cmake --build --preset fuzz

# target | seed folder (besides its regressions) | its libFuzzer options (an assignment list
# is short: longer inputs only repeat lines)
targets=(
    "fuzz_scene_file|assets/scenes|-dict=tests/fuzz/scene.dict -max_len=16384"
    "fuzz_assignment|tests/fuzz/seeds/fuzz_assignment|-max_len=512"
    "fuzz_recording|tests/fuzz/seeds/fuzz_recording|-max_len=16384"
    "fuzz_checkpoint|tests/fuzz/seeds/fuzz_checkpoint|-max_len=16384"
    "fuzz_stl|tests/fuzz/seeds/fuzz_stl|-max_len=16384"
    "fuzz_sweep|tests/fuzz/seeds/fuzz_sweep|-max_len=1024"
)

mkdir -p build-fuzz/artifacts
status=0
for entry in "${targets[@]}"; do
    IFS='|' read -r name seeds extra <<< "$entry"
    [ "$only" = "  " ] || [[ $only == *" $name "* ]] || continue
    corpus=build-fuzz/corpus/$name
    mkdir -p "$corpus" "tests/fuzz/regressions/$name"
    log=build-fuzz/$name.log
    echo "== $name: ${seconds} s over $seeds and tests/fuzz/regressions/$name"
    # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that takes 2 GB a leak
    # or an unbounded allocation. Seeds and regressions are read, never written.
    set +e
    ASAN_OPTIONS=detect_leaks=1 "build-fuzz/tests/fuzz/$name" "$corpus" "$seeds" \
        "tests/fuzz/regressions/$name" -max_total_time="$seconds" -runs="$runs" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="build-fuzz/artifacts/$name-" $extra > "$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "   $execs executions, $(ls "$corpus" | wc -l) inputs in the local corpus, exit $rc"
    if [ $rc -ne 0 ]; then
        status=1
        echo "fuzz.sh: $name found a problem; its report:" >&2
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written|timeout' "$log" | head -20 >&2
    fi
done
exit $status
