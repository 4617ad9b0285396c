#include "sim/io/mesh_builder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"

namespace plab::sim {
namespace {

// Throws when a corner is not finite or too far out, or the triangle has no area: its sides
// are parallel to within 1e-10 rad (or a corner repeats).
void check_triangle(const std::array<Vec3, 3>& c, std::size_t index, std::string_view name) {
    const std::string where = std::string(name) + ": triangle " + std::to_string(index);
    for (const Vec3& v : c)
        for (const float x : {v.x, v.y, v.z}) {
            PLAB_REQUIRE(std::isfinite(x), where + " has a corner that is not a finite number");
            PLAB_REQUIRE(std::fabs(x) <= kMaxMeshCoordinate,
                         where + format_numbers(" has a corner at %g m, beyond the limit of %g m",
                                                double(x), kMaxMeshCoordinate));
        }
    const double ux = double(c[1].x) - c[0].x, uy = double(c[1].y) - c[0].y,
                 uz = double(c[1].z) - c[0].z;
    const double vx = double(c[2].x) - c[0].x, vy = double(c[2].y) - c[0].y,
                 vz = double(c[2].z) - c[0].z;
    const double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const double cross = std::sqrt(cx * cx + cy * cy + cz * cz);
    const double longest = std::max(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz);
    PLAB_REQUIRE(cross > 1e-10 * longest && cross > 0,
                 where + " has no area (a corner repeats, or its corners lie on one line)");
}

}  // namespace

void MeshBuilder::add(const std::array<Vec3, 3>& c, std::string_view name) {
    check_triangle(c, mesh.triangles.size(), name);
    mesh.triangles.push_back({vertex(c[0]), vertex(c[1]), vertex(c[2])});
}

uint32_t MeshBuilder::vertex(Vec3 v) {
    v = {v.x + 0.f, v.y + 0.f, v.z + 0.f};
    const std::array<uint32_t, 3> key{std::bit_cast<uint32_t>(v.x), std::bit_cast<uint32_t>(v.y),
                                      std::bit_cast<uint32_t>(v.z)};
    const auto [it, fresh] = index_.try_emplace(key, uint32_t(mesh.vertices.size()));
    if (fresh) mesh.vertices.push_back(v);
    return it->second;
}

}  // namespace plab::sim
