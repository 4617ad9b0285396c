#!/usr/bin/env bash
# Packs the release build for a GPU host that has only the driver and the CUDA toolkit: the
# app, the named test programs (stripped) and every shared library they load that such a host
# lacks, into build-bundle/bundle.tar.xz (unpack it into ./build there and put build/libs on
# LD_LIBRARY_PATH). The driver's and the C runtime's libraries stay out: the host's own must
# be used. PLAB_BUNDLE_FROM names another build folder (build-window: no video, no MPI, for the
# window's checks, whose X packages need the room); its bundle is build-bundle/<folder>.tar.xz.
# Usage: scripts/gpu_bundle.sh [TEST_PROGRAM ...]
set -euo pipefail
cd "$(dirname "$0")/.."
stage=build-bundle/stage
rm -rf "$stage"
mkdir -p "$stage/tests" "$stage/libs"
from=${PLAB_BUNDLE_FROM:-build}
cp "$from/particle-lab" "$stage/" || exit 1
for name in "$@"; do
    [ -x "$from/tests/$name" ] || { echo "gpu_bundle: no test program $from/tests/$name" >&2; exit 1; }
    cp "$from/tests/$name" "$stage/tests/"
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
bundle=build-bundle/bundle.tar.xz
[ "$from" = build ] || bundle=build-bundle/$(basename "$from").tar.xz
tar -C "$stage" -cf - . | xz -T2 -9 > "$bundle"
echo "gpu_bundle: $bundle, $(du -h "$bundle" | cut -f1) ($(ls "$stage/libs" | wc -l) libraries," \
    "$# test programs)"
