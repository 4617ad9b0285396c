#!/usr/bin/env bash
# Set-up if needed, build, and open Particle Lab's window on the default scene. Extra
# arguments go to particle-lab (e.g. ./scripts/run.sh --backend cpu --preset granular, or
# ./scripts/run.sh bench --particles 1000000 --graph for the headless benchmark).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release

exec ./build/particle-lab "$@"
