#pragma once
// What the panel and the input handlers edit: a host copy of the parameters, view settings
// and requests. The frame loop applies all of it at one point per frame (App::sync), so the
// UI never reaches into the simulation.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/viewer/brush.h"
#include "app/viewer/edit_history.h"
#include "render/material_math.h"
#include "render/particle_feed.h"
#include "sim/engine/simulator.h"
#include "sim/geometry/body.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "sim/model/sources.h"
#include "sim/physics/color_map.h"

namespace plab::app {

// The panel's tabs (app/viewer/panel.h).
enum class PanelTab { Run, Parameters, Bodies, View, Timing, Optimizations, Record };

// One-shot requests, cleared when applied.
struct Requests {
    bool reset = false;
    bool step_once = false;
    bool screenshot = false;
    bool frame_scene = false;
    std::optional<sim::Preset> preset;
    std::optional<std::size_t> particles;
    std::optional<sim::Backend> backend;
    std::optional<std::string> scene;  // path of a scene file to start
    bool options_changed = false;
    bool export_frame = false;     // write the current particles into export_folder
    bool save_checkpoint = false;  // write a checkpoint to checkpoint_path (F5)
    bool load_checkpoint = false;  // continue from checkpoint_path (F9)
    bool save_scene = false;       // write the running scene into scene_path
    bool undo = false;             // parameters: back one step of `history` (Ctrl+Z)
    bool redo = false;             // forward again (Ctrl+Y)
    bool toggle_video = false;     // start recording video_path, or stop and finish it
    // A geometry body's new spin (body index, rev/min), from the Run tab's Geometry part.
    std::optional<std::pair<std::size_t, float>> body_spin;
    // The scene's bodies as edited in the Bodies tab or by Alt+drag (Run::set_bodies).
    std::optional<std::vector<sim::Body>> bodies;
    // The emitters, sinks and max_particles as edited in the Bodies tab (Run::set_sources).
    std::optional<sim::Sources> sources;
    // A brush stroke at this cursor position (window coordinates), the latest of the frame.
    std::optional<std::pair<double, double>> brush_at;
    // The grab tool's cursor position (window coordinates), the latest of the frame: the press
    // picks the particles, later ones move the spring's anchor.
    std::optional<std::pair<double, double>> grab_at;
    // A click in the scene (window coordinates): selects the body under it.
    std::optional<std::pair<double, double>> pick_at;
};

struct ViewSettings {
    sim::ColorMode color = sim::ColorMode::Speed;
    bool auto_speed_scale = true;     // follow the running maximum speed
    float speed_scale = 1.f;          // m/s at the top of the colour ramp
    float density_span = 0.02f;       // density ramp: rest density × (1 ± this)
    bool auto_pressure_scale = true;  // pressure ramp top: ρ₀ g × the domain's height
    float pressure_scale = 1e4f;      // Pa at the top of the pressure ramp
    float spin_scale = 100.f;         // rad/s at the top of the spin ramp
    bool show_panel = true;
    bool show_box = true;
    bool show_collider = true;
    bool show_bodies = true;
    render::Look look = render::Look::Data;  // --look; the View tab's combo
};

struct UiState {
    sim::Params params;   // edited copy; live parameters apply at the next sync
    EditHistory history;  // the edits of the parameters, bodies and sources, for undo and redo
    bool paused = false;
    bool vsync = true;
    bool use_interop = true;  // when it works: otherwise the host copy runs regardless
    // The host round trip (when interop is off or unusable): HostCopy (pageable memory),
    // PinnedCopy or PinnedAsync.
    render::FeedPath host_path = render::FeedPath::HostCopy;
    sim::SimulatorOptions options;
    int particles_field = 0;  // the count typed into the panel, applied with its button
    ViewSettings view;
    Requests requests;
    std::vector<std::string> scenes;        // scene files offered in the panel ([ and ] cycle them)
    int scene_index = -1;                   // the one running, -1 when none is
    sim::SimStats stats;                    // the last statistics read back (every few frames)
    sim::FrictionStats friction;            // read with them while the frictional law runs
    std::uint64_t stats_start = ~0ull;      // Run::starts() of the run `stats` was read from
    std::optional<PanelTab> open_tab;       // the tab to bring to the front (--panel-tab), once
    std::string export_folder = "exports";  // the Export button's folder (app/export_panel.h)
    // The checkpoint Save and Load use (app/viewer/checkpoint_panel.h).
    std::string checkpoint_path = "checkpoints/state.plab";
    // The scene file Save scene writes and Open starts (app/viewer/scene_file_panel.h).
    std::string scene_path = "scenes/my_scene.json";
    bool scene_with_particles = false;
    int selected_body = -1;            // the Bodies tab's selection, -1 for none
    BrushMode brush = BrushMode::Off;  // left-drag in the scene sprays, erases or grabs while on
    float brush_radii = 4.f;           // the brush's radius in particle radii
    std::string mesh_path = "assets/meshes/funnel.stl";  // the Bodies tab's + mesh
    // The Record video button's movie and the line that follows it (app/viewer/video_panel.h).
    std::string video_path = "videos/particle-lab.mp4";
    bool video_recording = false;
    std::string video_status;

    // Right edge of the panel (screen coordinates) while it is open against the window's left
    // edge, else 0: the scene is drawn in the part of the window right of it.
    float panel_right = 0.f;

    // Shown at the top of the panel until replaced (errors in red).
    std::string message;
    bool message_is_error = false;

    void say(std::string text, bool error = false) {
        message = std::move(text);
        message_is_error = error;
    }
};

}  // namespace plab::app
