#include "sim/geometry/scene_geometry.h"

#include "sim/core/error.h"
#include "sim/core/input_limits.h"

namespace plab::sim {

SceneGeometry place_bodies(const std::vector<Body>& bodies, const Domain& domain) {
    SceneGeometry g;
    uint32_t first_vertex = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const Body& body = bodies[i];
        std::string name = "geometry[" + std::to_string(i) + "] (" +
                           std::string(body_shape_name(body.shape)) +
                           (body.file.empty() ? "" : " " + body.file) + ")";
        const TriangleMesh surface = body_surface(body, domain);
        try {
            check_body(body, surface, domain);
        } catch (const Error& e) {
            throw Error(name + ": " + e.what());
        }
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
    return g;
}

}  // namespace plab::sim
