#!/usr/bin/env bash
# Editing and saving a scene through the real window under Xvfb (xdotool): Ctrl+S saves the
# drum scene as it opens; in another window a click on the Parameters tab's dt slider changes dt
# (its save shows it), Ctrl+Z undoes the edit (the save equals the opened one), Ctrl+Y redoes it; the
# saved scene opened in a new window saves to the same file again; in the Bodies tab, + emitter
# and + sink add sources, + box adds a second body and Alt+left-drag in the scene moves it (the
# saves show each), Alt+right-drag turns it and Ctrl+Z undoes the turn, a click on no body clears
# the selection (a later Alt+drag moves no body); with the brush on (B), a stroke above the bed
# sprays particles and one across it erases some (F5 checkpoints, counted by bench --load), and the grab tool lifts
# beads of the bed above it (the highest bead of an F5 checkpoint taken while held). Last, a
# scene built by hand from the granular preset: + mesh (the funnel), + emitter, + sink, saved;
# the saved file opens again, pours and drains (the sources' counts of an F5 checkpoint) and
# saves to the same file.
# The clicks land on the dt slider and the Bodies tab's buttons of a 1280x720 window at the
# panel's default place and font (a fresh config folder), with no message line above the tabs.
# Usage: sandbox_smoke.sh PARTICLE_LAB_BINARY SCENES_DIR WORK_DIR. Exit 77 = skipped.
set -u
here=$(cd "$(dirname "$0")" && pwd)
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
case $stage in bodies | brush | funnel) tab=bodies ;; esac
start=(--scene "$scene")
# A preset's box, built up by hand (its collider sphere, which would plug the funnel, gone).
[ "$scene" = granular ] && start=(--preset granular --set collider_radius=0)
"$bin" --backend cpu "${start[@]}" --particles 600 --panel-tab $tab --width 1280 \
    --height 720 --vsync off > "app_$stage.log" 2>&1 &
app=$!
win=""
for _ in $(seq 100); do
    win=$(xdotool search --onlyvisible --name "Particle Lab" 2> /dev/null | head -n 1)
    [ -n "$win" ] && break
    sleep 0.2
done
[ -n "$win" ] || { echo "no window appeared"; cat "app_$stage.log"; kill $app; exit 1; }
xdotool windowfocus --sync "$win" 2> /dev/null || xdotool windowfocus "$win"
sleep 2  # the panel drawn a few times, so clicks meet its layout
click() { xdotool mousemove --window "$win" "$1" "$2"; sleep 0.3; xdotool mousedown 1; sleep 0.2; xdotool mouseup 1; sleep 0.6; }
save() {  # Ctrl+S, then wait for the file and keep a copy as $1
    rm -f scenes/my_scene.json
    xdotool key ctrl+s
    for _ in $(seq 100); do [ -f scenes/my_scene.json ] && break; sleep 0.1; done
    [ -f scenes/my_scene.json ] || { echo "Ctrl+S wrote no scene"; exit 1; }
    cp scenes/my_scene.json "$1"
}
checkpoint() {  # F5, then wait for the checkpoint and keep a copy as $1
    rm -f checkpoints/state.plab
    xdotool key F5
    for _ in $(seq 50); do [ -f checkpoints/state.plab ] && break; sleep 0.1; done
    [ -f checkpoints/state.plab ] || { echo "F5 wrote no checkpoint"; exit 1; }
    cp checkpoints/state.plab "$1"
}
if [ "$stage" = edit ]; then
    click 100 166  # the dt slider (first: no message line above the tabs yet)
    save edited.json
    sleep 1.2      # past the merge window, so the undo is of this edit alone
    xdotool key ctrl+z
    sleep 0.4
    save undone.json
    xdotool key ctrl+y
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
    altdrag() {  # Alt + a drag of button $1 along row 400 (the box stays selected)
        xdotool mousemove --window "$win" 800 400
        sleep 0.2
        xdotool keydown alt
        sleep 0.2
        xdotool mousedown "$1"
        for x in 820 840 860 880 900; do xdotool mousemove --window "$win" $x 400; sleep 0.1; done
        xdotool mouseup "$1"
        sleep 0.2
        xdotool keyup alt
        sleep 0.6
    }
    altdrag 3      # Alt+right-drag turns the box about y
    save turned.json
    xdotool key ctrl+z
    sleep 0.4
    save unturned.json
    click 1270 12  # a click on no body (the corner outside the drum) clears the selection
    altdrag 1      # so this Alt+left-drag moves no body
    save deselected.json
