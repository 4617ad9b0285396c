#include "app/viewer/window_command.h"

#include <CLI/CLI.hpp>

#include <iostream>

#include "app/lab/cli_checks.h"
#include "app/lab/output_file.h"
#include "app/viewer/app.h"
#include "sim/enum_names.h"
#include "sim/error.h"
#include "sim/presets.h"
#include "sim/simulator.h"

namespace plab::app {

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
                   "Scene file (JSON), e.g. assets/scenes/mixer.json; overrides --preset");
    top.add_option("--particles", a.run.particles,
                   "Number of particles (default: 100000 on CUDA, 25000 on the CPU)")
        ->check(count_check(1, sim::kMaxParticles));
    top.add_option("--set", a.run.assignments, "Override a parameter: name=value (repeatable)");
    top.add_option("--color", color_, "Colour map: " + sim::enum_choices(sim::color_mode_names()))
        ->check(CLI::IsMember(sim::enum_names(sim::color_mode_names())))
        ->capture_default_str();
    top.add_option("--speed-scale", a.speed_scale,
                   "Fix the top of the speed colour ramp at this many m/s (default: follow the "
                   "fastest particle)")
        ->check(number_check(1e-9, 1e9));
    top.add_option("--frames", a.frames, "Run this many frames, then exit")
        ->check(CLI::PositiveNumber);
    top.add_option("--screenshot", a.screenshot,
                   "With --frames: save the last frame to this PNG file");
    top.add_option("--record", a.record,
                   "With --frames: record the frame timings and configuration into this CSV file");
    top.add_option("--vsync", vsync_, "Sync to the display: on or off")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    top.add_option("--width", a.width, "Window width")
        ->check(CLI::Range(64, 16384))
        ->capture_default_str();
    top.add_option("--height", a.height, "Window height")
        ->check(CLI::Range(64, 16384))
        ->capture_default_str();
    top.add_flag("--no-panel", no_panel_, "Start with the panel hidden (F1 toggles it)");
}

int WindowCommand::run() {
    AppConfig& a = config_;
    PLAB_REQUIRE(a.screenshot.empty() || a.frames > 0,
                 "--screenshot needs --frames N (the frame to save)");
    PLAB_REQUIRE(a.record.empty() || a.frames >= 2,
                 "--record needs --frames N (at least 2: N-1 frame times are recorded)");
    a.backend = sim::parse_backend(backend_);
    a.color = sim::parse_color_mode(color_);
    a.vsync = vsync_ == "on";
    a.show_panel = !no_panel_;
    variants_.apply(a.options, &std::cerr);
    sim::validate(a.options);
    if (!scene_.empty()) {
        // A bad scene file fails here, before a window opens.
        a.run.scene_file = sim::load_scene_file(scene_);
        a.run.scene_source = scene_;
    }
    // Bad --set values or a count the scene cannot hold fail here, before a window opens.
    sim::resolve_run(a.run, default_particles(sim::Backend::Cpu));
    // So does an output that cannot be written (a missing folder is made).
    if (!a.record.empty()) require_writable(a.record);
    if (!a.screenshot.empty()) require_writable(a.screenshot);
    App window_app(a);
    return window_app.run();
}

}  // namespace plab::app
