// Scene geometry on the CUDA backend: the bead slides down the tilted mesh as on the CPU and
// as the classic law predicts, slides or rolls as the frictional law predicts, a pile poured
// onto the mesh follows the CPU's with either law, beads in a finely cut sphere move as on the
// CPU, a capture keeps the bodies, SPH against a block of triangles and in a mesh tank steps
// as on the CPU (the same distance field), and an emitter pouring onto a sink lays and takes
// the same counts as on the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "sim/geometry/scene_geometry.h"
#include "sim/icosphere.h"
#include "sim/io/scene_file.h"
#include "sim/model/variants.h"
#include "sim/run/make_simulator.h"
#include "sim/run/run.h"
#include "sim/slope_scene.h"
#include "sim/sources_scene.h"
#include "sim/sph_obstacle_scene.h"
#include "sim/test_helpers.h"
#include "support/cuda_skip.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

using CudaGeometry = test::CudaTest;
using testing::Slope;

TEST_F(CudaGeometry, ABeadSlidesDownATiltedMeshAsOnTheCpu) {
    const Slope s;
    auto gpu = make_simulator(Backend::Cuda);
    const testing::Slide r = testing::slide(*gpu, s);
    EXPECT_NEAR(r.min_overlap, s.steady_overlap(), 0.02f * s.steady_overlap());
    EXPECT_NEAR(r.max_overlap, s.steady_overlap(), 0.02f * s.steady_overlap());
    EXPECT_NEAR(r.min_speed, s.steady_speed(), 0.02f * s.steady_speed());
    EXPECT_NEAR(r.max_speed, s.steady_speed(), 0.02f * s.steady_speed());
    EXPECT_LT(r.max_sideways, 1e-3f * s.steady_speed());
}

// Five layers of 10 × 10 beads on a lattice parallel to the slope, the lowest pressed 0.3 mm
// into the mesh and the others 2 mm apart: within the 200 steps compared, every kind of contact
// (mesh faces, edges and corners, and pairs) is in play while the runs stay close enough to
// compare bead by bead (a pile that collides for long amplifies rounding beyond any bound).
InitialState layered(const Slope& s) {
    const Vec3 across{0.f, 0.f, 1.f};
    std::vector<Vec3> pos;
    for (int i = 0; i < 10; ++i)
        for (int j = 0; j < 10; ++j)
            for (int k = 0; k < 5; ++k)
                pos.push_back((-0.1f + 0.022f * i) * s.downhill + (-0.1f + 0.022f * j) * across +
                              (s.params.radius - 3e-4f + 0.022f * k) * s.normal);
    InitialState init = testing::state_from_positions(pos, s.domain, s.params.radius);
    init.geometry = s.initial().geometry;
    return init;
}

TEST_F(CudaGeometry, APileOnTheMeshFollowsTheCpu) {
    const Slope s;
    const InitialState init = layered(s);
    auto cpu = make_simulator(Backend::Cpu);
    auto gpu = make_simulator(Backend::Cuda);
    cpu->reset(init, s.params);
    gpu->reset(init, s.params);
    for (int k = 0; k < 20; ++k) {  // 200 steps, 0.02 s
        cpu->step(s.params);
        gpu->step(s.params);
    }
    const Snapshot a = cpu->download(), b = gpu->download();
    EXPECT_LT(test::max_position_distance(a, b), 1e-3 * s.params.radius);
    EXPECT_LT(test::max_velocity_distance(a, b), 1e-3 * s.steady_speed());
    int touching = 0;
    for (const Float4& q : b.pos) {
        EXPECT_GT(dot(xyz(q), s.normal), 0.f) << "a bead passed through the mesh";
        touching += s.overlap(xyz(q)) > 0.f;
    }
    EXPECT_GE(touching, 50) << "the lowest layer rests on the mesh";
}

