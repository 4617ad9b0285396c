#include "app/lab/bench_command.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <iostream>
#include <memory>

#include "app/lab/bench.h"
#include "app/lab/bench_run.h"
#include "app/lab/checkpoint_options.h"
#include "app/lab/cli_checks.h"
#include "app/lab/output_file.h"
#include "app/lab/rank_bench.h"
#include "app/lab/rank_export.h"
#include "app/lab/sweep.h"
#include "sim/core/enum_names.h"
#include "sim/core/error.h"
#include "sim/engine/simulator.h"
#include "sim/io/checkpoint.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "sim/ranks/mpi_transport.h"

namespace plab::app {

BenchCommand::BenchCommand(CLI::App& parent)
    : command_(parent.add_subcommand("bench", "Run the simulation headless and time it")),
      variants_(*command_) {
    CLI::App& c = *command_;
    BenchConfig& b = config_;
    c.add_option("--backend", backend_, sim::enum_choices(sim::backend_names()))
        ->capture_default_str();
    c.add_option("--model", b.model,
                 sim::enum_choices(sim::model_names()) +
                     ": checked against the preset or scene (which decide it)")
        ->check(non_empty_check("model: dem or sph"));
    c.add_option("--preset", b.preset, sim::enum_choices(sim::preset_names()))
        ->capture_default_str();
    c.add_option("--scene", b.scene,
                 "Scene file (JSON); replaces --preset, its own count unless --particles")
        ->check(non_empty_check("scene file (JSON)"));
    c.add_option("--particles", b.particles, "Number of particles")
        ->check(count_check(1, sim::kMaxParticles))
        ->capture_default_str();
    c.add_option("--steps", b.steps, "Measured steps")
        ->check(count_check(1, sim::kMaxBenchSteps))
        ->capture_default_str();
    c.add_option("--warmup", b.warmup, "Warm-up steps before measuring")
        ->check(count_check(0, sim::kMaxBenchSteps))
        ->capture_default_str();
    c.add_option("--window", b.window,
                 "Which part of the run is measured: auto (settled for DEM, flow for SPH), start "
                 "(right after the warm-up), settled (once the pile has come to rest) or flow "
                 "(every step of the first --flow-time simulated seconds)")
        ->check(CLI::IsMember([] {
            std::vector<std::string> names{"auto"};
            for (const auto& n : sim::enum_names(window_names())) names.push_back(n);
            return names;
        }()))
        ->capture_default_str();
    c.add_option("--flow-time", b.flow_time,
                 "Simulated seconds the flow window covers (it sets the measured steps)")
        ->check(number_check(kMinFlowTime, kMaxFlowTime))
        ->capture_default_str();
    c.add_option("--render", b.render,
                 "Time whole frames headless: " + sim::choice_list(kRenderModes) +
                     " (feed path); with --sweep, at every point")
        ->capture_default_str();
    // The offscreen target's limits (frame_bench.h), checked whether or not --render is given.
    c.add_option("--width", b.width, "Offscreen width for --render, pixels")
        ->check(count_check(kMinOffscreenSide, kMaxOffscreenSide))
        ->capture_default_str();
    c.add_option("--height", b.height, "Offscreen height for --render, pixels")
        ->check(count_check(kMinOffscreenSide, kMaxOffscreenSide))
        ->capture_default_str();
    c.add_option("--look", b.look,
                 "With --render (and --video): data (colour maps) or material (liquid surface, "
                 "shaded grains; the CUDA renderer draws it, GL keeps the data look)")
        ->check(CLI::IsMember({"data", "material"}))  // render::look_names(); no renderer here
        ->capture_default_str();
    c.add_option("--speed-scale", b.speed_scale,
                 "With --render: m/s at the top of the speed colour ramp (as the window's "
                 "--speed-scale)")
        ->check(number_check(1e-9, 1e9))
        ->capture_default_str();
    c.add_option("--screenshot", b.screenshot,
                 "With --render: save the first measured frame as PNG, drawn after --warmup + 1 "
                 "steps as the window's --frames N --screenshot is after N (pinned-async after "
                 "a warm-up draws one step older)")
        ->check(non_empty_check("PNG file"));
    c.add_option("--set", b.assignments, "Override a parameter: name=value");
    c.add_option("--sweep", sweeps_,
                 "Measure every combination: key=v1,v2,... (repeatable; keys: particles, backend, "
                 "preset, render, every variant of --list-variants, any parameter)");
    c.add_option("--out", sweep_out_, "With --sweep: folder for sweep.csv and sweep.md")
        ->check(non_empty_check("folder"));
    c.add_option("--load", b.load,
                 "Start from this checkpoint (.plab) instead of --preset/--scene: its state, "
                 "parameters (--set applies over them) and variants (flags override them); "
                 "measures from the loaded state (--window start, --warmup 0 unless given)")
        ->check(non_empty_check("checkpoint file (.plab)"));
    c.add_option("--save", b.save, "Write a checkpoint (.plab) of the state at the end")
        ->check(non_empty_check("checkpoint file (.plab)"));
    c.add_option("--save-every", save_every_,
                 "SECONDS DIR: write a checkpoint every SECONDS of simulated time into DIR "
                 "(step_NNNNNNNNN.plab)")
        ->expected(2)
        ->type_name("SECONDS DIR");
    c.add_option("--video", video_.path,
                 "With --render: record the scene as an MP4 movie (H.264) instead of timing "
                 "frames; its length is --frames N or --video-seconds S")
        ->check(non_empty_check("movie file (MP4)"));
    c.add_option("--frames", video_.frames, "With --video: frames to record")
        ->check(count_check(1, 1'000'000));
    c.add_option("--video-seconds", video_.seconds, "With --video: simulated seconds to record")
        ->check(number_check(1e-9, 1e6));
    c.add_option("--video-slowmo", video_.slowmo,
                 "With --video: the movie runs this many times slower than the simulation "
                 "(each frame covers 1/(fps x slowmo) simulated seconds)")
        ->check(number_check(1e-3, 1e6))
        ->capture_default_str();
    c.add_option("--video-fps", video_.fps, "With --video: 30 or 60 frames per second")
        ->check(CLI::IsMember({30, 60}))
        ->capture_default_str();
    c.add_flag("--video-no-encode{false}", video_.encode,
               "With --video: draw and read back every frame but encode nothing (the baseline "
               "for the cost of recording)");
    c.add_option("--export", export_.folder,
                 "Instead of timing: run --duration s of simulated time and write the particles "
                 "(VTK, CSV, particles.vtk.series) into this folder")
        ->check(non_empty_check("folder"));
    c.add_option("--export-every", export_.every,
                 "With --export: simulated seconds between frames (frame 0 at t = 0)")
        ->capture_default_str();
    c.add_option("--duration", export_.duration, "With --export: simulated seconds to run")
        ->capture_default_str();
}

bool BenchCommand::chosen() const { return command_->parsed(); }

int BenchCommand::run() {
    const CLI::App& c = *command_;
    config_.backend = sim::parse_backend(backend_);
    config_.particles_given = c.count("--particles") > 0;
    config_.flow_time_given = c.count("--flow-time") > 0;
    if (c.count("--load") > 0) {
        PLAB_REQUIRE(c.count("--preset") + c.count("--scene") + c.count("--particles") == 0,
                     "--load " + config_.load +
                         " replaces --preset, --scene and --particles: the checkpoint holds "
                         "the particles");
        // Read once, before any work: a bad file fails here, naming it.
        auto loaded = std::make_shared<const sim::Checkpoint>(sim::load_checkpoint(config_.load));
        for (const std::string& note : loaded->notes)
            std::cerr << "note: " << config_.load << ": " << note << "\n";
        config_.options = loaded->run.options;  // the variant flags given apply over them
        config_.checkpoint = std::move(loaded);
        if (c.count("--window") == 0) config_.window = "start";
        if (c.count("--warmup") == 0) config_.warmup = 0;
    }
    variants_.apply(config_.options, &std::cerr);
    const SaveEvery every = parse_save_every(save_every_);
    config_.save_every = every.seconds;
    config_.save_dir = every.dir;
    // Checkpoint outputs are checked before the work, like every output.
    if (!config_.save.empty()) require_writable(config_.save);
    require_writable(every);
    // Progress lines only where a person watches; logs stay clean.
    std::ostream* progress = isatty(STDERR_FILENO) ? &std::cerr : nullptr;
    const bool exporting = c.count("--export") > 0;
    // Started by mpirun: this process is one rank of the scene, not the whole of it.
    if (sim::mpi_job_size_from_environment() > 0) {
        PLAB_REQUIRE(sweeps_.empty() && !video_.on(),
                     "under mpirun the bench steps one scene over the ranks: --sweep and --video "
                     "are not run over several ranks yet");
        PLAB_REQUIRE(!exporting || (config_.checkpoint == nullptr && config_.save.empty()),
                     "--load and --save go with a bench run, not --export");
        return run_ranks(exporting);
    }
    if (video_.on()) {
#if !PLAB_HAS_RENDER
        throw Error("--video needs the renderer, and this build has none (PLAB_BUILD_RENDER=OFF)");
#else
        PLAB_REQUIRE(config_.render != "off",
                     "--video needs --render interop|host|pinned|pinned-async: the frames are "
                     "drawn headless along that feed path");
        PLAB_REQUIRE(sweeps_.empty() && !exporting && config_.screenshot.empty() &&
                         config_.save.empty() && config_.save_dir.empty(),
                     "--video goes with --render alone (not --sweep, --export, --screenshot, "
                     "--save or --save-every)");
        check_video_config(video_);
        require_writable(video_.path);  // before any work, like every output
        return run_video(config_, video_, std::cout, progress);
#endif
    }
    PLAB_REQUIRE(c.count("--frames") + c.count("--video-seconds") == 0,
                 "--frames and --video-seconds go with --video FILE");
    const bool checkpoints =
        config_.checkpoint || !config_.save.empty() || !config_.save_dir.empty();
    PLAB_REQUIRE(!checkpoints || (sweeps_.empty() && !exporting),
                 "--load, --save and --save-every go with a single bench run (not --sweep or "
                 "--export)");
    if (!sweeps_.empty()) {
        PLAB_REQUIRE(!exporting, "--export and --sweep do not go together");
        PLAB_REQUIRE(config_.screenshot.empty(), "--screenshot and --sweep do not go together");
        return run_sweep(config_, sweeps_, sweep_out_, std::cout, std::cerr, progress)
                   ? 0
                   : kInvalidRunExit;
    }
    PLAB_REQUIRE(sweep_out_.empty(), "--out goes with --sweep");
    if (exporting) {
        PLAB_REQUIRE(config_.render == "off", "--export and --render do not go together");
        PLAB_REQUIRE(config_.screenshot.empty(), "--screenshot goes with --render, not --export");
        run_export(config_, export_, std::cout, std::cerr);
        return 0;
    }
    PLAB_REQUIRE(c.count("--export-every") == 0 && c.count("--duration") == 0,
                 "--export-every and --duration go with --export DIR");
    return run_bench(config_, std::cout, progress) ? 0 : kInvalidRunExit;
}

int BenchCommand::run_ranks(bool exporting) {
    const std::unique_ptr<sim::RankTransport> transport = sim::make_mpi_transport();
    try {
        if (exporting) {
            PLAB_REQUIRE(config_.render == "off", "--export and --render do not go together");
            run_rank_export(config_, export_, *transport, std::cout, std::cerr);
            return 0;
        }
        return run_rank_bench(config_, *transport, std::cout) ? 0 : kInvalidRunExit;
    } catch (const std::exception& e) {
        // The other ranks may wait for this one in a collective: the error ends the job.
        std::cerr << "error: rank " << transport->rank() << ": " << e.what() << "\n";
        std::cerr.flush();
        transport->abort(2);
    }
    return 2;  // not reached: abort ends the process
}

}  // namespace plab::app
