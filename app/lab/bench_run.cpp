#include "app/lab/bench_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <vector>

#include "app/lab/interrupt.h"
#include "app/lab/sim_time.h"
#include "sim/divergence.h"
#include "sim/enum_names.h"
#include "sim/error.h"
#include "sim/format_numbers.h"
#include "sim/input_limits.h"
#include "sim/output_file.h"
#include "sim/scene_file.h"

namespace plab::app {

using sim::format_numbers;
namespace {

using Clock = std::chrono::steady_clock;

// Runs `steps` steps, then waits and returns their device timings.
template <typename AfterStep>
std::vector<sim::StageTimings> run_steps(sim::Simulator& s, const sim::Params& p, int steps,
                                         std::ostream* progress, const char* label,
                                         AfterStep&& after_step) {
    auto last_report = Clock::now();
    bool reported = false;
    for (int i = 0; i < steps; ++i) {
        // SIGINT or SIGTERM: the step loop ends; the caller says what was kept.
        if (interrupted()) {
            if (reported) *progress << "\n";
            throw_if_interrupted("at " + std::string(label) + " step " + std::to_string(i + 1) +
                                 "/" + std::to_string(steps));
        }
        s.step(p);
        after_step();
        if (progress && Clock::now() - last_report > std::chrono::milliseconds(500)) {
            *progress << "\r  " << label << " step " << i + 1 << "/" << steps << std::flush;
            last_report = Clock::now();
            reported = true;
        }
    }
    s.synchronize();
    if (reported) *progress << "\r" << std::string(48, ' ') << "\r" << std::flush;
    return s.take_timings();
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

sim::RunRecipe bench_recipe(const BenchConfig& c) {
    PLAB_REQUIRE(c.particles >= 1 && c.particles <= sim::kMaxParticles,
                 "--particles must be in [1, " + std::to_string(sim::kMaxParticles) + "], not " +
                     std::to_string(c.particles));
    sim::RunRequest request;
    request.preset = c.preset;
    if (!c.scene.empty()) {
        request.scene_file = sim::load_scene_file(c.scene);
        request.scene_source = c.scene;
    }
    request.particles = c.scene.empty() || c.particles_given ? c.particles : 0;
    request.assignments = c.assignments;
    request.model = c.model;
    sim::RunRecipe r = sim::resolve_run(request, c.particles);
    // A benchmark step is one dt: per-frame substeps would only multiply every number.
    r.params.substeps = 1;
    return r;
}

BenchRun::BenchRun(const BenchConfig& c) : config_(c) {
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

    if (!c.load.empty() || c.checkpoint) {
        // The checkpoint's state and parameters, --set applied over them.
        const std::shared_ptr<const sim::Checkpoint> loaded =
            c.checkpoint ? c.checkpoint
                         : std::make_shared<const sim::Checkpoint>(sim::load_checkpoint(c.load));
        params_ = loaded->params;
        for (const std::string& a : c.assignments) sim::apply_assignment(params_, a);
        params_.substeps = 1;
        sim::validate(params_);
        if (!c.model.empty())
            PLAB_REQUIRE(sim::parse_model(c.model) == params_.model,
                         "--model " + c.model + " does not match the checkpoint " + c.load +
                             ", which is " + std::string(sim::model_name(params_.model)));
        initial_ = loaded->state;
        initial_.grid = sim::scene_grid(initial_.domain, params_);
        preset_ = loaded->run.preset;
        label_ = "checkpoint " + c.load + " (" + loaded->run.label + ", step " +
                 std::to_string(loaded->run.steps) +
                 format_numbers(", t = %.6g s)", loaded->run.time);
        first_step_ = loaded->run.steps;
        first_time_ = loaded->run.time;
    } else {
        const sim::RunRecipe recipe = bench_recipe(c);
        params_ = recipe.params;
        label_ = recipe.label;
        warnings_ = recipe.warnings;
        preset_ = std::string(sim::preset_name(recipe.preset));
        initial_ = recipe.initial_state();
    }
    if (c.save_every > 0) sim::make_folder(c.save_dir);  // before any step
    simulator_ = sim::make_simulator(c.backend, &fallback_, c.options);
    restart();
}

void BenchRun::restart() {
    const std::string unsupported = simulator_->unsupported(params_);
    PLAB_REQUIRE(unsupported.empty(), unsupported);
    simulator_->reset(initial_, params_);
    steps_ = first_step_;
    time_ = first_time_;
    next_save_ = time_ + config_.save_every;
}

std::vector<sim::StageTimings> BenchRun::advance(int steps, std::ostream* progress,
                                                 const char* label) {
    const double dt = step_seconds(params_.dt);
    return run_steps(*simulator_, params_, steps, progress, label, [&] {
        ++steps_;
        time_ += dt;
        // Half a step of slack: the sum of steps lands a rounding away from the multiple.
        if (config_.save_every > 0 && time_ >= next_save_ - 0.5 * dt) {
            const std::string path =
                (std::filesystem::path(config_.save_dir) / sim::checkpoint_file_name(steps_))
                    .string();
            save(path);
            while (next_save_ <= time_ + 0.5 * dt) next_save_ += config_.save_every;
        }
    });
}

void BenchRun::save(const std::string& path) {
    sim::RunDescription d;
    d.preset = preset_;
    d.scene = config_.scene;
    d.label = label_;
    d.options = config_.options;
    d.steps = steps_;
    d.time = time_;
    sim::save_checkpoint(path, *simulator_, params_, d);
    std::cerr << "saved " << path
              << format_numbers(" (step %.0f, t = %.6g s)\n", double(steps_), time_);
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
        const sim::SimStats s = simulator_->stats(params_);
        if (!sim::divergence_reason(s, params_).empty()) break;  // said as invalid later
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
    const double t = steps * step_seconds(params_.dt);
    const double share = peak > 0 && !energies.empty() ? 100.0 * energies.back() / peak : 0.0;
    return std::string("the settled pile: ") + state + " " + std::to_string(steps) + " steps" +
           format_numbers(" (t = %.4g s), kinetic energy %.3g%% of its peak", t, share);
}

BenchResult BenchRun::measure(std::ostream* progress) {
    BenchResult r;
    const BenchWindow window = resolve_window(config_.window, params_.model);
    r.steps = config_.steps;
    if (window == BenchWindow::Flow) {
        PLAB_REQUIRE(config_.flow_time > 0 && config_.flow_time <= 1e6,
                     "--flow-time must be a positive number of simulated seconds");
        const double steps = std::ceil(config_.flow_time / step_seconds(params_.dt));
        PLAB_REQUIRE(steps <= static_cast<double>(sim::kMaxBenchSteps),
                     format_numbers("--flow-time %g s is %.0f steps of dt, more than ",
                                    config_.flow_time, steps) +
                         std::to_string(sim::kMaxBenchSteps));
        r.steps = static_cast<int>(steps);
    }
    if (window == BenchWindow::Settled) r.window = settle(progress);
    advance(config_.warmup, progress, "warm-up");
    if (window == BenchWindow::Start)
        r.window = "the start: " + std::to_string(r.steps) + " steps after " +
                   std::to_string(config_.warmup) + " warm-up steps";
    if (window == BenchWindow::Flow)
        r.window = format_numbers("the flow: every step of its first %g s", config_.flow_time) +
                   " (" + std::to_string(r.steps) + " steps, after " +
                   std::to_string(config_.warmup) + " warm-up steps)";
    // A state that blew up before the measurement makes every later step meaningless.
    r.invalid = invalid_state(*simulator_, params_, "before the measured steps");
    const sim::NeighbourListStats lists_before = simulator_->list_stats();
    const auto t0 = Clock::now();
    r.measured = advance(r.steps, progress, "measure");
    r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    r.lists = simulator_->list_stats();
    r.lists.steps -= lists_before.steps;
    r.lists.builds -= lists_before.builds;
    r.lists.overflowed -= lists_before.overflowed;
    r.lists.moved -= lists_before.moved;
    r.lists.strays -= lists_before.strays;
    r.lists.repaired -= lists_before.repaired;
    if (r.invalid.empty())
        r.invalid = invalid_state(*simulator_, params_, "after the measured steps");
    const sim::ResolvedOptions& variants = simulator_->effective_options();
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
        simulator_->set_options(plain);
        if (window == BenchWindow::Flow) {
            simulator_->reset(initial_, params_);
            advance(config_.warmup, progress, "warm-up");
        }
        r.staged = advance(r.steps, progress, "stages");
        simulator_->set_options(config_.options);
        if (r.invalid.empty())
            r.invalid = invalid_state(*simulator_, params_, "after the stage pass");
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
