#!/usr/bin/env bash
# Soak: runs each preset headless for a given time while sampling the process's memory (and
# the GPU's, where nvidia-smi exists), then ends it with SIGTERM (a background job ignores
# SIGINT) and checks that it stopped cleanly and that its memory stayed flat.
#
#   scripts/soak.sh [--seconds S] [--backend cpu|cuda|auto] [--particles N]
#                   [--presets "classic granular water"] [--binary PATH] [--out DIR]
#
# Writes DIR/<preset>.csv (time_s, rss_mb, gpu_mb) and prints one line per preset. A preset
# fails when the run exits on its own before the time is up, does not stop within 15 s of
# SIGTERM, or its resident memory grows by more than 16 MB + 5% between the end of the first
# fifth of the run and its end. The run is `particle-lab bench` with the start window and no
# warm-up; its per-step timing record (48 B a step) is the one thing that grows by design, and
# its size is taken off the growth before the check.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=60 backend=auto particles=100000 presets="classic granular water" out=build/soak
binary=build/particle-lab
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=$2; shift 2 ;;
        --backend) backend=$2; shift 2 ;;
        --particles) particles=$2; shift 2 ;;
        --presets) presets=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "soak.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case $seconds in '' | *[!0-9]* | 0) echo "soak.sh: --seconds must be a positive whole number, got '$seconds'" >&2; exit 2 ;; esac
[ -x "$binary" ] || { echo "soak.sh: no program at '$binary' (build first, or pass --binary)" >&2; exit 2; }
mkdir -p "$out" || { echo "soak.sh: cannot create '$out'" >&2; exit 2; }

rss_mb() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null; }
gpu_mb() {
    command -v nvidia-smi > /dev/null || return 0
    nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null |
        awk -F', *' -v p="$1" '$1 == p { print $2 }'
}

failed=0
for preset in $presets; do
    csv=$out/$preset.csv log=$out/$preset.log
    echo "time_s,rss_mb,gpu_mb" > "$csv"
    "$binary" bench --backend "$backend" --preset "$preset" --particles "$particles" \
        --steps 1000000 --warmup 0 --window start > "$log" 2>&1 &
    pid=$!
    start=$(date +%s.%N) early=""
    while :; do
        sleep 1
        if ! kill -0 "$pid" 2>/dev/null; then early=yes; break; fi
        now=$(date +%s.%N)
        t=$(awk -v a="$start" -v b="$now" 'BEGIN { printf "%.1f", b - a }')
        echo "$t,$(rss_mb "$pid"),$(gpu_mb "$pid")" >> "$csv"
        awk -v t="$t" -v s="$seconds" 'BEGIN { exit !(t >= s) }' && break
    done
    steps=""
    if [ -z "$early" ]; then
        kill -TERM "$pid"
        for _ in $(seq 15); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
        if kill -0 "$pid" 2>/dev/null; then
            echo "soak: $preset FAILED: still running 15 s after SIGTERM" >&2
            kill -KILL "$pid"; failed=1; continue
        fi
        steps=$(grep -o 'at measure step [0-9]*' "$log" | grep -o '[0-9]*$')
    fi
    wait "$pid" 2>/dev/null
    if [ -n "$early" ]; then
        echo "soak: $preset FAILED: the run ended by itself before ${seconds} s; its log:" >&2
        tail -5 "$log" >&2; failed=1; continue
    fi
    # Growth from the end of the first fifth to the last sample, less the timing record.
    verdict=$(awk -F, -v s="$seconds" -v steps="${steps:-0}" 'NR > 1 {
            t[NR] = $1; r[NR] = $2; g[NR] = $3; n = NR
        } END {
            for (i = 2; i <= n; i++) if (t[i] >= s / 5) { a = i; break }
            if (!a) a = 2
            record_mb = steps * 48 * 2 / 1048576  # a vector may hold twice its size
            grow = r[n] - r[a] - record_mb * (1 - (a - 2) / (n - 1))
            limit = 16 + 0.05 * r[a]
            printf "%s rss %.1f -> %.1f MB (peak %.1f), growth %.1f MB net of the timing record, limit %.1f",
                (grow > limit ? "FAIL" : "ok"), r[a], r[n], max(r, n), grow, limit
            if (g[n] != "") printf ", gpu %s -> %s MB", g[a], g[n]
        }
        function max(v, n,   m, i) { m = 0; for (i = 2; i <= n; i++) if (v[i] > m) m = v[i]; return m }' "$csv")
    echo "soak: $preset ($backend, $particles particles, ${seconds} s, ${steps:-?} steps): $verdict"
    case $verdict in FAIL*) failed=1 ;; esac
done
exit $failed
