#include "app/lab/bench_run.h"

#include <chrono>
#include <ostream>

#include "sim/error.h"
#include "sim/scene_file.h"

namespace plab::app {
namespace {

using Clock = std::chrono::steady_clock;

// Runs `steps` steps, then waits and returns their device timings.
std::vector<sim::StageTimings> run_steps(sim::Simulator& s, const sim::Params& p, int steps,
                                         std::ostream* progress, const char* label) {
    auto last_report = Clock::now();
    bool reported = false;
    for (int i = 0; i < steps; ++i) {
        s.step(p);
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

sim::RunRecipe bench_recipe(const BenchConfig& c) {
    PLAB_REQUIRE(c.particles >= 1, "--particles must be at least 1");
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
    PLAB_REQUIRE(c.steps >= 1, "--steps must be at least 1");
    PLAB_REQUIRE(c.warmup >= 0, "--warmup must not be negative");
    sim::validate(c.options);

    const sim::RunRecipe recipe = bench_recipe(c);
    params_ = recipe.params;
    label_ = recipe.label;
    simulator_ = sim::make_simulator(c.backend, &fallback_, c.options);
    initial_ = recipe.initial_state();
    simulator_->reset(initial_, params_);
}

BenchResult BenchRun::measure(std::ostream* progress) {
    BenchResult r;
    run_steps(*simulator_, params_, config_.warmup, progress, "warm-up");
    const auto t0 = Clock::now();
    r.measured = run_steps(*simulator_, params_, config_.steps, progress, "measure");
    r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    const sim::ResolvedOptions& variants = simulator_->effective_options();
    r.notes = variants.text();
    r.persistent = variants.effective.persistent_kernel;
    r.graph = variants.effective.graph;

    // A graph or persistent-kernel step has only its total; take the stage split from plain
    // launches.
    r.staged = r.measured;
    if (r.graph || r.persistent) {
        sim::SimulatorOptions plain = config_.options;
        plain.graph = false;
        plain.persistent_kernel = false;
        simulator_->set_options(plain);
        r.staged = run_steps(*simulator_, params_, config_.steps, progress, "stages");
        simulator_->set_options(config_.options);
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
