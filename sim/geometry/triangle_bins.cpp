#include "sim/geometry/triangle_bins.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/error.h"
#include "sim/geometry/nearest_on_triangle.h"

namespace plab::sim {
namespace {

// Calls cell(c) for every cell of `g` the triangle reaches (see the top of triangle_bins.h).
template <typename Cell>
void for_each_reached_cell(const GeoTriangle& t, const GridSpec& g, float reach, Cell&& cell) {
    const Vec3 lo{std::min({t.a.x, t.b.x, t.c.x}) - reach, std::min({t.a.y, t.b.y, t.c.y}) - reach,
                  std::min({t.a.z, t.b.z, t.c.z}) - reach};
    const Vec3 hi{std::max({t.a.x, t.b.x, t.c.x}) + reach, std::max({t.a.y, t.b.y, t.c.y}) + reach,
                  std::max({t.a.z, t.b.z, t.c.z}) + reach};
    // Outside the grid on some axis: no cell (positions beyond it clamp to the border cells,
    // but beads never get there: the walls hold them).
    const Vec3 far = g.origin + Vec3{float(g.dim_x), float(g.dim_y), float(g.dim_z)} * g.cell_size;
    if (hi.x < g.origin.x || hi.y < g.origin.y || hi.z < g.origin.z || lo.x > far.x ||
        lo.y > far.y || lo.z > far.z)
        return;
    const CellCoord c0 = cell_of(lo, g), c1 = cell_of(hi, g);
    const float half = 0.5f * g.cell_size;
    // Half the cell's diagonal plus the reach, with a margin for float rounding.
    const float within = (std::sqrt(3.f) * half + reach) * 1.0001f;
    for (int z = c0.z; z <= c1.z; ++z)
        for (int y = c0.y; y <= c1.y; ++y)
            for (int x = c0.x; x <= c1.x; ++x) {
                const Vec3 centre = g.origin + Vec3{float(x), float(y), float(z)} * g.cell_size +
                                    Vec3{half, half, half};
                const Vec3 d = nearest_on_triangle(centre, t).point - centre;
                if (length_squared(d) <= within * within) cell(g.linear(x, y, z));
            }
}

}  // namespace

std::uint64_t count_bin_items(const std::vector<GeoTriangle>& triangles, const GridSpec& grid,
                              float reach) {
    std::uint64_t n = 0;
    for (const GeoTriangle& t : triangles) {
        for_each_reached_cell(t, grid, reach, [&](uint32_t) { ++n; });
        if (n > kMaxBinEntries)
            throw Error("the geometry's triangles cross more than " +
                        std::to_string(kMaxBinEntries) +
                        " grid cells in all (a finer mesh or a coarser grid is needed)");
    }
    return n;
}

TriangleBins bin_triangles(const std::vector<GeoTriangle>& triangles, const GridSpec& grid,
                           float reach) {
    count_bin_items(triangles, grid, reach);  // refuses what would not fit
    TriangleBins bins;
    bins.start.assign(std::size_t{grid.num_cells()} + 1, 0);
    for (const GeoTriangle& t : triangles)
        for_each_reached_cell(t, grid, reach, [&](uint32_t c) { ++bins.start[c + 1]; });
    for (std::size_t c = 1; c < bins.start.size(); ++c) bins.start[c] += bins.start[c - 1];
    bins.items.resize(bins.start.back());
    std::vector<uint32_t> fill(bins.start.begin(), bins.start.end() - 1);
    for (uint32_t i = 0; i < triangles.size(); ++i)
        for_each_reached_cell(triangles[i], grid, reach,
                              [&](uint32_t c) { bins.items[fill[c]++] = i; });
    return bins;
}

std::size_t bin_bytes(const GridSpec& grid, std::uint64_t items) {
    return (std::size_t{grid.num_cells()} + 1 + items) * sizeof(uint32_t);
}

}  // namespace plab::sim
