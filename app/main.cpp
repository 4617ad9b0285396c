// particle-lab: the command line. With no subcommand it opens the window app on the default
// scene (options below pick backend, preset, size, a timed run with a screenshot, ...);
// `particle-lab bench ...` runs the simulation headless and prints timings; `--list-params`
// prints the parameter table.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "app/app_config.h"
#include "app/bench.h"
#include "app/export_run.h"
#include "app/sweep.h"
#include "app/validate.h"
#if PLAB_HAS_WINDOW
#include "app/app.h"
#endif
#include "sim/error.h"
#include "sim/params.h"
#include "sim/presets.h"
#include "sim/scene_file.h"

namespace {

void list_params() {
    const plab::sim::Params classic = plab::sim::preset_params(plab::sim::Preset::Classic);
    const plab::sim::Params granular = plab::sim::preset_params(plab::sim::Preset::Granular);
    const plab::sim::Params water = plab::sim::preset_params(plab::sim::Preset::Water);
    std::printf("%-17s %-9s %12s %12s %12s %12s %12s  %s\n", "name", "unit", "classic",
                "granular", "water", "min", "max", "help");
    for (const auto& p : plab::sim::param_table()) {
        const char* only = p.models == plab::sim::kDemOnly   ? " [DEM only]"
                           : p.models == plab::sim::kSphOnly ? " [SPH only]"
                                                             : "";
        std::printf("%-17s %-9s %12g %12g %12g %12g %12g  %s%s%s\n", std::string(p.name).c_str(),
                    std::string(p.unit).c_str(), p.get(classic), p.get(granular), p.get(water),
                    p.min, p.max, std::string(p.help).c_str(), only,
                    p.needs_reset ? " [needs reset]" : "");
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App cli{"Particle Lab: an interactive, measurable GPU particle simulator"};
    cli.set_version_flag("--version", std::string("particle-lab ") + PLAB_VERSION);
    bool show_params = false;
    cli.add_flag("--list-params", show_params, "Print every simulation parameter and exit");

    // The window app's options (top level).
    plab::app::AppConfig app;
    std::string app_backend = "auto";
    std::string app_preset = "classic";
    std::string app_color = "speed";
    std::string app_vsync = "on";
    cli.add_option("--backend", app_backend, "Simulation backend: auto, cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    cli.add_option("--preset", app_preset, "Scene preset: classic, granular (DEM) or water (SPH)")
        ->check(CLI::IsMember({"classic", "granular", "water"}))
        ->capture_default_str();
    std::string app_scene;
    cli.add_option("--scene", app_scene,
                   "Scene file (JSON), e.g. assets/scenes/mixer.json; overrides --preset");
    cli.add_option("--particles", app.particles,
                   "Number of particles (default: 100000 on CUDA, 25000 on the CPU)")
        ->check(CLI::PositiveNumber);
    cli.add_option("--set", app.assignments, "Override a parameter: name=value (repeatable)");
    cli.add_option("--color", app_color, "Colour map: speed, id, cell, density or pressure")
        ->check(CLI::IsMember({"speed", "id", "cell", "density", "pressure"}))
        ->capture_default_str();
    cli.add_option("--frames", app.frames, "Run this many frames, then exit")
        ->check(CLI::PositiveNumber);
    cli.add_option("--screenshot", app.screenshot,
                   "With --frames: save the last frame to this PNG file");
    cli.add_option("--record", app.record,
                   "With --frames: record the frame timings and configuration into this CSV file");
    cli.add_option("--vsync", app_vsync, "Sync to the display: on or off")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    cli.add_option("--width", app.width, "Window width")->check(CLI::Range(64, 16384))
        ->capture_default_str();
    cli.add_option("--height", app.height, "Window height")->check(CLI::Range(64, 16384))
        ->capture_default_str();
    bool no_panel = false;
    cli.add_flag("--no-panel", no_panel, "Start with the panel hidden (F1 toggles it)");

    plab::app::BenchConfig bench;
    std::string backend = "auto";
    CLI::App* bench_cmd = cli.add_subcommand("bench", "Run the simulation headless and time it");
    bench_cmd->add_option("--backend", backend, "auto, cpu or cuda")->capture_default_str();
    bench_cmd->add_option("--model", bench.model,
                          "dem or sph: checked against the preset or scene (which decide it)");
    bench_cmd->add_option("--preset", bench.preset, "classic, granular or water")->capture_default_str();
    bench_cmd->add_option("--scene", bench.scene,
                          "Scene file (JSON); replaces --preset, its own count unless --particles");
    bench_cmd->add_option("--particles", bench.particles, "Number of particles")
        ->capture_default_str();
    bench_cmd->add_option("--steps", bench.steps, "Measured steps")->capture_default_str();
    bench_cmd->add_option("--warmup", bench.warmup, "Warm-up steps before measuring")
        ->capture_default_str();
    bench_cmd->add_flag("--graph", bench.graph, "Replay each step as a captured CUDA graph");
    bench_cmd->add_option("--block", bench.block_size, "CUDA threads per block")
        ->capture_default_str();
    bench_cmd->add_option("--threads-per-particle", bench.threads_per_particle,
                          "CUDA force threads per particle: 1, 2, 4, 8 or 0 for automatic")
        ->capture_default_str();
    bench_cmd->add_flag("--separate-integrate", bench.separate_integrate,
                        "CUDA: run integrate as its own kernel instead of fused into forces");
    bench_cmd->add_flag("--scatter-forces", bench.scatter_forces,
                        "Each touching pair once, the neighbour's force added with atomics");
    bench_cmd->add_flag("--single-pass-forces", bench.single_pass_forces,
                        "CUDA: compute contacts as they are found (no contact list)");
    bench_cmd->add_flag("--double", bench.double_state,
                        "Keep positions and velocities in double precision (DEM)");
    bench_cmd->add_flag("--persistent", bench.persistent,
                        "CUDA: run each step as one persistent cooperative kernel");
    bench_cmd->add_flag("--unsorted", bench.unsorted,
                        "Leave particles unsorted in memory (neighbours read through the index)");
    bench_cmd->add_option("--render", bench.render,
                          "Time whole frames headless: off, interop, host, pinned or "
                          "pinned-async (feed path); with --sweep, at every point")
        ->capture_default_str();
    bench_cmd->add_option("--width", bench.width, "Offscreen width for --render")
        ->capture_default_str();
    bench_cmd->add_option("--height", bench.height, "Offscreen height for --render")
        ->capture_default_str();
    bench_cmd->add_option("--set", bench.assignments, "Override a parameter: name=value");
    std::vector<std::string> sweeps;
    std::string sweep_out;
    bench_cmd->add_option("--sweep", sweeps,
                          "Measure every combination: key=v1,v2,... (repeatable; keys: "
                          "particles, backend, preset, block, graph, threads_per_particle, "
                          "fuse_integrate, contact_list, scatter_forces, persistent_kernel, double_state, "
                          "sorted_memory, render, any parameter)");
    bench_cmd->add_option("--out", sweep_out, "With --sweep: folder for sweep.csv and sweep.md");
    plab::app::ExportConfig export_config;
    bench_cmd->add_option("--export", export_config.folder,
                          "Instead of timing: run --duration s of simulated time and write the "
                          "particles (VTK, CSV, particles.vtk.series) into this folder");
    bench_cmd->add_option("--export-every", export_config.every,
                          "With --export: simulated seconds between frames (frame 0 at t = 0)")
        ->capture_default_str();
    bench_cmd->add_option("--duration", export_config.duration,
                          "With --export: simulated seconds to run")
        ->capture_default_str();

    // SPH validation cases (docs/validation.md).
    plab::app::ValidateConfig validate;
    std::string validate_backend = "auto", validate_out = "validation";
    CLI::App* validate_cmd = cli.add_subcommand(
        "validate", "Run an SPH validation case and write its data for plotting");
    validate_cmd->add_option("case", validate.which, "dam-break or hydrostatic")->required();
    validate_cmd->add_option("--backend", validate_backend, "auto, cpu or cuda")
        ->capture_default_str();
    validate_cmd->add_option("--resolution", validate.resolution,
                             "Particles across the column width (dam break) or the tank")
        ->capture_default_str();
    validate_cmd->add_option("--depth", validate.depth, "Dam break: particle layers across the tank")
        ->capture_default_str();
    validate_cmd->add_option("--settle", validate.settle,
                             "Hydrostatic: seconds to settle before measuring (0: about ten "
                             "sloshing periods)")
        ->capture_default_str();
    validate_cmd->add_option("--out", validate_out, "Folder for the case's CSV")
        ->capture_default_str();

    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e);
    }

    try {
        if (show_params) {
            list_params();
            return 0;
        }
        if (*validate_cmd) {
            validate.backend = plab::sim::parse_backend(validate_backend);
            validate.out = validate_out;
            const bool pass = plab::app::run_validation(
                validate, std::cout, isatty(STDERR_FILENO) ? &std::cerr : nullptr);
            return pass ? 0 : 2;
        }
        if (*bench_cmd) {
            bench.backend = plab::sim::parse_backend(backend);
            bench.particles_given = bench_cmd->count("--particles") > 0;
            if (!sweeps.empty() && bench_cmd->count("--export") > 0)
                throw plab::Error("--export and --sweep do not go together");
            if (!sweeps.empty()) {
                plab::app::run_sweep(bench, sweeps, sweep_out, std::cout, std::cerr,
                                     isatty(STDERR_FILENO) ? &std::cerr : nullptr);
                return 0;
            }
            if (!sweep_out.empty()) throw plab::Error("--out goes with --sweep");
            if (bench_cmd->count("--export") > 0) {
                if (bench.render != "off")
                    throw plab::Error("--export and --render do not go together");
                plab::app::run_export(bench, export_config, std::cout, std::cerr);
                return 0;
            }
            if (bench_cmd->count("--export-every") > 0 || bench_cmd->count("--duration") > 0)
                throw plab::Error("--export-every and --duration go with --export DIR");
            // Progress lines only where a person watches; logs stay clean.
            plab::app::run_bench(bench, std::cout, isatty(STDERR_FILENO) ? &std::cerr : nullptr);
            return 0;
        }
        if (!app.screenshot.empty() && app.frames == 0) {
            throw plab::Error("--screenshot needs --frames N (the frame to save)");
        }
        if (!app.record.empty() && app.frames < 2) {
            throw plab::Error(
                "--record needs --frames N (at least 2: N-1 frame times are recorded)");
        }
        app.backend = plab::sim::parse_backend(app_backend);
        app.preset = plab::sim::parse_preset(app_preset);
        app.color = plab::sim::parse_color_mode(app_color);
        app.vsync = app_vsync == "on";
        if (!app_scene.empty()) {
            // A bad scene file fails here, before a window opens.
            app.scene_file = plab::sim::load_scene_file(app_scene);
            app.preset = app.scene_file->preset;
        }
        {
            // Bad --set values fail here, before a window opens.
            plab::sim::Params check = app.scene_file ? app.scene_file->params
                                                     : plab::sim::preset_params(app.preset);
            for (const std::string& a : app.assignments) plab::sim::apply_assignment(check, a);
            plab::sim::validate(check);
        }
        app.show_panel = !no_panel;
#if PLAB_HAS_WINDOW
        plab::app::App window_app(app);
        return window_app.run();
#else
        throw plab::Error("this build has no window app (configured without the renderer); "
                          "`particle-lab bench` runs headless");
#endif
    } catch (const std::exception& e) {
        std::cerr << "particle-lab: error: " << e.what() << "\n";
        return 1;
    }
}
