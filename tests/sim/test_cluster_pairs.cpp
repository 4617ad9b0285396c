// Cluster pairs on the CPU backend (sim/physics/cluster_pairs.h): the build lists each
// neighbour cluster of a cluster once and nothing else, an overflow falls back to the particle
// lists, and the classic pile stepped by cluster pairs has the grid's physics over thousands of
// steps; the resolver says where they do not run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "sim/cpu/cpu_simulator.h"
#include "sim/list_compare.h"
#include "sim/model/presets.h"
#include "sim/model/variants.h"
#include "sim/physics/cluster_pairs.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

using testing::kOrderOnly;
using testing::one_step_params;
using testing::preset_state;

SimulatorOptions with_cluster_pairs() {
    SimulatorOptions o;
    o.cluster_pairs = kOn;
    return o;
}

// Particle lists made up for n particles: particle i lists a few random others.
struct MadeUpLists {
    std::vector<uint32_t> index, count;
    std::vector<Float4> ref;
    uint32_t slots = 16, n = 0;

    MadeUpLists(uint32_t particles, uint32_t seed) : n(particles) {
        index.assign(std::size_t{n} * list_stored_slots(slots), 0);
        count.assign(n, 0);
        ref.assign(n, Float4{});
        std::mt19937 rng(seed);
        std::uniform_int_distribution<uint32_t> other(0, n - 1), how_many(0, slots);
        for (uint32_t i = 0; i < n; ++i) {
            std::set<uint32_t> picked;
            const uint32_t want = how_many(rng);
            while (picked.size() < want) {
                const uint32_t j = other(rng);
                if (j != i) picked.insert(j);
            }
            uint32_t k = 0;
            for (uint32_t j : picked) index[list_entry(i, k++, n)] = j;
            count[i] = k;
        }
    }
    NeighbourList view() { return {index.data(), count.data(), ref.data(), slots, n}; }
    std::set<uint32_t> clusters_listed_by(uint32_t c) const {
        std::set<uint32_t> out;
        for (uint32_t i = c * kClusterSize; i < std::min(n, (c + 1) * kClusterSize); ++i)
            for (uint32_t k = 0; k < count[i]; ++k)
                out.insert(index[list_entry(i, k, n)] / kClusterSize);
        return out;
    }
};

TEST(ClusterPairs, EachNeighbourClusterOnceAndNothingElse) {
    const uint32_t n = 77;  // a last cluster of five
    MadeUpLists lists(n, 3);
    const uint32_t clusters = cluster_count(n), slots = 64;
    EXPECT_EQ(clusters, 10u);
    std::vector<uint32_t> index(std::size_t{clusters} * slots, 0xdeadbeefu), count(clusters);
    const ClusterPairs cp{index.data(), count.data(), slots, clusters};
    for (uint32_t c = 0; c < clusters; ++c) {
        const uint32_t found = build_cluster_pairs_of(c, cp, lists.view(), n);
        const std::set<uint32_t> expected = lists.clusters_listed_by(c);
        ASSERT_EQ(found, expected.size()) << "cluster " << c;
        ASSERT_EQ(count[c], found);
        const std::vector<uint32_t> got(index.begin() + c * slots,
                                        index.begin() + c * slots + found);
        EXPECT_EQ(std::set<uint32_t>(got.begin(), got.end()), expected) << "cluster " << c;
        EXPECT_EQ(got.size(), expected.size()) << "a repeat in cluster " << c;
    }
}

TEST(ClusterPairs, TooManyNeighboursOrAMembersOverflowMarkTheCluster) {
    const uint32_t n = 64;
    MadeUpLists lists(n, 9);
    const uint32_t clusters = cluster_count(n);
    // Two slots: every cluster with more neighbours says so and says how many it found.
    std::vector<uint32_t> index(std::size_t{clusters} * 2), count(clusters);
    const ClusterPairs tight{index.data(), count.data(), 2, clusters};
    int overflowed = 0;
    for (uint32_t c = 0; c < clusters; ++c) {
        const uint32_t found = build_cluster_pairs_of(c, tight, lists.view(), n);
        const std::size_t expected = lists.clusters_listed_by(c).size();
        if (expected > 2) {
            EXPECT_EQ(count[c], kListOverflow);
            EXPECT_GE(found, expected) << "a bound for the growth";
            ++overflowed;
        } else {
            EXPECT_EQ(count[c], found);
        }
    }
    EXPECT_GT(overflowed, 0);
    // A member whose own list overflowed: its cluster reads the particle lists.
    lists.count[13] = kListOverflow;
    std::vector<uint32_t> wide_index(std::size_t{clusters} * 64), wide_count(clusters);
    const ClusterPairs wide{wide_index.data(), wide_count.data(), 64, clusters};
    EXPECT_EQ(build_cluster_pairs_of(1, wide, lists.view(), n), kListOverflow);
    EXPECT_EQ(wide_count[1], kListOverflow);
    EXPECT_NE(build_cluster_pairs_of(2, wide, lists.view(), n), kListOverflow);
}

