// The uniform grid and the counting sort: cells for any input, the sort against
// std::stable_sort, and the 27-cell neighbour search against brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/grid.h"
#include "sim/physics/dem_step.h"
#include "sim/test_helpers.h"

namespace plab::sim {
namespace {

using testing::clustered_positions;
using testing::random_positions;
using testing::stable_sort_reference;
using testing::state_from_positions;

const Domain kOddDomain{{-0.3f, 0.1f, -1.f}, {0.75f, 0.47f, 1.3f}};  // not a power of two
constexpr float kRadius = 0.02f;

TEST(Grid, DimensionsCoverAnyDomainWithoutPowerOfTwoPadding) {
    const GridSpec g = make_grid(kOddDomain, 0.04f);
    EXPECT_EQ(g.dim_x, 27);  // ceil(1.05 / 0.04)
    EXPECT_EQ(g.dim_y, 10);  // ceil(0.37 / 0.04)
    EXPECT_EQ(g.dim_z, 58);  // ceil(2.3 / 0.04)
    EXPECT_EQ(g.num_cells(), 27u * 10u * 58u);
}

TEST(Grid, ExactMultipleOfCellSizeGetsNoExtraCell) {
    const GridSpec g = make_grid({{-1, -1, -1}, {1, 1, 1}}, 1.f / 32.f);
    EXPECT_EQ(g.dim_x, 64);
    EXPECT_EQ(g.dim_y, 64);
    EXPECT_EQ(g.dim_z, 64);
}

TEST(Grid, EveryInputMapsToAValidCell) {
    const GridSpec g = make_grid(kOddDomain, 0.04f);
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float odd[] = {nan, inf, -inf, 1e30f, -1e30f, 0.f, -0.3f, 0.75f, 0.7499999f, 3e9f};
    for (float x : odd)
        for (float y : odd)
            for (float z : odd) EXPECT_LT(cell_index({x, y, z}, g), g.num_cells());
}

TEST(Grid, FarCellsDoNotAliasNearOnes) {
    // With a hashed table of fixed size far cells can share a slot; here every cell is its own.
    const GridSpec g = make_grid(kOddDomain, 0.04f);
    std::set<uint32_t> seen;
    for (int z = 0; z < g.dim_z; ++z)
        for (int y = 0; y < g.dim_y; ++y)
            for (int x = 0; x < g.dim_x; ++x) {
                const Vec3 centre{g.origin.x + (x + 0.5f) * g.cell_size,
                                  g.origin.y + (y + 0.5f) * g.cell_size,
                                  g.origin.z + (z + 0.5f) * g.cell_size};
                EXPECT_TRUE(seen.insert(cell_index(centre, g)).second);
            }
    EXPECT_EQ(seen.size(), g.num_cells());
}

TEST(Grid, RejectsBadCellSizeAndHugeGrids) {
    EXPECT_THROW(make_grid(kOddDomain, 0.f), Error);
    EXPECT_THROW(make_grid(kOddDomain, -1.f), Error);
    EXPECT_THROW(make_grid(kOddDomain, std::nanf("")), Error);
    EXPECT_THROW(make_grid({{0, 0, 0}, {1000, 1000, 1000}}, 1e-3f), Error);
    EXPECT_THROW(make_grid({{0, 0, 0}, {0, 1, 1}}, 0.1f), Error);
}

// Runs the CPU grid build on `pos` and checks it against std::stable_sort.
void expect_sort_matches_reference(const std::vector<Vec3>& pos, const Domain& domain) {
    CpuSimulator sim;
    Params p;
    p.radius = kRadius;
    const InitialState init = state_from_positions(pos, domain, kRadius);
    sim.reset(init, p);
    const GridSnapshot got = sim.build_grid();
    const auto ref = stable_sort_reference(pos, init.grid);
    EXPECT_EQ(got.sorted_id, ref.sorted_id);
    EXPECT_EQ(got.sorted_cell, ref.sorted_cell);
    ASSERT_EQ(got.cell_start.size(), init.grid.num_cells() + 1);
    EXPECT_EQ(got.cell_start.front(), 0u);
    EXPECT_EQ(got.cell_start.back(), pos.size());
    // Every cell's range holds exactly the particles of that cell.
    for (std::size_t k = 0; k < got.sorted_cell.size(); ++k) {
        const uint32_t c = got.sorted_cell[k];
        EXPECT_GE(k, got.cell_start[c]);
        EXPECT_LT(k, got.cell_start[c + 1]);
    }
}

TEST(CountingSort, RandomMatchesStableSort) {
    expect_sort_matches_reference(random_positions(5000, kOddDomain, 1), kOddDomain);
}

TEST(CountingSort, ClusteredMatchesStableSort) {
    expect_sort_matches_reference(clustered_positions(5000, kOddDomain, 2), kOddDomain);
}

TEST(CountingSort, AllInOneCellMatchesStableSort) {
    std::vector<Vec3> pos(777, Vec3{0.1f, 0.2f, 0.3f});
    expect_sort_matches_reference(pos, kOddDomain);
}

TEST(CountingSort, CellAndDomainEdgesMatchStableSort) {
    const GridSpec g = make_grid(kOddDomain, 2.f * kRadius);
    std::vector<Vec3> pos;
    for (int i = 0; i <= g.dim_x; ++i) {  // every cell face along x, including both walls
        const float x = g.origin.x + i * g.cell_size;
        pos.push_back({x, kOddDomain.min.y, kOddDomain.min.z});
        pos.push_back({x, kOddDomain.max.y, kOddDomain.max.z});
        pos.push_back({std::nextafter(x, -1e9f), 0.3f, 0.f});
    }
    pos.push_back(kOddDomain.max);
    pos.push_back(kOddDomain.min);
    expect_sort_matches_reference(pos, kOddDomain);
}

TEST(CountingSort, EmptyAndSingleParticle) {
    expect_sort_matches_reference({}, kOddDomain);
    expect_sort_matches_reference({{0.f, 0.2f, 0.f}}, kOddDomain);
}

TEST(CountingSort, OutOfDomainAndNanPositionsStayInRange) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    expect_sort_matches_reference({{nan, nan, nan}, {100.f, -100.f, 5.f}, {0.f, 0.3f, 0.f}},
                                  kOddDomain);
}

// The CPU's grid over `pos` and the cell-ordered views the candidate loops read.
struct SortedGrid {
    SortedGrid(const std::vector<Vec3>& pos, const Domain& d)
        : init(state_from_positions(pos, d, kRadius)) {
        CpuSimulator sim;
        Params p;
        p.radius = kRadius;
        sim.reset(init, p);
        grid = sim.build_grid();
        for (uint32_t id : grid.sorted_id) sorted_pos.push_back(to_float4(pos[id]));
        b.sorted_pos = sorted_pos.data();
        b.cell_start = grid.cell_start.data();
        b.count = static_cast<uint32_t>(pos.size());
    }
    SortedGrid(const SortedGrid&) = delete;  // b points into the members
    SortedGrid& operator=(const SortedGrid&) = delete;

