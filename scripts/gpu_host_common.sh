# Sourced by the GPU host's check scripts (run from the repository root): the host's set-up, and
# a call of limited length (PLAB_GPU_DEADLINE, epoch seconds, when set) that skips what would
# start after it and cuts timeouts to what is left.

# The GL/EGL libraries carried in .gpu-host-debs and the bundle's (build/libs); writes the
# environment's log and the device into $1; sets `bin` and `status`.
gpu_host_setup() {
    local out=$1
    mkdir -p "$out"
    if [ -f .gpu-host-debs/gpu-host-env.sh ]; then
        # shellcheck disable=SC1091
        source .gpu-host-debs/gpu-host-env.sh > "$out/env.txt" 2>&1 || echo "gpu-host-env.sh failed"
    fi
    export LD_LIBRARY_PATH=$PWD/build/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    bin=$PWD/build/particle-lab
    status=0
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader |
        tee "$out/device.txt"
}

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

# "NAME: N passed, N failed, N skipped" from a GoogleTest program's log $2.
gtest_counts() {
    echo "$1: $(grep -cE '^\[       OK \]' "$2") passed," \
        "$(grep -cE '^\[  FAILED  \]' "$2") failed," \
        "$(grep -cE '^\[  SKIPPED \]' "$2") skipped"
}
