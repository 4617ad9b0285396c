#include "sim/scene.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/bead_size.h"
#include "sim/block_lattice.h"
#include "sim/derived.h"
#include "sim/error.h"
#include "sim/format_numbers.h"
#include "sim/input_limits.h"

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

bool contains(const Domain& d, Vec3 lo, Vec3 hi) {
    return lo.x >= d.min.x && lo.y >= d.min.y && lo.z >= d.min.z && hi.x <= d.max.x &&
           hi.y <= d.max.y && hi.z <= d.max.z;
}

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

std::size_t scene_capacity(const Scene& scene, std::size_t limit) {
    // Counted against what is left below the limit, so a huge sphere stops early.
    uint64_t n = 0;
    for (const auto& b : scene.blocks) {
        n += block_capacity(b, limit - n);
        if (n >= limit) break;
    }
    return static_cast<std::size_t>(n);
}

Domain lattice_bounds(const ParticleBlock& b) {
    const LatticeDims d = lattice_dims(b);
    if (d.x == 0 || d.y == 0 || d.z == 0) return {{1.f, 1.f, 1.f}, {0.f, 0.f, 0.f}};
    return {lattice_point(b, 0, 0, 0), lattice_point(b, d.x - 1, d.y - 1, d.z - 1)};
}

GridSpec scene_grid(const Domain& domain, const Params& params) {
    // SPH: cells half the kernel's reach, searched two deep (GridSpec::reach).
    const bool sph = params.model == Model::Sph;
    GridSpec g = make_grid(domain, interaction_range(params) * (sph ? 0.5f : 1.f));
    g.reach = sph ? 2 : 1;
    return g;
}

void check_scene(const Scene& scene, const Params& params, std::size_t count) {
    const std::string name = "scene '" + scene.name + "'";
    PLAB_REQUIRE(scene.blocks.size() <= kMaxBlocks,
                 name + " has " + std::to_string(scene.blocks.size()) + " blocks; at most " +
                     std::to_string(kMaxBlocks));
    for (std::size_t i = 0; i < scene.blocks.size(); ++i) {
        const auto& b = scene.blocks[i];
        const std::string which = name + ", block " + std::to_string(i);
        PLAB_REQUIRE(b.spacing > 0.f && std::isfinite(b.spacing),
                     which + ": spacing must be positive");
        PLAB_REQUIRE(b.jitter >= 0.f && std::isfinite(b.jitter),
                     which + ": jitter must be zero or positive");
        PLAB_REQUIRE(std::isfinite(b.velocity.x) && std::isfinite(b.velocity.y) &&
                         std::isfinite(b.velocity.z),
                     which + ": velocity must be finite");
        PLAB_REQUIRE(contains(scene.domain, b.min, b.max),
                     which +
                         format_numbers(" ([%g, %g, %g] to [%g, %g, %g] m)", b.min.x, b.min.y,
                                        b.min.z, b.max.x, b.max.y, b.max.z) +
                         " lies outside the domain" +
                         format_numbers(" ([%g, %g, %g] to [%g, %g, %g] m)", scene.domain.min.x,
                                        scene.domain.min.y, scene.domain.min.z, scene.domain.max.x,
                                        scene.domain.max.y, scene.domain.max.z));
        const LatticeDims d = lattice_dims(b);
        PLAB_REQUIRE(std::max({d.x, d.y, d.z}) <= kMaxLatticeAxis,
                     which + format_numbers(": spacing %g m puts more than %.0f lattice points "
                                            "along an axis (float coordinates no longer tell "
                                            "them apart)",
                                            b.spacing, kMaxLatticeAxis));
    }
    PLAB_REQUIRE(count <= kMaxParticles, name + ": " + std::to_string(count) +
                                             " particles are more than the limit of " +
                                             std::to_string(kMaxParticles));
    // Counted only as far as needed: short of `count`, the count is exact.
    const std::size_t capacity = scene_capacity(scene, count);
    PLAB_REQUIRE(count <= capacity, name + " can place at most " + std::to_string(capacity) +
                                        " particles, " + std::to_string(count) + " were asked for");
    validate(params);
    scene_grid(scene.domain, params);  // throws when too large
}

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
                } else if (!contains(d, p, p) && outside++ == 0) {
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
