#include "app/bench_run.h"

#include <chrono>
#include <ostream>

#include "sim/error.h"
#include "sim/presets.h"

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

BenchRun::BenchRun(const BenchConfig& c) : config_(c) {
    PLAB_REQUIRE(c.model == "dem", "unknown model '" + c.model + "'; available: dem");
    PLAB_REQUIRE(c.particles >= 1, "--particles must be at least 1");
    PLAB_REQUIRE(c.steps >= 1, "--steps must be at least 1");
    PLAB_REQUIRE(c.warmup >= 0, "--warmup must not be negative");

    const sim::Preset preset = sim::parse_preset(c.preset);
    params_ = sim::preset_params(preset);
    for (const auto& a : c.assignments) sim::apply_assignment(params_, a);
    // A benchmark step is one dt: per-frame substeps would only multiply every number.
    params_.substeps = 1;
    sim::validate(params_);

    options_.block_size = c.block_size;
    options_.use_graph = c.graph;
    options_.threads_per_particle = c.threads_per_particle;
    options_.fuse_integrate = !c.separate_integrate;
    options_.contact_list = !c.single_pass_forces;
    simulator_ = sim::make_simulator(c.backend, &fallback_, options_);

    const sim::Scene scene = sim::preset_scene(preset, c.particles, params_);
    initial_ = sim::build_initial_state(scene, params_, c.particles);
    simulator_->reset(initial_, params_);
}

BenchResult BenchRun::measure(std::ostream* progress) {
    BenchResult r;
    run_steps(*simulator_, params_, config_.warmup, progress, "warm-up");
    const auto t0 = Clock::now();
    r.measured = run_steps(*simulator_, params_, config_.steps, progress, "measure");
    r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();

    // A graph step has only its total; take the stage split from plain launches.
    r.staged = r.measured;
    if (cuda() && config_.graph) {
        sim::SimulatorOptions plain = options_;
        plain.use_graph = false;
        simulator_->set_options(plain);
        r.staged = run_steps(*simulator_, params_, config_.steps, progress, "stages");
        simulator_->set_options(options_);
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
