#include "sim/grid.h"

#include <cmath>
#include <string>

#include "sim/error.h"

namespace plab::sim {

GridSpec make_grid(const Domain& domain, float cell_size) {
    PLAB_REQUIRE(cell_size > 0.f && std::isfinite(cell_size),
                 "grid cell size must be a positive number, got " + std::to_string(cell_size));
    const Vec3 extent = domain.max - domain.min;
    PLAB_REQUIRE(extent.x > 0.f && extent.y > 0.f && extent.z > 0.f,
                 "domain box must have a positive size on every axis");
    auto dim = [&](float e) {
        // A tiny tolerance so that a box of exactly k cells gets k, not k+1, cells.
        const double cells = std::ceil(static_cast<double>(e) / cell_size - 1e-6);
        return cells < 1.0 ? 1.0 : cells;
    };
    const double dx = dim(extent.x), dy = dim(extent.y), dz = dim(extent.z);
    PLAB_REQUIRE(dx * dy * dz <= static_cast<double>(kMaxCells),
                 "grid of " + std::to_string(static_cast<uint64_t>(dx)) + "x" +
                     std::to_string(static_cast<uint64_t>(dy)) + "x" +
                     std::to_string(static_cast<uint64_t>(dz)) +
                     " cells is too large: enlarge the radius or shrink the domain");
    GridSpec g;
    g.origin = domain.min;
    g.cell_size = cell_size;
    g.inv_cell_size = 1.f / cell_size;
    g.dim_x = static_cast<int>(dx);
    g.dim_y = static_cast<int>(dy);
    g.dim_z = static_cast<int>(dz);
    return g;
}

}  // namespace plab::sim