// 90 beads touching the lower half of a sphere of 20,480 triangles (edges of about
// 4 mm under beads of 10 mm radius, so a bead meets several faces, edges and corners at once
// and a cell's bin holds dozens of triangles): the classic law's contacts, a warp per cell on
// CUDA (mesh_kernels.cuh) and a bead at a time on the CPU, move the beads alike.
TEST_F(CudaGeometry, BeadsInAFinelyCutSphereFollowTheCpu) {
    const Params p = testing::container_bead_params();
    constexpr float kSphere = 0.12f;
    Body sphere;
    sphere.shape = BodyShape::Mesh;
    sphere.mesh = testing::icosphere(5, kSphere);
    sphere.inside = true;
    const Domain domain{{-0.3f, -0.3f, -0.3f}, {0.3f, 0.3f, 0.3f}};
    // Directions spread evenly over the lower half (a spiral of equal areas).
    std::vector<Vec3> pos;
    constexpr int kBeads = 90;
    const float golden = 3.14159265f * (3.f - std::sqrt(5.f));
    for (int k = 0; k < kBeads; ++k) {
        const float y = -(k + 0.5f) / kBeads;  // the lower half
        const float ring = std::sqrt(1.f - y * y);
        const Vec3 dir{ring * std::cos(golden * k), y, ring * std::sin(golden * k)};
        pos.push_back(dir * (kSphere - p.radius));
    }
    InitialState init = testing::state_from_positions(pos, domain, p.radius);
    init.geometry = std::make_shared<const SceneGeometry>(place_bodies({sphere}, domain));
    auto cpu = make_simulator(Backend::Cpu);
    auto gpu = make_simulator(Backend::Cuda);
    cpu->reset(init, p);
    gpu->reset(init, p);
    for (int k = 0; k < 20; ++k) {  // 200 steps, 0.02 s
        cpu->step(p);
        gpu->step(p);
    }
    const Snapshot a = cpu->download(), b = gpu->download();
    EXPECT_LT(test::max_position_distance(a, b), 1e-3 * p.radius);
    EXPECT_LT(test::max_velocity_distance(a, b), 1e-3);
    int on_wall = 0;
    for (const Float4& q : b.pos) {
        const float r = std::sqrt(length_squared(xyz(q)));
        EXPECT_LT(r, kSphere) << "a bead passed through the sphere";
        // On the wall: within 0.1 mm of touching the sphere (its flat faces lie up to 0.03 mm
        // inside it).
        on_wall += r > kSphere - p.radius - 1e-4f;
    }
    EXPECT_GE(on_wall, kBeads / 2) << "the beads slide on the mesh";
}

TEST_F(CudaGeometry, ABeadOnATiltedMeshSlidesOrRollsAsTheFrictionalLawSays) {
    using testing::SlideOrRoll;
    const SlideOrRoll want = testing::slide_or_roll();
    auto gpu = make_simulator(Backend::Cuda);
    EXPECT_NEAR(
        testing::frictional_slope_acceleration(*gpu, SlideOrRoll::kSlidingMu, SlideOrRoll::kTheta),
        want.slides, want.tolerance);
    EXPECT_NEAR(
        testing::frictional_slope_acceleration(*gpu, SlideOrRoll::kRollingMu, SlideOrRoll::kTheta),
        want.rolls, want.tolerance);
    EXPECT_EQ(gpu->friction_stats().slotless, 0u);
}

// The layered pile with the frictional law: contact memory with the mesh and between beads.
TEST_F(CudaGeometry, AFrictionalPileOnTheMeshFollowsTheCpu) {
    const Slope s;
    Params p = s.params;
    p.contact = int(ContactLaw::Frictional);
    p.friction = 0.5f;
    p.wall_friction = 0.3f;
    p.rolling_friction = 0.05f;
    p.tangential_stiffness = 2.f / 7.f;
    const InitialState init = layered(s);
    auto cpu = make_simulator(Backend::Cpu);
    auto gpu = make_simulator(Backend::Cuda);
    cpu->reset(init, p);
    gpu->reset(init, p);
    for (int k = 0; k < 20; ++k) {
        cpu->step(p);
        gpu->step(p);
    }
    const Snapshot a = cpu->download(), b = gpu->download();
    EXPECT_LT(test::max_position_distance(a, b), 1e-3 * s.params.radius);
    EXPECT_LT(test::max_velocity_distance(a, b), 1e-3 * s.steady_speed());
    const FrictionStats fa = cpu->friction_stats(), fb = gpu->friction_stats();
    EXPECT_EQ(fa.contacts, fb.contacts);
    EXPECT_GE(fb.contacts, 100u) << "the lowest layer rests on the mesh";
    for (const Float4& q : b.pos) EXPECT_GT(dot(xyz(q), s.normal), 0.f);
}

