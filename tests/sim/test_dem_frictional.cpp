// Whole DEM steps with the frictional contact law on the CPU backend: a dropped block comes to
// rest where the classic law's keeps flowing, momentum is conserved in free space, and the
// neighbour lists give the grid's trajectory.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <random>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"
#include "sim/model/run_checks.h"
#include "sim/model/scene.h"
#include "sim/physics/friction_record.h"
#include "sim/test_helpers.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

struct PileResult {
    SimStats stats;
    float height = 0;  // m, the 95th percentile of the particles' heights
};

PileResult pour(ContactLaw law, int steps) {
    Params p = preset_params(Preset::Granular);
    p.contact = static_cast<int>(law);
    p.substeps = 1;  // one step per call (the preset takes 20 a frame)
    const std::size_t n = 500;
    const Scene scene = preset_scene(Preset::Granular, n, p);
    CpuSimulator sim;
    sim.reset(build_initial_state(scene, p, n), p);
    for (int i = 0; i < steps; ++i) sim.step(p);
    PileResult r;
    r.stats = sim.stats(p);
    const Snapshot s = sim.download();
    std::vector<float> y;
    for (const Float4& q : s.pos) y.push_back(q.y);
    std::sort(y.begin(), y.end());
    r.height = y[y.size() * 95 / 100];
    return r;
}

TEST(DemFrictional, ADroppedBlockComesToRestWhereTheClassicOneKeepsFlowing) {
    // The granular preset's block falls onto the floor and spreads (dt = t_c / 20: 40,000
    // steps are 2.3 s, the fall taking 0.1 s).
    const PileResult frictional = pour(ContactLaw::Frictional, 40000);
    const PileResult classic = pour(ContactLaw::Classic, 40000);
    EXPECT_EQ(frictional.stats.non_finite, 0u);
    EXPECT_EQ(classic.stats.non_finite, 0u);
    // Friction stops the pile; viscous shear has no static friction, so it keeps flowing.
    EXPECT_LT(frictional.stats.max_speed, 0.02f);
    EXPECT_GT(classic.stats.max_speed, 5.f * frictional.stats.max_speed);
    // Both spread to the walls of the preset's box (twice the block's width): the pile's shape
    // is the validation cases' business, not this test's.
    EXPECT_GT(frictional.height, 2.f * preset_params(Preset::Granular).radius);
}

TEST(DemFrictional, FreeSpaceCollisionsConserveMomentum) {
    Params p = preset_params(Preset::Granular);
    p.contact = static_cast<int>(ContactLaw::Frictional);
    p.gravity_x = p.gravity_y = p.gravity_z = 0.f;
    p.collider_radius = 0.f;
    p.global_damping = 1.f;
    p.substeps = 1;
    Scene scene;
    const float r = p.radius;
    scene.domain = {{-0.2f, -0.2f, -0.2f}, {0.2f, 0.2f, 0.2f}};  // m: no wall is reached
    scene.blocks.push_back(
        {BlockShape::Box, {-10 * r, -10 * r, -10 * r}, {10 * r, 10 * r, 10 * r}, 2.2f * r, 0, {}});
    InitialState init = build_initial_state(scene, p, scene_capacity(scene));
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-0.05f, 0.05f);  // m/s: collisions, no wall reached
    for (auto& v : init.vel) v = {u(rng), u(rng), u(rng), 0.f};
    auto momentum = [&](const Snapshot& s) {
        double m[3] = {0, 0, 0}, sum = 0;
        for (const Float4& v : s.vel) {
            m[0] += v.x;
            m[1] += v.y;
            m[2] += v.z;
            sum += std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
        }
        return std::array<double, 4>{m[0], m[1], m[2], sum};
    };
    CpuSimulator sim;
    sim.reset(init, p);
    const auto before = momentum(sim.download());
    for (int i = 0; i < 2000; ++i) sim.step(p);
    const Snapshot s = sim.download();
    for (const Float4& q : s.pos)
        ASSERT_LT(std::max({std::abs(q.x), std::abs(q.y), std::abs(q.z)}), 0.2f - r);
    const auto after = momentum(s);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(after[k], before[k], 1e-5 * before[3]) << k;
}

