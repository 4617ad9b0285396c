// Neighbour lists with a skin on the CPU backend: the same contacts and forces as the grid
// built every step, over thousands of steps of a settling pile and a dam break, with particles
// fast enough to force a build every step, and with lists too short for their particles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "sim/cpu/cpu_simulator.h"
#include "sim/friction_list_compare.h"
#include "sim/friction_scene.h"
#include "sim/list_compare.h"
#include "sim/model/presets.h"
#include "sim/model/variants.h"
#include "sim/physics/list_strays.h"
#include "sim/physics/neighbour_list.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

using testing::kOrderOnly;
using testing::kSphDensity;
using testing::kSphOrderOnly;
using testing::one_step_params;
using testing::preset_state;

SimulatorOptions with_lists() {
    SimulatorOptions o;
    o.neighbour_list = true;
    return o;
}

void expect_same_physics(const testing::ListComparison& c, Model model = Model::Dem) {
    std::printf(
        "  %d comparisons, largest differences %.2g (velocity) %.2g (position); %llu "
        "builds in %llu steps\n",
        c.compared, c.velocity, c.position, static_cast<unsigned long long>(c.stats.builds),
        static_cast<unsigned long long>(c.stats.steps));
    EXPECT_GT(c.compared, 0);
    const double tol = model == Model::Sph ? kSphOrderOnly : kOrderOnly;
    EXPECT_LT(c.velocity, tol) << "velocities differ beyond summation order";
    EXPECT_LT(c.position, tol) << "positions differ beyond summation order";
    EXPECT_LT(c.density, kSphDensity) << "densities differ beyond summation order";
}

// The index in groups of four: each particle's entries 4g … 4g + 3 side by side, every entry
// of every particle in its own place inside n × list_stored_slots entries, slots that are not
// a multiple of four stored as whole groups.
TEST(NeighbourList, EntriesLieInGroupsOfFourInsideTheStoredSlots) {
    EXPECT_EQ(list_stored_slots(2), 4u);
    EXPECT_EQ(list_stored_slots(8), 8u);
    EXPECT_EQ(list_stored_slots(9), 12u);
    const uint32_t n = 5, slots = 10, stored = list_stored_slots(slots);
    std::vector<int> used(std::size_t{n} * stored, 0);
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t k = 0; k < stored; ++k) {
            const std::size_t at = list_entry(i, k, n);
            ASSERT_LT(at, used.size());
            ++used[at];
            if (k % kListGroup != 0) {
                EXPECT_EQ(at, list_entry(i, k - 1, n) + 1);
            }
        }
    EXPECT_TRUE(std::all_of(used.begin(), used.end(), [](int u) { return u == 1; }));
    // A warp's g-th groups follow one another: particle i + 1's group right after i's.
    EXPECT_EQ(list_entry(1, 4, n), list_entry(0, 4, n) + kListGroup);
}

TEST(NeighbourList, DemPileMatchesTheGridOverThousandsOfSteps) {
    const Params p = one_step_params(Preset::Classic);
    CpuSimulator listed, grid;
    listed.set_options(with_lists());
    const auto c = testing::compare_list_with_grid(
        listed, grid, preset_state(Preset::Classic, 2048, p), p, 3000, 20);
    expect_same_physics(c, p.model);
    EXPECT_TRUE(c.stats.active);
    EXPECT_EQ(c.stats.steps, 3000u);
    // The lists were reused: the pile settles and most steps do not rebuild.
    EXPECT_LT(c.stats.builds, c.stats.steps * 9 / 10) << c.stats.builds << " builds";
    EXPECT_GT(c.stats.builds, 1u);
    EXPECT_EQ(c.stats.overflowed, 0u);
}

