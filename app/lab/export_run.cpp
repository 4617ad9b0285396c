#include "app/lab/export_run.h"

#include <chrono>
#include <cmath>
#include <ostream>

#include "app/lab/bench_run.h"
#include "app/lab/export_series.h"
#include "app/lab/interrupt.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/model/run_checks.h"
#include "sim/model/sim_time.h"
#include "sim/run/divergence.h"

namespace plab::app {
namespace {

using sim::format_numbers;

std::string seconds(double s) { return format_numbers("%.6g s", s); }

constexpr std::size_t kMaxFrames = 1000000;  // file names have six digits
constexpr double kMaxSteps = 1e12;           // far past any run that ends today

// What an export that stops early leaves: the first `frames` frames and their list.
std::string kept(const ExportSeries& series, std::size_t frames) {
    if (frames == 0) return "no frame was written";
    return "frames 0 to " + std::to_string(frames - 1) + " and the " + kSeriesFileName +
           " listing them are in " + series.folder().string();
}

// Lists the frames written so far before an error is reported; a second failure (the disk is
// still full) must not hide the first.
void list_what_is_there(ExportSeries& series) noexcept {
    try {
        series.finish();
    } catch (const std::exception&) {
    }
}

}  // namespace

ExportPlan plan_export(double every, double duration, double dt) {
    PLAB_REQUIRE(std::isfinite(every) && every > 0,
                 "--export-every must be a positive number of seconds, not " + seconds(every));
    PLAB_REQUIRE(std::isfinite(duration) && duration > 0,
                 "--duration must be a positive number of seconds, not " + seconds(duration));
    PLAB_REQUIRE(std::isfinite(dt) && dt > 0, "the time step dt must be positive");
    const double steps_per_frame = every / dt;
    // A frame interval below one step would write the same state twice under two times.
    PLAB_REQUIRE(steps_per_frame >= 1.0 - 1e-9,
                 "--export-every " + seconds(every) + " is shorter than one step (dt = " +
                     seconds(dt) + "): frames would repeat; give at least " + seconds(dt));
    PLAB_REQUIRE(every <= duration * (1.0 + 1e-9),
                 "--export-every " + seconds(every) + " is longer than --duration " +
                     seconds(duration) + ": only the frame at t = 0 would be written");
    PLAB_REQUIRE(
        duration / dt <= kMaxSteps,
        "--duration " + seconds(duration) + " is more than 10^12 steps of dt = " + seconds(dt));
    // The tolerance keeps 0.3 / 0.1 (2.9999999999999996 in doubles) at three intervals.
    const double intervals = std::floor(duration / every + 1e-9);
    PLAB_REQUIRE(intervals + 1 <= static_cast<double>(kMaxFrames),
                 "--duration / --export-every asks for " +
                     std::to_string(std::llround(intervals + 1)) + " frames; at most 1000000");
    ExportPlan plan;
    plan.dt = dt;
    for (std::size_t k = 0; k <= static_cast<std::size_t>(intervals); ++k)
        plan.steps.push_back(std::llround(static_cast<double>(k) * steps_per_frame));
    return plan;
}

void write_export_frames(const ExportPlan& plan, ExportSeries* series, const FrameSource& source,
                         const sim::Params& params, std::ostream& progress) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    long long done = 0;  // steps run
    for (std::size_t k = 0; k < plan.frames(); ++k) {
        for (; done < plan.steps[k]; ++done) {
            // SIGINT or SIGTERM (interrupt.h): stop between steps with the list complete.
            if (interrupted()) {
                if (series) series->finish();
                throw Interrupted("interrupted by " + interrupt_name() +
                                  " at t = " + seconds(static_cast<double>(done) * plan.dt) +
                                  (series ? ": " + kept(*series, k) : std::string()));
            }
            source.step();
        }
        if (!source.gather()) continue;  // this process writes no frame
        const double t = plan.time(k);
        if (k > 0) {
            const std::string why = source.divergence();
            if (!why.empty()) {
                list_what_is_there(*series);
                throw Error("the simulation diverged before t = " + seconds(t) + ": " + why + " " +
                            kept(*series, k) + ".");
            }
        }
        try {
            series->write(source.snapshot(), params, t);
        } catch (const std::exception& e) {
            list_what_is_there(*series);
            throw Error(std::string(e.what()) + " (" + kept(*series, k) + ")");
        }
        const double wall = std::chrono::duration<double>(Clock::now() - start).count();
        progress << "  frame " << k + 1 << "/" << plan.frames()
                 << format_numbers("  t = %.6g s  wall %.2f s\n", t, wall) << std::flush;
    }
    if (series) series->finish();
}

void run_export(const BenchConfig& bench, const ExportConfig& config, std::ostream& out,
                std::ostream& progress) {
    using Clock = std::chrono::steady_clock;
    PLAB_REQUIRE(!config.folder.empty(), "--export needs a folder");
    // Everything that can be checked without running is checked before the scene is built
    // (which takes a while at millions of particles): the plan, then the folder.
    const float dt = bench_recipe(bench).params.dt;
    const ExportPlan plan = plan_export(config.every, config.duration, sim::step_seconds(dt));
    ExportSeries series(config.folder, ExportSeries::Mode::Fresh);

    BenchRun run(bench);
    sim::Simulator& simulator = run.simulator();
    const sim::Params& params = run.params();
    // bench_recipe sets one step per call; the plan counts steps of dt.
    PLAB_REQUIRE(params.substeps == 1, "export: expected one step per call");

    const double steps_per_frame = config.every / plan.dt;
    out << "particle-lab bench --export\n";
    out << "  backend      " << sim::backend_name(simulator.backend()) << ": "
        << simulator.device_name() << "\n";
    if (!run.fallback().empty()) out << "  note         CUDA not used: " << run.fallback() << "\n";
    out << "  model        " << sim::model_name(params.model) << ", " << run.label() << "\n";
    out << "  particles    " << simulator.particle_count() << "\n";
    out << sim::warning_lines(run.warnings(), "  WARNING      ");
    out << format_numbers("  dt           %.6g s; a frame every %.6g s = %.6g steps", plan.dt,
                          config.every, steps_per_frame)
        << (std::abs(steps_per_frame - std::round(steps_per_frame)) > 1e-6
                ? " (each at the nearest step; its files carry that step's time)"
                : "")
        << "\n";
    out << "  frames       " << plan.frames() << ", t = 0 to "
        << seconds(plan.time(plan.frames() - 1)) << ", into " << series.folder().string() << "\n"
        << std::flush;

    const auto start = Clock::now();
    FrameSource source;
    source.step = [&] { simulator.step(params); };
    source.gather = [&] {
        simulator.synchronize();
        simulator.take_timings();  // not measured here; drained so they do not pile up
        return true;
    };
    source.divergence = [&] { return sim::divergence_reason(simulator.stats(params), params); };
    source.snapshot = [&] { return simulator.download(); };
    write_export_frames(plan, &series, source, params, progress);
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    out << "  wrote        " << plan.frames() << " frames (frame_NNNNNN.vtk and .csv) and "
        << kSeriesFileName << " in " << series.folder().string()
        << format_numbers(" (wall %.2f s)\n", wall);
}

}  // namespace plab::app