// The x acceleration (m/s²) of one bead set on the floor under gravity tilted `degrees` along x
// (the floor is then a slope), over 0.2 s.
double slope_acceleration(float friction, float wall_friction, double degrees) {
    Params p = preset_params(Preset::GlassBeads);
    p.friction = friction;
    p.wall_friction = wall_friction;
    p.rolling_friction = 0.f;
    const double g = 9.81, th = degrees * M_PI / 180.0;
    p.gravity_x = static_cast<float>(g * std::sin(th));
    p.gravity_y = static_cast<float>(-g * std::cos(th));
    p.gravity_z = 0.f;
    p.substeps = 1;
    const float r = p.radius;
    const Domain d{{-1.f, 0.f, -0.1f}, {1.f, 0.2f, 0.1f}};
    CpuSimulator sim;
    sim.reset(testing::state_from_positions({{-0.9f, r, 0.f}}, d, r), p);
    const int steps = static_cast<int>(std::lround(0.2 / p.dt));
    for (int i = 0; i < steps; ++i) sim.step(p);
    return sim.download().vel[0].x / (steps * double(p.dt));
}

TEST(DemFrictional, TheFloorSlidesWithTheWallsFrictionNotTheBeads) {
    // 20°: a sphere rolls without slipping when μ ≥ (2/7) tan θ = 0.104, at (5/7) g sin θ;
    // below that it slides at g (sin θ − μ cos θ).
    const double g = 9.81, th = 20.0 * M_PI / 180.0;
    const double slides = slope_acceleration(0.9f, 0.05f, 20.0);
    EXPECT_NEAR(slides, g * (std::sin(th) - 0.05 * std::cos(th)), 0.03 * g * std::sin(th));
    const double rolls = slope_acceleration(0.05f, 0.4f, 20.0);
    EXPECT_NEAR(rolls, 5.0 / 7.0 * g * std::sin(th), 0.03 * g * std::sin(th));
}

TEST(DemFrictional, GluedBeadsStayPutAndHoldWhatFallsOnThem) {
    Params p = preset_params(Preset::GlassBeads);
    p.substeps = 1;
    const float r = p.radius, d = 2 * r;
    p.glued_below = 1.5f * r;
    // A 3x3 glued layer on the floor and a bead dropped onto its middle hollow, off centre.
    std::vector<Vec3> pos;
    for (int ix = 0; ix < 3; ++ix)
        for (int iz = 0; iz < 3; ++iz) pos.push_back({(ix + 1) * d, r, (iz + 1) * d});
    pos.push_back({1.5f * d + 0.1f * r, 4 * d, 1.5f * d});
    const Domain dom{{0, 0, 0}, {4 * d, 6 * d, 4 * d}};
    CpuSimulator sim;
    sim.reset(testing::state_from_positions(pos, dom, r), p);
    const int steps = static_cast<int>(std::lround(1.0 / p.dt));  // 1 s
    for (int i = 0; i < steps; ++i) sim.step(p);
    const Snapshot s = sim.download();
    for (std::size_t k = 0; k < 9; ++k) {
        EXPECT_EQ(s.pos[k].x, pos[k].x) << k;
        EXPECT_EQ(s.pos[k].y, pos[k].y) << k;
        EXPECT_EQ(s.pos[k].z, pos[k].z) << k;
        EXPECT_EQ(s.vel[k].y, 0.f) << k;
    }
    // The dropped bead came to rest in a hollow of the layer (0.71 d above its centres), not on
    // the floor.
    EXPECT_NEAR(s.pos[9].y, r + 0.7071f * d, 0.02f * d);
    EXPECT_LT(std::abs(s.vel[9].y), 1e-3f);
    // Only the frictional law glues.
    Params classic = p;
    classic.contact = static_cast<int>(ContactLaw::Classic);
    EXPECT_THROW(require_plate_support(classic), Error);
    EXPECT_NO_THROW(require_plate_support(p));
}

