#include "sim/scene.h"

#include <cmath>
#include <string>

#include "sim/derived.h"
#include "sim/error.h"

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

struct LatticeDims {
    uint64_t x = 0, y = 0, z = 0;
};

LatticeDims lattice_dims(const ParticleBlock& b) {
    if (!(b.spacing > 0.f)) return {};
    auto n = [&](float lo, float hi) -> uint64_t {
        const double cells = std::floor((static_cast<double>(hi) - lo) / b.spacing + 1e-4);
        return cells > 0 ? static_cast<uint64_t>(cells) : 0;
    };
    return {n(b.min.x, b.max.x), n(b.min.y, b.max.y), n(b.min.z, b.max.z)};
}

Vec3 lattice_point(const ParticleBlock& b, uint64_t ix, uint64_t iy, uint64_t iz) {
    return {b.min.x + b.spacing * (static_cast<float>(ix) + 0.5f),
            b.min.y + b.spacing * (static_cast<float>(iy) + 0.5f),
            b.min.z + b.spacing * (static_cast<float>(iz) + 0.5f)};
}

bool inside_shape(const ParticleBlock& b, Vec3 p) {
    if (b.shape == BlockShape::Box) return true;
    const Vec3 c = (b.min + b.max) * 0.5f;
    const Vec3 half = (b.max - b.min) * 0.5f;
    const float r = std::fmin(half.x, std::fmin(half.y, half.z));
    return length_squared(p - c) <= r * r;
}

// Visits the lattice points of a block in placement order until `visit` returns false.
template <typename Visit>
void for_each_point(const ParticleBlock& b, Visit&& visit) {
    const LatticeDims d = lattice_dims(b);
    for (uint64_t z = 0; z < d.z; ++z)
        for (uint64_t y = 0; y < d.y; ++y)
            for (uint64_t x = 0; x < d.x; ++x) {
                const Vec3 p = lattice_point(b, x, y, z);
                if (inside_shape(b, p) && !visit(p)) return;
            }
}

std::size_t block_capacity(const ParticleBlock& b) {
    const LatticeDims d = lattice_dims(b);
    if (b.shape == BlockShape::Box) return d.x * d.y * d.z;
    std::size_t n = 0;
    for_each_point(b, [&](Vec3) {
        ++n;
        return true;
    });
    return n;
}

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

std::size_t scene_capacity(const Scene& scene) {
    std::size_t n = 0;
    for (const auto& b : scene.blocks) n += block_capacity(b);
    return n;
}

InitialState build_initial_state(const Scene& scene, const Params& params, std::size_t count) {
    validate(params);
    for (std::size_t i = 0; i < scene.blocks.size(); ++i) {
        const auto& b = scene.blocks[i];
        const std::string which = "scene '" + scene.name + "', block " + std::to_string(i);
        PLAB_REQUIRE(b.spacing > 0.f && std::isfinite(b.spacing),
                     which + ": spacing must be positive");
        PLAB_REQUIRE(b.jitter >= 0.f && std::isfinite(b.jitter),
                     which + ": jitter must be zero or positive");
        PLAB_REQUIRE(contains(scene.domain, b.min, b.max), which + " lies outside the domain");
    }
    const std::size_t capacity = scene_capacity(scene);
    PLAB_REQUIRE(count <= capacity, "scene '" + scene.name + "' can place at most " +
                                        std::to_string(capacity) + " particles, " +
                                        std::to_string(count) + " were asked for");
    PLAB_REQUIRE(count <= 0xfffffffeull, "particle count must fit in 32-bit ids");

    InitialState s;
    s.domain = scene.domain;
    // SPH: cells half the kernel's reach, searched two deep (GridSpec::reach).
    const bool sph = params.model == Model::Sph;
    s.grid = make_grid(scene.domain, interaction_range(params) * (sph ? 0.5f : 1.f));
    s.grid.reach = sph ? 2 : 1;
    s.pos.reserve(count);
    s.vel.reserve(count);
    Rng rng{scene.seed};
    for (const auto& b : scene.blocks) {
        if (s.pos.size() == count) break;
        const HydrostaticColumn column = hydrostatic_column(b, params, scene.domain);
        for_each_point(b, [&](Vec3 p) {
            const Vec3 j{rng.symmetric(), rng.symmetric(), rng.symmetric()};
            p.y = column.place(p.y);
            s.pos.push_back(to_float4(p + j * b.jitter));
            s.vel.push_back(to_float4(b.velocity));
            return s.pos.size() < count;
        });
    }
    return s;
}

}  // namespace plab::sim
