#include "sim/io/starter_body.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "sim/core/input_limits.h"
#include "sim/engine/emission.h"
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
    const Vec3 room = (d.max - d.min) * 0.9f, size = bounds.max - bounds.min;
    float fit = 1.f;
    for (const auto& [r, s] : {std::pair{room.x, size.x}, {room.y, size.y}, {room.z, size.z}})
        if (s > r) fit = std::min(fit, r / s);
    b.scale = {fit, fit, fit};
    // Scaled about the origin, then moved: the middle of the scaled bounds to the domain's.
    b.translate = (d.min + d.max) * 0.5f - (bounds.min + bounds.max) * (0.5f * fit);
    return b;
}

Emitter starter_emitter(const Domain& d, const Params& params, double now, std::size_t room) {
    const Vec3 size = d.max - d.min;
    Emitter e;
    e.shape = EmitterShape::Disc;
    e.center = {d.min.x + 0.5f * size.x, d.max.y - 0.1f * size.y, d.min.z + 0.5f * size.z};
    e.normal = {0.f, -1.f, 0.f};
    e.size = {0.2f * std::min(size.x, size.z), 0.f, 0.f};
    const float g =
        std::sqrt(params.gravity_x * params.gravity_x + params.gravity_y * params.gravity_y +
                  params.gravity_z * params.gravity_z);
    e.speed = std::clamp(std::sqrt(2.f * std::max(g, 1e-6f) * 0.1f * size.y), 1e-4f, 1000.f);
    const float spacing = emission_spacing(params);
    const double rate = emitter_rate(e, spacing, emitter_face(e, spacing).size());
    e.start = now;
    e.stop = now + (rate > 0 ? std::max(double(room), 1.0) / rate : 1.0);
    return e;
}

Sink starter_sink(const Domain& d) {
    const Vec3 size = d.max - d.min;
    const Vec3 middle = d.min + 0.5f * size;
    return {{middle.x - 0.1f * size.x, d.min.y, middle.z - 0.1f * size.z},
            {middle.x + 0.1f * size.x, d.min.y + 0.1f * size.y, middle.z + 0.1f * size.z}};
}

std::size_t starter_max_particles(std::size_t count) {
    return std::min<std::size_t>(std::max(2 * count, count + 20000), kMaxParticles);
}

}  // namespace plab::sim
