#include "sim/io/starter_body.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sim/io/obj_file.h"

namespace plab::sim {

Body starter_body(BodyShape shape, const Domain& d) {
    const Vec3 size = d.max - d.min;
    const Vec3 mid = d.min + size * 0.5f;
    Body b;
    b.shape = shape;
    switch (shape) {
        case BodyShape::Box:
            b.box_min = {mid.x - size.x / 8.f, d.min.y + size.y / 8.f, mid.z - size.z / 8.f};
            b.box_max = {mid.x + size.x / 8.f, d.min.y + size.y * 3.f / 8.f, mid.z + size.z / 8.f};
            break;
        case BodyShape::Cylinder:
            b.center = mid;
            b.axis = {0.f, 1.f, 0.f};
            b.radius = 0.1f * std::min({size.x, size.y, size.z});
            b.length = 0.5f * size.y;
            break;
        case BodyShape::Plane: {
            const float tilt = 30.f * std::numbers::pi_v<float> / 180.f;
            b.point = mid;
            b.normal = {-std::sin(tilt), std::cos(tilt), 0.f};
            break;
        }
        case BodyShape::Mesh:
            break;  // mesh_body reads one
    }
    return b;
}

Body mesh_body(const std::filesystem::path& file, const Domain& d) {
    Body b;
    b.shape = BodyShape::Mesh;
    b.file = std::filesystem::absolute(file).lexically_normal().string();
    b.mesh = load_mesh(file);
    const Domain bounds = mesh_bounds(b.mesh);
    b.translate = (d.min + d.max) * 0.5f - (bounds.min + bounds.max) * 0.5f;
    return b;
}

}  // namespace plab::sim
