#!/usr/bin/env bash
# The standard benchmark sweep of docs/benchmarks.md: every comparison there, one folder each.
#
# Usage: scripts/standard_sweep.sh [OUT_DIR]        (default: sweep-standard)
#
# Runs `particle-lab bench --sweep ...` nine times into OUT_DIR/<name>/ (sweep.csv, sweep.md, and
# OUT_DIR/<name>.log with the command and its output), then, where matplotlib is installed,
# draws each one with scripts/plot_bench.py (step_ms.png, stages.png) and the render sweep as
# bars (OUT_DIR/render/frame_parts.png). Needs a CUDA device; the CPU points use every core.
#
#   sizes     CUDA, 65k-4M particles x graph off/on x persistent kernel off/on
#   cpu_cuda  CPU vs CUDA (graph), 65k-1M particles
#   render    whole frames at 1M: off, interop, host (pageable), pinned, pinned-async
#   block     CUDA (graph), 65k-4M x block 32..1024
#   scatter   CUDA (graph), 65k-4M x gather vs per-pair scatter with atomics
#   sorted    CUDA (graph), 65k-4M x particles reordered by cell vs left unsorted
#   double    CUDA (graph), 65k-4M x float vs double-precision state
#   renderers whole frames (interop, start window), 1M-10M x GL sprites vs CUDA splats
#             (OUT_DIR/renderers/renderers.png: FPS and the particle draw's time per size)
#   deterministic CUDA (graph), 262k-4M x atomic order vs cells in id order
#
# Environment: PLAB_BIN (default build/particle-lab), PLAB_SWEEPS (names to run, default all,
# e.g. "sizes block"), PLAB_PLOT=0 to skip the charts.
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:-sweep-standard}
bin=${PLAB_BIN:-build/particle-lab}
sweeps=${PLAB_SWEEPS:-sizes cpu_cuda render block scatter sorted double renderers deterministic}
[ -x "$bin" ] || { echo "standard_sweep.sh: no $bin (build it: cmake --build build)" >&2; exit 1; }
mkdir -p "$out"

sizes=particles=65536,262144,1048576,4194304
cuda=(--backend cuda --preset classic --steps 200 --warmup 50)

run() {
    local name=$1
    shift
    case " $sweeps " in *" $name "*) ;; *) return 0 ;; esac
    local cmd=("$bin" bench "$@" --out "$out/$name")
    echo "== $name: ${cmd[*]}" | tee "$out/$name.log"
    local start=$SECONDS
    if "${cmd[@]}" 2>&1 | tee -a "$out/$name.log"; then
        echo "== $name: $((SECONDS - start)) s" | tee -a "$out/$name.log"
    else  # the finished rows stay in sweep.csv; go on with the next sweep
        echo "== $name: FAILED after $((SECONDS - start)) s" | tee -a "$out/$name.log"
        failed="$failed $name"
    fi
}
failed=""

run sizes "${cuda[@]}" --sweep "$sizes" --sweep graph=off,on --sweep persistent_kernel=off,on
run cpu_cuda --preset classic --steps 200 --warmup 50 --graph \
    --sweep particles=65536,262144,1048576 --sweep backend=cpu,cuda
run render --backend cuda --preset classic --particles 1048576 --steps 100 --warmup 50 --graph \
    --sweep render=off,interop,host,pinned,pinned-async
run block "${cuda[@]}" --graph --sweep "$sizes" --sweep block_size=32,64,128,256,512,1024
run scatter "${cuda[@]}" --graph --sweep "$sizes" --sweep scatter_forces=off,on
run sorted "${cuda[@]}" --graph --sweep "$sizes" --sweep sorted_memory=on,off
run double "${cuda[@]}" --graph --sweep "$sizes" --sweep double_state=off,on
run renderers --backend cuda --preset classic --steps 100 --warmup 20 --graph --render interop \
    --window start --sweep particles=1048576,4194304,10000000 --sweep renderer=gl,cuda
run deterministic "${cuda[@]}" --graph --sweep particles=262144,1048576,4194304 \
    --sweep deterministic=off,on

[ -z "$failed" ] || echo "standard_sweep.sh: failed:$failed (see $out/<name>.log)" >&2
status=0
[ -z "$failed" ] || status=1
[ "${PLAB_PLOT:-1}" = 0 ] && exit $status
if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    echo "standard_sweep.sh: no matplotlib for /usr/bin/python3: charts skipped" >&2
    exit $status
