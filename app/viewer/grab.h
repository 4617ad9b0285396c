#pragma once
// The window's grab tool (B cycles to it; left-drag in the scene): the particles within a
// radius of the first one under the cursor are held by a spring (sim::ParticlePull) whose
// anchor follows the cursor on the plane through the grabbed point facing the camera, so the
// handful is dragged through the scene and lets go with its own momentum on release.
#include <optional>

#include <glm/glm.hpp>

#include "sim/engine/initial_state.h"
#include "sim/model/particle_pull.h"

namespace plab::app {

struct Grab {
    sim::ParticlePull pull;
    glm::vec3 plane_normal{0.f, 0.f, 1.f};  // the view direction when it began
};

// Holds the particles whose centre lies within `radius` of the first particle on the ray from
// `origin` along the unit `direction` (app/viewer/brush.h: first_on_ray), each with its offset
// from that particle; nullopt when the ray meets none. `view` is the camera's unit forward.
// A state of more than sim::kMaxPulledParticles in reach keeps the nearest of them.
std::optional<Grab> grab_particles(const sim::InitialState& state, glm::vec3 origin,
                                   glm::vec3 direction, glm::vec3 view, float radius);

// Where the ray from `origin` along `direction` crosses the grab's plane (through its target,
// facing its normal); the target itself when the ray runs along the plane.
glm::vec3 grab_point(const Grab& grab, glm::vec3 origin, glm::vec3 direction);

}  // namespace plab::app
