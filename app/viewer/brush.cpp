#include "app/viewer/brush.h"

#include <algorithm>
#include <limits>

#include "sim/engine/emission.h"

namespace plab::app {

std::optional<glm::vec3> first_on_ray(const std::vector<sim::Float4>& positions, glm::vec3 origin,
                                      glm::vec3 direction, float radius) {
    std::optional<glm::vec3> best;
    float nearest = std::numeric_limits<float>::infinity();
    for (const sim::Float4& p : positions) {
        const glm::vec3 x{p.x, p.y, p.z};
        const float along = glm::dot(x - origin, direction);
        if (along <= 0.f || along >= nearest) continue;
        const glm::vec3 off = x - origin - along * direction;
        if (glm::dot(off, off) > radius * radius) continue;
        nearest = along;
        best = x;
    }
    return best;
}

glm::vec3 stroke_point(const std::optional<glm::vec3>& hit, glm::vec3 origin, glm::vec3 direction,
                       const sim::Domain& d) {
    const glm::vec3 lo{d.min.x, d.min.y, d.min.z}, hi{d.max.x, d.max.y, d.max.z};
    if (hit) return *hit;
    const glm::vec3 centre = 0.5f * (lo + hi);
    const float along = std::max(glm::dot(centre - origin, direction), 0.f);
    return glm::clamp(origin + along * direction, lo, hi);
}

sim::Sources brush_stroke(BrushMode mode, glm::vec3 at, glm::vec3 direction, float radius,
                          float speed, const sim::Params& params, const sim::Domain& d,
                          std::size_t count, double now) {
    sim::Sources s;
    if (mode == BrushMode::Erase) {
        s.sinks.push_back({{at.x - radius, at.y - radius, at.z - radius},
                           {at.x + radius, at.y + radius, at.z + radius}});
        return s;
    }
    if (mode != BrushMode::Spray) return s;
    sim::Emitter e;
    const glm::vec3 lo{d.min.x, d.min.y, d.min.z}, hi{d.max.x, d.max.y, d.max.z};
    const glm::vec3 size = hi - lo;
    const glm::vec3 room(std::min({radius, 0.5f * size.x, 0.5f * size.y, 0.5f * size.z}));
    const glm::vec3 c = glm::clamp(at - radius * direction, lo + room, hi - room);
    e.center = {c.x, c.y, c.z};
    e.normal = {direction.x, direction.y, direction.z};
    e.size = {2.f * radius, 0.f, 0.f};
    e.speed = std::max(speed, 1e-4f);
    // Owes one face now: its rate times the time since its start is the face's count and half.
    const float spacing = sim::emission_spacing(params);
    const std::size_t face = sim::emitter_face(e, spacing).size();
    e.rate = sim::face_rate(e, spacing, face);
    e.start = e.rate > 0 ? now - (double(face) + 0.5) / e.rate : now;
    s.emitters.push_back(e);
    s.max_particles = count + face;
    return s;
}

}  // namespace plab::app
