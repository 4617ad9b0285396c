#include "sim/run/run.h"

#include <cmath>
#include <filesystem>
#include <numbers>
#include <utility>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/io/scene_writer.h"
#include "sim/model/sim_time.h"
#include "sim/run/make_simulator.h"

namespace plab::sim {
namespace {

void join_errors(const std::vector<std::string>& errors) {
    if (errors.empty()) return;
    std::string all;
    for (const std::string& e : errors) all += (all.empty() ? "" : "; ") + e;
    throw Error(all);
}

// Keeps the running value of every parameter that only applies on restart.
Params live_part(const Params& edited, const Params& running) {
    Params p = edited;
    for (const ParamInfo& info : param_table()) {
        if (info.needs_reset) info.set(p, info.get(running));
    }
    return p;
}

}  // namespace

Run::Run(const RunStart& start)
    : options_(start.options),
      single_dt_(start.single_dt),
      assignments_(start.request.assignments) {
    validate(options_);
    if (start.checkpoint) {
        // The assignments apply over the checkpoint's parameters, the variants asked for over
        // its own; the grid follows the parameters.
        auto c = std::make_shared<Checkpoint>(*start.checkpoint);
        for (const std::string& a : assignments_) apply_assignment(c->params, a);
        if (single_dt_) c->params.substeps = 1;
        validate(c->params);
        if (!start.request.model.empty())
            PLAB_REQUIRE(parse_model(start.request.model) == c->params.model,
                         "--model " + start.request.model + " does not match the checkpoint " +
                             start.checkpoint_source + ", which is " +
                             std::string(model_name(c->params.model)));
        c->run.options = options_;
        c->state.grid = scene_grid(c->state.domain, c->params);
        simulator_ = make_simulator(start.backend, &fallback_, options_);
        resume(std::move(c), start.checkpoint_source);
        return;
    }
    std::size_t default_count = start.default_particles;
    if (start.cuda_default_particles > 0 && start.backend != Backend::Cpu &&
        cuda_unavailable_reason().empty())
        default_count = start.cuda_default_particles;
    const RunRecipe recipe = resolve_run(start.request, default_count);
    Params params = recipe.params;
    if (single_dt_) params.substeps = 1;
    simulator_ = make_simulator(start.backend, &fallback_, options_);
    scene_file_ = recipe.scene_file;
    scene_source_ = recipe.scene_file ? start.request.scene_source : "";
    start_scene(*simulator_, recipe.preset, recipe.particles, params);
}

void Run::start_scene(Simulator& simulator, Preset preset, std::size_t count,
                      const Params& params) {
    PLAB_REQUIRE(count > 0, "the particle count must be at least 1");
    validate(params);
    require_plate_support(params);  // refused before anything changes
    const std::string unsupported = simulator.unsupported(params);
    PLAB_REQUIRE(unsupported.empty(), unsupported);
    const Scene scene = run_scene(preset, scene_file_, count, params);
    // Named as resolve_run names it (run_recipe.h): errors name the file, else the label.
    const std::string preset_label = "preset " + std::string(preset_name(preset));
    const std::string label = scene_file_
                                  ? "scene " + scene_file_->name +
                                        (scene_source_.empty() ? "" : " (" + scene_source_ + ")") +
                                        ", " + preset_label
                                  : preset_label;
    const std::string source = scene_source_.empty() ? label : scene_source_;
    const InitialState initial = scene_initial_state(scene, scene_file_, params, count, source);
    simulator.reset(initial, params);  // throws before changing anything (e.g. no memory)
    preset_ = preset;
    params_ = params;
    start_count_ = count;
    domain_ = initial.domain;
    geometry_ = initial.geometry;
    scene_ = scene;
    loaded_.reset();
    loaded_from_.clear();
    label_ = label;
    time_ = 0;
    steps_ = 0;
    ++generation_;
    ++starts_;
    arm_sources();
    check();
}

void Run::arm_sources() {
    has_sources_ = scene_file_ && !scene_file_->sources.empty();
    source_progress_ = {};
    next_sources_ = time_;
    if (!has_sources_) return;
    const Sources& s = scene_file_->sources;
    const float spacing = emission_spacing(params_);
    for (const Emitter& e : s.emitters) {
        const double rate = emitter_rate(e, spacing, emitter_face(e, spacing).size());
        source_progress_.emitted.push_back(
            static_cast<std::uint64_t>(emitter_owed(e, rate, time_)));
        source_progress_.next.push_back(0);
    }
    if (s.max_particles > 0) simulator_->reserve_particles(s.max_particles);
}

void Run::apply_sources_now() {
    const Sources& s = scene_file_->sources;
    next_sources_ = time_ + source_interval(s, emission_spacing(params_));
    InitialState state = simulator_->capture_state();
    const SourceStep done = apply_sources(state, s, params_, time_, source_progress_);
    if (done.emitted == 0 && done.sunk == 0) return;
    simulator_->reset(state, params_);
    ++generation_;
}

std::optional<float> Run::body_spin(std::size_t body) const {
    if (!geometry_ || !scene_file_ || scene_file_->bodies.size() != geometry_->bodies.size() ||
        body >= scene_file_->bodies.size())
        return std::nullopt;
    const Body& b = scene_file_->bodies[body];
    if (b.shape != BodyShape::Cylinder && b.shape != BodyShape::Plane) return std::nullopt;
    // From the running body (a checkpoint may hold a spin edited after the file was read).
    const Vec3 omega = geometry_->bodies[body].omega;
    const Vec3 axis = b.motion.spin_axis * (1.f / std::sqrt(length_squared(b.motion.spin_axis)));
    return dot(omega, axis) * 60.f / (2.f * std::numbers::pi_v<float>);
}

void Run::set_body_spin(std::size_t body, float rpm) {
    PLAB_REQUIRE(geometry_ && body < geometry_->bodies.size(),
                 "the scene has no body " + std::to_string(body));
    const std::string& name = geometry_->body_names[body];
    PLAB_REQUIRE(body_spin(body).has_value(),
                 name + ": only a cylinder or a plane of the scene file can spin");
    PLAB_REQUIRE(std::isfinite(rpm) && std::fabs(rpm) <= kMaxSpinRpm,
                 name + format_numbers(": spin %g rev/min is not a number in [-%g, %g]", rpm,
                                       kMaxSpinRpm, kMaxSpinRpm));
    Body edited = scene_file_->bodies[body];
    edited.motion.spin_rpm = rpm;
    try {
        check_body(edited, body_surface(edited, domain_), domain_);
    } catch (const Error& e) {
        throw Error(name + ": " + e.what());
    }
    auto next = std::make_shared<SceneGeometry>(*geometry_);
    next->bodies[body].omega = edited.motion.omega();
    next->bodies[body].spin_center = edited.motion.spin_center;
    simulator_->set_body_motions(next);  // throws before changing anything
    geometry_ = std::move(next);
    scene_file_->bodies[body] = std::move(edited);
}

void Run::set_bodies(const std::vector<Body>& bodies) {
    PLAB_REQUIRE(bodies.size() <= kMaxBodies, "at most " + std::to_string(kMaxBodies) + " bodies");
    PLAB_REQUIRE(scene_file_ || !loaded_, "this run continues a checkpoint (" + loaded_from_ +
                                              ") whose scene is not known: its bodies cannot "
                                              "be edited");
    SceneFile edited = scene_to_save();  // the scene file, or the preset's scene as one
    edited.bodies = bodies;
    std::shared_ptr<const SceneGeometry> next;
    if (!bodies.empty())
        next = std::make_shared<const SceneGeometry>(place_bodies(bodies, domain_));
    const std::string unsupported = simulator_->unsupported(params_);
    PLAB_REQUIRE(unsupported.empty(), unsupported);
    // The particles stay on the device; throws before changing anything (SPH: open meshes).
    simulator_->set_geometry(next, params_);
    geometry_ = std::move(next);
    if (!scene_file_) scene_source_.clear();
    scene_file_ = std::move(edited);
    ++generation_;
}

void Run::set_sources(const Sources& sources) {
    PLAB_REQUIRE(scene_file_ || !loaded_, "this run continues a checkpoint (" + loaded_from_ +
                                              ") whose scene is not known: its sources cannot "
                                              "be edited");
    SceneFile edited = scene_to_save();
    edited.sources = sources;
    // Written and read back: the scene file's own checks (a face outside the domain, no room
    // for a particle, a missing max_particles), each naming its key. Without the bodies, which
    // the sources' checks do not read: a drag of an emitter then reads no mesh file again.
    SceneFile probe = edited;
    probe.bodies.clear();
    const std::string source = scene_source_.empty() ? "edited scene.json" : scene_source_;
    const SceneFile checked = parse_scene_file(scene_file_text(probe, ".", "."), source);
    if (checked.sources.max_particles > 0)
        simulator_->reserve_particles(checked.sources.max_particles);
    edited.sources = checked.sources;
    if (!scene_file_) scene_source_.clear();
    scene_file_ = std::move(edited);
    arm_sources();
}

SourceStep Run::apply_brush(const Sources& once) {
    return apply_brush([&](const InitialState&) { return once; });
}

SourceStep Run::apply_brush(const std::function<Sources(const InitialState&)>& stroke) {
    InitialState state = simulator_->capture_state();
    const Sources once = stroke(state);
    if (once.max_particles > particle_count()) simulator_->reserve_particles(once.max_particles);
    SourceProgress progress;
    progress.emitted.assign(once.emitters.size(), 0);
    progress.next.assign(once.emitters.size(), 0);
    const SourceStep done = apply_sources(state, once, params_, time_, progress);
    if (done.emitted == 0 && done.sunk == 0) return done;
    simulator_->reset(state, params_);
    ++generation_;
    return done;
}

void Run::resume(std::shared_ptr<const Checkpoint> c, const std::string& source) {
    const Preset preset = parse_preset(c->run.preset);
    // The scene file it started from, when it is still there: a restart starts it again.
    std::optional<SceneFile> file;
    if (!c->run.scene.empty()) {
        try {
            file = load_scene_file(c->run.scene);
        } catch (const Error&) {
            file.reset();  // gone or changed: a restart starts the preset instead
        }
    }
    const SimulatorOptions before = simulator_->effective_options().requested;
    simulator_->set_options(c->run.options);
    try {
        restore_checkpoint(*simulator_, *c);  // throws before changing the state
    } catch (...) {
        simulator_->set_options(before);
        throw;
    }
    options_ = c->run.options;
    preset_ = preset;
    params_ = c->params;
    domain_ = c->state.domain;
    geometry_ = c->state.geometry;
    scene_ = Scene{c->run.label, c->state.domain, {}, 1};
    scene_file_ = std::move(file);
    scene_source_ = scene_file_ ? c->run.scene : "";
    start_count_ = scene_file_ ? scene_file_->particles : c->state.pos.size();
    time_ = c->run.time;
    steps_ = c->run.steps;
    label_ = source.empty()
                 ? c->run.label
                 : "checkpoint " + source + " (" + c->run.label + ", step " +
                       std::to_string(c->run.steps) + format_numbers(", t = %.6g s)", c->run.time);
    arm_sources();
    // The sources' own progress, when the file kept it for the emitters the scene file has now.
    if (has_sources_ && c->run.sources &&
        c->run.sources->emitted.size() == scene_file_->sources.emitters.size()) {
        source_progress_ = *c->run.sources;
        next_sources_ = c->run.next_sources;
    }
    loaded_ = std::move(c);
    loaded_from_ = source;
    ++generation_;
    ++starts_;
    check();
}

void Run::check() {
    const std::string source =
        scene_source_.empty() && scene_file_ ? scene_file_->name : scene_source_;
    warnings_ = check_run(scene_, params_, assigned_params(assignments_, scene_file_, source));
}

void Run::set_params(const Params& edited) {
    Params live = live_part(edited, params_);
    if (single_dt_) live.substeps = 1;
    if (live == params_) return;
    join_errors(param_errors(live));
    require_plate_support(live);  // the edit is refused, the run keeps its parameters
    params_ = live;
    check();  // a dt dragged past its limit warns at once
}

bool Run::assign(const std::string& name, const std::string& value_text) {
    Params edited = params_;
    apply_assignment(edited, name + "=" + value_text);
    validate(edited);
    const ParamInfo* info = find_param(name);
    const bool pending = info && info->needs_reset && info->get(edited) != info->get(params_);
    assignments_.push_back(name + "=" + value_text);
    if (single_dt_) edited.substeps = 1;
    // Held at once, reset-only ones too: the next restart starts with them.
    params_ = edited;
    check();
    return pending;
}

void Run::restart(const Params& params, std::size_t count) {
    start_scene(*simulator_, preset_, count > 0 ? count : particle_count(), params);
}

void Run::rewind() {
    if (loaded_) {
        std::shared_ptr<const Checkpoint> c = loaded_;
        const std::string source = loaded_from_;
        resume(std::move(c), source);
        return;
    }
    restart(params_);
}

Params Run::preset_defaults(Preset preset, std::size_t count) const {
    Params p = run_params(preset, std::nullopt, count);
    for (const std::string& a : assignments_) apply_assignment(p, a);
    if (single_dt_) p.substeps = 1;
    return p;
}

SceneFile Run::scene_to_save() const {
    if (!scene_file_) {
        PLAB_REQUIRE(!loaded_, "this run continues a checkpoint (" + loaded_from_ +
                                   ") whose scene is not known: save a checkpoint instead");
    }
    SceneFile f;
    if (scene_file_) {
        f = *scene_file_;  // its bodies carry the spins set since (set_body_spin)
    } else {
        f.name = std::string(preset_name(preset_));
        f.description = "the " + f.name + " preset's scene";
        f.preset = preset_;
        f.scene = scene_;
    }
    f.params = params_;
    f.particles = start_count_;
    f.param_keys.clear();
    return f;
}

void Run::change_preset(Preset preset) {
    std::optional<SceneFile> file = std::exchange(scene_file_, std::nullopt);
    std::string source = std::exchange(scene_source_, std::string());
    try {
        start_scene(*simulator_, preset, particle_count(),
                    preset_defaults(preset, particle_count()));
    } catch (...) {
        scene_file_ = std::move(file);
        scene_source_ = std::move(source);
        throw;
    }
}

void Run::use_scene_file(const SceneFile& file, const std::string& source, std::size_t count) {
    Params p = run_params(file.preset, file, count);
    for (const std::string& a : assignments_) apply_assignment(p, a);
    if (single_dt_) p.substeps = 1;
    std::optional<SceneFile> previous = std::exchange(scene_file_, file);
    std::string previous_source = std::exchange(scene_source_, source);
    try {
        start_scene(*simulator_, file.preset, count > 0 ? count : file.particles, p);
    } catch (...) {
        scene_file_ = std::move(previous);
        scene_source_ = std::move(previous_source);
        throw;
    }
}

void Run::adopt_scene_file(const std::string& path) {
    SceneFile file = load_scene_file(path);
    const std::size_t bodies = scene_file_ ? scene_file_->bodies.size() : 0;
    const std::size_t emitters = scene_file_ ? scene_file_->sources.emitters.size() : 0;
    const std::size_t sinks = scene_file_ ? scene_file_->sources.sinks.size() : 0;
    PLAB_REQUIRE(file.bodies.size() == bodies && file.sources.emitters.size() == emitters &&
                     file.sources.sinks.size() == sinks,
                 path + ": holds other bodies or sources than the running scene");
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    for (Body& b : file.bodies)
        if (!b.file.empty())
            b.file = std::filesystem::absolute(folder / b.file).lexically_normal().string();
    scene_file_ = std::move(file);
    scene_source_ = path;
}

void Run::change_backend(Backend backend, const Params& params) {
    std::string note;
    std::unique_ptr<Simulator> next = make_simulator(backend, &note, options_);
    start_scene(*next, preset_, particle_count(), params);
    simulator_ = std::move(next);
    fallback_ = note;
}

void Run::set_options(const SimulatorOptions& options) {
    simulator_->set_options(options);
    options_ = options;
}

RunDescription Run::description() const {
    RunDescription d;
    d.preset = std::string(preset_name(preset_));
    d.scene = scene_source_;
    d.label = label_;
    d.options = options_;
    d.steps = steps_;
    d.time = time_;
    if (has_sources_) {
        d.sources = source_progress_;
        d.next_sources = next_sources_;
    }
    return d;
}

void Run::save(const std::filesystem::path& path) {
    save_checkpoint(path, *simulator_, params_, description());
}

void Run::load(const Checkpoint& checkpoint, const std::string& source) {
    resume(std::make_shared<const Checkpoint>(checkpoint), source);
}

}  // namespace plab::sim
