#!/usr/bin/env bash
# The Python module on the GPU host: builds particle_lab there for the host's python3 (whose
# ABI differs from Debian's, so the module cannot travel prebuilt) and runs the gpu-marked
# pytest suite (zero-copy views against the copies; CuPy and PyTorch where installed) and the
# examples on the CUDA backend. Logs into OUTDIR (default ./gpu-out): env.txt, build.log,
# pytest.log, examples.log and dam_break_front.png.
#   On the development machine: scripts/gpu_python_check.sh prepare   (copies the header-only
#   CLI11 and nlohmann-json with their CMake files into build-devdeps/, which the host lacks)
#   On the GPU host, carrying build-devdeps and .gpu-libs: scripts/gpu_python_check.sh [OUTDIR]
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = prepare ]; then
    mkdir -p build-devdeps/include build-devdeps/share/cmake
    cp -r /usr/include/nlohmann /usr/include/CLI build-devdeps/include/
    cp -r /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 build-devdeps/share/cmake/
    echo "build-devdeps/ ready: carry it (and .gpu-libs) to the GPU host"
    exit 0
fi
out=${1:-gpu-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
status=0
{
    nvidia-smi -L
    command -v python3 gcc cmake nvcc
    python3 --version
} >"$out/env.txt" 2>&1
# The host may lack the OpenMP runtime: the copy in .gpu-libs, with a link name for the linker.
if ! ldconfig -p | grep -q 'libgomp.so.1 ' && [ -f .gpu-libs/libgomp.so.1 ]; then
    mkdir -p /tmp/plab-gomp && cp .gpu-libs/libgomp.so.1 /tmp/plab-gomp/
    ln -sf libgomp.so.1 /tmp/plab-gomp/libgomp.so
    export LIBRARY_PATH=/tmp/plab-gomp${LIBRARY_PATH:+:$LIBRARY_PATH}
    export LD_LIBRARY_PATH=/tmp/plab-gomp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
py=$(command -v python3)
build=/tmp/plab-python-build
if cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPLAB_BUILD_RENDER=OFF \
    -DPLAB_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DPython_EXECUTABLE="$py" \
    -DCMAKE_PREFIX_PATH="$PWD/build-devdeps;$("$py" -m pybind11 --cmakedir)" >"$out/build.log" 2>&1 &&
    cmake --build "$build" --target particle_lab -j "$(nproc)" >>"$out/build.log" 2>&1; then
    echo "module built for $("$py" --version)"
else
    echo "module build FAILED (see build.log)"
    tail -20 "$out/build.log"
    exit 1
fi
export PYTHONPATH=$build/python PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 MPLBACKEND=Agg
"$py" -m pytest -v -p no:cacheprovider --rootdir=tests/python tests/python -m gpu -rs 2>&1 |
    tee "$out/pytest.log" || status=1
grep -q "passed" "$out/pytest.log" && ! grep -q "skipped\|failed" "$out/pytest.log" || status=1
{
    "$py" examples/dem_vs_numba.py --backend cuda --particles 100000 --steps 200 &&
        "$py" examples/dam_break_front.py --backend cuda --particles 50000 --duration 0.3 \
            --out "$out/dam_break_front.png" &&
        (cd /tmp && "$py" "$OLDPWD/examples/export_frames.py" --backend cuda --frames 3 \
            --out /tmp/plab-frames)
} >"$out/examples.log" 2>&1 || { echo "an example FAILED (see examples.log)"; status=1; }
cat "$out/examples.log"
exit $status
