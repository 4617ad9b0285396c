#!/usr/bin/env bash
# Set-up, the format check, build and every test: the release build (with CUDA when nvcc is
# found; GPU tests report "skipped" without a device) and a CPU-only AddressSanitizer + UBSan
# build.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
start=$(date +%s)

echo "== format (.clang-format) =="
./scripts/check_format.sh

echo "== release build =="
cmake --preset release
cmake --build --preset release
ctest --preset release

echo "== CPU-only AddressSanitizer + UndefinedBehaviorSanitizer build =="
cmake --preset asan
cmake --build --preset asan
ctest --preset asan

echo "test.sh: all passed in $(( $(date +%s) - start )) s"
