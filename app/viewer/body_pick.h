#pragma once
// Picking a body of the scene's geometry with the mouse (a click in the scene selects the
// body under the cursor in the Bodies tab), and the mouse's turns and scalings of the selected
// body about its own middle.
#include <cstddef>
#include <optional>

#include <glm/glm.hpp>

#include "sim/geometry/body.h"
#include "sim/geometry/scene_geometry.h"

namespace plab::app {

// The body whose triangle the ray from `origin` along `direction` meets first (either side
// of it), or nullopt when it meets none.
std::optional<std::size_t> body_under_ray(const sim::SceneGeometry& geometry, glm::vec3 origin,
                                          glm::vec3 direction);

// `body` turned by `degrees` about its placement's x, y or z axis (`axis` 0, 1, 2) or scaled by
// `factor` on every axis, with the translation changed so that its placed middle stays where it
// was (sim::body_middle).
sim::Body turned_body(sim::Body body, int axis, float degrees);
sim::Body scaled_body(sim::Body body, float factor);

}  // namespace plab::app
