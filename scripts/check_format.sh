#!/usr/bin/env bash
# Fails, listing the files, when a C++ or CUDA source differs from what .clang-format makes of
# it. Fix with: clang-format -i FILE... (Debian 12's clang-format 14, which setup.sh installs).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v clang-format >/dev/null || { echo "check_format: clang-format is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
if [ -d .git ] && command -v git >/dev/null; then
    mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh')
else
    mapfile -t files < <(find sim render app tests -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh')
fi
bad=()
for f in "${files[@]}"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
    echo "check_format: ${#bad[@]} of ${#files[@]} files differ from .clang-format ($(clang-format --version)):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    echo "check_format: run: clang-format -i ${bad[*]}" >&2
    exit 1
fi
echo "check_format: ${#files[@]} files match .clang-format"
