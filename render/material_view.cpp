#include "render/material_view.h"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "render/glm_matrix.h"

namespace plab::render {
namespace {

// The sun: high and to one side, so grains throw shadows the camera sees.
const glm::vec3 kSunWorld = glm::normalize(glm::vec3(-0.45f, 1.f, 0.35f));

constexpr sim::EnumName<Look> kLookNames[] = {{Look::Data, "data"}, {Look::Material, "material"}};

}  // namespace

std::span<const sim::EnumName<Look>> look_names() { return kLookNames; }

MaterialKind material_kind(sim::Model model) {
    return model == sim::Model::Sph ? MaterialKind::Liquid : MaterialKind::Grains;
}

GrainPalette grain_palette(sim::Preset preset) {
    return preset == sim::Preset::Granular || preset == sim::Preset::GlassBeads
               ? GrainPalette::Glass
               : GrainPalette::Sand;
}

MaterialView make_material_view(const SplatView& splat, const RenderView& view,
                                const sim::Domain& domain, MaterialKind kind, bool shadows,
                                GrainPalette palette) {
    MaterialView m;
    m.splat = splat;
    m.kind = kind;
    m.palette = palette;
    m.view_to_world = to_mat4(glm::inverse(view.view));
    const glm::vec3 sun_view = glm::normalize(glm::mat3(view.view) * kSunWorld);
    m.sun_view = {sun_view.x, sun_view.y, sun_view.z};
    m.sun_world = {kSunWorld.x, kSunWorld.y, kSunWorld.z};
    const float r = splat.radius;
    // The filter reaches a disc's width either side (two particle radii; the disc of a sphere
    // of radius r at distance d is r P[1][1] H / d pixels across, project_sphere), over depth
    // steps of up to three radii. Measured on a drop of beads (test_material_look): wider
    // reaches fit a straight line across more of the curve and bend the rim's normals.
    m.reach_px_m = r * splat.projection.m[5] * static_cast<float>(splat.height);
    m.filter_range = 3.f * r;
    m.ao_radius = 1.5f * r;
    if (shadows && kind == MaterialKind::Grains) {
        const glm::vec3 lo(domain.min.x, domain.min.y, domain.min.z);
        const glm::vec3 hi(domain.max.x, domain.max.y, domain.max.z);
        const glm::vec3 centre = 0.5f * (lo + hi);
        const float half = 0.5f * glm::length(hi - lo) + 2.f * r;
        if (std::isfinite(half) && half > 0.f) {
            const glm::vec3 eye = centre + kSunWorld * (2.f * half);
            const glm::vec3 up =
                std::fabs(kSunWorld.z) < 0.9f ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
            const glm::mat4 light = glm::ortho(-half, half, -half, half, half, 3.f * half) *
                                    glm::lookAt(eye, centre, up);
            m.light_clip = to_mat4(light);
            m.shadow_size = kShadowMapSize;
            // Light depth runs 0..1 over 2 half; a point is lit up to 1.5 radii behind the cap
            // its own sphere left in the map.
            m.shadow_bias = 1.5f * r / (2.f * half);
        }
    }
    return m;
}

}  // namespace plab::render