TEST(DemFrictional, NeighbourListsGiveTheGridsTrajectory) {
    Params p = preset_params(Preset::Granular);
    p.contact = static_cast<int>(ContactLaw::Frictional);
    const std::size_t n = 800;
    const InitialState init = build_initial_state(preset_scene(Preset::Granular, n, p), p, n);
    CpuSimulator grid, listed;
    SimulatorOptions with_lists;
    with_lists.neighbour_list = true;
    listed.set_options(with_lists);
    grid.reset(init, p);
    listed.reset(init, p);
    // 200 steps: the block has just hit the floor. Later the impact's chaos amplifies the
    // different summation order (as it does for the classic law: both reach a centimetre
    // apart within 500 steps); with the rolling springs it grows about 2.4-fold every 10 steps
    // from the first touch (step 170: 1e-4 radii, 200: 0.02, 250: 0.13).
    for (int i = 0; i < 200; ++i) {
        grid.step(p);
        listed.step(p);
    }
    ASSERT_TRUE(listed.list_stats().active);
    // The same contacts in another order: the sums differ in their last bits only.
    EXPECT_LT(test::max_position_axis_difference(grid.download(), listed.download()),
              0.05f * p.radius);
}

TEST(DemFrictional, TheStateReadsBackByIdAndStartsAgainAtAReset) {
    Params p = preset_params(Preset::Granular);
    p.contact = static_cast<int>(ContactLaw::Frictional);
    p.substeps = 1;
    const std::size_t n = 800;
    InitialState init = build_initial_state(preset_scene(Preset::Granular, n, p), p, n);
    // The block set down on the floor: its lattice touches from the first step.
    float lowest = init.domain.max.y;
    for (const Float4& q : init.pos) lowest = std::min(lowest, q.y);
    for (Float4& q : init.pos) q.y += init.domain.min.y + p.radius - lowest;
    CpuSimulator sim;
    sim.reset(init, p);
    EXPECT_TRUE(sim.friction_snapshot().omega.empty());  // nothing before the law runs
    for (int i = 0; i < 500; ++i) sim.step(p);
    const FrictionSnapshot f = sim.friction_snapshot();
    ASSERT_EQ(f.omega.size(), n);
    ASSERT_EQ(f.contact_info.size(), n);
    ASSERT_EQ(f.contacts.size(), n * kContactSlots);
    std::size_t used = 0, spinning = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t mine = 0;
        for (int k = 0; k < kContactSlots; ++k) {
            const uint32_t j = f.contacts[i * kContactSlots + k].partner;
            if (j == kFreeSlot) continue;
            ++mine;
            ASSERT_LT(j, n);
            ASSERT_NE(j, i);
            // Both sides remember a contact.
            bool back = false;
            for (int m = 0; m < kContactSlots; ++m)
                back = back || f.contacts[j * kContactSlots + m].partner == i;
            EXPECT_TRUE(back) << i << " remembers " << j << " but not the other way";
        }
        // contact_info counts the walls too; no slot ran out here.
        EXPECT_GE(word_contacts(f.contact_info[i]), mine);
        EXPECT_FALSE(word_slotless(f.contact_info[i]));
        used += mine;
        spinning += std::abs(f.omega[i].x) + std::abs(f.omega[i].y) + std::abs(f.omega[i].z) > 0;
    }
    EXPECT_GT(used, n / 2);
    EXPECT_GT(spinning, n / 2);
    // The panel's summary says what the words say.
    const FrictionStats s = sim.friction_stats();
    uint64_t words = 0;
    for (const uint32_t w : f.contact_info) words += word_contacts(w);
    EXPECT_TRUE(s.active);
    EXPECT_EQ(s.particles, n);
    EXPECT_EQ(s.contacts, words);
    EXPECT_GE(s.contacts, used);
    EXPECT_LE(s.sliding, s.contacts);
    EXPECT_EQ(s.slotless, 0u);
    sim.reset(init, p);
    EXPECT_TRUE(sim.friction_snapshot().omega.empty());
    EXPECT_FALSE(sim.friction_stats().active);
}

