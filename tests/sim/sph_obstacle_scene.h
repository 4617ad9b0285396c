#pragma once
// SPH against a body for the CPU and CUDA tests: the dam break's column with a solid block of
// twelve triangles beside it, a spacing from its face, so the block's distance field acts on
// the column from the first step and the surge runs into it.
#include <memory>

#include "sim/engine/initial_state.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/validation/sph_validation.h"

namespace plab::sim::testing {

struct SurgeOnABlock {
    SphCase c = dam_break_case(12, 4);
    Domain block;  // the block's box, m

    SurgeOnABlock() {
        const float spacing = 2.f * c.params.radius;
        const float a = static_cast<float>(c.a);
        block = {{a + spacing, c.scene.domain.min.y, c.scene.domain.min.z},
                 {1.6f * a, 0.5f * a, c.scene.domain.max.z}};
        Body b;
        b.shape = BodyShape::Box;
        b.box_min = block.min;
        b.box_max = block.max;
        c.geometry = std::make_shared<const SceneGeometry>(place_bodies({b}, c.scene.domain));
    }

    InitialState initial() const {
        InitialState init = build_initial_state(c.scene, c.params, c.particles);
        init.geometry = c.geometry;
        return init;
    }

    // Whether x lies inside the block by more than `margin`.
    bool deep_inside(Vec3 x, float margin) const {
        return x.x > block.min.x + margin && x.x < block.max.x - margin &&
               x.y < block.max.y - margin;
    }
};

}  // namespace plab::sim::testing
