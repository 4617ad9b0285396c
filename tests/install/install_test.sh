#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then the installed files run from a folder outside
# the source and build trees: `particle-lab --version`, `--list-scenes` (found beside the
# installed program, not in the source tree), a short CPU `bench` on a scene from the installed
# share folder, and `import particle_lab` from the installed module folder.
# Usage: install_test.sh BUILD_DIR WORK_DIR PYTHON PYTHON_DIR (PYTHON empty: no module built)
set -euo pipefail
build=$1 work=$2 python=${3:-} python_dir=${4:-}
rm -rf "$work"
mkdir -p "$work/run"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
cd "$work/run"

program="$prefix/bin/particle-lab"
scenes="$prefix/share/particle-lab/scenes"
"$program" --version | tee version.txt
grep -qx "particle-lab [0-9.]*" version.txt

"$program" --list-scenes | tee scenes.txt
grep -qx "scene files in $scenes (--scene PATH)" scenes.txt
grep -q "dam_break *sph *$scenes/dam_break.json" scenes.txt

"$program" bench --backend cpu --scene "$scenes/dam_break.json" --particles 2000 --steps 5 \
    --warmup 1 --window start | tee bench.txt
grep -q "model        sph, scene dam_break ($scenes/dam_break.json)" bench.txt
grep -q "median step" bench.txt

if [ -n "$python" ]; then
    module_dir="$prefix/$python_dir"
    ls "$module_dir"/particle_lab*.so
    PYTHONPATH="$module_dir" PYTHONDONTWRITEBYTECODE=1 "$python" -c "
import particle_lab as pl
assert pl.__file__.startswith('$module_dir/'), pl.__file__
paths = [s['path'] for s in pl.scenes()]
assert paths and all(p.startswith('$scenes/') for p in paths), paths
sim = pl.Simulation(scene='dam_break', particles=2000, backend='cpu')
sim.step(2)
print('import particle_lab:', pl.__version__, sim)
"
fi
echo "installed program and module work from $prefix"
