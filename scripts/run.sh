#!/usr/bin/env bash
# Set-up if needed, build, and run Particle Lab on the default scene. Extra arguments go to
# particle-lab (e.g. ./scripts/run.sh bench --particles 1000000 --graph).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release

if [ $# -gt 0 ]; then
    exec ./build/particle-lab "$@"
fi
# The default scene: the classic preset at 100k particles, run headless with a summary.
exec ./build/particle-lab bench --preset classic --particles 100000 --steps 200 --warmup 20
