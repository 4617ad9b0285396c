#include "app/viewer/body_pick.h"

#include <cmath>
#include <limits>

namespace plab::app {
namespace {

glm::vec3 v(sim::Vec3 p) { return {p.x, p.y, p.z}; }

// The distance along the ray to the triangle (Möller and Trumbore's test), or +inf.
float ray_meets(glm::vec3 origin, glm::vec3 dir, const sim::GeoTriangle& t) {
    const glm::vec3 a = v(t.a), e1 = v(t.b) - a, e2 = v(t.c) - a;
    const glm::vec3 p = glm::cross(dir, e2);
    const float det = glm::dot(e1, p);
    constexpr float kNone = std::numeric_limits<float>::infinity();
    if (std::abs(det) < 1e-12f) return kNone;  // the ray runs along the triangle's plane
    const float inv = 1.f / det;
    const glm::vec3 s = origin - a;
    const float u = glm::dot(s, p) * inv;
    if (u < 0.f || u > 1.f) return kNone;
    const glm::vec3 q = glm::cross(s, e1);
    const float w = glm::dot(dir, q) * inv;
    if (w < 0.f || u + w > 1.f) return kNone;
    const float along = glm::dot(e2, q) * inv;
    return along > 0.f ? along : kNone;
}

// Keeps the placed middle of `before` where it was after `after`'s placement changed.
sim::Body keep_middle(const sim::Body& before, sim::Body after) {
    const sim::Vec3 was = sim::place_point(before, sim::body_middle(before));
    const sim::Vec3 now = sim::place_point(after, sim::body_middle(after));
    after.translate = after.translate + (was - now);
    return after;
}

}  // namespace

std::optional<std::size_t> body_under_ray(const sim::SceneGeometry& geometry, glm::vec3 origin,
                                          glm::vec3 direction) {
    std::optional<std::size_t> best;
    float nearest = std::numeric_limits<float>::infinity();
    for (const sim::GeoTriangle& t : geometry.triangles) {
        const float along = ray_meets(origin, direction, t);
        if (along < nearest) {
            nearest = along;
            best = t.body;
        }
    }
    return best;
}

sim::Body turned_body(sim::Body body, int axis, float degrees) {
    sim::Body turned = body;
    float& angle = axis == 0   ? turned.rotate_deg.x
                   : axis == 1 ? turned.rotate_deg.y
                               : turned.rotate_deg.z;
    angle = std::remainder(angle + degrees, 360.f);  // kept within ±180°
    return keep_middle(body, turned);
}

sim::Body scaled_body(sim::Body body, float factor) {
    sim::Body scaled = body;
    scaled.scale = scaled.scale * factor;
    return keep_middle(body, scaled);
}

}  // namespace plab::app
