#include "sim/model/grid.h"

#include <cmath>
#include <string>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"

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
    // Printed as doubles: a dimension can be past any integer (or infinite) here.
    PLAB_REQUIRE(dx * dy * dz <= static_cast<double>(kMaxCells),
                 format_numbers("grid of %.0fx%.0fx%.0f cells of %g m is too large (at most %.0f "
                                "cells): enlarge the radius or shrink the domain",
                                dx, dy, dz, cell_size, kMaxCells));
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