elif [ "$stage" = brush ]; then
    drag() {  # a left-drag along row $1 from x $2 to x $3
        xdotool mousemove --window "$win" "$2" "$1"
        sleep 0.2
        xdotool mousedown 1
        for x in $(seq "$2" 15 "$3"); do xdotool mousemove --window "$win" "$x" "$1"; sleep 0.1; done
        xdotool mouseup 1
        sleep 0.5
    }
    sleep 1.5      # the bed settles at the drum's bottom
    xdotool key b  # the brush: spray
    checkpoint before.plab
    drag 300 780 900
    checkpoint sprayed.plab
    xdotool key b  # the brush: erase
    drag 500 740 950
    checkpoint erased.plab
    xdotool key b  # the grab tool: hold beads of the bed and lift them above it
    xdotool mousemove --window "$win" 850 560
    sleep 0.2
    xdotool mousedown 1
    for y in $(seq 560 -20 160); do xdotool mousemove --window "$win" 850 "$y"; sleep 0.1; done
    sleep 1.5      # held up there while the run goes on
    checkpoint grabbed.plab
    xdotool mouseup 1
    sleep 0.3
elif [ "$stage" = funnel ]; then
    click 251 120  # + mesh: the path field's default, assets/meshes/funnel.stl
    click 46 90    # dismiss the message (scaled to fit the box) that moved the rows down
    click 52 346   # + emitter (below the funnel's rows): pours from near the top
    click 121 346  # + sink: a strip along the floor
    sleep 2
    save funnel.json
elif [ "$stage" = funnel_reopened ]; then
    sleep 8        # the emitter pours into the funnel, the sink takes what reaches the floor
    checkpoint poured.plab
    save reopened.json
else
    save "$stage.json"
fi
xdotool key Escape
wait $app
echo "exit code $?" >> "app_$stage.log"
DRIVE

run_stage() {  # scene, stage: a fresh window (and panel layout) each time
    rm -rf config
    xvfb-run -a -s "-screen 0 1280x720x24" bash drive.sh "$bin" "$1" "$2" ||
        { cat "app_$2.log" 2> /dev/null; exit 1; }
    grep -q "exit code 0" "app_$2.log" || { cat "app_$2.log"; echo "FAIL: the $2 run did not exit with 0"; exit 1; }
}
run_stage "$scenes/drum.json" opened   # the scene as it opens, saved
run_stage "$scenes/drum.json" edit
cmp -s opened.json edited.json && { echo "FAIL: the click on dt changed nothing"; exit 1; }
grep -q '"dt"' edited.json || { echo "FAIL: the edited scene has no dt"; cat edited.json; exit 1; }
cmp -s opened.json undone.json || { echo "FAIL: Ctrl+Z did not restore the parameters"; diff opened.json undone.json; exit 1; }
cmp -s edited.json redone.json || { echo "FAIL: Ctrl+Y did not redo the edit"; diff edited.json redone.json; exit 1; }
# The saved scene opened again saves to the same file.
cp opened.json saved_drum.json
run_stage saved_drum.json reloaded
cmp -s opened.json reloaded.json || { echo "FAIL: the reopened scene saves differently"; diff opened.json reloaded.json; exit 1; }
# A box added in the Bodies tab, then moved by Alt+drag.
run_stage "$scenes/drum.json" bodies
[ "$(grep -c '"type"' added.json)" = 2 ] || { echo "FAIL: + box added no body"; cat added.json; exit 1; }
grep -q '"type": "box"' added.json || { echo "FAIL: the added body is not a box"; exit 1; }
for key in emitters sinks max_particles; do
    grep -q "\"$key\"" added.json || { echo "FAIL: + emitter / + sink left no $key"; cat added.json; exit 1; }
