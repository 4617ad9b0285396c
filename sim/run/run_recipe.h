#pragma once
// The one recipe every run starts from: a preset or a scene file, a particle count and
// `name=value` assignments resolve here to the parameters, the scene, the initial state and a
// label. The window, `bench`, its sweeps and whole frames, export and main's up-front checks all
// start runs through it, so they run the same scene for the same request.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/initial_state.h"
#include "sim/io/scene_file.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "sim/model/run_checks.h"
#include "sim/model/scene.h"

namespace plab::sim {

struct RunRequest {
    std::string preset = "classic";        // used when no scene file is given
    std::optional<SceneFile> scene_file;   // replaces the preset (its preset and parameters)
    std::string scene_source;              // where the file came from, for the label
    std::size_t particles = 0;             // 0: the scene file's own count, else the default
    std::vector<std::string> assignments;  // name=value, applied over the preset or file
    std::string model;                     // "" or dem/sph: checked against what runs
};

struct RunRecipe {
    Preset preset = Preset::Classic;
    Params params;  // validated
    Scene scene;
    std::size_t particles = 0;
    std::string label;  // "preset classic" or "scene mixer (assets/scenes/mixer.json), preset ..."
    std::optional<SceneFile> scene_file;
    std::vector<AssignedParam> assigned;  // what the scene file and the assignments set
    std::vector<RunWarning> warnings;     // check_run's, for every surface to print or show
    std::string source;  // what errors about the scene name: its file, else the label

    // scene_initial_state of this recipe.
    InitialState initial_state() const;
};

// build_initial_state with the scene file's bodies placed in the scene's domain
// (place_bodies), every error prefixed with `source`.
InitialState scene_initial_state(const Scene& scene, const std::optional<SceneFile>& file,
                                 const Params& params, std::size_t count,
                                 const std::string& source);

// Resolves `request`; `default_particles` stands in for a count of 0 without a scene file.
// Throws plab::Error naming what is wrong (unknown preset, a count above kMaxParticles, model,
// assignment, a rule the parameters break, a scene check_scene refuses, named by its file or
// preset), before anything runs; collects check_run's warnings.
RunRecipe resolve_run(const RunRequest& request, std::size_t default_particles);

// The parameters a scene file's "params" and `assignments` (name=value) set, each with where
// it was set ("<source>: params.spring", "spring=4"), for check_run.
std::vector<AssignedParam> assigned_params(const std::vector<std::string>& assignments,
                                           const std::optional<SceneFile>& file,
                                           const std::string& source);

// The scene of `count` particles: a scene file's own blocks (at any count up to what they
// place), else the preset's scene sized for the count.
Scene run_scene(Preset preset, const std::optional<SceneFile>& file, std::size_t count,
                const Params& params);

// The parameters a run of `preset` (or `file`) with `count` particles starts from, before any
// assignment: the preset's own, with its collider placed where the preset wants one.
Params run_params(Preset preset, const std::optional<SceneFile>& file, std::size_t count);

}  // namespace plab::sim