// Every particle in contact from the first step: a lattice packed tighter than touching,
// jiggling, with a wide skin.
TEST(NeighbourList, PackedClusterMatchesTheGrid) {
    Params p = one_step_params(Preset::Classic);
    p.gravity_y = 0.f;
    p.collider_radius = 0.f;
    p.skin = 0.3f;
    Scene scene;
    scene.domain = {{-1, -1, -1}, {1, 1, 1}};
    scene.blocks.push_back({BlockShape::Box,
                            {-0.2f, -0.2f, -0.2f},
                            {0.2f, 0.2f, 0.2f},
                            1.9f * p.radius,
                            0.2f * p.radius,
                            {}});
    InitialState init = build_initial_state(scene, p, scene_capacity(scene));
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-0.01f * p.radius, 0.01f * p.radius);
    for (auto& v : init.vel) v = {u(rng), u(rng), u(rng), 0.f};
    CpuSimulator listed, grid;
    listed.set_options(with_lists());
    const auto c = testing::compare_list_with_grid(listed, grid, init, p, 1000, 10);
    expect_same_physics(c, p.model);
    EXPECT_GT(c.largest_kick, 1e-3 * p.radius) << "no contact force to compare";
    EXPECT_LT(c.stats.builds, c.stats.steps);
}

TEST(NeighbourList, DamBreakMatchesTheGridOverThousandsOfSteps) {
    const Params p = one_step_params(Preset::Water);
    CpuSimulator listed, grid;
    listed.set_options(with_lists());
    const auto c = testing::compare_list_with_grid(
        listed, grid, preset_state(Preset::Water, 2000, p), p, 2000, 20);
    expect_same_physics(c, p.model);
    EXPECT_LT(c.stats.builds, c.stats.steps);
    EXPECT_EQ(c.stats.overflowed, 0u);
}

// A hot gas in free space: every step some particle moves more than half the skin.
TEST(NeighbourList, FastParticlesRebuildEveryStep) {
    Params p = one_step_params(Preset::Classic);
    p.gravity_y = 0.f;
    p.collider_radius = 0.f;
    p.skin = 0.05f;
    InitialState init = preset_state(Preset::Classic, 2000, p);
    std::mt19937 rng(3);
    // 0.5 diameters a step at dt = 0.5: far past skin / 2 = 0.025 diameters.
    std::uniform_real_distribution<float> u(-2.f * p.radius, 2.f * p.radius);
    for (auto& v : init.vel) v = {u(rng), u(rng), u(rng), 0.f};
    CpuSimulator listed, grid;
    listed.set_options(with_lists());
    const auto c = testing::compare_list_with_grid(listed, grid, init, p, 300, 5);
    expect_same_physics(c, p.model);
    EXPECT_EQ(c.stats.builds, c.stats.steps);
    // Why: every step's check after the first finds particles past half the skin.
    EXPECT_GE(c.stats.moved, c.stats.steps);
}

// Up to the stray limit the step repairs the fast particles instead of rebuilding, with the
// grid's physics.
Params cluster_params() {
    Params p = one_step_params(Preset::Classic);
    p.gravity_y = 0.f;
    p.collider_radius = 0.f;
    return p;
}

TEST(NeighbourList, AFewStraysAreRepairedInsteadOfRebuilding) {
    const Params p = cluster_params();
    const InitialState init = testing::lattice_with_fast_particles(p, 0.2f, 6, 7);
    SimulatorOptions repair = with_lists(), rebuild = with_lists();
    repair.list_strays = 256;
    rebuild.list_strays = 0;
    CpuSimulator listed, plain, grid;
    listed.set_options(repair);
    plain.set_options(rebuild);
    const auto c = testing::compare_list_with_grid(listed, grid, init, p, 200, 2);
    expect_same_physics(c, p.model);
    EXPECT_GT(c.largest_kick, 0.1 * p.radius) << "the fast particles hit nothing";
    const auto r = testing::compare_list_with_grid(plain, grid, init, p, 200, 50);
    std::printf(
        "  repaired: %llu builds, %llu strays, %llu particles redone; rebuilt at the "
        "first: %llu builds\n",
        static_cast<unsigned long long>(c.stats.builds),
        static_cast<unsigned long long>(c.stats.strays),
        static_cast<unsigned long long>(c.stats.repaired),
        static_cast<unsigned long long>(r.stats.builds));
    EXPECT_GT(c.stats.strays, 0u);
    EXPECT_EQ(c.stats.moved, c.stats.strays) << "every particle past half the skin a stray";
    EXPECT_GT(c.stats.repaired, c.stats.strays) << "no unlisted neighbour was repaired";
    EXPECT_LT(c.stats.builds * 2, r.stats.builds);
    EXPECT_EQ(r.stats.strays, 0u);
}

