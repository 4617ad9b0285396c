#pragma once
// A scene for the body-edit tests of both backends: glass beads (the frictional law) landing on
// a box shelf and sliding along it under a sideways gravity, so that after 3,000 steps (0.17 s)
// they remember contacts with the shelf; and whether a state's body-contact memory holds any.
#include <algorithm>
#include <vector>

#include "sim/core/vec.h"

namespace plab::test {

inline constexpr const char* kBeadsSlidingOnAShelf = R"({"name": "beads on a shelf",
  "preset": "glass-beads", "params": {"collider_radius": 0, "gravity_x": 3},
  "domain": {"min": [-0.2, -0.2, -0.2], "max": [0.2, 0.2, 0.2]},
  "blocks": [{"min": [-0.05, 0.006, -0.05], "max": [0.05, 0.03, 0.05], "spacing": 0.0105,
              "jitter": 0.0002}],
  "geometry": [{"type": "box", "min": [-0.15, -0.1, -0.15], "max": [0.15, 0, 0.15]}]})";

// Whether any slot of a FrictionRecord's mesh_xi remembers a contact.
inline bool remembers_a_body(const std::vector<sim::Float4>& mesh_xi) {
    return std::any_of(mesh_xi.begin(), mesh_xi.end(), [](const sim::Float4& v) {
        return v.x != 0.f || v.y != 0.f || v.z != 0.f || v.w != 0.f;
    });
}

}  // namespace plab::test
