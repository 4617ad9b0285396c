#include "app/python/simulation.h"

#include <algorithm>

#include "app/lab/bench_run.h"
#include "app/lab/interrupt.h"
#include "app/lab/particle_export.h"
#include "app/lab/percentile.h"
#include "app/lab/scene_dirs.h"
#include "sim/core/error.h"
#include "sim/io/checkpoint.h"
#include "sim/io/scene_file.h"
#include "sim/model/sim_time.h"
#include "sim/run/make_simulator.h"
#include "sim/run/run.h"

namespace plab::app::py {

namespace fs = std::filesystem;

std::string resolve_scene(const std::string& name, const std::vector<fs::path>& folders) {
    if (name.find('/') != std::string::npos || fs::path(name).extension() == ".json") return name;
    const std::vector<std::string> files = list_scene_files(folders);
    std::string known;
    for (const std::string& f : files) {
        if (fs::path(f).stem() == name) return f;
        known += (known.empty() ? "" : ", ") + fs::path(f).stem().string();
    }
    throw Error("scene '" + name + "': no shipped scene of that name" +
                (known.empty() ? std::string(" (no scene folder found)")
                               : "; the shipped scenes are " + known) +
                "; or give the path of a scene file");
}

Simulation::Simulation(SimulationRequest request, std::vector<fs::path> scene_folders)
    : request_(std::move(request)), scene_folders_(std::move(scene_folders)) {
    PLAB_REQUIRE(request_.preset.empty() || request_.scene.empty(),
                 "give a preset or a scene, not both (a scene file names its own preset)");
    if (!request_.scene.empty()) scene_path_ = resolve_scene(request_.scene, scene_folders_);
    sim::RunStart start;
    start.backend = request_.backend;
    start.request.preset = request_.preset.empty() ? "classic" : request_.preset;
    if (!scene_path_.empty()) {
        start.request.scene_file = sim::load_scene_file(scene_path_);
        start.request.scene_source = scene_path_;
    }
    start.request.particles = request_.particles;
    start.request.assignments = request_.assignments;
    start.default_particles = kDefaultParticles;
    // A step here is one dt, as in bench and export (substeps only groups steps per frame).
    start.single_dt = true;
    run_ = std::make_unique<sim::Run>(start);
}

void Simulation::step(std::int64_t n) {
    PLAB_REQUIRE(n >= 0, "step: the number of steps must be 0 or more, not " + std::to_string(n));
    // A signal (the bindings' interruptible()) ends the loop between steps.
    for (std::int64_t i = 0; i < n && !interrupted(); ++i) run_->step();
    run_->simulator().synchronize();
    run_->simulator().take_timings();  // not measured here; drained so they do not pile up
}

void Simulation::set(const std::string& name, const std::string& value_text) {
    const bool pending = run_->assign(name, value_text);
    request_.assignments.push_back(name + "=" + value_text);
    if (pending &&
        std::find(pending_reset_.begin(), pending_reset_.end(), name) == pending_reset_.end())
        pending_reset_.push_back(name);
}

void Simulation::reset() {
    // Back to the loaded checkpoint as it was loaded, else the scene with every set() so far.
    run_->rewind();
    pending_reset_.clear();
}

Arrays Simulation::arrays() {
    const ExportFrame f =
        make_export_frame(run_->simulator().download(), run_->params(), run_->time());
    Arrays a;
    const std::size_t n = f.count();
    a.pos.resize(3 * n);
    a.vel.resize(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
        const sim::Float4 &p = f.particles.pos[i], &v = f.particles.vel[i];
        a.pos[3 * i] = p.x, a.pos[3 * i + 1] = p.y, a.pos[3 * i + 2] = p.z;
        a.vel[3 * i] = v.x, a.vel[3 * i + 1] = v.y, a.vel[3 * i + 2] = v.z;
    }
    a.density = f.density;
    a.pressure = f.pressure;
    return a;
}

BenchSummary Simulation::bench(int steps, int warmup, const std::string& window,
                               double flow_time) const {
    BenchConfig c;
    c.backend = run_->backend();
    c.preset = request_.preset.empty() ? "classic" : request_.preset;
    c.scene = scene_path_;
    c.particles = request_.particles > 0 ? request_.particles : kDefaultParticles;
    c.particles_given = request_.particles > 0;
    c.assignments = request_.assignments;
    c.steps = steps;
    c.warmup = warmup;
    c.window = window;
    c.flow_time = flow_time;
    c.flow_time_given = true;
    BenchRun run(c);
    const BenchResult r = run.measure(nullptr);

    BenchSummary s;
    s.backend = std::string(sim::backend_name(run.simulator().backend()));
    s.device = run.simulator().device_name();
    s.window = r.window;
    s.invalid = r.invalid;
    s.notes = r.notes;
    s.particles = run.simulator().particle_count();
    s.steps = r.steps;
    s.wall_ms = r.wall_ms;
    s.integrate_fused = !r.staged.empty() && r.staged.front().integrate_fused;
    s.whole_step = r.graph || r.persistent;
    const std::pair<const char*, double sim::StageTimings::*> fields[] = {
        {"grid", &sim::StageTimings::grid_ms},
        {"reorder", &sim::StageTimings::reorder_ms},
        {"forces", &sim::StageTimings::forces_ms},
        {"integrate", &sim::StageTimings::integrate_ms},
        {"step", &sim::StageTimings::total_ms}};
    for (const auto& [name, field] : fields) {
        const std::vector<double> v = timing_column(r.staged, field);
        s.stages[name] = {median(v), percentile(v, 0.1), percentile(v, 0.9)};
    }
    s.step_ms = median(timing_column(r.measured, &sim::StageTimings::total_ms));
    return s;
}

void Simulation::save(const fs::path& path) { run_->save(path); }

void Simulation::load(const fs::path& path) {
    // From here on the run is the checkpoint's, its variants included; reset() goes back to it.
    run_->load(sim::load_checkpoint(path));
    pending_reset_.clear();
}

}  // namespace plab::app::py
