#!/usr/bin/env bash
# Editing and saving a scene through the real window under Xvfb (xdotool): Ctrl+S saves the
# drum scene as it opened; a click on the Parameters tab's dt slider changes dt (the next save
# shows it); Ctrl+Z undoes the edit (the save equals the first again), Ctrl+Y redoes it; the
# saved scene opened in a new window saves to the same file again; in the Bodies tab, + emitter
# and + sink add sources, + box adds a second body and Alt+left-drag in the scene moves it (the
# saves show each).
# The clicks land on the dt slider and the Bodies tab's buttons of a 1280x720 window at the
# panel's default place and font (a fresh config folder), with no message line above the tabs.
# Usage: sandbox_smoke.sh PARTICLE_LAB_BINARY SCENES_DIR WORK_DIR. Exit 77 = skipped.
set -u
bin=$1
scenes=$2
work=$3
for tool in xvfb-run xdotool cmp; do
    command -v "$tool" > /dev/null || { echo "skipped: $tool is not installed"; exit 77; }
done
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export HOME=$work XDG_CONFIG_HOME=$work/config  # the panel starts at its default place

cat > drive.sh <<'DRIVE'
set -u
bin=$1 scene=$2 stage=$3
tab=parameters
[ "$stage" = bodies ] && tab=bodies
"$bin" --backend cpu --scene "$scene" --particles 600 --panel-tab $tab --width 1280 \
    --height 720 --vsync off > "app_$stage.log" 2>&1 &
app=$!
win=""
for _ in $(seq 100); do
    win=$(xdotool search --name "Particle Lab" 2> /dev/null | head -n 1)
    [ -n "$win" ] && break
    sleep 0.2
done
[ -n "$win" ] || { echo "no window appeared"; cat "app_$stage.log"; kill $app; exit 1; }
xdotool windowfocus --sync "$win" 2> /dev/null || xdotool windowfocus "$win"
sleep 1
click() { xdotool mousemove --window "$win" "$1" "$2"; sleep 0.3; xdotool mousedown 1; sleep 0.2; xdotool mouseup 1; sleep 0.6; }
save() {  # Ctrl+S, then wait for the file and keep a copy as $1
    rm -f scenes/my_scene.json
    xdotool key --window "$win" ctrl+s
    for _ in $(seq 50); do [ -f scenes/my_scene.json ] && break; sleep 0.1; done
    [ -f scenes/my_scene.json ] || { echo "Ctrl+S wrote no scene"; exit 1; }
    cp scenes/my_scene.json "$1"
}
if [ "$stage" = edit ]; then
    save opened.json
    click 45 77    # "dismiss" under the saved message: the tabs move back up
    click 230 166  # the dt slider
    save edited.json
    sleep 1.2      # past the merge window, so the undo is of this edit alone
    xdotool key --window "$win" ctrl+z
    sleep 0.4
    save undone.json
    xdotool key --window "$win" ctrl+y
    sleep 0.4
    save redone.json
elif [ "$stage" = bodies ]; then
    click 52 231   # + emitter (below the drum's body and its spin slider)
    click 121 231  # + sink
    click 38 120   # + box: added and selected
    save added.json
    xdotool mousemove --window "$win" 800 400
    sleep 0.2
    xdotool keydown alt
    sleep 0.2
    xdotool mousedown 1
    for x in 820 840 860 880 900; do xdotool mousemove --window "$win" $x 400; sleep 0.1; done
    xdotool mouseup 1
    sleep 0.2
    xdotool keyup alt
    sleep 0.6
    save moved.json
else
    save reloaded.json
fi
xdotool key --window "$win" Escape
wait $app
echo "exit code $?" >> "app_$stage.log"
DRIVE

xvfb-run -a -s "-screen 0 1280x720x24" bash drive.sh "$bin" "$scenes/drum.json" edit ||
    { cat app_edit.log 2> /dev/null; exit 1; }
grep -q "exit code 0" app_edit.log || { cat app_edit.log; echo "FAIL: the app did not exit with 0"; exit 1; }
cmp -s opened.json edited.json && { echo "FAIL: the click on dt changed nothing"; exit 1; }
grep -q '"dt"' edited.json || { echo "FAIL: the edited scene has no dt"; cat edited.json; exit 1; }
cmp -s opened.json undone.json || { echo "FAIL: Ctrl+Z did not restore the parameters"; diff opened.json undone.json; exit 1; }
cmp -s edited.json redone.json || { echo "FAIL: Ctrl+Y did not redo the edit"; diff edited.json redone.json; exit 1; }
# The saved scene opened again saves to the same file.
cp opened.json saved_drum.json
rm -rf config
xvfb-run -a -s "-screen 0 1280x720x24" bash drive.sh "$bin" saved_drum.json reload ||
    { cat app_reload.log 2> /dev/null; exit 1; }
grep -q "exit code 0" app_reload.log || { cat app_reload.log; echo "FAIL: the reload did not exit with 0"; exit 1; }
cmp -s opened.json reloaded.json || { echo "FAIL: the reopened scene saves differently"; diff opened.json reloaded.json; exit 1; }
# A box added in the Bodies tab, then moved by Alt+drag.
rm -rf config
xvfb-run -a -s "-screen 0 1280x720x24" bash drive.sh "$bin" "$scenes/drum.json" bodies ||
    { cat app_bodies.log 2> /dev/null; exit 1; }
grep -q "exit code 0" app_bodies.log || { cat app_bodies.log; echo "FAIL: the bodies run did not exit with 0"; exit 1; }
[ "$(grep -c '"type"' added.json)" = 2 ] || { echo "FAIL: + box added no body"; cat added.json; exit 1; }
grep -q '"type": "box"' added.json || { echo "FAIL: the added body is not a box"; exit 1; }
for key in emitters sinks max_particles; do
    grep -q "\"$key\"" added.json || { echo "FAIL: + emitter / + sink left no $key"; cat added.json; exit 1; }
done
grep -q '"translate"' added.json && { echo "FAIL: the box moved before the drag"; exit 1; }
grep -q '"translate"' moved.json || { echo "FAIL: Alt+drag did not move the box"; diff added.json moved.json; exit 1; }
echo "PASS: Ctrl+S saves, a slider edit shows, Ctrl+Z / Ctrl+Y undo and redo it, the saved scene reopens to the same file, + emitter, + sink and + box add to the scene and Alt+drag moves the box"
