#include "sim/geometry/triangle_bins.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <utility>

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

TriangleBins bin_triangles(const std::vector<GeoTriangle>& triangles, const GridSpec& grid,
                           float reach) {
    // One walk over the triangles (the cell tests are the cost: a drag in the window bins the
    // scene again for every move), in chunks of consecutive triangles on all threads. Each chunk
    // lists the (cell, triangle) pairs it finds in triangle order; a counting sort by cell over
    // the chunks in order then keeps every cell's triangles in scene order, as the contact
    // passes expect.
    const auto count = static_cast<int64_t>(triangles.size());
    constexpr int64_t kChunk = 256;
    const int64_t chunks = (count + kChunk - 1) / kChunk;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> found(static_cast<std::size_t>(chunks));
    std::atomic<std::uint64_t> total{0};
#pragma omp parallel for schedule(dynamic)
    for (int64_t k = 0; k < chunks; ++k) {
        auto& pairs = found[static_cast<std::size_t>(k)];
        const int64_t end = std::min(count, (k + 1) * kChunk);
        for (int64_t i = k * kChunk; i < end; ++i) {
            // Past the limit (counted over all threads): stop walking, the run is refused below.
            if (total.load(std::memory_order_relaxed) > kMaxBinEntries) break;
            const std::size_t before = pairs.size();
            for_each_reached_cell(triangles[static_cast<std::size_t>(i)], grid, reach,
                                  [&](uint32_t c) { pairs.emplace_back(c, uint32_t(i)); });
            total.fetch_add(pairs.size() - before, std::memory_order_relaxed);
        }
    }
    if (total.load() > kMaxBinEntries)
        throw Error("the geometry's triangles cross more than " + std::to_string(kMaxBinEntries) +
                    " grid cells in all (a finer mesh or a coarser grid is needed)");
    TriangleBins bins;
    bins.start.assign(std::size_t{grid.num_cells()} + 1, 0);
    for (const auto& pairs : found)
        for (const auto& [c, t] : pairs) ++bins.start[c + 1];
    for (std::size_t c = 1; c < bins.start.size(); ++c) bins.start[c] += bins.start[c - 1];
    bins.items.resize(bins.start.back());
    std::vector<uint32_t> fill(bins.start.begin(), bins.start.end() - 1);
    for (const auto& pairs : found)
        for (const auto& [c, t] : pairs) bins.items[fill[c]++] = t;
    return bins;
}

std::size_t bin_bytes(const GridSpec& grid, std::uint64_t items) {
    return (std::size_t{grid.num_cells()} + 1 + items) * sizeof(uint32_t);
}

}  // namespace plab::sim