// A surface motion set between steps (set_body_motions) reaches the CUDA step, captured graph
// included, as it does the CPU's: the mesh runs downhill under the pile.
TEST_F(CudaGeometry, NewBodyMotionsReachTheStepAsOnTheCpu) {
    const Slope s;
    const InitialState init = layered(s);
    auto cpu = make_simulator(Backend::Cpu);
    auto gpu = make_simulator(Backend::Cuda);
    auto still = make_simulator(Backend::Cuda);
    for (Simulator* sim : {cpu.get(), gpu.get(), still.get()}) {
        sim->reset(init, s.params);
        for (int k = 0; k < 5; ++k) sim->step(s.params);
    }
    auto moving = std::make_shared<SceneGeometry>(*init.geometry);
    moving->bodies[0].velocity = 0.5f * s.downhill;
    cpu->set_body_motions(moving);
    gpu->set_body_motions(moving);
    for (int k = 0; k < 15; ++k)
        for (Simulator* sim : {cpu.get(), gpu.get(), still.get()}) sim->step(s.params);
    const Snapshot a = cpu->download(), b = gpu->download(), c = still->download();
    EXPECT_LT(test::max_position_distance(a, b), 1e-3 * s.params.radius);
    EXPECT_LT(test::max_velocity_distance(a, b), 1e-3 * s.steady_speed());
    double dragged = 0, left = 0;
    for (std::size_t i = 0; i < b.vel.size(); ++i) {
        dragged += dot(xyz(b.vel[i]), s.downhill);
        left += dot(xyz(c.vel[i]), s.downhill);
    }
    EXPECT_GT(dragged, left + 0.01 * b.vel.size()) << "the belt did not drag the pile";
}

TEST_F(CudaGeometry, ACaptureKeepsTheBodies) {
    const Slope s;
    auto gpu = make_simulator(Backend::Cuda);
    gpu->reset(layered(s), s.params);
    for (int k = 0; k < 10; ++k) gpu->step(s.params);
    const InitialState captured = gpu->capture_state();
    ASSERT_TRUE(captured.geometry);
    EXPECT_EQ(captured.geometry->triangles.size(), 2u * 40 * 40);
    auto resumed = make_simulator(Backend::Cuda);
    resumed->reset(captured, s.params);
    for (int k = 0; k < 10; ++k) {
        gpu->step(s.params);
        resumed->step(s.params);
    }
    const Snapshot a = gpu->download(), b = resumed->download();
    EXPECT_LT(test::max_position_distance(a, b), 1e-3 * s.params.radius);
    for (const Float4& q : b.pos) EXPECT_GT(dot(xyz(q), s.normal), 0.f);
}

// SPH: 200 steps of the surge against the block and of the mesh tank, with the grid's passes
// and the neighbour lists, launched and as a graph: the same positions and densities as the
// CPU's within the summation order's rounding (as the open tank's test in test_cuda_vs_cpu).
TEST_F(CudaGeometry, LiquidAgainstMeshesFollowsTheCpu) {
    const testing::SurgeOnABlock surge;
    const SphCase tank = hydrostatic_mesh_case(8, 12);
    InitialState tank_init = build_initial_state(tank.scene, tank.params, tank.particles);
    tank_init.geometry = tank.geometry;
    for (const auto& [init, p0] :
         {std::pair{surge.initial(), surge.c.params}, std::pair{tank_init, tank.params}}) {
        Params p = p0;
        p.substeps = 1;
        auto cpu = make_simulator(Backend::Cpu);
        cpu->reset(init, p);
        for (int k = 0; k < 200; ++k) cpu->step(p);
        const Snapshot want = cpu->download();
        for (int lists : {kOff, kAuto})
            for (bool graph : {false, true}) {
                SimulatorOptions o;
                o.neighbour_list = lists;
                o.graph = graph;
                auto gpu = make_simulator(Backend::Cuda, nullptr, o);
                gpu->reset(init, p);
                for (int k = 0; k < 200; ++k) gpu->step(p);
                const Snapshot got = gpu->download();
                double worst_density = 0;
                for (std::size_t i = 0; i < want.pos.size(); ++i)
                    worst_density = std::max<double>(
                        worst_density, std::fabs(got.vel[i].w - want.vel[i].w) / p.rest_density);
                EXPECT_LT(test::max_position_distance(got, want), 0.02 * p.radius)
                    << init.pos.size() << " particles, lists " << lists << ", graph " << graph;
                EXPECT_LT(worst_density, 1e-3)
                    << init.pos.size() << " particles, lists " << lists << ", graph " << graph;
            }
    }
}

