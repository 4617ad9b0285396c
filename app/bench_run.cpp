#include "app/bench_run.h"

#include <chrono>
#include <ostream>

#include "sim/error.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#endif
#include "sim/presets.h"
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

BenchScene bench_scene(const BenchConfig& c) {
    BenchScene s;
    sim::Preset preset;
    if (c.scene.empty()) {
        preset = sim::parse_preset(c.preset);
        s.params = sim::preset_params(preset);
        s.particles = c.particles;
        s.label = "preset " + c.preset;
    } else {
        const sim::SceneFile file = sim::load_scene_file(c.scene);
        preset = file.preset;
        s.params = file.params;
        s.particles = c.particles_given ? c.particles : file.particles;
        s.label = "scene " + file.name + " (" + c.scene + "), preset " +
                  std::string(sim::preset_name(preset));
        if (file.has_own_blocks) s.scene = file.scene;
    }
    PLAB_REQUIRE(s.particles >= 1, "--particles must be at least 1");
    if (!c.model.empty()) {  // a stated model guards against a preset or scene of the other
        const sim::Model model = sim::parse_model(c.model);
        PLAB_REQUIRE(model == s.params.model,
                     "--model " + c.model + " does not match the " + s.label + ", which is " +
                         std::string(sim::model_name(s.params.model)));
    }
    for (const auto& a : c.assignments) sim::apply_assignment(s.params, a);
    // A benchmark step is one dt: per-frame substeps would only multiply every number.
    s.params.substeps = 1;
    sim::validate(s.params);
    if (s.scene.blocks.empty()) s.scene = sim::preset_scene(preset, s.particles, s.params);
    return s;
}

sim::SimulatorOptions bench_options(const BenchConfig& c) {
    sim::SimulatorOptions o;
    o.block_size = c.block_size;
    o.use_graph = c.graph;
    o.threads_per_particle = c.threads_per_particle;
    o.fuse_integrate = !c.separate_integrate;
    o.contact_list = !c.single_pass_forces;
    o.scatter_forces = c.scatter_forces;
    o.persistent_kernel = c.persistent;
    o.double_state = c.double_state;
    o.sorted_memory = !c.unsorted;
    return o;
}

BenchRun::BenchRun(const BenchConfig& c) : config_(c) {
    PLAB_REQUIRE(c.particles >= 1, "--particles must be at least 1");
    PLAB_REQUIRE(c.steps >= 1, "--steps must be at least 1");
    PLAB_REQUIRE(c.warmup >= 0, "--warmup must not be negative");

    BenchScene setup = bench_scene(c);
    params_ = setup.params;
    label_ = setup.label;

    options_ = bench_options(c);
    simulator_ = sim::make_simulator(c.backend, &fallback_, options_);

    initial_ = sim::build_initial_state(setup.scene, params_, setup.particles);
    simulator_->reset(initial_, params_);
}

BenchResult BenchRun::measure(std::ostream* progress) {
    BenchResult r;
    run_steps(*simulator_, params_, config_.warmup, progress, "warm-up");
    const auto t0 = Clock::now();
    r.measured = run_steps(*simulator_, params_, config_.steps, progress, "measure");
    r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    r.notes = simulator_->option_notes();
#if PLAB_HAS_CUDA
    if (cuda())
        r.persistent =
            dynamic_cast<const sim::cuda::CudaSimulator&>(*simulator_).persistent_in_use();
#endif

    // A graph or persistent-kernel step has only its total; take the stage split from plain
    // launches.
    r.staged = r.measured;
    if (cuda() && (config_.graph || config_.persistent)) {
        sim::SimulatorOptions plain = options_;
        plain.use_graph = false;
        plain.persistent_kernel = false;
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
