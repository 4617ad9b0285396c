#include "sim/geometry/body.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"

namespace plab::sim {
namespace {

Vec3 normalized(Vec3 v) { return v * (1.f / std::sqrt(length_squared(v))); }

// Two unit vectors u, v with u × v = w (w a unit vector).
void basis_around(Vec3 w, Vec3& u, Vec3& v) {
    const Vec3 helper = std::fabs(w.x) < 0.9f ? Vec3{1.f, 0.f, 0.f} : Vec3{0.f, 1.f, 0.f};
    u = normalized(cross(helper, w));
    v = cross(w, u);
}

Vec3 rotate_about_axes(Vec3 p, Vec3 degrees) {
    constexpr float kRad = std::numbers::pi_v<float> / 180.f;
    const float cx = std::cos(degrees.x * kRad), sx = std::sin(degrees.x * kRad);
    p = {p.x, cx * p.y - sx * p.z, sx * p.y + cx * p.z};
    const float cy = std::cos(degrees.y * kRad), sy = std::sin(degrees.y * kRad);
    p = {cy * p.x + sy * p.z, p.y, -sy * p.x + cy * p.z};
    const float cz = std::cos(degrees.z * kRad), sz = std::sin(degrees.z * kRad);
    return {cz * p.x - sz * p.y, sz * p.x + cz * p.y, p.z};
}

TriangleMesh box_surface(Vec3 lo, Vec3 hi) {
    TriangleMesh m;
    for (int k = 0; k < 8; ++k)
        m.vertices.push_back({k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z});
    // Corner k has x from bit 0, y from bit 1, z from bit 2; each face as two triangles,
    // counter-clockwise seen from outside.
    m.triangles = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5},   // x = lo, x = hi
                   {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},   // y = lo, y = hi
                   {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};  // z = lo, z = hi
    return m;
}

TriangleMesh cylinder_surface(const Body& b) {
    TriangleMesh m;
    const Vec3 w = normalized(b.axis);
    Vec3 u, v;
    basis_around(w, u, v);
    const Vec3 bottom = b.center - w * (0.5f * b.length), top = b.center + w * (0.5f * b.length);
    constexpr uint32_t n = kCylinderSides;
    for (uint32_t i = 0; i < n; ++i) {
        const float a = 2.f * std::numbers::pi_v<float> * float(i) / float(n);
        const Vec3 radial = (u * std::cos(a) + v * std::sin(a)) * b.radius;
        m.vertices.push_back(bottom + radial);  // 2i
        m.vertices.push_back(top + radial);     // 2i + 1
    }
    const uint32_t cb = 2 * n, ct = 2 * n + 1;
    m.vertices.push_back(bottom);
    m.vertices.push_back(top);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t j = (i + 1) % n;
        m.triangles.push_back({2 * i, 2 * j, 2 * j + 1});  // side, outward
        m.triangles.push_back({2 * i, 2 * j + 1, 2 * i + 1});
        m.triangles.push_back({cb, 2 * j, 2 * i});          // bottom cap, facing −axis
        m.triangles.push_back({ct, 2 * i + 1, 2 * j + 1});  // top cap, facing +axis
    }
    return m;
}

TriangleMesh plane_surface(const Body& b, const Domain& d) {
    const Vec3 n = normalized(b.normal);
    Vec3 u, v;
    basis_around(n, u, v);
    const Vec3 mid = (d.min + d.max) * 0.5f;
    const Vec3 c = mid - n * dot(mid - b.point, n);
    const float half = std::sqrt(length_squared(d.max - d.min));
    TriangleMesh m;
    m.vertices = {c - u * half - v * half, c + u * half - v * half, c + u * half + v * half,
                  c - u * half + v * half};
    m.triangles = {{0, 1, 2}, {0, 2, 3}};  // facing +normal
    return m;
}

bool parallel(Vec3 a, Vec3 b) {
    return length_squared(cross(normalized(a), normalized(b))) < 1e-8f;
}

}  // namespace

std::string_view body_shape_name(BodyShape shape) {
    switch (shape) {
        case BodyShape::Mesh:
            return "mesh";
        case BodyShape::Box:
            return "box";
        case BodyShape::Cylinder:
            return "cylinder";
        case BodyShape::Plane:
            return "plane";
    }
    return "?";
}

bool BodyMotion::moves() const { return spin_rpm != 0.f || length_squared(velocity) > 0.f; }

Vec3 BodyMotion::omega() const {
    if (spin_rpm == 0.f) return {};
    return normalized(spin_axis) * (spin_rpm * 2.f * std::numbers::pi_v<float> / 60.f);
}