// The pour of test_emission.cpp onto a floor that is a sink, on both backends, with graphs:
// the applications come at the same steps and lay the same counts (rate · t); the first takes
// the bed, and until the poured beads reach the floor (0.13 s) the counts agree; then the sink
// takes beads on both (their counts may part by the few whose contacts rounding decides).
// Room for an emitter's particles is reserved after the run's reset: the larger buffers
// keep the state (growing a device buffer discards it, so it goes through the host), and the
// run goes on as one that reserved nothing (deterministic mode: to the bit).
TEST_F(CudaGeometry, ReservingRoomForMoreParticlesKeepsTheState) {
    const Slope s;
    const InitialState init = layered(s);
    SimulatorOptions o;
    o.deterministic = true;
    auto reserved = make_simulator(Backend::Cuda, nullptr, o),
         plain = make_simulator(Backend::Cuda, nullptr, o);
    for (auto* sim : {reserved.get(), plain.get()}) {
        sim->reset(init, s.params);
        for (int i = 0; i < 20; ++i) sim->step(s.params);
    }
    reserved->reserve_particles(50 * init.pos.size());
    for (auto* sim : {reserved.get(), plain.get()})
        for (int i = 0; i < 20; ++i) sim->step(s.params);
    const Snapshot a = reserved->download(), b = plain->download();
    ASSERT_EQ(a.pos.size(), init.pos.size());
    EXPECT_EQ(test::max_position_distance(a, b), 0.0);
}

TEST_F(CudaGeometry, AnEmitterAndASinkWorkAsOnTheCpu) {
    const SceneFile file = parse_scene_file(
        testing::pour_scene_json("\"rate\": 1500",
                                 ", \"sinks\": [{\"min\": [0, 0, 0], \"max\": [0.2, 0.05, 0.2]}]",
                                 5000),
        "pour.json");
    auto start = [&](Backend b) {
        RunStart s;
        s.backend = b;
        s.single_dt = true;
        s.options.graph = true;
        s.request.scene_file = file;
        s.request.scene_source = "pour.json";
        return s;
    };
    sim::Run cpu(start(Backend::Cpu)), gpu(start(Backend::Cuda));
    ASSERT_EQ(gpu.backend(), Backend::Cuda);
    while (cpu.time() < 0.3) {
        cpu.step();
        gpu.step();
        ASSERT_EQ(gpu.source_progress().emitted, cpu.source_progress().emitted)
            << "t = " << cpu.time();
        if (cpu.time() < 0.1) {
            EXPECT_EQ(gpu.particle_count(), cpu.particle_count()) << "t = " << cpu.time();
        }
    }
    EXPECT_GT(gpu.source_progress().sunk, 361u + 100u);  // the bed, and poured beads
    EXPECT_NEAR(double(gpu.particle_count()), double(cpu.particle_count()),
                0.05 * double(cpu.particle_count()));
    const Snapshot snap = gpu.simulator().download();
    ASSERT_EQ(snap.pos.size(), gpu.particle_count());
    for (const Float4& q : snap.pos) ASSERT_TRUE(std::isfinite(q.x + q.y + q.z));
}

}  // namespace
}  // namespace plab::sim
