#pragma once
// The window's brush (the Bodies tab; left-drag in the scene while it is on): spray lays
// particles of the running model at the rest spacing where the cursor points, erase takes away
// those under it. A stroke is a one-off source (Run::apply_brush): a sink box around the first
// particle the cursor's ray meets, or an emitter disc facing into the scene that owes one face.
#include <cstddef>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "sim/core/vec.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/model/sources.h"

namespace plab::app {

// Grab is the grab tool (app/viewer/grab.h): it shares the brush's radius and its drag.
enum class BrushMode { Off, Spray, Erase, Grab };

// The particle nearest the eye among those whose centre lies within `radius` of the ray from
// `origin` along the unit `direction`; nullopt when none does.
std::optional<glm::vec3> first_on_ray(const std::vector<sim::Float4>& positions, glm::vec3 origin,
                                      glm::vec3 direction, float radius);

// Where a stroke acts: the first particle on the ray, else the ray's point nearest the
// domain's centre, clamped into the domain.
glm::vec3 stroke_point(const std::optional<glm::vec3>& hit, glm::vec3 origin, glm::vec3 direction,
                       const sim::Domain& domain);

// The stroke as a source: erase, a sink box of half-width `radius` around `at`; spray, a disc
// of diameter 2 `radius` a radius before `at` (towards the eye, kept a radius inside the
// domain) moving along `direction` at `speed`, owing one face at `now`, with room for it over
// `count`.
sim::Sources brush_stroke(BrushMode mode, glm::vec3 at, glm::vec3 direction, float radius,
                          float speed, const sim::Params& params, const sim::Domain& domain,
                          std::size_t count, double now);

}  // namespace plab::app
