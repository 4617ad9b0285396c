#pragma once
// The material look's settings for one frame (render/material_math.h's MaterialView) from the
// camera, the scene's box and the particles' material: a sun above the scene, the light map
// fitted around the box, the depth filter's reach and range and the occlusion's radius in
// particle radii.
#include <span>

#include "render/material_math.h"
#include "render/particle_renderer.h"
#include "sim/core/enum_names.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"

namespace plab::render {

// "data" and "material": the names of --look and the panel's combo.
std::span<const sim::EnumName<Look>> look_names();

// What a run's particles are in the material look: SPH's liquid, DEM's grains.
MaterialKind material_kind(sim::Model model);

// The grains' palette for a preset: glass beads (granular, glass-beads) shine; sand (and the
// classic scene's abstract particles) stays matt.
GrainPalette grain_palette(sim::Preset preset);

// Light-map texels a side (grains' shadows).
constexpr int kShadowMapSize = 2048;

// `splat` is the camera's splat view (make_splat_view); `domain` the box the particles live
// in, which the light map covers; `shadows` off leaves shadow_size 0.
MaterialView make_material_view(const SplatView& splat, const RenderView& view,
                                const sim::Domain& domain, MaterialKind kind, bool shadows = true,
                                GrainPalette palette = GrainPalette::Sand);

}  // namespace plab::render
