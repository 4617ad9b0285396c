#pragma once
// The running simulation as the app sees it: which simulator (backend), preset, scene and
// particle count, and the parameters the last step used. Every change the UI asks for goes
// through one method here, called at the frame's one sync point; a change that fails throws
// plab::Error and leaves the running simulation as it was.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/lab/sim_time.h"
#include "app/viewer/app_config.h"
#include "sim/checkpoint.h"
#include "sim/params.h"
#include "sim/presets.h"
#include "sim/run_checks.h"
#include "sim/scene.h"
#include "sim/scene_file.h"
#include "sim/simulator.h"

namespace plab::app {

class SimSession {
  public:
    // Makes the simulator for config.backend and starts the preset's scene with the
    // --set assignments applied. Throws plab::Error on bad assignments or no such backend.
    explicit SimSession(const AppConfig& config);

    sim::Simulator& simulator() { return *simulator_; }
    const sim::Simulator& simulator() const { return *simulator_; }
    sim::Backend backend() const { return simulator_->backend(); }
    // Why CUDA is not in use ("" when it is, or when the CPU was asked for).
    const std::string& cpu_note() const { return cpu_note_; }

    sim::Preset preset() const { return preset_; }
    std::size_t particle_count() const { return simulator_->particle_count(); }
    const sim::Domain& domain() const { return domain_; }
    // The parameters in effect: those of the last reset, with live edits applied.
    const sim::Params& params() const { return params_; }
    const sim::SimulatorOptions& options() const { return options_; }

    // Live edits: validated, then used by the next step; parameters that need a reset keep
    // their running value until reset(). Throws with every broken rule.
    void set_params(const sim::Params& edited);
    // Restarts the scene with `edited` (reset-only parameters included).
    void reset(const sim::Params& edited);
    // Switches preset and restarts; returns the preset's parameters (for the panel). Leaves
    // a scene file, if one was in use, for the preset's own scene.
    sim::Params change_preset(sim::Preset preset);
    // Starts a scene file with `count` particles (0: the file's own count), the --set
    // assignments applied over its parameters; returns those parameters (for the panel).
    sim::Params use_scene_file(const sim::SceneFile& file, std::size_t count = 0);
    // The scene file in use, if any.
    const std::optional<sim::SceneFile>& scene_file() const { return scene_file_; }
    // What the start-up checks find suspicious in the running scene with the parameters in
    // effect (sim/run_checks.h): rechecked at every restart and live edit, shown by the panel.
    const std::vector<sim::RunWarning>& warnings() const { return warnings_; }
    // Re-allocates for `count` particles and restarts.
    void change_count(std::size_t count, const sim::Params& edited);
    // Re-creates the simulator on `backend` and restarts.
    void change_backend(sim::Backend backend, const sim::Params& edited);
    void set_options(const sim::SimulatorOptions& options);

    // Advances params().substeps steps of dt, and the simulated time with them.
    void step() {
        simulator_->step(params_);
        sim_time_ += params_.substeps * step_seconds(params_.dt);
        steps_ += static_cast<std::uint64_t>(params_.substeps);
    }
    // Simulated time since the scene last (re)started, s (the steps run × their dt).
    double sim_time() const { return sim_time_; }
    std::uint64_t steps_run() const { return steps_; }

    // Checkpoints (sim/checkpoint.h). save writes the state now with the parameters in effect
    // and the variants asked for; load continues from a checkpoint (its state, parameters,
    // variants, simulated time and step count). A load that fails throws and leaves the
    // running simulation as it was.
    void save(const std::string& path);
    void load(const sim::Checkpoint& checkpoint, const std::string& source = "");

    // The preset's parameters for `count` particles (sim::run_params) with the --set
    // assignments applied.
    sim::Params preset_defaults(sim::Preset preset, std::size_t count) const;

  private:
    // Builds the scene and resets `simulator` with it; throws before touching this session.
    void restart(sim::Simulator& simulator, sim::Preset preset, std::size_t count,
                 const sim::Params& params);
    void check();  // warnings_ for scene_ and params_

    std::unique_ptr<sim::Simulator> simulator_;
    std::string cpu_note_;
    sim::Preset preset_ = sim::Preset::Classic;
    sim::Params params_;
    sim::Domain domain_;
    sim::Scene scene_;  // the running scene, for the checks of live edits
    std::vector<sim::RunWarning> warnings_;
    std::vector<std::string> assignments_;
    sim::SimulatorOptions options_;
    std::optional<sim::SceneFile> scene_file_;
    double sim_time_ = 0;  // s
    std::uint64_t steps_ = 0;
    std::string scene_source_;  // the scene file as given (for checkpoints), "" for a preset
    std::string loaded_from_;   // the checkpoint the run continues, for its label
};

// The default particle count for a backend.
std::size_t default_particles(sim::Backend backend);

}  // namespace plab::app
