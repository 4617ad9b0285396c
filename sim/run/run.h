#pragma once
// One run, for every front end: a request resolved through the run recipe (or a checkpoint to
// continue), the simulator of the chosen backend, the parameters in effect, the simulated time
// and the step count, and the checks every start and every live edit passes. The window, bench
// (its sweeps, whole frames, export and video) and the Python module each hold one; what stays
// with them is their own: input and panel, timing and reports, conversion to Python.
//
// Every method that changes the run checks first and throws plab::Error before anything
// changes, so a refused edit leaves the running simulation as it was.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/emission.h"
#include "sim/engine/simulator.h"
#include "sim/io/checkpoint.h"
#include "sim/io/scene_file.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "sim/model/run_checks.h"
#include "sim/model/scene.h"
#include "sim/model/sim_time.h"
#include "sim/model/variants.h"
#include "sim/run/run_recipe.h"

namespace plab::sim {

// How a run starts.
struct RunStart {
    Backend backend = Backend::Auto;
    SimulatorOptions options;  // the step variants asked for (over a checkpoint's own)
    RunRequest request;        // preset or scene file, count, name=value assignments
    // Stand in for a count of 0 without a scene file (resolve_run): the count, and when not 0
    // a larger one for runs on CUDA.
    std::size_t default_particles = 65536;
    std::size_t cuda_default_particles = 0;
    // Continue this checkpoint instead of starting the request's scene: its state, time and
    // step count, request.assignments applied over its parameters, `options` over its variants.
    std::shared_ptr<const Checkpoint> checkpoint;
    std::string checkpoint_source;  // the file it came from, for the label
    // Each step is one dt (bench, export, Python); otherwise params.substeps steps (the window).
    bool single_dt = false;
};

class Run {
  public:
    // Makes the simulator and starts. Throws plab::Error (a bad request, CUDA asked where there
    // is none, a state the simulator cannot hold).
    explicit Run(const RunStart& start);

    Simulator& simulator() { return *simulator_; }
    const Simulator& simulator() const { return *simulator_; }
    Backend backend() const { return simulator_->backend(); }
    // Why CUDA is not in use under Backend::Auto ("" when it is, or when the CPU was asked for).
    const std::string& fallback() const { return fallback_; }
    std::size_t particle_count() const { return simulator_->particle_count(); }

    Preset preset() const { return preset_; }
    const Params& params() const { return params_; }
    const SimulatorOptions& options() const { return options_; }
    const Domain& domain() const { return domain_; }  // m, the walls of the box
    // The scene's bodies as placed when it started (null: none), for views to draw.
    const std::shared_ptr<const SceneGeometry>& geometry() const { return geometry_; }
    // The grid the scene's state is binned on with the parameters in effect (scene_grid).
    GridSpec grid() const { return scene_grid(domain_, params_); }
    // What ran: "preset classic", "scene mixer (...)", "checkpoint run.plab (...)".
    const std::string& label() const { return label_; }
    // The scene file in use, if any, and where it came from ("" for a preset).
    const std::optional<SceneFile>& scene_file() const { return scene_file_; }
    const std::string& scene_source() const { return scene_source_; }
    // What the start-up checks find suspicious with the parameters in effect (run_checks.h):
    // rechecked at every start and live edit.
    const std::vector<RunWarning>& warnings() const { return warnings_; }
    // The run continues a checkpoint (rewind() goes back to it).
    bool continues_checkpoint() const { return loaded_ != nullptr; }

    // Advances one step: params().substeps steps of dt (one with RunStart::single_dt). With
    // emitters or sinks (the scene file's sources), every source_interval() of simulated time
    // the state is captured, the sources applied (sim/engine/emission.h) and the simulator
    // reset with the result, so the particle count changes between steps.
    void step() {
        simulator_->step(params_);
        time_ += params_.substeps * step_seconds(params_.dt);
        steps_ += static_cast<std::uint64_t>(params_.substeps);
        if (has_sources_ && time_ >= next_sources_) apply_sources_now();
    }
    // What the emitters and sinks did since the start (empty without them).
    const SourceProgress& source_progress() const { return source_progress_; }
    // Simulated time (s) and steps since the scene started (a checkpoint's own included).
    double time() const { return time_; }
    std::uint64_t steps() const { return steps_; }
    // Counts the starts (construction, restarts, loads): device memory may move at each, so a
    // view of it made before one is stale (a reference, for views to compare against later).
    const std::uint64_t& generation() const { return generation_; }
    // Counts the runs begun: construction, restarts, scene, preset and backend changes and
    // loads, but not the sources' resets. Read-outs of one run (its statistics) are stale once
    // this moves.
    std::uint64_t starts() const { return starts_; }

    // Live edit: validated, then used by the next step. Parameters that need a reset keep
    // their running value until a restart. Throws with every broken rule.
    void set_params(const Params& edited);
    // `name=value` as --set gives it: checked in full, kept as an assignment (the warnings and
    // later restarts see it) and held in params() at once; one that needs a restart takes
    // effect at the next one. Returns true when it needs one and its value changed.
    bool assign(const std::string& name, const std::string& value_text);

