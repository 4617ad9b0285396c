// The domain cut into slabs for several ranks (sim/ranks/slab_decomposition.h): along the
// longest axis, every centre owned by one rank, the halo copies exactly where a neighbour's
// particles reach across the cut, cuts that follow the particles and keep a halo's width, and
// a request the domain cannot take refused with the most it can.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "sim/ranks/slab_decomposition.h"

namespace plab::sim {
namespace {

const Domain kLongInY{{-1.f, 0.f, -1.f}, {1.f, 8.f, 1.f}};

TEST(SlabDecomposition, EvenSlabsCutTheLongestAxis) {
    const SlabDecomposition s = even_slabs(kLongInY, 4, 0.1f);
    EXPECT_EQ(s.axis, 1);
    EXPECT_EQ(longest_axis({{0, 0, 0}, {1, 1, 3}}), 2);
    EXPECT_EQ(longest_axis({{0, 0, 0}, {2, 2, 2}}), 0);
    ASSERT_EQ(s.ranks(), 4);
    const std::vector<float> expected{0.f, 2.f, 4.f, 6.f, 8.f};
    EXPECT_EQ(s.cuts, expected);
    EXPECT_EQ(s.owner(Vec3{0.f, 0.f, 0.f}), 0);
    EXPECT_EQ(s.owner(Vec3{0.f, 1.999f, 0.f}), 0);
    EXPECT_EQ(s.owner(Vec3{0.f, 2.f, 0.f}), 1);  // a cut belongs to the slab above it
    EXPECT_EQ(s.owner(Vec3{0.f, 7.5f, 0.f}), 3);
    EXPECT_EQ(s.owner(Vec3{0.f, 8.f, 0.f}), 3);   // the domain's end
    EXPECT_EQ(s.owner(Vec3{0.f, -3.f, 0.f}), 0);  // past the ends: the end slabs
    EXPECT_EQ(s.owner(Vec3{0.f, 11.f, 0.f}), 3);
    EXPECT_EQ(even_slabs(kLongInY, 1, 0.1f).owner(5.f), 0);
}

TEST(SlabDecomposition, HaloCopiesGoToTheNeighbourAcrossTheNearCut) {
    const SlabDecomposition s = even_slabs(kLongInY, 4, 0.25f);
    auto ranks_of = [&](float x) {
        const SlabDecomposition::HaloRanks h = s.halo_ranks(x);
        return std::vector<int>(h.rank, h.rank + h.count);
    };
    EXPECT_EQ(ranks_of(2.1f), std::vector<int>{0});  // just above the cut at 2
    EXPECT_EQ(ranks_of(1.9f), std::vector<int>{1});  // just below it
    EXPECT_TRUE(ranks_of(3.f).empty());              // the middle of slab 1
    EXPECT_TRUE(ranks_of(0.1f).empty());             // near the domain's end: no rank below
    EXPECT_TRUE(ranks_of(7.9f).empty());
    EXPECT_EQ(ranks_of(2.25f), std::vector<int>{});  // a halo away: out of reach
    // Every particle is owned once, and a rank's halo holds exactly the others' particles
    // within the halo of its slab.
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> y(-0.5f, 8.5f);
    for (int k = 0; k < 20000; ++k) {
        const float x = y(rng);
        const int owner = s.owner(x);
        const SlabDecomposition::HaloRanks h = s.halo_ranks(x);
        for (int r = 0; r < s.ranks(); ++r) {
            if (r == owner) continue;
            const float lo = s.cuts[r] - s.halo, hi = s.cuts[r + 1] + s.halo;
            const bool near = x >= lo && x < hi;
            const bool copied = std::count(h.rank, h.rank + h.count, r) > 0;
            ASSERT_EQ(copied, near) << "x " << x << " rank " << r;
        }
    }
}

TEST(SlabDecomposition, BalancedCutsFollowTheParticles) {
    // Nine in ten particles in the lowest eighth of the domain.
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> crowded(0.f, 1.f), rest(1.f, 8.f);
    std::uniform_int_distribution<int> which(0, 9);
    std::vector<float> along(40000);
    for (float& x : along) x = which(rng) < 9 ? crowded(rng) : rest(rng);
    const SlabDecomposition even = even_slabs(kLongInY, 4, 0.1f);
    EXPECT_GT(slab_imbalance(even, along), 3.0);
    const SlabDecomposition balanced = balanced_slabs(kLongInY, 4, 0.1f, along);
    EXPECT_LT(slab_imbalance(balanced, along), 1.01);
    EXPECT_EQ(balanced.cuts.front(), 0.f);
    EXPECT_EQ(balanced.cuts.back(), 8.f);
    for (int r = 0; r < 4; ++r) EXPECT_GE(balanced.cuts[r + 1] - balanced.cuts[r], 0.1f - 1e-6f);
}

TEST(SlabDecomposition, CrowdedSlabsKeepAHalosWidth) {
    // Every particle at one point: the cuts cannot split them, and stay a halo apart.
    const std::vector<float> along(1000, 4.f);
    const SlabDecomposition s = balanced_slabs(kLongInY, 5, 1.5f, along);
    for (int r = 0; r < 5; ++r) EXPECT_GE(s.cuts[r + 1] - s.cuts[r], 1.5f - 1e-5f) << r;
    EXPECT_EQ(s.cuts.front(), 0.f);
    EXPECT_EQ(s.cuts.back(), 8.f);
    EXPECT_EQ(slab_imbalance(s, along), 5.0);  // all in one slab: five times the mean
    // No particles: even slabs.
    EXPECT_EQ(balanced_slabs(kLongInY, 4, 0.1f, {}).cuts, even_slabs(kLongInY, 4, 0.1f).cuts);
    EXPECT_EQ(slab_imbalance(s, {}), 0.0);
}

TEST(SlabDecomposition, TooManyRanksForTheDomainAreRefused) {
    try {
        even_slabs(kLongInY, 9, 1.f);
        FAIL() << "nine slabs of 8 m narrower than a 1 m halo were accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("at most 8 ranks"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(even_slabs(kLongInY, 8, 1.f));
    EXPECT_THROW(even_slabs(kLongInY, 0, 1.f), Error);
    EXPECT_THROW(even_slabs(kLongInY, 2, 0.f), Error);
    EXPECT_THROW(balanced_slabs(kLongInY, 9, 1.f, std::vector<float>{1.f}), Error);
}

}  // namespace
}  // namespace plab::sim