fi
for csv in "$out"/*/sweep.csv; do
    /usr/bin/python3 scripts/plot_bench.py "$csv"
done
if [ -f "$out/render/sweep.csv" ]; then
    /usr/bin/python3 - "$out/render/sweep.csv" <<'EOF'
# Bars of the render sweep: the parts of a serial frame and the pipelined frame, per feed path.
import csv, os, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["render"] != "off"]
parts = [("export_ms_median", "export (device)"), ("feed_ms_median", "feed (host)"),
         ("draw_ms_median", "draw (GL timer)"), ("frame_serial_ms_median", "frame, serial"),
         ("frame_pipelined_ms", "frame, pipelined")]
fig, ax = plt.subplots(figsize=(9, 5))
width = 0.8 / len(parts)
for i, (col, label) in enumerate(parts):
    xs = [j + (i - (len(parts) - 1) / 2) * width for j in range(len(rows))]
    ax.bar(xs, [float(r[col]) for r in rows], width, label=label)
ax.set_xticks(range(len(rows)))
ax.set_xticklabels([f"{r['render']}\n{float(r['fps']):.0f} FPS" for r in rows])
ax.set_ylabel("ms (median)")
ax.set_title(f"Whole frames, {int(rows[0]['particles']):,} particles, classic, CUDA graph")
ax.grid(True, axis="y", alpha=0.3)
ax.legend(fontsize="small")
fig.text(0.01, 0.01, rows[0]["device"], fontsize="x-small")
fig.tight_layout(rect=(0, 0.03, 1, 1))
png = os.path.join(os.path.dirname(sys.argv[1]), "frame_parts.png")
fig.savefig(png, dpi=120)
print("wrote " + png)
EOF
fi
if [ -f "$out/renderers/sweep.csv" ]; then
    /usr/bin/python3 - "$out/renderers/sweep.csv" <<'EOF'
# The two particle renderers per size: pipelined FPS, and what drawing the particles costs the
# GPU (GL sprites: the GL timer around the draw; CUDA: clear + splat + resolve).
import csv, os, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["valid"] == "yes"]
fig, (fps_ax, ms_ax) = plt.subplots(1, 2, figsize=(11, 4.5))
for renderer, label in (("gl", "GL sprites"), ("cuda", "CUDA splats")):
    mine = sorted((r for r in rows if r["renderer"] == renderer), key=lambda r: int(r["particles"]))
    xs = [int(r["particles"]) for r in mine]
    fps_ax.plot(xs, [float(r["fps"]) for r in mine], "o-", label=label)
    cost = "splat_ms_median" if renderer == "cuda" else "draw_ms_median"
    ms_ax.plot(xs, [float(r[cost]) for r in mine], "o-", label=label)
for ax, title in ((fps_ax, "frames per second (pipelined)"), (ms_ax, "particle draw, ms (device)")):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("particles")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
fig.text(0.01, 0.01, (rows[0]["device"] if rows else "") + ", classic, 1280x720, CUDA graph",
         fontsize="x-small")
fig.tight_layout(rect=(0, 0.03, 1, 1))
png = os.path.join(os.path.dirname(sys.argv[1]), "renderers.png")
fig.savefig(png, dpi=120)
print("wrote " + png)
EOF
fi
if [ -f "$out/block/sweep.csv" ]; then
    /usr/bin/python3 - "$out/block/sweep.csv" <<'EOF'
# The block sweep against the block size: step ms relative to block 256, one line per count.
import csv, os, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.ticker import ScalarFormatter
rows = list(csv.DictReader(open(sys.argv[1])))
fig, ax = plt.subplots(figsize=(8, 5))
for n in sorted({int(r["particles"]) for r in rows}):
    pts = sorted((int(r["block"]), float(r["step_ms_median"])) for r in rows
                 if int(r["particles"]) == n)
    base = dict(pts).get(256, pts[0][1])
    ax.plot([b for b, _ in pts], [ms / base for _, ms in pts], marker="o",
            label=f"{n:,} particles (block 256: {base:.4f} ms)")
ax.set_xscale("log", base=2)
ax.set_xticks(sorted({int(r["block"]) for r in rows}))
ax.get_xaxis().set_major_formatter(ScalarFormatter())
ax.axhline(1.0, color="grey", lw=0.8)
ax.set_xlabel("threads per block")
ax.set_ylabel("step ms / step ms at block 256 (medians)")
ax.set_title("Block size, CUDA graph")
ax.grid(True, alpha=0.3)
ax.legend(fontsize="small")
fig.text(0.01, 0.01, rows[0]["device"], fontsize="x-small")
fig.tight_layout(rect=(0, 0.03, 1, 1))
png = os.path.join(os.path.dirname(sys.argv[1]), "block_relative.png")
fig.savefig(png, dpi=120)
print("wrote " + png)
EOF
fi
exit $status
