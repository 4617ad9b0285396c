// SPH meets the scene's bodies through their distance field (sim/geometry/boundary_field.h):
// a tank of triangles lends the density the domain's walls lend, a surge held back by a block
// of triangles stays out of it and piles against its face, and a body SPH cannot know the
// liquid's side of is refused by name before the run changes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/engine/host_state.h"
#include "sim/engine/initial_state.h"
#include "sim/geometry/boundary_field.h"
#include "sim/icosphere.h"
#include "sim/io/scene_file.h"
#include "sim/physics/sph_step.h"
#include "sim/sph_obstacle_scene.h"
#include "sim/validation/sph_validation.h"

namespace plab::sim {
namespace {

// Every particle of the hydrostatic tank's lattice, at its faces, edges and corners, gets from
// a box of twelve triangles the density the domain's walls give it: the same tables at the
// same distances, with the edges' and corners' overlaps taken out alike.
TEST(SphBodies, AMeshTankLendsTheDensityTheDomainsWallsLend) {
    const SphCase walls = hydrostatic_case(10, 20), mesh = hydrostatic_mesh_case(10, 20);
    const InitialState s = build_initial_state(walls.scene, walls.params, walls.particles);
    const SphConstants c = sph_constants(walls.params);
    const BoundaryField f = sph_body_field(mesh.geometry.get(), mesh.scene.domain, mesh.params);
    const FieldView field = f.view(f.nodes.data(), f.crease.data());
    int at_walls = 0, in_creases = 0;
    for (const Float4& q : s.pos) {
        const Vec3 x = xyz(q);
        const float want = sph_wall_density(x, walls.params, walls.scene.domain, c, FieldView{});
        const float got = sph_wall_density(x, mesh.params, mesh.scene.domain, c, field);
        ASSERT_NEAR(got, want, 0.005f) << "at " << x.x << ", " << x.y << ", " << x.z;
        at_walls += want > 0.f ? 1 : 0;
        in_creases += std::popcount(body_walls(x, field, 2.f * c.h).near) >= 2 ? 1 : 0;
    }
    // 10 x 20 x 10 particles: all but the 6 x 16 x 6 core within two smoothing lengths of a wall.
    EXPECT_GT(at_walls, 1000);
    EXPECT_GT(in_creases, 300);
}

TEST(SphBodies, ASurgeStaysOutOfABlockAndPilesAgainstIt) {
    const testing::SurgeOnABlock s;
    CpuSimulator sim;
    sim.reset(s.initial(), s.c.params);
    const double until = 0.25;  // s: the column has fallen onto the block
    for (double t = 0; t < until; t += s.c.params.dt * s.c.params.substeps) sim.step(s.c.params);
    const Snapshot snap = sim.download();
    const float spacing = 2.f * s.c.params.radius;
    int against = 0, over = 0;
    for (std::size_t i = 0; i < snap.pos.size(); ++i) {
        const Vec3 x = xyz(snap.pos[i]);
        ASSERT_TRUE(std::isfinite(x.x + x.y + x.z)) << "particle " << i;
        EXPECT_FALSE(s.deep_inside(x, 0.25f * spacing))
            << "particle " << i << " at " << x.x << ", " << x.y << " is inside the block";
        if (x.y < s.block.max.y && std::fabs(x.x - s.block.min.x) < 2.f * spacing) ++against;
        if (x.x > s.block.min.x && x.y > s.block.max.y) ++over;
    }
    std::printf("%d particles against the block's face, %d over it\n", against, over);
    // The face is 6 spacings high and 4 deep: 48 places within two spacings of it.
    EXPECT_GT(against, 30) << "no liquid pressed against the block's face";
    EXPECT_GT(over, 20) << "no liquid ran over the block";
    const SimStats st = sim.stats(s.c.params);
    EXPECT_EQ(st.non_finite, 0u);
    EXPECT_LT(st.density_max, 1.1f * s.c.params.rest_density) << "the block's wall squeezes";
}

TEST(SphBodies, ABodyWithoutALiquidSideIsRefusedBeforeTheRunChanges) {
    testing::SurgeOnABlock s;
    CpuSimulator sim;
    sim.reset(s.initial(), s.c.params);
    sim.step(s.c.params);
    const Snapshot before = sim.download();
    Body bowl;
    bowl.shape = BodyShape::Mesh;
    bowl.file = "bowl.stl";
    bowl.mesh = testing::icosphere(1, 0.05f);
    bowl.mesh.triangles.resize(bowl.mesh.triangles.size() / 2);  // an open, curved half
    bowl.translate = {0.3f, 0.1f, 0.02f};
    InitialState bad = s.initial();
    bad.geometry = std::make_shared<const SceneGeometry>(place_bodies({bowl}, s.c.scene.domain));
    try {
        sim.reset(bad, s.c.params);
        FAIL() << "an open curved mesh was accepted for SPH";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("geometry[0] (mesh bowl.stl)"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(sim.unsupported(s.c.params), "");  // the running block is still there
    const Snapshot after = sim.download();
    ASSERT_EQ(after.pos.size(), before.pos.size());
    for (std::size_t i = 0; i < after.pos.size(); ++i) ASSERT_EQ(after.pos[i].x, before.pos[i].x);
    // DEM meets the same bowl from either side.
    Params dem = s.c.params;
    dem.model = Model::Dem;
    EXPECT_EQ(geometry_unsupported(bad.geometry.get(), dem), "");
}

// The shipped scene: the boulder's mesh loads, its field is built and the first steps keep the
// liquid out of it and finite.
TEST(SphBodies, TheShippedBoulderSceneRuns) {
    const SceneFile f = load_scene_file(std::string(PLAB_SCENES_DIR) + "/dam_break_boulder.json");
    ASSERT_EQ(f.bodies.size(), 1u);
    InitialState init = build_initial_state(f.scene, f.params, f.particles);
    init.geometry = std::make_shared<const SceneGeometry>(place_bodies(f.bodies, f.scene.domain));
    EXPECT_EQ(init.geometry->triangles.size(), 1280u);
    EXPECT_EQ(init.geometry->sides[0], LiquidSide::Outside);
    Params p = f.params;
    p.substeps = 1;
    CpuSimulator sim;
    sim.reset(init, p);
    for (int k = 0; k < 20; ++k) sim.step(p);
    EXPECT_EQ(sim.stats(p).non_finite, 0u);
}

}  // namespace
}  // namespace plab::sim
