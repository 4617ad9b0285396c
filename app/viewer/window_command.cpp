#include "app/viewer/window_command.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "app/lab/checkpoint_options.h"
#include "app/lab/cli_checks.h"
#include "app/lab/output_file.h"
#include "app/lab/video_encoder.h"
#include "app/viewer/app.h"
#include "app/viewer/panel.h"
#include "render/material_view.h"
#include "sim/core/enum_names.h"
#include "sim/core/error.h"
#include "sim/engine/simulator.h"
#include "sim/io/checkpoint.h"
#include "sim/model/presets.h"

namespace plab::app {
namespace {

// A colour map that would show nothing of the run (spin without the frictional law) is refused
// before the window opens, rather than shown as one flat colour.
void require_color_shows(sim::ColorMode color, const sim::Params& params) {
    const std::string note = sim::color_mode_note(color, params);
    PLAB_REQUIRE(note.empty(), "--color " + std::string(sim::color_mode_name(color)) +
                                   ": no rotation to show: " + note + " (choose another --color)");
}

}  // namespace

WindowCommand::WindowCommand(CLI::App& top) : top_(top), variants_(top) {
    AppConfig& a = config_;
    top.add_option("--backend", backend_,
                   "Simulation backend: " + sim::enum_choices(sim::backend_names()))
        ->check(CLI::IsMember(sim::enum_names(sim::backend_names())))
        ->capture_default_str();
    top.add_option("--preset", a.run.preset, "Scene preset: classic, granular (DEM) or water (SPH)")
        ->check(CLI::IsMember(sim::enum_names(sim::preset_names())))
        ->capture_default_str();
    top.add_option("--scene", scene_,
                   "Scene file (JSON), e.g. assets/scenes/mixer.json; overrides --preset")
        ->check(non_empty_check("scene file (JSON)"));
    top.add_option("--particles", a.run.particles,
                   "Number of particles (default: 100000 on CUDA, 25000 on the CPU)")
        ->check(count_check(1, sim::kMaxParticles));
    top.add_option("--set", a.run.assignments, "Override a parameter: name=value (repeatable)");
    top.add_option("--color", color_, "Colour map: " + sim::enum_choices(sim::color_mode_names()))
        ->check(CLI::IsMember(sim::enum_names(sim::color_mode_names())))
        ->capture_default_str();
    top.add_option("--look", look_,
                   "How particles look: data (colour maps) or material (a liquid surface for "
                   "SPH, shaded grains with occlusion and shadows for DEM; drawn by the CUDA "
                   "renderer, the GL one keeps the data look)")
        ->check(CLI::IsMember(sim::enum_names(render::look_names())))
        ->capture_default_str();
    top.add_option("--speed-scale", a.speed_scale,
                   "Fix the top of the speed colour ramp at this many m/s (default: follow the "
                   "fastest particle)")
        ->check(number_check(1e-9, 1e9));
    top.add_option("--spin-scale", a.spin_scale,
                   "Top of the spin colour ramp (--color spin: angular speed, frictional contact "
                   "law only), rad/s")
        ->check(number_check(1e-9, 1e9))
        ->capture_default_str();
    top.add_option("--frames", a.frames, "Run this many frames, then exit")
        ->check(CLI::PositiveNumber);
    top.add_option("--screenshot", a.screenshot,
                   "With --frames: save the last frame to this PNG file")
        ->check(non_empty_check("PNG file"));
    top.add_option("--record", a.record,
                   "With --frames: record the frame timings and configuration into this CSV file")
        ->check(non_empty_check("CSV file"));
    top.add_option("--vsync", vsync_, "Sync to the display: on or off")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    top.add_option("--width", a.width, "Window width, pixels")
        ->check(count_check(64, 16384))
        ->capture_default_str();
    top.add_option("--height", a.height, "Window height, pixels")
        ->check(count_check(64, 16384))
        ->capture_default_str();
    top.add_flag("--no-panel", no_panel_, "Start with the panel hidden (F1 toggles it)");
    top.add_option("--panel-tab", panel_tab_,
                   "The panel's tab to open on: " + sim::enum_choices(panel_tab_names()))
        ->check(CLI::IsMember(sim::enum_names(panel_tab_names())));
    top.add_option("--video", a.video.path,
                   "Record the scene as an MP4 movie (H.264) at the simulation's speed; with "
                   "--frames N (movie frames) or --video-seconds S it then exits, otherwise "
                   "it records until the window closes")
        ->check(non_empty_check("movie file (MP4)"));
    top.add_option("--video-seconds", a.video_seconds,
                   "With --video: simulated seconds to record, then exit")
        ->check(number_check(1e-9, 1e6));
    top.add_option("--video-slowmo", a.video.slowmo,
                   "With --video: the movie runs this many times slower than the simulation")
        ->check(number_check(1e-3, 1e6))
        ->capture_default_str();
    top.add_option("--video-fps", a.video.fps, "With --video: 30 or 60 frames per second")
        ->check(CLI::IsMember({30, 60}))
        ->capture_default_str();
    top.add_option("--load", a.load,
                   "Continue from this checkpoint (.plab) instead of --preset/--scene: its "
                   "state, parameters (--set applies over them) and variants (flags override "
                   "them)")
        ->check(non_empty_check("checkpoint file (.plab)"));
    top.add_option("--save-every", save_every_,
                   "SECONDS DIR: write a checkpoint every SECONDS of simulated time into DIR "
                   "(step_NNNNNNNNN.plab)")
        ->expected(2)
        ->type_name("SECONDS DIR");
}

int WindowCommand::run() {
    AppConfig& a = config_;
    a.video.width = a.width;  // the movie is the window's size, without the panel
    a.video.height = a.height;
    if (!a.video.path.empty()) {
        // --frames counts the movie's frames; the run ends with the movie.
        PLAB_REQUIRE(a.screenshot.empty() && a.record.empty(),
                     "--video goes without --screenshot and --record");
        PLAB_REQUIRE(a.frames == 0 || a.video_seconds == 0,
                     "--video takes --frames N or --video-seconds S, not both");
        a.video.max_frames = a.frames;
        a.frames = 0;
        const std::string why = video_unavailable_reason();
        PLAB_REQUIRE(why.empty(), "--video: " + why);
        require_writable(a.video.path);
    } else {
        PLAB_REQUIRE(a.video_seconds == 0, "--video-seconds goes with --video FILE");
    }
    PLAB_REQUIRE(a.screenshot.empty() || a.frames > 0,
                 "--screenshot needs --frames N (the frame to save)");
    PLAB_REQUIRE(a.record.empty() || a.frames >= 2,
                 "--record needs --frames N (at least 2: N-1 frame times are recorded)");
    a.backend = sim::parse_backend(backend_);
    a.color = sim::parse_color_mode(color_);
    a.look = sim::parse_enum(render::look_names(), look_, "look");
    a.vsync = vsync_ == "on";
    a.show_panel = !no_panel_;
    if (!panel_tab_.empty())
        a.panel_tab = sim::parse_enum(panel_tab_names(), panel_tab_, "panel tab");
    if (!a.load.empty()) {
        PLAB_REQUIRE(
            top_.count("--preset") + top_.count("--scene") + top_.count("--particles") == 0,
            "--load " + a.load +
                " replaces --preset, --scene and --particles: the checkpoint holds "
                "the particles");
        // A bad checkpoint fails here, naming the file, before a window opens.
        auto loaded = std::make_shared<const sim::Checkpoint>(sim::load_checkpoint(a.load));
        for (const std::string& note : loaded->notes)
            std::cerr << "note: " << a.load << ": " << note << "\n";
        sim::Params p = loaded->params;
        for (const std::string& assignment : a.run.assignments)
            sim::apply_assignment(p, assignment);
        sim::validate(p);
        require_color_shows(a.color, p);
        a.options = loaded->run.options;  // the variant flags given apply over them
        a.checkpoint = std::move(loaded);
    }
    variants_.apply(a.options, &std::cerr);
    sim::validate(a.options);
    if (!scene_.empty()) {
        // A bad scene file fails here, before a window opens.
        a.run.scene_file = sim::load_scene_file(scene_);
        a.run.scene_source = scene_;
    }
    // Bad --set values or a count the scene cannot hold fail here, before a window opens.
    if (!a.checkpoint)
        require_color_shows(a.color,
                            sim::resolve_run(a.run, default_particles(sim::Backend::Cpu)).params);
    a.save_every = parse_save_every(save_every_);
    require_writable(a.save_every);
    // So does an output that cannot be written (a missing folder is made).
    if (!a.record.empty()) require_writable(a.record);
    if (!a.screenshot.empty()) require_writable(a.screenshot);
    App window_app(a);
    return window_app.run();
}

}  // namespace plab::app
