#!/usr/bin/env bash
# Packs the release build for a GPU host that has only the driver and the CUDA toolkit: the
# app, the named test programs (stripped) and every shared library they load that such a host
# lacks, into build-bundle/bundle.tar.xz (unpack it into ./build there and put build/libs on
# LD_LIBRARY_PATH). The driver's and the C runtime's libraries stay out: the host's own must
# be used.
# Usage: scripts/gpu_bundle.sh [TEST_PROGRAM ...]
set -euo pipefail
cd "$(dirname "$0")/.."
stage=build-bundle/stage
rm -rf "$stage"
mkdir -p "$stage/tests" "$stage/libs"
cp build/particle-lab "$stage/"
for name in "$@"; do
    [ -x "build/tests/$name" ] || { echo "gpu_bundle: no test program build/tests/$name" >&2; exit 1; }
    cp "build/tests/$name" "$stage/tests/"
done
strip "$stage/particle-lab" "$stage"/tests/* 2> /dev/null || true
# The host's own: the C and C++ runtimes, the loader, and the GL/EGL/CUDA driver libraries.
host_own='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libgcc_s|libstdc\+\+|libresolv|libEGL|libGL|libGLX|libGLdispatch|libOpenGL|libcuda|linux-vdso)\.'
for binary in "$stage/particle-lab" "$stage"/tests/*; do
    [ -f "$binary" ] || continue
    ldd "$binary" | awk '/=> \//{print $3}' | while read -r lib; do
        base=$(basename "$lib")
        [[ $base =~ $host_own ]] && continue
        [ -f "$stage/libs/$base" ] || cp -L "$lib" "$stage/libs/$base"
    done
done
tar -C "$stage" -cf - . | xz -T2 -9 > build-bundle/bundle.tar.xz
echo "gpu_bundle: $(du -h build-bundle/bundle.tar.xz | cut -f1) ($(ls "$stage/libs" | wc -l) libraries," \
    "$# test programs)"