    InitialState init;
    GridSnapshot grid;
    std::vector<Float4> sorted_pos;
    StepBuffers b;
};

// Neighbours within `reach` of each particle, found through the grid, as sets of ids.
std::vector<std::set<uint32_t>> grid_neighbours(const std::vector<Vec3>& pos, const Domain& d,
                                                float reach) {
    const SortedGrid sorted(pos, d);
    const GridSnapshot& grid = sorted.grid;
    std::vector<std::set<uint32_t>> out(pos.size());
    for (uint32_t k = 0; k < sorted.b.count; ++k) {
        const uint32_t id = grid.sorted_id[k];
        for_each_candidate(pos[id], sorted.b, sorted.init.grid, [&](uint32_t j) {
            const uint32_t other = grid.sorted_id[j];
            if (other != id && length_squared(pos[other] - pos[id]) < reach * reach)
                out[id].insert(other);
        });
    }
    return out;
}

std::vector<std::set<uint32_t>> brute_force_neighbours(const std::vector<Vec3>& pos, float reach) {
    std::vector<std::set<uint32_t>> out(pos.size());
    for (uint32_t i = 0; i < pos.size(); ++i)
        for (uint32_t j = 0; j < pos.size(); ++j)
            if (i != j && length_squared(pos[j] - pos[i]) < reach * reach) out[i].insert(j);
    return out;
}

void expect_neighbours_match(const std::vector<Vec3>& pos, const Domain& d) {
    const float reach = 2.f * kRadius;  // contact distance = cell size
    const auto got = grid_neighbours(pos, d, reach);
    const auto want = brute_force_neighbours(pos, reach);
    std::size_t pairs = 0;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        EXPECT_EQ(got[i], want[i]) << "particle " << i;
        pairs += want[i].size();
    }
    if (pos.size() > 1) {
        EXPECT_GT(pairs, 0u) << "the input should have some contacts";
    }
}