Vec3 place_normal(const Body& body, Vec3 d) {
    return rotate_about_axes({d.x / body.scale.x, d.y / body.scale.y, d.z / body.scale.z},
                             body.rotate_deg);
}

Vec3 body_middle(const Body& body) {
    switch (body.shape) {
        case BodyShape::Box:
            return (body.box_min + body.box_max) * 0.5f;
        case BodyShape::Cylinder:
            return body.center;
        case BodyShape::Plane:
            return body.point;
        case BodyShape::Mesh: {
            const Domain b = mesh_bounds(body.mesh);
            return body.mesh.vertices.empty() ? Vec3{} : (b.min + b.max) * 0.5f;
        }
    }
    return {};
}

Vec3 place_point(const Body& body, Vec3 p) {
    return rotate_about_axes({p.x * body.scale.x, p.y * body.scale.y, p.z * body.scale.z},
                             body.rotate_deg) +
           body.translate;
}

TriangleMesh body_surface(const Body& body, const Domain& domain) {
    TriangleMesh m;
    switch (body.shape) {
        case BodyShape::Mesh:
            m = body.mesh;
            break;
        case BodyShape::Box:
            m = box_surface(body.box_min, body.box_max);
            break;
        case BodyShape::Cylinder:
            m = cylinder_surface(body);
            break;
        case BodyShape::Plane:
            m = plane_surface(body, domain);
            break;
    }
    for (Vec3& v : m.vertices) v = place_point(body, v);
    return m;
}

void check_body(const Body& body, const TriangleMesh& surface, const Domain& domain) {
    if (surface.triangles.empty()) throw Error("it has no triangles");
    const Domain b = mesh_bounds(surface);
    if (b.max.x < domain.min.x || b.max.y < domain.min.y || b.max.z < domain.min.z ||
        b.min.x > domain.max.x || b.min.y > domain.max.y || b.min.z > domain.max.z)
        throw Error(format_numbers("placed, it spans [%g, %g, %g] to [%g, %g, %g] m, ", b.min.x,
                                   b.min.y, b.min.z, b.max.x, b.max.y, b.max.z) +
                    format_numbers("outside the domain [%g, %g, %g] to [%g, %g, %g] m",
                                   domain.min.x, domain.min.y, domain.min.z, domain.max.x,
                                   domain.max.y, domain.max.z));
    if (body.inside) {
        if (body.shape == BodyShape::Plane)
            throw Error("'inside': a plane has no inside (use a box or a closed mesh)");
        const std::size_t open = open_edge_count(surface);
        if (open > 0)
            throw Error("'inside' needs a closed (watertight) surface, but " +
                        std::to_string(open) + " of its edges do not join exactly two triangles");
    }
    const BodyMotion& m = body.motion;
    if (!m.moves()) return;
    // The motions that map the shape onto itself (see body.h), checked on the placed body.
    const float tol = 1e-4f * std::sqrt(length_squared(domain.max - domain.min));
    const Vec3 c = m.spin_center;
    if (body.shape == BodyShape::Cylinder) {
        const Vec3 axis =
            place_point(body, body.center + body.axis) - place_point(body, body.center);
        const Vec3 centre = place_point(body, body.center);
        const Vec3 off = c - centre;
        const bool on_axis = length_squared(cross(off, normalized(axis))) <= tol * tol;
        if (length_squared(m.velocity) == 0.f && parallel(m.spin_axis, axis) && on_axis) return;
        throw Error(
            "motion: a cylinder can only spin about its own axis (spin_axis along its axis, "
            "spin_center on it, no velocity); moving shapes are not supported");
    }
    if (body.shape == BodyShape::Plane) {
        const Vec3 n = normalized(place_normal(body, body.normal));
        const Vec3 p = place_point(body, body.point);
        const float speed = std::sqrt(length_squared(m.velocity));
        const bool slides = std::fabs(dot(m.velocity, n)) <= 1e-4f * speed;
        const bool spins =
            m.spin_rpm == 0.f || (parallel(m.spin_axis, n) && std::fabs(dot(c - p, n)) <= tol);
        if (slides && spins) return;
        throw Error(
            "motion: a plane can only slide along itself (velocity in the plane) and spin about "
            "its normal (spin_axis along it, spin_center on the plane); moving shapes are not "
            "supported");
    }
    throw Error("motion: a " + std::string(body_shape_name(body.shape)) +
                " cannot move (only a cylinder spinning about its axis and a plane moving "
                "along itself keep their shape in place); moving shapes are not supported");
}

}  // namespace plab::sim