done
grep -q '"translate"' added.json && { echo "FAIL: the box moved before the drag"; exit 1; }
grep -q '"translate"' moved.json || { echo "FAIL: Alt+drag did not move the box"; diff added.json moved.json; exit 1; }
grep -q '"rotate"' turned.json || { echo "FAIL: Alt+right-drag did not turn the box"; diff moved.json turned.json; exit 1; }
cmp -s moved.json unturned.json || { echo "FAIL: Ctrl+Z did not undo the turn"; diff moved.json unturned.json; exit 1; }
# (that drag orbits the camera instead: the files differ in their camera only)
python3 -c "import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); [d.pop('camera', None) for d in (a, b)]; sys.exit(a != b)" moved.json deselected.json ||
    { echo "FAIL: a click on no body left one selected"; diff moved.json deselected.json; exit 1; }
# The brush: an erase stroke across the bed takes particles away, a spray stroke adds some.
run_stage "$scenes/drum.json" brush
count() { "$bin" bench --backend cpu --load "$1" --steps 1 --warmup 0 | awk '$1 == "particles" {print $2; exit}'; }
before=$(count before.plab) sprayed=$(count sprayed.plab) erased=$(count erased.plab)
echo "brush: $before particles, $sprayed after spraying, $erased after erasing"
[ -n "$before" ] && [ -n "$erased" ] && [ -n "$sprayed" ] || { echo "FAIL: no particle counts"; exit 1; }
[ "$sprayed" -gt "$before" ] || { echo "FAIL: the spray stroke added nothing"; exit 1; }
[ "$erased" -lt "$sprayed" ] || { echo "FAIL: the erase stroke took nothing away"; exit 1; }
# The grab: the highest bead while held above the bed is well above the bed's top before.
top_before=$(python3 "$here/checkpoint_top.py" erased.plab)
top_held=$(python3 "$here/checkpoint_top.py" grabbed.plab)
echo "grab: the highest bead at y = $top_before m before, $top_held m while held"
python3 -c "import sys; sys.exit(0 if $top_held > $top_before + 0.05 else 1)" ||
    { echo "FAIL: the grab lifted nothing"; cat app_brush.log; exit 1; }
# A scene built by hand: a funnel mesh in the granular preset's box, an emitter pouring into
# it and a sink on the floor, saved; the saved file opens again (its mesh path relative to it),
# pours and drains, and saves to the same file.
ln -sfn "$scenes/.." assets  # the mesh path field's default is relative to the working folder
run_stage granular funnel
for key in '"type": "mesh"' funnel.stl '"emitters"' '"sinks"'; do
    grep -q "$key" funnel.json || { echo "FAIL: the saved funnel scene has no $key"; cat funnel.json; exit 1; }
done
cp funnel.json funnel_saved.json
run_stage scenes/my_scene.json funnel_reopened
cmp -s funnel_saved.json reopened.json || { echo "FAIL: the reopened funnel scene saves differently"; diff funnel_saved.json reopened.json; exit 1; }
sources=$("$bin" bench --backend cpu --load poured.plab --steps 1 --warmup 0 | grep '^  sources')
echo "funnel:$sources"
laid=$(echo "$sources" | awk '{print $2}') taken=$(echo "$sources" | awk '{print $7}')
[ "${laid:-0}" -gt 0 ] || { echo "FAIL: the emitter laid nothing"; exit 1; }
[ "${taken:-0}" -gt 0 ] || { echo "FAIL: the sink took nothing"; exit 1; }
echo "PASS: Ctrl+S saves, a slider edit shows, Ctrl+Z / Ctrl+Y undo and redo it, the saved scene reopens to the same file, + emitter, + sink and + box add to the scene, Alt+drag moves the box, Alt+right-drag turns it and Ctrl+Z undoes that, a click on nothing deselects, the brush erases and sprays, the grab lifts beads, a funnel scene built by hand pours, drains, saves and reopens"