TEST(NeighbourSearch, RandomMatchesBruteForce) {
    expect_neighbours_match(random_positions(3000, kOddDomain, 3), kOddDomain);
}

TEST(NeighbourSearch, ClusteredMatchesBruteForce) {
    expect_neighbours_match(clustered_positions(2000, kOddDomain, 4), kOddDomain);
}

TEST(NeighbourSearch, AllInOneCellMatchesBruteForce) {
    std::vector<Vec3> pos;
    for (int i = 0; i < 200; ++i) pos.push_back({0.1f + 1e-4f * i, 0.2f, 0.3f});
    expect_neighbours_match(pos, kOddDomain);
}

TEST(NeighbourSearch, EdgesMatchBruteForce) {
    // Pairs straddling cell faces and the domain walls, just inside and just outside reach.
    const GridSpec g = make_grid(kOddDomain, 2.f * kRadius);
    std::vector<Vec3> pos;
    for (int i = 0; i <= g.dim_x; ++i) {
        const float x = g.origin.x + i * g.cell_size;
        pos.push_back({x - 0.49f * g.cell_size, 0.2f, 0.f});
        pos.push_back({x + 0.49f * g.cell_size, 0.2f, 0.f});
        pos.push_back({x, kOddDomain.min.y, kOddDomain.max.z});
        pos.push_back({x + 0.99f * g.cell_size, kOddDomain.min.y, kOddDomain.max.z});
    }
    expect_neighbours_match(pos, kOddDomain);
}

// The scatter form's half of the cells (for_each_later_candidate) offers exactly the 27
// cells' candidates that come after the particle in cell order, each once.
void expect_later_candidates_are_the_later_half(const std::vector<Vec3>& pos, const Domain& d) {
    const SortedGrid sorted(pos, d);
    const StepBuffers& b = sorted.b;
    const GridSpec& g = sorted.init.grid;
    std::size_t offered = 0;
    for (uint32_t k = 0; k < b.count; ++k) {
        const Vec3 here = pos[sorted.grid.sorted_id[k]];
        std::multiset<uint32_t> want, got;
        for_each_candidate(here, b, g, [&](uint32_t j) {
            if (j > k) want.insert(j);
        });
        for_each_later_candidate(k, here, b, g, [&](uint32_t j) { got.insert(j); });
        EXPECT_EQ(got, want) << "sorted particle " << k;
        offered += got.size();
    }
    EXPECT_GT(offered, 0u) << "the input should have candidates";
}

TEST(NeighbourSearch, LaterCandidatesAreTheLaterHalfOfTheCells) {
    expect_later_candidates_are_the_later_half(random_positions(3000, kOddDomain, 5), kOddDomain);
    expect_later_candidates_are_the_later_half(clustered_positions(2000, kOddDomain, 6),
                                               kOddDomain);
    // Along the domain's faces and edges, where rows and cells are cut off.
    const GridSpec g = make_grid(kOddDomain, 2.f * kRadius);
    std::vector<Vec3> edges;
    for (int i = 0; i <= g.dim_x; ++i) {
        const float x = g.origin.x + i * g.cell_size;
        edges.push_back({x, kOddDomain.min.y, kOddDomain.max.z});
        edges.push_back({x, kOddDomain.max.y, kOddDomain.min.z});
        edges.push_back({x + 0.5f * g.cell_size, kOddDomain.min.y, kOddDomain.min.z});
    }
    expect_later_candidates_are_the_later_half(edges, kOddDomain);
}

TEST(NeighbourSearch, SingleParticleHasNone) {
    const auto got = grid_neighbours({{0.f, 0.2f, 0.f}}, kOddDomain, 2.f * kRadius);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(got[0].empty());
}

}  // namespace
}  // namespace plab::sim
