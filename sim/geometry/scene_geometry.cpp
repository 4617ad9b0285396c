#include "sim/geometry/scene_geometry.h"

#include <utility>

#include "sim/core/error.h"
#include "sim/core/input_limits.h"

namespace plab::sim {
namespace {

void flip(TriangleMesh& m) {
    for (auto& t : m.triangles) std::swap(t[1], t[2]);
}

// Winds the surface to face where the particles are (see liquid_side.h): a closed body by the
// sign of its volume, a plane by its placed normal.
void face_the_particles(TriangleMesh& surface, const Body& body) {
    if (surface.triangles.empty()) return;
    if (body.shape == BodyShape::Plane) {
        const auto& t = surface.triangles.front();
        const Vec3 a = surface.vertices[t[0]];
        const Vec3 n = cross(surface.vertices[t[1]] - a, surface.vertices[t[2]] - a);
        if (dot(n, place_normal(body, body.normal)) < 0.f) flip(surface);
        return;
    }
    if (open_edge_count(surface) != 0) return;  // an open mesh keeps its winding
    double six_v = 0;
    for (const auto& t : surface.triangles) {
        const Vec3 a = surface.vertices[t[0]], b = surface.vertices[t[1]],
                   c = surface.vertices[t[2]];
        six_v += double(a.x) * (double(b.y) * c.z - double(b.z) * c.y) +
                 double(a.y) * (double(b.z) * c.x - double(b.x) * c.z) +
                 double(a.z) * (double(b.x) * c.y - double(b.y) * c.x);
    }
    if ((six_v < 0) != body.inside) flip(surface);
}

}  // namespace

SceneGeometry place_bodies(const std::vector<Body>& bodies, const Domain& domain) {
    SceneGeometry g;
    uint32_t first_vertex = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const Body& body = bodies[i];
        std::string name = "geometry[" + std::to_string(i) + "] (" +
                           std::string(body_shape_name(body.shape)) +
                           (body.file.empty() ? "" : " " + body.file) + ")";
        TriangleMesh surface = body_surface(body, domain);
        try {
            check_body(body, surface, domain);
        } catch (const Error& e) {
            throw Error(name + ": " + e.what());
        }
        face_the_particles(surface, body);
        if (g.triangles.size() + surface.triangles.size() > kMaxMeshTriangles)
            throw Error(name + ": the scene's bodies together have more than " +
                        std::to_string(kMaxMeshTriangles) + " triangles");
        for (const auto& t : surface.triangles)
            g.triangles.push_back({surface.vertices[t[0]], surface.vertices[t[1]],
                                   surface.vertices[t[2]], first_vertex + t[0], first_vertex + t[1],
                                   first_vertex + t[2], static_cast<uint32_t>(i)});
        first_vertex += static_cast<uint32_t>(surface.vertices.size());
        GeoBody b;
        b.velocity = body.motion.velocity;
        b.spin_center = body.motion.spin_center;
        b.omega = body.motion.omega();
        b.friction = body.friction ? *body.friction : -1.f;
        g.bodies.push_back(b);
        g.body_names.push_back(std::move(name));
    }
    g.sides = liquid_sides(g.triangles, g.bodies.size());
    return g;
}

}  // namespace plab::sim
