#include "sim/engine/initial_state.h"

#include <cmath>
#include <string>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/model/bead_size.h"
#include "sim/model/block_lattice.h"
#include "sim/model/derived.h"

namespace plab::sim {
namespace {

// splitmix64: a tiny, portable generator, so a scene starts identically on every platform.
struct Rng {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    float symmetric() {  // uniform in [-1, 1)
        return static_cast<float>(next() >> 40) * (2.f / 16777216.f) - 1.f;
    }
};

// SPH liquid placed at rest on the floor starts in hydrostatic balance: its summation
// density is set by the particle spacing, so each lattice height y is moved to the height
// where a column compressed by the Tait equation of state would put it,
//   y' = y₀ + ∫ ρ₀/ρ(s) ds,  ρ₀/ρ(s) = (1 + k (H − s))^(−1/γ),  k = ρ₀ g / B,
// with H the block's top. Started uncompressed, the column would fall freely for a sound
// crossing and overshoot to about twice the hydrostatic pressure, which pushes a dam-break
// front ahead of experiment. Applies to box blocks standing on the floor with gravity
// along −y and no initial velocity; anything else starts on the plain lattice.
struct HydrostaticColumn {
    bool active = false;
    float bottom = 0, top = 0;
    double k = 0;  // 1/m

    float place(float y) const {
        if (!active) return y;
        const double gamma = kTaitGamma;
        const auto u = [&](double s) {
            return std::pow(1.0 + k * (top - s), (gamma - 1.0) / gamma);
        };
        return static_cast<float>(bottom + gamma / ((gamma - 1.0) * k) * (u(bottom) - u(y)));
    }
};

HydrostaticColumn hydrostatic_column(const ParticleBlock& b, const Params& p, const Domain& d) {
    HydrostaticColumn c;
    const bool resting = b.velocity.x == 0.f && b.velocity.y == 0.f && b.velocity.z == 0.f;
    if (p.model != Model::Sph || b.shape != BlockShape::Box || !resting || b.min.y != d.min.y ||
        !(p.gravity_y < 0.f) || p.gravity_x != 0.f || p.gravity_z != 0.f)
        return c;
    c.active = true;
    c.bottom = b.min.y;
    c.top = b.min.y + b.spacing * static_cast<float>(lattice_dims(b).y);
    c.k = double(p.rest_density) * -p.gravity_y / tait_b(p);
    return c;
}

}  // namespace

InitialState build_initial_state(const Scene& scene, const Params& params, std::size_t count) {
    check_scene(scene, params, count);
    InitialState s;
    s.domain = scene.domain;
    s.grid = scene_grid(scene.domain, params);
    s.pos.reserve(count);
    s.vel.reserve(count);
    Rng rng{scene.seed};
    const Domain& d = scene.domain;
    for (std::size_t i = 0; i < scene.blocks.size() && s.pos.size() < count; ++i) {
        const ParticleBlock& b = scene.blocks[i];
        const HydrostaticColumn column = hydrostatic_column(b, params, d);
        // Refused below, with the first offender: a start no step can recover from.
        std::size_t outside = 0, non_finite = 0;
        Vec3 first{};
        for_each_row(b, [&](const LatticeRow& row) {
            for (uint64_t x = row.first_x; x < row.end_x && s.pos.size() < count; ++x) {
                Vec3 p = lattice_point(b, x, row.y, row.z);
                const Vec3 j{rng.symmetric(), rng.symmetric(), rng.symmetric()};
                p.y = column.place(p.y);
                p = p + j * b.jitter;
                if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
                    if (non_finite++ == 0) first = p;
                } else if (!domain_contains(d, p, p) && outside++ == 0) {
                    first = p;
                }
                s.pos.push_back(to_float4(p));
                s.vel.push_back(to_float4(b.velocity));
            }
            return s.pos.size() < count;
        });
        const std::string which = "scene '" + scene.name + "', block " + std::to_string(i);
        PLAB_REQUIRE(non_finite == 0, which + ": " + std::to_string(non_finite) +
                                          " particles start at a non-finite position (the "
                                          "coordinates overflow float)");
        PLAB_REQUIRE(outside == 0,
                     which + ": " + std::to_string(outside) +
                         " particles start outside the domain" +
                         format_numbers(" (the first at [%g, %g, %g] m): its jitter %g m "
                                        "reaches past the walls; keep it below half the "
                                        "spacing (%g m)",
                                        first.x, first.y, first.z, b.jitter, 0.5 * b.spacing));
    }
    assign_bead_sizes(s.pos, params, static_cast<uint32_t>(scene.seed));
    return s;
}

}  // namespace plab::sim
