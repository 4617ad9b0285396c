#include "app/viewer/sim_session.h"

#include "sim/error.h"
#include "sim/run_checks.h"
#include "sim/run_recipe.h"

namespace plab::app {
namespace {

void join_errors(const std::vector<std::string>& errors) {
    if (errors.empty()) return;
    std::string all;
    for (const std::string& e : errors) all += (all.empty() ? "" : "; ") + e;
    throw Error(all);
}

// Keeps the running value of every parameter that only applies on reset.
sim::Params live_part(const sim::Params& edited, const sim::Params& running) {
    sim::Params p = edited;
    for (const sim::ParamInfo& info : sim::param_table()) {
        if (info.needs_reset) info.set(p, info.get(running));
    }
    return p;
}

}  // namespace

std::size_t default_particles(sim::Backend backend) {
    return backend == sim::Backend::Cuda ? kDefaultCudaParticles : kDefaultCpuParticles;
}

SimSession::SimSession(const AppConfig& config)
    : assignments_(config.run.assignments), options_(config.options) {
    simulator_ = sim::make_simulator(config.backend, &cpu_note_, options_);
    if (config.checkpoint) {
        // --set applies over the checkpoint's parameters, as over a preset's.
        sim::Checkpoint c = *config.checkpoint;
        for (const std::string& a : assignments_) sim::apply_assignment(c.params, a);
        c.run.options = options_;  // the flags given apply over the checkpoint's variants
        c.state.grid = sim::scene_grid(c.state.domain, c.params);
        load(c, config.load);
        return;
    }
    scene_source_ = config.run.scene_source;
    const sim::RunRecipe recipe =
        sim::resolve_run(config.run, default_particles(simulator_->backend()));
    scene_file_ = recipe.scene_file;
    restart(*simulator_, recipe.preset, recipe.particles, recipe.params);
}

sim::Params SimSession::preset_defaults(sim::Preset preset, std::size_t count) const {
    sim::Params p = sim::run_params(preset, std::nullopt, count);
    for (const std::string& a : assignments_) sim::apply_assignment(p, a);
    return p;
}

void SimSession::restart(sim::Simulator& simulator, sim::Preset preset, std::size_t count,
                         const sim::Params& params) {
    PLAB_REQUIRE(count > 0, "the particle count must be at least 1");
    sim::validate(params);
    sim::require_plate_support(params);  // refused before anything changes
    const sim::Scene scene = sim::run_scene(preset, scene_file_, count, params);
    const sim::InitialState initial = sim::build_initial_state(scene, params, count);
    simulator.reset(initial, params);  // throws before changing anything (e.g. no memory)
    steps_ = 0;
    preset_ = preset;
    params_ = params;
    domain_ = initial.domain;
    scene_ = scene;
    sim_time_ = 0;
    check();
}

void SimSession::check() {
    const std::string source = scene_file_ ? scene_file_->name : "";
    warnings_ =
        sim::check_run(scene_, params_, sim::assigned_params(assignments_, scene_file_, source));
}

void SimSession::set_params(const sim::Params& edited) {
    const sim::Params live = live_part(edited, params_);
    if (live == params_) return;
    join_errors(sim::param_errors(live));
    sim::require_plate_support(live);  // the edit is refused, the run keeps its parameters
    params_ = live;
    check();  // a dt dragged past its limit warns at once
}

void SimSession::reset(const sim::Params& edited) {
    restart(*simulator_, preset_, particle_count(), edited);
}

sim::Params SimSession::change_preset(sim::Preset preset) {
    std::optional<sim::SceneFile> file = std::move(scene_file_);
    scene_file_.reset();
    try {
        restart(*simulator_, preset, particle_count(), preset_defaults(preset, particle_count()));
    } catch (...) {
        scene_file_ = std::move(file);
        throw;
    }
    scene_source_.clear();
    return params_;
}

sim::Params SimSession::use_scene_file(const sim::SceneFile& file, std::size_t count) {
    sim::Params p = sim::run_params(file.preset, file, count);
    for (const std::string& a : assignments_) sim::apply_assignment(p, a);
    std::optional<sim::SceneFile> previous = std::move(scene_file_);
    scene_file_ = file;
    try {
        restart(*simulator_, file.preset, count > 0 ? count : file.particles, p);
    } catch (...) {
        scene_file_ = std::move(previous);
        throw;
    }
    scene_source_ = file.name;
    return params_;
}

void SimSession::change_count(std::size_t count, const sim::Params& edited) {
    restart(*simulator_, preset_, count, edited);
}

void SimSession::change_backend(sim::Backend backend, const sim::Params& edited) {
    std::string note;
    std::unique_ptr<sim::Simulator> next = sim::make_simulator(backend, &note, options_);
    restart(*next, preset_, particle_count(), edited);
    simulator_ = std::move(next);
    cpu_note_ = note;
}

void SimSession::set_options(const sim::SimulatorOptions& options) {
    simulator_->set_options(options);
    options_ = options;
}

void SimSession::save(const std::string& path) {
    sim::RunDescription d;
    d.preset = std::string(sim::preset_name(preset_));
    d.scene = scene_source_;
    d.label = scene_file_ ? "scene " + scene_file_->name : "preset " + d.preset;
    if (!loaded_from_.empty()) d.label += ", continued from " + loaded_from_;
    d.options = options_;
    d.steps = steps_;
    d.time = sim_time_;
    sim::save_checkpoint(path, *simulator_, params_, d);
}

void SimSession::load(const sim::Checkpoint& c, const std::string& source) {
    const sim::Preset preset = sim::parse_preset(c.run.preset);
    // The scene file it started from, when it is still there: Reset restarts it.
    std::optional<sim::SceneFile> file;
    if (!c.run.scene.empty()) {
        try {
            file = sim::load_scene_file(c.run.scene);
        } catch (const Error&) {
            file.reset();  // gone or changed: Reset restarts the preset instead
        }
    }
    const sim::SimulatorOptions before = simulator_->effective_options().requested;
    simulator_->set_options(c.run.options);
    try {
        sim::restore_checkpoint(*simulator_, c);  // throws before changing the state
    } catch (...) {
        simulator_->set_options(before);
        throw;
    }
    options_ = c.run.options;
    preset_ = preset;
    params_ = c.params;
    domain_ = c.state.domain;
    scene_ = sim::Scene{c.run.label, c.state.domain, {}, 1};
    scene_file_ = std::move(file);
    scene_source_ = scene_file_ ? c.run.scene : "";
    sim_time_ = c.run.time;
    steps_ = c.run.steps;
    loaded_from_ = source;
    check();
}

}  // namespace plab::app
