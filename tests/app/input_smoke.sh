#!/usr/bin/env bash
# The real window driven by synthetic input under Xvfb (xdotool): F1 hides the panel, F12
# writes a screenshot, space pauses (two screenshots a second apart are then identical), a
# left drag orbits the camera (the next screenshot differs), R resets, Esc quits with 0.
# Colours are by particle id: the speed map rescales itself even while paused.
# Usage: input_smoke.sh PARTICLE_LAB_BINARY WORK_DIR. Exit 77 = skipped (tools missing).
set -u
bin=$1
work=$2
for tool in xvfb-run xdotool cmp; do
    command -v "$tool" > /dev/null || { echo "skipped: $tool is not installed"; exit 77; }
done
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export HOME=$work  # the panel's ini file goes here, not into the user's home

cat > drive.sh <<'DRIVE'
set -u
"$1" --backend cpu --particles 4000 --width 1024 --height 640 --vsync off --color id > app.log 2>&1 &
app=$!
win=""
for _ in $(seq 100); do
    win=$(xdotool search --name "Particle Lab" 2> /dev/null | head -n 1)
    [ -n "$win" ] && break
    sleep 0.2
done
[ -n "$win" ] || { echo "no window appeared"; cat app.log; kill $app; exit 1; }
xdotool windowfocus --sync "$win" 2> /dev/null || xdotool windowfocus "$win"
sleep 1
shot() {  # F12, then wait for a new file and name it $1
    local before
    before=$(ls particle-lab-*.png 2> /dev/null | wc -l)
    sleep 1.1  # screenshot names have one-second resolution
    xdotool key --window "$win" F12
    for _ in $(seq 50); do
        [ "$(ls particle-lab-*.png 2> /dev/null | wc -l)" -gt "$before" ] && break
        sleep 0.1
    done
    local newest
    newest=$(ls -t particle-lab-*.png 2> /dev/null | head -n 1)
    [ -n "$newest" ] || { echo "F12 wrote no screenshot"; exit 1; }
    cp "$newest" "$1"
}
xdotool key --window "$win" F1          # hide the panel: its timings change every frame
xdotool key --window "$win" space       # pause
sleep 0.5
shot paused1.png
shot paused2.png
# Drag in the scene area (right of the panel) with the left button: orbit.
xdotool mousemove --window "$win" 800 300 mousedown 1
for x in 820 840 860 880 900; do xdotool mousemove --window "$win" $x 320; sleep 0.05; done
xdotool mouseup 1
sleep 0.3
shot orbited.png
xdotool key --window "$win" r
sleep 0.3
xdotool key --window "$win" Escape
for _ in $(seq 100); do kill -0 $app 2> /dev/null || break; sleep 0.1; done
if kill -0 $app 2> /dev/null; then echo "Esc did not close the window"; kill $app; exit 1; fi
wait $app
echo "exit code $?" >> app.log
DRIVE

xvfb-run -a -s "-screen 0 1024x640x24" bash drive.sh "$bin" || { cat app.log 2> /dev/null; exit 1; }
cat app.log
grep -q "exit code 0" app.log || { echo "FAIL: the app did not exit with 0"; exit 1; }
cmp -s paused1.png paused2.png || { echo "FAIL: space did not pause (frames differ)"; exit 1; }
cmp -s paused2.png orbited.png && { echo "FAIL: the drag did not move the camera"; exit 1; }
echo "PASS: F1 panel, F12 screenshots, space pause, drag orbit, Esc quit"
