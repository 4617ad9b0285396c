#include "app/lab/bench_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <vector>

#include "app/lab/interrupt.h"
#include "sim/core/enum_names.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"
#include "sim/io/output_file.h"
#include "sim/io/scene_file.h"
#include "sim/model/sim_time.h"
#include "sim/run/divergence.h"
#include "sim/run/make_simulator.h"

namespace plab::app {

using sim::format_numbers;
namespace {

using Clock = std::chrono::steady_clock;

// Runs `steps` steps, then waits and returns their device timings.
template <typename AfterStep>
std::vector<sim::StageTimings> run_steps(sim::Run& run, int steps, std::ostream* progress,
                                         const char* label, AfterStep&& after_step) {
    auto last_report = Clock::now();
    bool reported = false;
    for (int i = 0; i < steps; ++i) {
        // SIGINT or SIGTERM: the step loop ends; the caller says what was kept.
        if (interrupted()) {
            if (reported) *progress << "\n";
            throw_if_interrupted("at " + std::string(label) + " step " + std::to_string(i + 1) +
                                 "/" + std::to_string(steps));
        }
        run.step();
        after_step();
        if (progress && Clock::now() - last_report > std::chrono::milliseconds(500)) {
            *progress << "\r  " << label << " step " << i + 1 << "/" << steps << std::flush;
            last_report = Clock::now();
            reported = true;
        }
    }
    run.simulator().synchronize();
    if (reported) *progress << "\r" << std::string(48, ' ') << "\r" << std::flush;
    return run.simulator().take_timings();
}

}  // namespace

std::span<const sim::EnumName<BenchWindow>> window_names() {
    static constexpr sim::EnumName<BenchWindow> kNames[] = {{BenchWindow::Start, "start"},
                                                            {BenchWindow::Settled, "settled"},
                                                            {BenchWindow::Flow, "flow"}};
    return kNames;
}

BenchWindow resolve_window(const std::string& window, sim::Model model) {
    if (window == "auto")
        return model == sim::Model::Dem ? BenchWindow::Settled : BenchWindow::Flow;
    if (const auto w = sim::find_enum(window_names(), window)) return *w;
    throw Error("--window takes auto, " + sim::enum_choices(window_names()) + ", not '" + window +
                "'");
}

std::string_view window_name(BenchWindow window) { return sim::enum_name(window_names(), window); }

namespace {

// What bench asks of the run recipe: a --scene file's own count unless --particles was given.
sim::RunRequest bench_request(const BenchConfig& c) {
    sim::RunRequest request;
    request.preset = c.preset;
    if (!c.scene.empty()) {
        request.scene_file = sim::load_scene_file(c.scene);
        request.scene_source = c.scene;
    }
    request.particles = c.scene.empty() || c.particles_given ? c.particles : 0;
    request.assignments = c.assignments;
    request.model = c.model;
    return request;
}

void require_count(const BenchConfig& c) {
    PLAB_REQUIRE(c.particles >= 1 && c.particles <= sim::kMaxParticles,
                 "--particles must be in [1, " + std::to_string(sim::kMaxParticles) + "], not " +
                     std::to_string(c.particles));
}

// The configuration's own numbers, checked before anything is read or made.
const BenchConfig& checked(const BenchConfig& c) {
    const auto max_steps = static_cast<int>(sim::kMaxBenchSteps);
    PLAB_REQUIRE(c.steps >= 1 && c.steps <= max_steps, "--steps must be in [1, " +
                                                           std::to_string(max_steps) + "], not " +
                                                           std::to_string(c.steps));
    PLAB_REQUIRE(c.warmup >= 0 && c.warmup <= max_steps, "--warmup must be in [0, " +
                                                             std::to_string(max_steps) + "], not " +
                                                             std::to_string(c.warmup));
    PLAB_REQUIRE(c.save_every >= 0 && std::isfinite(c.save_every),
                 "--save-every must be a positive number of simulated seconds");
    sim::validate(c.options);
    return c;
}

}  // namespace

sim::RunRecipe bench_recipe(const BenchConfig& c) {
    require_count(c);
    sim::RunRecipe r = sim::resolve_run(bench_request(c), c.particles);
    // A benchmark step is one dt: per-frame substeps would only multiply every number.
    r.params.substeps = 1;
    return r;
}

sim::RunStart bench_start(const BenchConfig& c) {
    sim::RunStart s;
    s.backend = c.backend;
    s.options = c.options;
    s.single_dt = true;  // a benchmark step is one dt: substeps would only multiply every number
    if (!c.load.empty() || c.checkpoint) {
        // The checkpoint's state and parameters, --set applied over them.
        s.checkpoint = c.checkpoint
                           ? c.checkpoint
                           : std::make_shared<const sim::Checkpoint>(sim::load_checkpoint(c.load));
        s.checkpoint_source = c.load;
        s.request.assignments = c.assignments;
        s.request.model = c.model;
        return s;
    }
    require_count(c);
    s.request = bench_request(c);
    s.default_particles = c.particles;
    return s;
}

BenchRun::BenchRun(const BenchConfig& c) : config_(checked(c)), run_(bench_start(c)) {
    if (c.save_every > 0) sim::make_folder(c.save_dir);  // before any step
    next_save_ = run_.time() + config_.save_every;
}

void BenchRun::restart() {
    run_.rewind();
    next_save_ = run_.time() + config_.save_every;
}

std::vector<sim::StageTimings> BenchRun::advance(int steps, std::ostream* progress,
                                                 const char* label) {
    const double dt = sim::step_seconds(run_.params().dt);
    return run_steps(run_, steps, progress, label, [&] {
        // Half a step of slack: the sum of steps lands a rounding away from the multiple.
        if (config_.save_every > 0 && run_.time() >= next_save_ - 0.5 * dt) {
            const std::string path =
                (std::filesystem::path(config_.save_dir) / sim::checkpoint_file_name(run_.steps()))
                    .string();
            save(path);
            while (next_save_ <= run_.time() + 0.5 * dt) next_save_ += config_.save_every;
        }
    });
}

void BenchRun::save(const std::string& path) {
    run_.save(path);
    std::cerr << "saved " << path
              << format_numbers(" (step %.0f, t = %.6g s)\n", double(run_.steps()), run_.time());
}

std::string invalid_state(sim::Simulator& simulator, const sim::Params& params, const char* when) {
    const std::string why = sim::divergence_reason(simulator.stats(params), params);
    return why.empty() ? why : std::string(when) + ": " + why;
}

// Steps until the pile is at rest: its kinetic energy down to kSettledShare of its peak, or no
// longer falling (a box filled to the top keeps a small jiggle that no damping here removes:
// below a quarter of the peak and within 5% of what it was kSettlePlateau checks before), at
// most kSettleLimit steps. Returns the window's description.
std::string BenchRun::settle(std::ostream* progress) {
    std::vector<double> energies;
    double peak = 0;
    int steps = 0;
    const char* state = "NOT settled within the limit of";
    while (steps < kSettleLimit) {
        advance(kSettleCheck, progress, "settle");
        steps += kSettleCheck;
        const sim::SimStats s = run_.simulator().stats(run_.params());
        if (!sim::divergence_reason(s, run_.params()).empty()) {
            state = "blew up, stopped after";  // said as invalid in the result
            break;
        }
        energies.push_back(s.kinetic_energy);
        peak = std::max(peak, s.kinetic_energy);
        const double e = s.kinetic_energy;
        if (energies.size() < 2) continue;
        if (e <= kSettledShare * peak) {
            state = "at rest after";
            break;
        }
        const std::size_t n = energies.size();
        if (n > kSettlePlateau && e <= 0.25 * peak &&
            e >= 0.95 * energies[n - 1 - kSettlePlateau]) {
            state = "no longer losing energy after";
            break;
        }
    }
    const double t = steps * sim::step_seconds(run_.params().dt);
    const double share = peak > 0 && !energies.empty() ? 100.0 * energies.back() / peak : 0.0;
    return std::string("the settled pile: ") + state + " " + std::to_string(steps) + " steps" +
           format_numbers(" (t = %.4g s), kinetic energy %.3g%% of its peak", t, share);
}

// A result that stopped before its measured steps: none measured, the reason kept.
BenchResult BenchRun::stopped(BenchResult r) {
    r.steps = 0;
    r.measured.clear();
    r.staged.clear();
    r.stopped_early = true;
    return r;
}

BenchResult BenchRun::measure(std::ostream* progress) {
    BenchResult r;
    const BenchWindow window = resolve_window(config_.window, run_.params().model);
    r.steps = config_.steps;
    if (window == BenchWindow::Flow) {
        PLAB_REQUIRE(config_.flow_time >= kMinFlowTime && config_.flow_time <= kMaxFlowTime,
                     format_numbers("--flow-time must be a number of simulated seconds in "
                                    "[%g, %g], not %g",
                                    kMinFlowTime, kMaxFlowTime, config_.flow_time));
        const double steps = std::ceil(config_.flow_time / sim::step_seconds(run_.params().dt));
        // Names the run (its scene file), and --flow-time only where it was given.
        const std::string flow_window =
            config_.flow_time_given
                ? format_numbers("--flow-time %g s", config_.flow_time)
                : format_numbers("the flow window (%g s, the default of --flow-time)",
                                 config_.flow_time);
        PLAB_REQUIRE(steps <= static_cast<double>(sim::kMaxBenchSteps),
                     run_.label() + ": " + flow_window +
                         format_numbers(" is %.0f steps of dt = %g s, more than ", steps,
                                        sim::step_seconds(run_.params().dt)) +
                         std::to_string(sim::kMaxBenchSteps) +
                         " measured steps; give a shorter --flow-time or another --window");
        r.steps = static_cast<int>(steps);
    }
    if (window == BenchWindow::Settled) {
        r.window = settle(progress);
        // A pile that blew up while settling is not stepped further: nothing after it would
        // be a result, and steps of non-finite particles can take far longer than real ones.
        r.invalid = invalid_state(run_.simulator(), run_.params(), "while the pile settled");
        if (!r.invalid.empty()) return stopped(r);
    }
    advance(config_.warmup, progress, "warm-up");
    if (window == BenchWindow::Start)
        r.window = "the start: " + std::to_string(r.steps) + " steps after " +
                   std::to_string(config_.warmup) + " warm-up steps";
    if (window == BenchWindow::Flow)
        r.window = format_numbers("the flow: every step of its first %g s", config_.flow_time) +
                   " (" + std::to_string(r.steps) + " steps, after " +
                   std::to_string(config_.warmup) + " warm-up steps)";
    // A state that blew up before the measurement makes every later step meaningless.
    r.invalid = invalid_state(run_.simulator(), run_.params(), "before the measured steps");
    if (!r.invalid.empty()) return stopped(r);
    const sim::NeighbourListStats lists_before = run_.simulator().list_stats();
    const auto t0 = Clock::now();
    r.measured = advance(r.steps, progress, "measure");
    r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    r.lists = run_.simulator().list_stats();
    r.lists.steps -= lists_before.steps;
    r.lists.builds -= lists_before.builds;
    r.lists.overflowed -= lists_before.overflowed;
    r.lists.moved -= lists_before.moved;
    r.lists.strays -= lists_before.strays;
    r.lists.repaired -= lists_before.repaired;
    r.lists.cluster_overflowed -= lists_before.cluster_overflowed;
    if (r.invalid.empty())
        r.invalid = invalid_state(run_.simulator(), run_.params(), "after the measured steps");
    const sim::ResolvedOptions& variants = run_.simulator().effective_options();
    r.notes = variants.text();
    r.persistent = variants.effective.persistent_kernel;
    r.graph = variants.effective.graph;

    // A graph or persistent-kernel step has only its total; take the stage split from plain
    // launches over the same window: the flow again from the start, the settled pile (or the
    // start) as it goes on.
    r.staged = r.measured;
    if (r.graph || r.persistent) {
        sim::SimulatorOptions plain = config_.options;
        plain.graph = false;
        plain.persistent_kernel = false;
        run_.simulator().set_options(plain);
        if (window == BenchWindow::Flow) {
            restart();
            advance(config_.warmup, progress, "warm-up");
        }
        r.staged = advance(r.steps, progress, "stages");
        run_.simulator().set_options(config_.options);
        if (r.invalid.empty())
            r.invalid = invalid_state(run_.simulator(), run_.params(), "after the stage pass");
    }
    return r;
}

std::vector<double> timing_column(const std::vector<sim::StageTimings>& t,
                                  double sim::StageTimings::*field) {
    std::vector<double> v;
    v.reserve(t.size());
    for (const auto& s : t) v.push_back(s.*field);
    return v;
}

}  // namespace plab::app