TEST(FrictionStats, DecodesTheContactWords) {
    // 3 contacts, 1 sliding, touching the floor; 2 contacts, both sliding, one without a slot;
    // none.
    const uint32_t words[] = {contact_word(3, 1, kTouchWallY, false), contact_word(2, 2, 0, true),
                              0u};
    const FrictionStats s = summarize_contacts(words);
    EXPECT_TRUE(s.active);
    EXPECT_EQ(s.particles, 3u);
    EXPECT_EQ(s.contacts, 5u);
    EXPECT_EQ(s.sliding, 3u);
    EXPECT_EQ(s.slotless, 1u);
    EXPECT_FALSE(summarize_contacts({}).active);
}

TEST(FrictionStats, TheWordKeepsItsFieldsApart) {
    const uint32_t w = contact_word(300, 7, kTouchWallX | kTouchCollider, true);
    EXPECT_EQ(word_contacts(w), 255u);  // saturates, does not spill into the next field
    EXPECT_EQ(word_sliding(w), 7u);
    EXPECT_TRUE(word_slotless(w));
    EXPECT_EQ(w & (kTouchWallX | kTouchWallY | kTouchWallZ | kTouchCollider | kTouchPlate),
              kTouchWallX | kTouchCollider);
    // Bits below 16 given as "touched" are not bodies and are dropped.
    EXPECT_EQ(contact_word(0, 0, 0xffffu, false), 0u);
}

TEST(ContactSlots, AContactKeepsItsSlotAndANewOneTakesAFreeOne) {
    SlotTable t;
    for (int k = 0; k < kContactSlots; ++k) t.partner[k] = kFreeSlot;
    t.partner[3] = 42;
    t.partner[5] = 7;
    EXPECT_EQ(find_slot(t, 42), 3);
    EXPECT_EQ(find_slot(t, 7), 5);
    EXPECT_EQ(find_slot(t, 8), -1);
    EXPECT_EQ(take_slot(t, 8), 0);  // the first free one
    EXPECT_EQ(find_slot(t, 8), 0);
    for (uint32_t id = 100; id < 100 + kContactSlots - 3; ++id) EXPECT_GE(take_slot(t, id), 0);
    EXPECT_EQ(take_slot(t, 999), -1);  // all twelve hold a contact
    EXPECT_EQ(find_slot(t, 999), -1);
}

