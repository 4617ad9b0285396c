#!/usr/bin/env bash
# What the window's tools cost on the GPU host (Xvfb with the NVIDIA GLX, driven by xdotool): the
# funnel scene's window (11,000 beads) records its frames (--record, edit_ms included) in three ways, ROUNDS
# times each, interleaved:
#   plain  the Bodies tab open (the same panel), nothing selected, no tool, the cursor off the
#          window;
#   tools  the Bodies tab, the funnel selected in its list, the brush armed (B), the cursor
#          resting over the scene: every tool set up and idle;
#   move   as tools without the brush, then Alt+left-drag moving the funnel back and forth for
#          3 s (each motion re-bins its triangles), then Ctrl+S (the saved scene shows the move).
# Each plain and tools run records 3 s running, then 3 s paused (Space). Prints, per run, the
# median frame running (its second half) and paused and, for move, the frames that applied an
# edit: how many, their edit_ms (median, max) and their frame_ms. Then the idle cost: the
# paused medians, tools / plain over the rounds (paused, every run shows the same scene; running,
# a run's frame also depends on how far the pour has got).
# Needs the GL/X packages in .gpu-host-debs (fetch-debs.sh, with GPU_HOST_EXTRA_DEBS="xdotool
# libxdo3", 47 MB with libxml2; libicu72 adds 9.4 MB, more than one transfer holds beside the
# checkout's 8.6 MB) and a bundle of a build without video and MPI, so both fit one transfer:
#   cmake -S . -B build-window -DCMAKE_BUILD_TYPE=Release -DPLAB_BUILD_TESTS=OFF \
#         -DPLAB_ENABLE_VIDEO=OFF -DPLAB_WITH_MPI=OFF && cmake --build build-window --target particle-lab
#   PLAB_BUNDLE_FROM=build-window scripts/gpu_bundle.sh   (unpacked into ./build on the host)
# Off the GPU host it runs wherever a DISPLAY and xdotool are (PLAB_WINDOW_ARGS picks the run).
# Usage: scripts/gpu_window_check.sh OUTDIR [ROUNDS]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_window_check.sh OUTDIR [ROUNDS]}
rounds=${2:-3}
root=$PWD
mkdir -p "$out" || exit 1
if [ -z "${DISPLAY:-}" ] && [ -f .gpu-host-debs/gpu-host-env.sh ]; then
    # shellcheck disable=SC1091
    source .gpu-host-debs/gpu-host-env.sh --xvfb > "$out/env.txt" 2>&1 ||
        { echo "no X server: $(tail -3 "$out/env.txt")"; exit 1; }
fi
export LD_LIBRARY_PATH=$root/build/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin=${PLAB_BIN:-$root/build/particle-lab}
run_args=${PLAB_WINDOW_ARGS:---backend cuda --renderer cuda}  # the scene's 11,000 beads (its most: 11,520)
for tool in xdotool python3; do
    command -v "$tool" > /dev/null || { echo "gpu_window_check: no $tool"; exit 1; }
done
command -v nvidia-smi > /dev/null &&
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"

# One window: NAME TAB ACTION. The panel at its default place (a fresh config folder), 1280x720.
window() {
    local name=$1 tab=$2 action=$3 home=$out/$1
    rm -rf "$home" && mkdir -p "$home/config" || return 1
    # shellcheck disable=SC2086
    (cd "$home" && HOME=$home XDG_CONFIG_HOME=$home/config exec "$bin" \
        --scene "$root/assets/scenes/funnel.json" $run_args --panel-tab "$tab" --width 1280 \
        --height 720 --vsync off --frames 1000000 --record "$home/frames.csv" > "$home/app.log" 2>&1) &
    local app=$! win="" _
    for _ in $(seq 300); do
        win=$(xdotool search --onlyvisible --name "Particle Lab" 2> /dev/null | head -n 1)
        [ -n "$win" ] && break
        kill -0 $app 2> /dev/null || break
        sleep 0.2
    done
    [ -n "$win" ] || { echo "$name: no window"; tail -5 "$home/app.log"; kill $app 2> /dev/null; return 1; }
    xdotool windowfocus --sync "$win" 2> /dev/null || xdotool windowfocus "$win"
    sleep 3  # the run under way and the panel drawn, so clicks meet its layout
    local click_at="mousemove --window $win"
    select_funnel() {  # the funnel's row in the Bodies tab's list (below the tab row and + box)
        xdotool $click_at 100 163 && sleep 0.3 && xdotool click 1 && sleep 0.5
    }
    case $action in
        idle)  # the tools' timeline without them, the cursor off the window
            xdotool mousemove 1919 1079 && sleep 1.1 ;;
        tools)
            select_funnel
            xdotool key b && sleep 0.3          # the brush armed (spray), not used
            xdotool $click_at 850 400 ;;        # resting over the scene
        move)
            select_funnel
            xdotool $click_at 850 400 && sleep 0.3
            xdotool keydown alt && sleep 0.2 && xdotool mousedown 1
            local end=$((SECONDS + 3)) x
            while [ $SECONDS -lt $end ]; do
                for x in $(seq 850 10 950) $(seq 950 -10 850); do
                    xdotool $click_at "$x" 400
                    sleep 0.02
                done
            done
            xdotool mouseup 1 && sleep 0.2 && xdotool keyup alt && sleep 0.5
            xdotool key ctrl+s ;;
    esac
    sleep 3  # quiet frames after the action, running
    # Then paused (Space): frames of the window alone, the same scene in every run, so the
    # tools' own cost is not mixed with where the pour has got to.
    [ "$action" = move ] || { xdotool key space && sleep 3; }
    xdotool key Escape
    wait $app  # Esc ends a --frames run early: status 1, the recording kept
    grep -qE "recorded [0-9]+ of" "$home/app.log" ||
        { echo "$name: no recording"; tail -5 "$home/app.log"; return 1; }
    python3 - "$home/frames.csv" "$name" "$action" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
