#pragma once
// The scene's triangles binned into the cells of the particles' grid, so that a bead tests only
// the triangles near its own cell: cell c lists every triangle that comes within `reach` (the
// largest bead radius) of some point of c. A triangle goes into the cells its box (grown by
// the reach) overlaps and, of those, only the ones whose centre lies within half the cell's
// diagonal plus the reach of it, so a large slanted triangle does not fill its whole box.
// Cells are listed in compressed rows (start offsets, then items), triangles in scene order.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/geometry/geometry_view.h"
#include "sim/model/grid.h"

namespace plab::sim {

struct TriangleBins {
    std::vector<uint32_t> start;  // grid.num_cells() + 1 entries
    std::vector<uint32_t> items;  // triangle indices
};

// Entries a binning holds more than this are refused (4 bytes each: 1 GiB).
inline constexpr std::uint64_t kMaxBinEntries = std::uint64_t{1} << 28;

// Throws plab::Error, saying how many, when the bins would hold more than kMaxBinEntries.
// Runs on the CPU's threads (OpenMP); the result does not depend on their number.
TriangleBins bin_triangles(const std::vector<GeoTriangle>& triangles, const GridSpec& grid,
                           float reach);

// Bytes the bins take: the start offsets and the items.
std::size_t bin_bytes(const GridSpec& grid, std::uint64_t items);

}  // namespace plab::sim
