#include "sim/model/scene.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"
#include "sim/model/bead_size.h"
#include "sim/model/block_lattice.h"
#include "sim/model/derived.h"

namespace plab::sim {

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
        PLAB_REQUIRE(domain_contains(scene.domain, b.min, b.max),
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

}  // namespace plab::sim