TEST(ContactSlots, EachSlotKeepsItsStateAndPartnerInOneAlignedSixteenBytes) {
    const ContactMemory empty = ContactMemory::free_slots();
    for (int k = 0; k < kContactSlots; ++k) {
        EXPECT_EQ(empty.partner(k), kFreeSlot);
        EXPECT_EQ(empty.slot(k).xi_x, 0.f);
        // Slot k is the k-th 16 B (one vector load on the device), its partner the last word.
        EXPECT_EQ(reinterpret_cast<const char*>(&empty.words[k][0]) -
                      reinterpret_cast<const char*>(&empty),
                  static_cast<std::ptrdiff_t>(16 * k));
    }
    EXPECT_EQ(alignof(ContactMemory), 16u);
    ContactMemory m = ContactMemory::free_slots();
    m.store(4, 77, {1e-6f, 0.f, -2e-6f}, {0.f, 3e-9f, 0.f});
    EXPECT_EQ(m.partner(4), 77u);
    EXPECT_EQ(m.words[4][3], 77u);
    EXPECT_NEAR(m.slot(4).xi_z, -2e-6f, 2e-6f * 0x1p-12f);
    EXPECT_NEAR(m.rolling(4).y, 3e-9f, 3e-9f * 0x1p-12f);
    m.free_slot(4);
    EXPECT_EQ(m.partner(4), kFreeSlot);
    EXPECT_EQ(m.slot(4).xi_z, 0.f);  // a freed slot reads back as zero
    EXPECT_EQ(m.partner(3), kFreeSlot);
    EXPECT_EQ(m.partner(5), kFreeSlot);
    // Two particles' slots and rolling torques as a record holds them, to the memory and back:
    // packed (sim/core/packed_vec3.h), so each comes back within 2^-12 of its largest component and
    // exactly as the memory holds it; a free slot reads back as zero, whatever it held.
    std::vector<ContactSlot> slots(2 * kContactSlots);
    std::vector<Float4> rolling(2 * kContactSlots);
    for (std::size_t k = 0; k < slots.size(); ++k) {
        rolling[k] = {1e-10f * float(k), 0.f, -2e-10f * float(k), 0.f};
        if (k % 3 != 0)
            slots[k] = {1e-7f * float(k), -2e-7f * float(k), 5e-6f / float(k + 1),
                        static_cast<uint32_t>(100 + k)};
    }
    const std::vector<ContactMemory> memory = memory_of(slots, rolling);
    ASSERT_EQ(memory.size(), 2u);
    EXPECT_EQ(memory[1].partner(1), 100u + kContactSlots + 1);
    EXPECT_EQ(memory[0].partner(0), kFreeSlot);
    const std::vector<ContactSlot> back = slots_of(memory);
    const std::vector<Float4> back_rolling = rolling_of(memory);
    ASSERT_EQ(back.size(), slots.size());
    ASSERT_EQ(back_rolling.size(), rolling.size());
    auto near = [](Vec3 got, Vec3 want) {
        const float largest = fmaxf(fabsf(want.x), fmaxf(fabsf(want.y), fabsf(want.z)));
        return std::sqrt(length_squared(got - want)) <= std::sqrt(3.f) * 0x1p-12f * largest;
    };
    for (std::size_t k = 0; k < slots.size(); ++k) {
        const bool free = slots[k].partner == kFreeSlot;
        EXPECT_EQ(back[k].partner, slots[k].partner) << k;
        const Vec3 xi{slots[k].xi_x, slots[k].xi_y, slots[k].xi_z};
        const Vec3 xi_back{back[k].xi_x, back[k].xi_y, back[k].xi_z};
        EXPECT_TRUE(near(xi_back, free ? Vec3{} : xi)) << k;
        EXPECT_TRUE(near(xyz(back_rolling[k]), free ? Vec3{} : xyz(rolling[k]))) << k;
        // What the memory gives back goes in and out again unchanged.
        const std::vector<ContactMemory> again = memory_of(back, back_rolling);
        const std::vector<ContactSlot> twice = slots_of(again);
        EXPECT_EQ(twice[k].xi_x, back[k].xi_x) << k;
        EXPECT_EQ(twice[k].xi_z, back[k].xi_z) << k;
        EXPECT_EQ(rolling_of(again)[k].z, back_rolling[k].z) << k;
    }
}

TEST(ContactSlots, ABodyOfInfiniteMassMovesItsMemoryOnlyWhileTouched) {
    Params p = preset_params(Preset::GlassBeads);
    FrictionLaw law = friction_law(p);
    law.rolling_inertia = sphere_inertia(p.mass, p.radius);  // as the pass has it for bodies
    ContactBody a;
    a.radius = p.radius;
    a.vel = {0.1f, 0.f, 0.f};  // sliding along the floor
    int added = 0;
    auto add = [&](const ContactResult&) { ++added; };
    const Vec3 down{0.f, -1.f, 0.f};
    // Not touched last step: whatever the memory holds is not read (a fresh contact).
    Float4 stretch{1.f, 2.f, 3.f, 0.f}, fresh{};
    EXPECT_TRUE(fixed_body_contact(a, down, 0.01f * p.radius, &stretch, false, law, add));
    EXPECT_TRUE(fixed_body_contact(a, down, 0.01f * p.radius, &fresh, true, law, add));
    EXPECT_EQ(added, 2);
    EXPECT_EQ(stretch.x, fresh.x);
    EXPECT_EQ(stretch.y, 0.f);
    EXPECT_EQ(stretch.z, 0.f);
    EXPECT_LT(stretch.x, 0.f);  // stretched against the sliding
    // Touched last step and not now: the memory is cleared, no contact added.
    EXPECT_FALSE(fixed_body_contact(a, down, -0.1f * p.radius, &stretch, true, law, add));
    EXPECT_EQ(added, 2);
    EXPECT_EQ(stretch.x, 0.f);
    // Untouched then and now: the memory is left alone.
    stretch = {5.f, 0.f, 0.f, 0.f};
    EXPECT_FALSE(fixed_body_contact(a, down, -0.1f * p.radius, &stretch, false, law, add));
    EXPECT_EQ(stretch.x, 5.f);
}

