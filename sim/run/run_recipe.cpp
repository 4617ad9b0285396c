#include "sim/run/run_recipe.h"

#include <algorithm>

#include "sim/core/error.h"
#include "sim/core/input_limits.h"

namespace plab::sim {

Scene run_scene(Preset preset, const std::optional<SceneFile>& file, std::size_t count,
                const Params& params) {
    if (file && file->has_own_blocks) return file->scene;
    return preset_scene(preset, count, params);
}

Params run_params(Preset preset, const std::optional<SceneFile>& file, std::size_t count) {
    if (file) return file->params;
    Params p = preset_params(preset);
    if (preset == Preset::Granular && p.collider_radius == 0.f) {
        // The beads fall onto a sphere in the lower middle of the box.
        const Domain d = preset_scene(preset, count, p).domain;
        const Vec3 size = d.max - d.min;
        p.collider_radius = 0.15f * std::min(size.x, size.z);
        p.collider_x = d.min.x + 0.5f * size.x;
        p.collider_y = d.min.y + 0.25f * size.y;
        p.collider_z = d.min.z + 0.5f * size.z;
    }
    return p;
}

std::vector<AssignedParam> assigned_params(const std::vector<std::string>& assignments,
                                           const std::optional<SceneFile>& file,
                                           const std::string& source) {
    std::vector<AssignedParam> out;
    if (file) {
        const std::string where = source.empty() ? file->name : source;
        for (const std::string& key : file->param_keys)
            out.push_back({key, where + ": params." + key});
    }
    for (const std::string& a : assignments) out.push_back({a.substr(0, a.find('=')), a});
    return out;
}

InitialState RunRecipe::initial_state() const {
    return scene_initial_state(scene, scene_file, params, particles, source);
}

InitialState scene_initial_state(const Scene& scene, const std::optional<SceneFile>& file,
                                 const Params& params, std::size_t count,
                                 const std::string& source) {
    try {
        InitialState initial = build_initial_state(scene, params, count);
        if (file && !file->bodies.empty())
            initial.geometry =
                std::make_shared<const SceneGeometry>(place_bodies(file->bodies, scene.domain));
        return initial;
    } catch (const Error& e) {
        throw Error(source + ": " + e.what());
    }
}

RunRecipe resolve_run(const RunRequest& request, std::size_t default_particles) {
    RunRecipe r;
    r.scene_file = request.scene_file;
    if (r.scene_file) {
        r.preset = r.scene_file->preset;
        r.particles = request.particles > 0 ? request.particles : r.scene_file->particles;
        r.label = "scene " + r.scene_file->name +
                  (request.scene_source.empty() ? "" : " (" + request.scene_source + ")") +
                  ", preset " + std::string(preset_name(r.preset));
    } else {
        r.preset = parse_preset(request.preset);
        r.particles = request.particles > 0 ? request.particles : default_particles;
        r.label = "preset " + std::string(preset_name(r.preset));
    }
    // Errors about the scene name its file, else the preset.
    r.source = request.scene_source.empty() ? r.label : request.scene_source;
    PLAB_REQUIRE(r.particles >= 1 && r.particles <= kMaxParticles,
                 r.source + ": the particle count must be in [1, " + std::to_string(kMaxParticles) +
                     "], not " + std::to_string(r.particles));
    r.params = run_params(r.preset, r.scene_file, r.particles);
    if (!request.model.empty()) {  // a stated model guards against a preset or scene of the other
        const Model model = parse_model(request.model);
        PLAB_REQUIRE(model == r.params.model, "--model " + request.model + " does not match the " +
                                                  r.label + ", which is " +
                                                  std::string(model_name(r.params.model)));
    }
    for (const std::string& a : request.assignments) apply_assignment(r.params, a);
    validate(r.params);
    r.scene = run_scene(r.preset, r.scene_file, r.particles, r.params);
    // What the scene cannot start fails now, named by its file (or preset), not at reset.
    try {
        check_scene(r.scene, r.params, r.particles);
    } catch (const Error& e) {
        throw Error(r.source + ": " + e.what(), e.where());
    }
    r.assigned = assigned_params(request.assignments, r.scene_file, request.scene_source);
    try {
        r.warnings = check_run(r.scene, r.params, r.assigned);
    } catch (const Error& e) {
        throw Error(r.source + ": " + e.what(), e.where());
    }
    return r;
}

}  // namespace plab::sim