// The limit counts: more strays than it allows start a build, as without the repair.
TEST(NeighbourList, MoreStraysThanTheLimitRebuild) {
    const Params p = cluster_params();
    const InitialState init = testing::lattice_with_fast_particles(p, 0.2f, 40, 9);
    SimulatorOptions o = with_lists();
    o.list_strays = 16;
    CpuSimulator listed, grid;
    listed.set_options(o);
    const auto c = testing::compare_list_with_grid(listed, grid, init, p, 20, 1);
    expect_same_physics(c, p.model);
    EXPECT_GE(c.stats.builds, 2u);
    EXPECT_EQ(stray_limit(16, 1000, p), 16u);
    EXPECT_EQ(stray_limit(-1, 1000, p), 32u);
    EXPECT_EQ(stray_limit(-1, 1 << 20, p), 1024u);
    EXPECT_EQ(stray_limit(-1, 100'000'000, p), 1024u);
    Params friction = p;
    friction.contact = int(ContactLaw::Frictional);
    EXPECT_EQ(stray_limit(64, 1000, friction), 64u) << "the frictional law keeps them too";
    EXPECT_EQ(stray_limit(64, 1000, one_step_params(Preset::Water)), 0u);
}

// The frictional law keeps the lists with strays too, finding their contacts in its own pass
// (for_each_candidate_with_strays): a sand block resting on the floor with a few of its top
// beads thrown up and sideways. From the listed run's whole state a grid step gives the same
// forces, rotations and contacts, summed in another order.
TEST(NeighbourList, FrictionalStraysFindEveryContactInThePass) {
    const Params p = one_step_params(Preset::Sand);
    const std::size_t n = 600;
    const InitialState init = testing::block_with_thrown_beads(p, n, 8);
    SimulatorOptions o = with_lists();
    o.list_strays = 64;
    CpuSimulator listed, grid;
    listed.set_options(o);
    const auto c = testing::compare_frictional_list_with_grid(listed, grid, init, p, 400, 4);
    testing::expect_strays_found_every_contact(c, 100, n, kOrderOnly);
}

// Two slots a particle: nearly every particle overflows and scans the grid of the last build
// from where it was then, on the steps between builds too.
TEST(NeighbourList, OverflowedParticlesScanTheGridOfTheLastBuild) {
    for (Preset preset : {Preset::Classic, Preset::Water}) {
        const Params p = one_step_params(preset);
        CpuSimulator listed, grid;
        listed.set_options(with_lists());
        listed.set_list_slots(2, false);
        const auto c = testing::compare_list_with_grid(listed, grid, preset_state(preset, 2000, p),
                                                       p, 600, 10);
        SCOPED_TRACE(std::string(preset_name(preset)));
        expect_same_physics(c, p.model);
        EXPECT_GT(c.stats.overflowed, 1000u);
        EXPECT_LT(c.stats.builds, c.stats.steps);
        EXPECT_EQ(c.stats.slots, 2u);
    }
}

TEST(NeighbourList, AnOverflowGrowsTheSlotsForTheNextBuild) {
    const Params p = one_step_params(Preset::Water);
    CpuSimulator listed;
    listed.set_options(with_lists());
    listed.set_list_slots(4);
    listed.reset(preset_state(Preset::Water, 3000, p), p);
    listed.step(p);
    const NeighbourListStats first = listed.list_stats();
    EXPECT_GT(first.overflowed, 0u);
    listed.step(p);  // grows and builds again
    const NeighbourListStats second = listed.list_stats();
    EXPECT_GT(second.slots, 4u);
    EXPECT_EQ(second.builds, 2u);
    for (int s = 0; s < 20; ++s) listed.step(p);
    EXPECT_EQ(listed.list_stats().overflowed, first.overflowed) << "no overflow after growing";
}