// A wall's Float4 holds the stretch and the rolling torque, both in the wall's plane, without
// loss; the stretch keeps its x, y, z lanes, so a record written before the walls had springs
// (zeros in the normal lane and w) reads as the same stretch and no torque.
TEST(ContactSlots, AWallsMemoryHoldsItsStretchAndRollingTorque) {
    for (int axis = 0; axis < 3; ++axis) {
        Vec3 xi{1.f, 2.f, 3.f}, roll{4.f, 5.f, 6.f};
        (axis == 0 ? xi.x : axis == 1 ? xi.y : xi.z) = 0.f;  // in the wall's plane
        (axis == 0 ? roll.x : axis == 1 ? roll.y : roll.z) = 0.f;
        const Float4 m = wall_memory(axis, xi, roll);
        Vec3 xi_back, roll_back;
        read_wall_memory(axis, m, xi_back, roll_back);
        EXPECT_EQ(length_squared(xi_back - xi), 0.f) << axis;
        EXPECT_EQ(length_squared(roll_back - roll), 0.f) << axis;
        // Written by a version without wall springs: the stretch in place, nothing else.
        Float4 old = to_float4(xi);
        read_wall_memory(axis, old, xi_back, roll_back);
        EXPECT_EQ(length_squared(xi_back - xi), 0.f) << axis;
        EXPECT_EQ(length_squared(roll_back), 0.f) << axis;
    }
}

// A bead turned against the floor by a moment below its rolling limit winds the wall's spring
// and keeps its torque in memory from step to step; once it leaves, the memory is cleared.
TEST(ContactSlots, AWallsRollingSpringIsRememberedWhileTouched) {
    Params p = preset_params(Preset::GlassBeads);
    FrictionLaw law = friction_law(p);
    law.rolling_inertia = sphere_inertia(p.mass, p.radius);
    ContactBody a;
    a.radius = p.radius;
    a.omega = {0.f, 0.f, 0.5f};  // rolling about z on a floor below
    auto add = [](const ContactResult&) {};
    const Vec3 down{0.f, -1.f, 0.f};
    Float4 memory{};
    const float delta = 0.01f * p.radius;
    ASSERT_TRUE(box_wall_contact(a, 1, down, delta, &memory, false, law, add));
    Vec3 xi, first, second;
    read_wall_memory(1, memory, xi, first);
    ASSERT_TRUE(box_wall_contact(a, 1, down, delta, &memory, true, law, add));
    read_wall_memory(1, memory, xi, second);
    EXPECT_LT(first.z, 0.f);                                          // against the rolling
    EXPECT_NEAR(second.z, 2.f * first.z, 1e-6f * std::abs(first.z));  // wound on, not restarted
    EXPECT_FALSE(box_wall_contact(a, 1, down, -delta, &memory, true, law, add));
    read_wall_memory(1, memory, xi, second);
    EXPECT_EQ(length_squared(second), 0.f);
}

TEST(DemFrictional, ALeavingParticleClearsItsWallBitAndMemory) {
    Params p = preset_params(Preset::GlassBeads);
    p.substeps = 1;
    p.collider_radius = 0.f;
    InitialState init;
    init.domain = {{0.f, 0.f, 0.f}, {0.1f, 0.1f, 0.1f}};
    init.grid = scene_grid(init.domain, p);
    // A bead pressed into the floor, sliding and moving up: it touches, then flies off.
    init.pos = {{0.05f, 0.95f * p.radius, 0.05f, 0.f}};
    init.vel = {{0.2f, 0.3f, 0.f, 0.f}};
    CpuSimulator sim;
    sim.reset(init, p);
    sim.step(p);
    EXPECT_TRUE(sim.friction_snapshot().contact_info[0] & kTouchWallY);
    for (int i = 0; i < 50; ++i) sim.step(p);
    ASSERT_GT(sim.download().pos[0].y, 1.05f * p.radius);  // off the floor
    const FrictionSnapshot f = sim.friction_snapshot();
    EXPECT_FALSE(f.contact_info[0] & kTouchWallY);
    EXPECT_EQ(word_contacts(f.contact_info[0]), 0u);
}

}  // namespace
}  // namespace plab::sim