frame = [float(r["frame_ms"]) for r in rows]
edit = [float(r["edit_ms"]) for r in rows]
stepped = [float(r["step_ms"]) > 0 for r in rows]
# Running: the second half of the frames that stepped; paused: the frames after the last step
# (less the first few, while the pause takes hold).
running = [f for f, s in zip(frame, stepped) if s]
running = running[len(running) // 2:]
last_step = max((i for i, s in enumerate(stepped) if s), default=len(rows) - 1)
paused = frame[last_step + 5:]
quiet = paused if len(paused) > 50 else running
line = (f"{sys.argv[2]}: {len(rows)} frames, running median {statistics.median(running):.4f} ms"
        + (f", paused median {statistics.median(paused):.4f} ms ({len(paused)} frames)"
           if len(paused) > 50 else ""))
if sys.argv[3] == "move":
    # The frames that applied an edit: far above the idle frames' few microseconds of requests.
    idle_edit = statistics.median(edit)
    moved = [i for i, e in enumerate(edit) if e > max(0.05, 20 * idle_edit)]
    if moved:
        e = sorted(edit[i] for i in moved)
        f = [frame[i] for i in moved]
        line += (f"; {len(moved)} frames applied an edit: edit_ms median {statistics.median(e):.3f}"
                 f" max {e[-1]:.3f}, their frame_ms median {statistics.median(f):.3f}"
                 f" max {max(f):.3f} (quiet frames' edit_ms median {idle_edit:.4f})")
    else:
        line += "; NO frame applied an edit"
print(line)
print(f"MEDIAN {sys.argv[2]} {statistics.median(quiet)}")
PY
}

status=0
for round in $(seq "$rounds"); do
    for kind in plain tools; do
        action=idle
        [ $kind = tools ] && action=tools
        window "$kind-$round" bodies $action > "$out/$kind-$round.txt" || status=1
        grep -v '^MEDIAN' "$out/$kind-$round.txt"
    done
done
window move bodies move > "$out/move.txt" || status=1
grep -v '^MEDIAN' "$out/move.txt"
if grep -q '"translate"' "$out/move/scenes/my_scene.json" 2> /dev/null; then
    echo "move: the saved scene has the funnel moved ($(grep -m1 -A1 '"translate"' "$out/move/scenes/my_scene.json" | tr -d ' \n'))"
else
    echo "move: FAIL, the saved scene shows no move"; status=1
fi
cat "$out"/plain-*.txt "$out"/tools-*.txt | python3 <(cat <<'PY'
import statistics, sys
v = {"plain": [], "tools": []}
for line in sys.stdin:
    if line.startswith("MEDIAN"):
        _, name, ms = line.split()
        v[name.split("-")[0]].append(float(ms))
if v["plain"] and v["tools"]:
    p, t = statistics.median(v["plain"]), statistics.median(v["tools"])
    print(f"idle tools, paused: median frame {t:.4f} ms against {p:.4f} ms plain: {100 * (t / p - 1):+.1f}%"
          f" (goal: at most +2%); rounds: plain {v['plain']}, tools {v['tools']}")
PY
)
exit $status