// Off and on again mid-run: the state was sorted without the lists meanwhile, so the first
// listed step rebuilds.
TEST(NeighbourList, SwitchingOffAndOnRebuilds) {
    const Params p = one_step_params(Preset::Classic);
    CpuSimulator listed, grid;
    listed.set_options(with_lists());
    const InitialState init = preset_state(Preset::Classic, 2000, p);
    testing::compare_list_with_grid(listed, grid, init, p, 300, 50);
    const uint64_t builds = listed.list_stats().builds;
    listed.set_options({});
    for (int s = 0; s < 5; ++s) listed.step(p);
    EXPECT_FALSE(listed.list_stats().active);
    listed.set_options(with_lists());
    listed.step(p);
    EXPECT_EQ(listed.list_stats().builds, builds + 1);
    // And matches the grid from there.
    const Snapshot now = listed.download();
    grid.reset({init.domain, init.grid, now.pos, now.vel}, p);
    for (int s = 0; s < 20; ++s) {
        listed.step(p);
        grid.step(p);
    }
    EXPECT_LT(test::max_position_distance(listed.download(), grid.download()), 1e-4 * p.radius);
}

TEST(NeighbourList, GeometryCoversRangePlusSkin) {
    Params p = one_step_params(Preset::Classic);
    p.skin = 0.2f;
    const ListGeometry g = list_geometry(p);
    const float range = interaction_range(p);
    EXPECT_FLOAT_EQ(g.cutoff2, 1.44f * range * range);
    EXPECT_LT(g.rebuild_dist2, 0.01f * range * range);
    EXPECT_GT(g.rebuild_dist2, 0.0099f * range * range);
    const InitialState init = preset_state(Preset::Classic, 1000, p);
    const GridSpec lg = list_grid(init.domain, init.grid, p);
    EXPECT_GE(lg.cell_size * lg.reach, 1.2f * range * 0.9999f);
    EXPECT_EQ(lg.reach, init.grid.reach);
    Params w = one_step_params(Preset::Water);
    const InitialState wi = preset_state(Preset::Water, 1000, w);
    EXPECT_EQ(list_grid(wi.domain, wi.grid, w).reach, 2);
    EXPECT_GE(initial_list_slots(w), 64u);
    EXPECT_EQ(initial_list_slots(p) % 8, 0u);
    EXPECT_EQ(grown_list_slots(100), 128u);
}

TEST(NeighbourList, ResolverSaysWhatItCannotRunWith) {
    const DeviceCaps cpu{Backend::Cpu};
    SimulatorOptions o = with_lists();
    EXPECT_TRUE(resolve_options(o, Model::Dem, cpu).effective.neighbour_list);
    EXPECT_TRUE(resolve_options(o, Model::Sph, cpu).effective.neighbour_list);
    for (auto set : {+[](SimulatorOptions& x) { x.scatter_forces = true; },
                     +[](SimulatorOptions& x) { x.sorted_memory = false; },
                     +[](SimulatorOptions& x) { x.double_state = true; }}) {
        SimulatorOptions q = o;
        set(q);
        const ResolvedOptions r = resolve_options(q, Model::Dem, cpu);
        EXPECT_FALSE(r.effective.neighbour_list);
        ASSERT_NE(r.note("neighbour_list"), nullptr);
        EXPECT_NE(r.note("neighbour_list")->reason.find("sorted memory"), std::string::npos);
    }
    DeviceCaps cuda{Backend::Cuda};
    SimulatorOptions q = o;
    q.persistent_kernel = true;
    const ResolvedOptions r = resolve_options(q, Model::Dem, cuda);
    EXPECT_TRUE(r.effective.persistent_kernel);
    EXPECT_FALSE(r.effective.neighbour_list);
    // Strays: only with the lists, and on CUDA not in deterministic mode (found in any order).
    SimulatorOptions strays;
    strays.list_strays = 64;
    const ResolvedOptions no_lists = resolve_options(strays, Model::Dem, cpu);
    EXPECT_EQ(no_lists.effective.list_strays, SimulatorOptions{}.list_strays);
    ASSERT_NE(no_lists.note("list_strays"), nullptr);
    SimulatorOptions det = o;
    det.deterministic = true;
    det.list_strays = 64;
    EXPECT_EQ(resolve_options(det, Model::Dem, cpu).effective.list_strays, 64);
    const ResolvedOptions on_cuda = resolve_options(det, Model::Dem, cuda);
    EXPECT_EQ(on_cuda.effective.list_strays, 0);
    ASSERT_NE(on_cuda.note("list_strays"), nullptr);
    EXPECT_NE(on_cuda.note("list_strays")->reason.find("deterministic"), std::string::npos);
}

}  // namespace
}  // namespace plab::sim