TEST(ClusterPairs, DemPileMatchesTheGridOverThousandsOfSteps) {
    const Params p = one_step_params(Preset::Classic);
    CpuSimulator clustered, grid;
    clustered.set_options(with_cluster_pairs());
    const auto c = testing::compare_list_with_grid(
        clustered, grid, preset_state(Preset::Classic, 2048, p), p, 3000, 20);
    const NeighbourListStats& s = c.stats;
    std::printf(
        "  %d comparisons, largest differences %.2g (velocity) %.2g (position); %llu builds in "
        "%llu steps; %.1f pair tests a particle\n",
        c.compared, c.velocity, c.position, static_cast<unsigned long long>(s.builds),
        static_cast<unsigned long long>(s.steps),
        double(s.cluster_entries) * kClusterSize * kClusterSize / 2048);
    EXPECT_GT(c.compared, 0);
    EXPECT_LT(c.velocity, kOrderOnly) << "velocities differ beyond summation order";
    EXPECT_LT(c.position, kOrderOnly) << "positions differ beyond summation order";
    EXPECT_TRUE(s.active);
    EXPECT_GT(s.cluster_slots, 0u);
    EXPECT_GT(s.cluster_entries, 0u) << "the pass ran by cluster pairs";
    EXPECT_EQ(s.cluster_overflowed, 0u);
    EXPECT_LT(s.builds, s.steps * 9 / 10) << "the lists were reused";
}

// Particle lists of two slots: every member overflows, every cluster reads the particle lists
// of its members (which scan the grid of the last build), and the physics stays the grid's.
TEST(ClusterPairs, OverflowedClustersReadTheParticleLists) {
    const Params p = one_step_params(Preset::Classic);
    CpuSimulator clustered, grid;
    clustered.set_options(with_cluster_pairs());
    clustered.set_list_slots(2, false);
    const auto c = testing::compare_list_with_grid(
        clustered, grid, preset_state(Preset::Classic, 2000, p), p, 600, 10);
    EXPECT_GT(c.compared, 0);
    EXPECT_LT(c.velocity, kOrderOnly);
    EXPECT_LT(c.position, kOrderOnly);
    EXPECT_GT(c.stats.overflowed, 1000u);
}

// Switched on mid-run with the lists already running: the next step rebuilds with the clusters.
TEST(ClusterPairs, SwitchingOnMidRunBuildsThem) {
    const Params p = one_step_params(Preset::Classic);
    SimulatorOptions lists;
    lists.neighbour_list = kOn;
    CpuSimulator sim;
    sim.set_options(lists);
    sim.reset(preset_state(Preset::Classic, 2000, p), p);
    for (int s = 0; s < 30; ++s) sim.step(p);
    EXPECT_EQ(sim.list_stats().cluster_entries, 0u);
    const uint64_t builds = sim.list_stats().builds;
    SimulatorOptions both = lists;
    both.cluster_pairs = kOn;
    sim.set_options(both);
    sim.step(p);
    EXPECT_EQ(sim.list_stats().builds, builds + 1);
    EXPECT_GT(sim.list_stats().cluster_entries, 0u);
    for (int s = 0; s < 30; ++s) sim.step(p);
    EXPECT_EQ(sim.stats(p).non_finite, 0u);
}

TEST(ClusterPairs, ResolverSaysWhereTheyRun) {
    const DeviceCaps cpu{Backend::Cpu};
    // Asked for: they bring the lists, the gather and no strays.
    SimulatorOptions asked = with_cluster_pairs();
    asked.list_strays = kAuto;
    ResolvedOptions r = resolve_options(asked, Model::Dem, cpu, ContactLaw::Classic);
    EXPECT_EQ(r.effective.cluster_pairs, kOn);
    EXPECT_EQ(r.effective.neighbour_list, kOn);
    EXPECT_EQ(r.effective.scatter_forces, kOff);
    EXPECT_EQ(r.effective.list_strays, 0);
    ASSERT_NE(r.note("list_strays"), nullptr);
    // Auto: off, on both backends.
    for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
        r = resolve_options({}, Model::Dem, DeviceCaps{backend}, ContactLaw::Classic);
        EXPECT_EQ(r.effective.cluster_pairs, kOff);
    }
    // The frictional law, SPH, lists asked off, unsorted memory: not used, and said why.
    r = resolve_options(with_cluster_pairs(), Model::Dem, cpu, ContactLaw::Frictional);
    EXPECT_EQ(r.effective.cluster_pairs, kOff);
    ASSERT_NE(r.note("cluster_pairs"), nullptr);
    EXPECT_NE(r.note("cluster_pairs")->reason.find("frictional"), std::string::npos);
    r = resolve_options(with_cluster_pairs(), Model::Sph, cpu);
    EXPECT_EQ(r.effective.cluster_pairs, kOff);
    EXPECT_NE(r.note("cluster_pairs"), nullptr);
    SimulatorOptions no_lists = with_cluster_pairs();
    no_lists.neighbour_list = kOff;
    r = resolve_options(no_lists, Model::Dem, cpu);
    EXPECT_EQ(r.effective.cluster_pairs, kOff);
    EXPECT_NE(r.note("cluster_pairs")->reason.find("neighbour lists"), std::string::npos);
    SimulatorOptions unsorted = with_cluster_pairs();
    unsorted.sorted_memory = false;
    r = resolve_options(unsorted, Model::Dem, cpu);
    EXPECT_EQ(r.effective.neighbour_list, kOff);
    EXPECT_EQ(r.effective.cluster_pairs, kOff);
    EXPECT_TRUE(r.note("cluster_pairs")->asked);
}

}  // namespace
}  // namespace plab::sim