    // Live edit of the spin of body `body` of the scene's geometry, rev/min about its spin
    // axis (a drum turning faster, backwards, or stopping): checked as a scene file's motion is
    // (only a cylinder about its own axis and a plane about its normal keep their shape in
    // place), then used by the next step; restarts keep it. Needs the body as the scene file
    // gave it (its axis). Throws plab::Error naming the body, changing nothing.
    void set_body_spin(std::size_t body, float rpm);
    // The spin of body `body`, rev/min, when it can be edited live: a cylinder or a plane of
    // the scene file in use; empty otherwise.
    std::optional<float> body_spin(std::size_t body) const;
    // Live edit of the scene's bodies (the window's Geometry tools): the particles stay where
    // they are and the run goes on with `bodies` placed, binned and, for SPH, sampled anew,
    // on either backend. A preset's run becomes a scene of its own (scene_to_save) at the
    // first edit. Contacts with bodies forget their tangential memory (the bodies' order may
    // have changed). Throws with the body and the reason (a body outside the domain, an open
    // `inside` surface, an open mesh for SPH, too many triangles) before anything changes.
    void set_bodies(const std::vector<Body>& bodies);
    // Live edit of the scene's emitters, sinks and max_particles (the Bodies tab): checked as a
    // scene file's are (each refusal names its key), the capacity reserved, then the sources
    // count from now (what they laid and took so far starts again from zero). Throws before
    // anything changes.
    void set_sources(const Sources& sources);
    // One stroke of the window's brush, applied between steps as the sources are: `once` holds
    // a sink box (erase) or an emitter that owes one face now (spray), and its max_particles
    // the room the stroke may fill (reserved first). Ids stay unique; returns what it did.
    SourceStep apply_brush(const Sources& once);
    // The same with the stroke made from the state it applies to (the window picks the
    // particle under the cursor from it), so the state is captured once a stroke.
    SourceStep apply_brush(const std::function<Sources(const InitialState&)>& stroke);

    // The grab tool's spring over the time of one step() of this run, applied now, between
    // steps (Simulator::pull). Throws plab::Error (check_pull) before changing anything.
    void pull(const ParticlePull& pull) {
        simulator_->pull(pull, static_cast<float>(params_.substeps * step_seconds(params_.dt)));
    }

    // Starts the current scene again with `params` (reset-only parameters included), with
    // `count` particles (0: as many as now).
    void restart(const Params& params, std::size_t count = 0);
    // Back to where this run started: the checkpoint it continues, as it was loaded, else the
    // scene's start with the parameters in effect.
    void rewind();
    // Switches to `preset`'s own scene (a scene file in use is left) with its parameters for
    // the current count, the run's assignments applied.
    void change_preset(Preset preset);
    // Starts `file` with `count` particles (0: the file's own count), the run's assignments
    // applied over its parameters; `source` is where it came from.
    void use_scene_file(const SceneFile& file, const std::string& source, std::size_t count = 0);
    // Re-creates the simulator on `backend` and restarts the scene there with `params`.
    void change_backend(Backend backend, const Params& params);
    void set_options(const SimulatorOptions& options);

    // The preset's parameters for `count` particles with the run's assignments applied.
    Params preset_defaults(Preset preset, std::size_t count) const;
    // The running scene as a scene file (sim/io/scene_writer.h writes it): the file it came
    // from, or the preset's scene at the count it started with, with the running parameters
    // and the bodies' spins as they are now. Throws for a checkpoint whose scene file is gone
    // (no scene reproduces its particles: save a checkpoint instead).
    SceneFile scene_to_save() const;

    // The running scene was just saved as `path` (the window's Save scene): that file becomes
    // the run's scene file, read back, so that checkpoints name it (and continue with its
    // emitters and sinks) and a restart starts it. Its mesh paths are kept whole. Throws
    // plab::Error, changing nothing, when it does not read back or holds other bodies or
    // sources than the run.
    void adopt_scene_file(const std::string& path);

    // Checkpoints (io/checkpoint.h). save writes the state now with the parameters in effect
    // and the variants asked for; load continues `checkpoint` (its state, parameters,
    // variants, time and step count), `source` naming it in the label.
    RunDescription description() const;
    void save(const std::filesystem::path& path);
    void load(const Checkpoint& checkpoint, const std::string& source = "");

  private:
    // Builds the scene and resets `simulator` with it; throws before touching this run.
    void start_scene(Simulator& simulator, Preset preset, std::size_t count, const Params& params);
    void resume(std::shared_ptr<const Checkpoint> checkpoint, const std::string& source);
    void check();  // warnings_ for scene_ and params_
    // Arms the sources of scene_file_ for a run at time_, as if they had emitted everything
    // owed before it (a checkpoint without their progress), and sets the capacity aside.
    void arm_sources();
    void apply_sources_now();

    std::unique_ptr<Simulator> simulator_;
    std::string fallback_;
    SimulatorOptions options_;
    bool single_dt_ = false;
    std::vector<std::string> assignments_;
    Preset preset_ = Preset::Classic;
    Params params_;
    Domain domain_;
    std::shared_ptr<const SceneGeometry> geometry_;
    Scene scene_;                  // the running scene, for the checks of live edits
    std::size_t start_count_ = 0;  // particles at the start (sources change the count later)
    std::optional<SceneFile> scene_file_;
    std::string scene_source_;  // the scene file as given, "" for a preset
    std::string label_;
    std::vector<RunWarning> warnings_;
    std::shared_ptr<const Checkpoint> loaded_;  // the checkpoint the run continues
    std::string loaded_from_;                   // its file, for the label
    double time_ = 0;                           // s
    std::uint64_t steps_ = 0;
    std::uint64_t generation_ = 0;
    std::uint64_t starts_ = 0;
    bool has_sources_ = false;
    SourceProgress source_progress_;
    double next_sources_ = 0;  // s: the next application
};

}  // namespace plab::sim
