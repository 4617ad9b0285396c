#!/usr/bin/env bash
# Set-up, the format check, build and every test: the release build (with CUDA when nvcc is
# found; GPU tests report "skipped" without a device), a CPU-only AddressSanitizer + UBSan
# build, and every libFuzzer target for a bounded time (clang-16; scripts/fuzz.sh).
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

echo "== libFuzzer targets, ${PLAB_FUZZ_SECONDS:-30} s each =="
./scripts/fuzz.sh "${PLAB_FUZZ_SECONDS:-30}"

echo "test.sh: all passed in $(( $(date +%s) - start )) s"
