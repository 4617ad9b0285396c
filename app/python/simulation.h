#pragma once
// The run behind a Python `particle_lab.Simulation`: the one run every front end holds
// (sim/run/run.h), started from the keyword arguments. Plain C++ (no Python types), so the bindings
// (module.cpp) only convert; every error is a plab::Error with the message the command line gives
// for the same input.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "app/python/picture.h"
#include "sim/engine/simulator.h"
#include "sim/io/checkpoint.h"
#include "sim/model/params.h"
#include "sim/run/run.h"
#include "sim/run/run_recipe.h"

namespace plab::app::py {

struct SimulationRequest {
    std::string preset;         // "" with a scene; else classic, granular or water
    std::string scene;          // "" or a scene file: a path, or the name of a shipped scene
    std::size_t particles = 0;  // 0: the scene file's count, else kDefaultParticles
    sim::Backend backend = sim::Backend::Auto;
    std::vector<std::string> assignments;  // name=value, as --set
};

// The count a run without one gets: the same as `particle-lab bench`.
inline constexpr std::size_t kDefaultParticles = 65536;

// Stage timings of Simulation::bench: the medians and percentiles over the measured steps.
struct BenchSummary {
    std::string backend, device, window, invalid, notes;
    std::size_t particles = 0;
    int steps = 0;
    bool integrate_fused = false, whole_step = false;
    double wall_ms = 0;
    // stage name (grid, reorder, forces, integrate, step) -> {median, p10, p90} in ms
    std::map<std::string, std::vector<double>> stages;
    double step_ms = 0;  // median of the measured steps (a graph's or persistent kernel's total)
};

// The state arrays in particle-id order.
struct Arrays {
    std::vector<float> pos, vel;           // n × 3: m, m/s
    std::vector<float> density, pressure;  // n: kg/m³, Pa (SPH; empty for DEM)
};

class Simulation {
  public:
    // Resolves `request` (scene names through `scene_folders`), makes the simulator and starts
    // the scene. Throws plab::Error as `particle-lab bench` would for the same request.
    Simulation(SimulationRequest request, std::vector<std::filesystem::path> scene_folders);

    // Runs `n` steps of dt (one dt each, whatever params.substeps says, as bench does); fewer
    // when SIGINT or SIGTERM arrives under an InterruptHandler (app/lab/interrupt.h).
    void step(std::int64_t n);
    double time() const { return run_->time(); }
    std::uint64_t steps() const { return run_->steps(); }

    // Validated as --set name=value: out of range, unknown or breaking a rule throws and
    // changes nothing. Parameters that need a reset (radius, model constants) take effect at
    // reset(); the others at the next step.
    void set(const std::string& name, const std::string& value_text);
    // Starts the scene again with every parameter set so far; the time goes back to 0. After
    // load(): back to the loaded checkpoint, as it was loaded.
    void reset();

    const sim::Params& params() const { return run_->params(); }
    std::size_t particle_count() const { return run_->particle_count(); }
    sim::Backend backend() const { return run_->backend(); }
    std::string device_name() const { return run_->simulator().device_name(); }
    const std::string& label() const { return run_->label(); }
    const sim::Domain& domain() const { return run_->domain(); }  // m, the walls of the box
    const std::string& fallback() const { return run_->fallback(); }
    const std::vector<sim::RunWarning>& warnings() const { return run_->warnings(); }
    // What needs a reset to take effect (set() of such a parameter since the last start).
    const std::vector<std::string>& pending_reset() const { return pending_reset_; }

    Arrays arrays();
    // A picture of the particles (picture.h).
    Picture picture(const std::string& look, int width, int height) {
        return draw_picture(*run_, look, width, height);
    }
    sim::SimStats stats() { return run_->simulator().stats(run_->params()); }

    // `particle-lab bench` on this simulation's request (backend, scene, count, parameters)
    // with `steps` measured steps after `warmup`, in `window` (auto, start, settled, flow): a
    // fresh run, this one's state untouched.
    BenchSummary bench(int steps, int warmup, const std::string& window, double flow_time) const;

    // Checkpoints (sim/io/checkpoint.h): the state, parameters, time and request.
    void save(const std::filesystem::path& path);
    // Replaces the run with the checkpoint's (its state, parameters, time and step count); on
    // error nothing changes.
    void load(const std::filesystem::path& path);

    // The scene's bodies (Run::geometry, Run::body_spin, Run::set_body_spin).
    std::vector<std::string> body_names() const {
        const auto& g = run_->geometry();
        return g ? g->body_names : std::vector<std::string>{};
    }
    std::optional<float> body_spin(std::size_t body) const { return run_->body_spin(body); }
    void set_body_spin(std::size_t body, float rpm) { run_->set_body_spin(body, rpm); }

    sim::Simulator& simulator() { return run_->simulator(); }
    // Counts the starts (construction, reset, load): device memory may move at each, so a
    // device view made before one is stale.
    const std::uint64_t& generation() const { return run_->generation(); }
    // Serialises the calls of the bindings (which release the GIL while they work).
    std::mutex& mutex() { return mutex_; }

  private:
    SimulationRequest request_;
    std::vector<std::filesystem::path> scene_folders_;
    std::string scene_path_;  // the scene file resolved, "" for a preset run
    std::unique_ptr<sim::Run> run_;
    std::vector<std::string> pending_reset_;
    std::mutex mutex_;
};

// The scene file `name` stands for: a path (with a '/' or ending in .json) as given, else the
// shipped scene of that name in the first of `folders` that holds scenes. Throws plab::Error
// naming the shipped scenes when there is none of that name.
std::string resolve_scene(const std::string& name,
                          const std::vector<std::filesystem::path>& folders);

}  // namespace plab::app::py
