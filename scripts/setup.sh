#!/usr/bin/env bash
# Installs the Debian 12 packages Particle Lab needs to build, run and test.
# Idempotent: packages already installed are skipped, and apt is not touched (no network)
# when nothing is missing. The CUDA toolkit is not a Debian package here: when nvcc is
# absent the build is CPU-only and says so.
set -euo pipefail

packages=(
    build-essential cmake pkg-config python3 python3-matplotlib
    libgtest-dev libbenchmark-dev
    libcli11-dev nlohmann-json3-dev
    libglfw3-dev libglm-dev libimgui-dev libstb-dev python3-glad
    libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri
    xvfb xauth xdotool clang-format
    clang-16 libfuzzer-16-dev libomp-16-dev libclang-rt-16-dev
    pybind11-dev python3-dev python3-numpy python3-pytest
    libavcodec-dev libavformat-dev libswscale-dev
    libopenmpi-dev openmpi-bin
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all ${#packages[@]} packages present"
else
    echo "setup: installing ${missing[*]}"
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "setup: need root or sudo to install packages" >&2; exit 1; }
        sudo_cmd=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

nvcc_path=$(command -v nvcc || true)
[ -z "$nvcc_path" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc_path=/usr/local/cuda/bin/nvcc
if [ -n "$nvcc_path" ]; then
    echo "setup: CUDA toolkit found at $nvcc_path"
else
    echo "setup: no CUDA toolkit (nvcc) found: the build will be CPU-only"
fi
