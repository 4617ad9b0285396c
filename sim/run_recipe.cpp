#include "sim/run_recipe.h"

#include <algorithm>

#include "sim/error.h"

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
    PLAB_REQUIRE(r.particles >= 1, "the particle count must be at least 1");
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
    return r;
}

}  // namespace plab::sim
