#!/usr/bin/env bash
# CPack's .deb: built from the build tree into a temporary folder, it holds the program, the
# scenes and the Python module under /usr, and declares its Debian dependencies.
# Usage: deb_test.sh BUILD_DIR WORK_DIR PYTHON_DIR (PYTHON_DIR empty: no module built)
set -euo pipefail
build=$1 work=$2 python_dir=${3:-}
rm -rf "$work"
mkdir -p "$work"
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/particle-lab_*.deb)
dpkg-deb -f "$deb" Package Version Architecture Depends | tee "$work/control.txt"
depends=$(dpkg-deb -f "$deb" Depends)
# From dpkg-shlibdeps: the C++ and OpenMP runtimes the program links.
grep -q "libstdc++6" <<<"$depends"
grep -q "libgomp1" <<<"$depends"
dpkg-deb -c "$deb" >"$work/contents.txt"
grep -q " ./usr/bin/particle-lab$" "$work/contents.txt"
grep -q " ./usr/share/particle-lab/scenes/dam_break.json$" "$work/contents.txt"
grep -q " ./usr/share/particle-lab/meshes/funnel.stl$" "$work/contents.txt"
if [ -n "$python_dir" ]; then
    grep -q "python3-numpy" <<<"$depends"
    grep -q "python3 (>= 3\.[0-9]*)" <<<"$depends"
    grep -q " ./usr/$python_dir/particle_lab\..*\.so$" "$work/contents.txt"
fi
echo "$(basename "$deb"): contents and dependencies as expected"
