# Sourced by the GPU host's check scripts: a call of limited length (PLAB_GPU_DEADLINE, epoch
# seconds, when set) skips what would start after it and cuts timeouts to what is left.
# At most $1 seconds, and no later than the deadline (10 s at least).
budget() {
    local cap=$1
    if [ -n "${PLAB_GPU_DEADLINE:-}" ]; then
        local left=$((PLAB_GPU_DEADLINE - $(date +%s)))
        [ "$left" -lt "$cap" ] && cap=$((left > 10 ? left : 10))
    fi
    echo "$cap"
}
# False, saying that section $1 is skipped, once the deadline has passed.
in_time() {
    if [ -n "${PLAB_GPU_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$PLAB_GPU_DEADLINE" ]; then
        echo "== $1: skipped, past the call's deadline"
        return 1
    fi
}
