// The granular validation cases at reduced size on the CPU backend: the measurements on
// constructed states, and the glass-beads preset's column collapse and lifted cylinder.
// `particle-lab validate column-collapse|angle-of-repose` runs the same cases at any size; what
// they measure against the references is in docs/validation.md. At this size the runout is
// short of Lajeunesse et al.'s law (docs/validation.md), so the runs assert what holds: the
// beads come to rest, stay finite, run out further the taller the column, and pile at an angle.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"
#include "sim/validation/granular_validation.h"

namespace plab::sim {
namespace {

TEST(GranularValidation, LajeunesseRunoutIsLinearBelowThreeAndAPowerAbove) {
    EXPECT_DOUBLE_EQ(lajeunesse_runout(1.0), 1.8);
    EXPECT_DOUBLE_EQ(lajeunesse_runout(2.0), 3.6);
    EXPECT_NEAR(lajeunesse_runout(8.0), 2.3 * 4.0, 1e-12);
    // From a = 3 on the power law (the two fits are 11% apart there).
    EXPECT_NEAR(lajeunesse_runout(3.0), 2.3 * std::pow(3.0, 2.0 / 3.0), 1e-12);
    EXPECT_DOUBLE_EQ(lajeunesse_runout(2.999), 1.8 * 2.999);
}

TEST(GranularValidation, TheFrontEndsWhereTheDepositThinsBelowHalfALayer) {
    const Params p = preset_params(Preset::GlassBeads);
    const float d = 2.f * p.radius;
    const Domain dom{{0.f, 0.f, 0.f}, {40 * d, 10 * d, 4 * d}};
    Snapshot s;
    // A deposit two beads across (half of the four-bead channel) over 10 slices, then one bead
    // per slice (a trail that rolled off ahead), then a lone bead far away.
    for (int k = 0; k < 10; ++k)
        for (int j = 0; j < 2; ++j) s.pos.push_back({(k + 0.5f) * d, 0.5f * d, (j + 0.5f) * d, 0});
    for (int k = 10; k < 14; ++k) s.pos.push_back({(k + 0.5f) * d, 0.5f * d, 0.5f * d, 0});
    s.pos.push_back({30.5f * d, 0.5f * d, 0.5f * d, 0});
    EXPECT_NEAR(deposit_front(s, p, dom), 10 * d, 1e-6);
}

TEST(GranularValidation, TheFlankFitRecoversAConesAngle) {
    // A cone of 30° with a rounded top and a thin toe that the fit leaves out.
    PileProfile prof;
    const double slope = std::tan(30.0 * M_PI / 180.0);
    for (int k = 0; k < 40; ++k) {
        const double r = 0.01 * (k + 0.5);
        prof.r.push_back(r);
        prof.h.push_back(std::max(0.0, std::min(0.15, 0.2 - slope * r)));
    }
    const FlankFit f = fit_flank(prof, 0.2, 0.8);
    EXPECT_NEAR(f.angle_deg, 30.0, 1e-6);
    EXPECT_NEAR(f.top, 0.15, 1e-12);
    EXPECT_GE(f.rings, 10);
}

TEST(GranularValidation, TallerColumnsRunOutFurther) {
    double last = -1;
    for (double a : {0.5, 2.0, 5.0}) {
        const GranularCase c = column_collapse_case(a, 4, 3);
        CpuSimulator sim;
        const CollapseResult r = run_column_collapse(sim, c, 6.0);
        EXPECT_EQ(r.non_finite, 0u) << "a " << a;
        EXPECT_TRUE(r.came_to_rest) << "a " << a;
        // Settling packs the loose start: the column sinks by less than a quarter.
        EXPECT_GT(r.a, 0.7 * a);
        EXPECT_LE(r.a, a * 1.01);
        EXPECT_GT(r.runout, 0.0) << "a " << a;
        EXPECT_GT(r.runout, last) << "a " << a;
        last = r.runout;
    }
}

TEST(GranularValidation, SandLikeGrainsPileHigherThanGlassBeadsOnARoughFloor) {
    PileResult pile[2];
    std::size_t glued[2] = {0, 0};
    const Preset presets[2] = {Preset::GlassBeads, Preset::Sand};
    for (int k = 0; k < 2; ++k) {
        const GranularCase c = lifted_cylinder_case(6, 1.0, presets[k]);
        glued[k] = c.floor.size();
        CpuSimulator sim;
        pile[k] = run_lifted_cylinder(sim, c, 6.0);
        EXPECT_EQ(pile[k].non_finite, 0u) << k;
        EXPECT_TRUE(pile[k].came_to_rest) << k;
        // The rough floor covers the whole floor, one bead per diameter squared.
        const double side = c.init.domain.max.x - c.init.domain.min.x;
        const double d = 2 * c.params.radius;
        EXPECT_NEAR(double(glued[k]), (side / d) * (side / d), 2 * side / d + 1) << k;
    }
    // More friction and rolling resistance hold the sand-like grains in a higher pile. At six
    // beads in radius the flank spans three to five rings, so its angle scatters by several
    // degrees from run to run (docs/validation.md); the height does not.
    const float d = 2 * preset_params(Preset::Sand).radius;
    EXPECT_GT(pile[1].fit.top, 3 * d);
    EXPECT_GE(pile[1].fit.rings, 3);
    for (int k = 0; k < 2; ++k) {
        EXPECT_GT(pile[k].fit.angle_deg, 5.0) << k;
        EXPECT_LT(pile[k].fit.angle_deg, 45.0) << k;
    }
    EXPECT_GT(pile[1].fit.top, pile[0].fit.top);
}

TEST(GranularValidation, TheRoughFloorIsNoLatticeToCrystalliseOn) {
    // On an exact square layer a poured pile of equal beads grew as a crystal (heights in steps
    // of 0.71 d, flat terraces); each glued bead is therefore moved off its site, by up to
    // 0.3 d in x and z, and stays on the floor inside the domain.
    const GranularCase c = lifted_cylinder_case(4, 1.0);
    const Params& p = c.params;
    const Domain& dom = c.init.domain;
    const double d = 2 * p.radius;
    ASSERT_FALSE(c.floor.empty());
    double sum2 = 0;
    for (const Float4& q : c.floor) {
        ASSERT_EQ(q.y, p.radius);
        ASSERT_GE(q.x, dom.min.x + p.radius);
        ASSERT_LE(q.x, dom.max.x - p.radius);
        ASSERT_GE(q.z, dom.min.z + p.radius);
        ASSERT_LE(q.z, dom.max.z - p.radius);
        // Offsets from the nearest lattice site (sites at min + (k + 1/2) d).
        const double ox = std::remainder(q.x - dom.min.x - 0.5 * d, d);
        const double oz = std::remainder(q.z - dom.min.z - 0.5 * d, d);
        ASSERT_LE(std::abs(ox), 0.3 * d + 1e-6);
        ASSERT_LE(std::abs(oz), 0.3 * d + 1e-6);
        sum2 += ox * ox + oz * oz;
    }
    // Uniform offsets in ±0.3 d have an RMS of 0.17 d an axis.
    const double rms = std::sqrt(sum2 / (2.0 * double(c.floor.size())));
    EXPECT_NEAR(rms, 0.3 * d / std::sqrt(3.0), 0.02 * d);
    // Another seed, another floor of as many beads (another pile of the same case); the same
    // seed, the same floor.
    const GranularCase other = lifted_cylinder_case(4, 1.0, Preset::GlassBeads, true, 1);
    const GranularCase again = lifted_cylinder_case(4, 1.0);
    ASSERT_EQ(other.floor.size(), c.floor.size());
    std::size_t moved = 0;
    for (std::size_t k = 0; k < c.floor.size(); ++k) {
        moved += other.floor[k].x != c.floor[k].x ? 1 : 0;
        ASSERT_EQ(again.floor[k].x, c.floor[k].x);
        ASSERT_EQ(again.floor[k].z, c.floor[k].z);
    }
    EXPECT_GT(moved, c.floor.size() / 2);
}

TEST(GranularValidation, APouredPileGrowsGrainByGrainOnTheRoughFloor) {
    const GranularCase c = lifted_cylinder_case(3, 1.0, Preset::Sand);
    CpuSimulator sim;
    const PileResult pile = run_poured_pile(sim, c, 3.0);
    const std::size_t target = std::lround(M_PI / 4.0 * double(c.init.pos.size()));
    EXPECT_EQ(pile.particles, target);
    EXPECT_EQ(pile.non_finite, 0u);
    EXPECT_TRUE(pile.came_to_rest);
    // Every poured bead is in the state, the glued floor where it was.
    const Snapshot s = sim.download();
    ASSERT_EQ(s.pos.size(), c.floor.size() + target);
    for (std::size_t k = 0; k < c.floor.size(); ++k) {
        ASSERT_EQ(s.pos[k].x, c.floor[k].x) << k;
        ASSERT_EQ(s.pos[k].y, c.floor[k].y) << k;
    }
    // They piled up over the axis rather than spreading in one layer (a bead in a hollow of
    // the glued layer tops out 0.71 d above it, one on a second layer about 1.5 d).
    EXPECT_GT(pile.fit.top, 1.4 * 2 * c.params.radius);
}

TEST(GranularValidation, TheHeapIsTheReferencesPilingBoxScaledByItsDepth) {
    // At 18 beads deep the reference's own box: a slot 13 d wide 56 d above the floor, a
    // channel 177 d wide, 49,000 beads, the floor lined with one glued bead per d².
    const GranularCase c = heap_case(18);
    const Params& p = c.params;
    const double d = 2 * p.radius;
    const Domain& dom = c.init.domain;
    EXPECT_EQ(c.beads, 49000u);
    EXPECT_NEAR(c.width, 18 * d, 1e-9);
    EXPECT_NEAR(c.l0, 13 * d, 1e-9);
    EXPECT_NEAR(c.h0, 56 * d, 1e-9);
    EXPECT_NEAR(dom.max.x - dom.min.x, 177 * d, 1e-5);
    EXPECT_NEAR(dom.max.z - dom.min.z, 18 * d, 1e-5);
    EXPECT_GT(dom.max.y, d + c.h0 + 4 * 1.1 * d);  // room for a block above the slot
    EXPECT_EQ(c.floor.size(), 177u * 18u);
    EXPECT_TRUE(c.init.pos.empty());
    // The reference's coefficients, the plates included.
    EXPECT_EQ(p.friction, kReposeReference.friction);
    EXPECT_EQ(p.wall_friction, kReposeReference.wall_friction);
    EXPECT_EQ(p.rolling_friction, kReposeReference.rolling_friction);
    // Half as deep: every length halves and the count goes as the cube.
    const GranularCase half = heap_case(9);
    EXPECT_EQ(half.beads, 6125u);
    EXPECT_NEAR(half.l0, 6.5 * d, 1e-9);
    EXPECT_THROW(heap_case(2), Error);
    EXPECT_THROW(heap_case(12, Preset::Water), Error);
}

TEST(GranularValidation, TheHeapProfileFitsEachFlankAsSeenThroughTheFrontWall) {
    // A heap with a 20° left flank and a 30° right one, beads at every depth across the
    // channel (only the highest of a column counts), on a glued floor the profile leaves out.
    const GranularCase c = heap_case(6);
    const Params& p = c.params;
    const double d = 2 * p.radius;
    const Domain& dom = c.init.domain;
    Snapshot s;
    s.pos = c.floor;
    const double top = 14 * d, base = 2 * p.radius;
    for (double x = dom.min.x + p.radius; x < dom.max.x; x += 0.25 * d) {
        const double slope = std::tan((x < 0 ? 20.0 : 30.0) * M_PI / 180.0);
        const double h = std::min(0.8 * top, top - slope * std::abs(x));
        if (h <= 0) continue;
        for (double z = dom.min.z + p.radius; z < dom.max.z; z += d)
            s.pos.push_back({float(x), float(base + h - p.radius), float(z), 0.f});
    }
    const HeapProfile prof = heap_profile(s, p, dom);
    const FlankFit left = fit_flank(prof.left, 0.2, 0.8), right = fit_flank(prof.right, 0.2, 0.8);
    // Each column's height is its highest bead, 0.25 d apart in x: within a degree.
    EXPECT_NEAR(left.angle_deg, 20.0, 1.0);
    EXPECT_NEAR(right.angle_deg, 30.0, 1.0);
    EXPECT_GE(left.rings, 5);
    EXPECT_GE(right.rings, 5);
    EXPECT_NEAR(left.top, 0.8 * top, 0.05 * d);
}

TEST(GranularValidation, AHeapIsPouredThroughTheSlotIntoTheChannel) {
    const GranularCase c = heap_case(3);
    CpuSimulator sim;
    const HeapResult heap = run_poured_heap(sim, c, 3.0);
    EXPECT_EQ(heap.particles, c.beads);
    EXPECT_EQ(heap.non_finite, 0u);
    const Snapshot s = sim.download();
    ASSERT_EQ(s.pos.size(), c.floor.size() + c.beads);
    const Domain& dom = c.init.domain;
    for (const Float4& q : s.pos) {
        ASSERT_GE(q.z, dom.min.z) << "through the back wall";
        ASSERT_LE(q.z, dom.max.z) << "through the front wall";
    }
    // It heaped up under the slot with a flank on either side.
    EXPECT_GT(std::max(heap.left.top, heap.right.top), 3 * 2 * c.params.radius);
    EXPECT_GE(heap.left.rings, 2);
    EXPECT_GE(heap.right.rings, 2);
    EXPECT_GT(heap.left.angle_deg, 0.0);
    EXPECT_GT(heap.right.angle_deg, 0.0);
    EXPECT_NEAR(heap.angle_deg, 0.5 * (heap.left.angle_deg + heap.right.angle_deg), 1e-9);
    // The angle from the last batch on: right after it, every 0.5 s, and where the run ended.
    ASSERT_GE(heap.relaxation.size(), 2u);
    EXPECT_EQ(heap.relaxation.front().t, 0.0);
    for (std::size_t k = 1; k < heap.relaxation.size(); ++k)
        EXPECT_GT(heap.relaxation[k].t, heap.relaxation[k - 1].t);
    EXPECT_NEAR(heap.relaxation.back().t, heap.t_stop, 1e-6);
    EXPECT_EQ(heap.relaxation.back().angle_deg, heap.angle_deg);
}

TEST(GranularValidation, OnlyFrictionalPresetsMakeCases) {
    EXPECT_THROW(lifted_cylinder_case(6, 1.0, Preset::Granular), Error);
    EXPECT_THROW(column_collapse_case(1.0, 4, 3, Preset::Water), Error);
}

}  // namespace
}  // namespace plab::sim
