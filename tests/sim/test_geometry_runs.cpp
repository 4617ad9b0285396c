// Runs with scene geometry on the CPU backend: a bead slides down a tilted mesh as the
// classic law predicts, scene files bring their STL meshes and primitives into a run, the
// laws that cannot meet geometry yet refuse it with the reason, and captures keep the bodies.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>

#include "sim/core/error.h"
#include "sim/io/checkpoint.h"
#include "sim/io/scene_file.h"
#include "sim/io/stl_file.h"
#include "sim/run/make_simulator.h"
#include "sim/run/run_recipe.h"
#include "sim/slope_scene.h"
#include "support/error_of.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

using test::error_of;
using testing::Slope;

TEST(GeometryRuns, ABeadSlidesDownATiltedMeshAtTheSteadySpeedAndOverlap) {
    const Slope s;
    auto sim = make_simulator(Backend::Cpu);
    const testing::Slide r = testing::slide(*sim, s);
    EXPECT_NEAR(r.min_overlap, s.steady_overlap(), 0.02f * s.steady_overlap());
    EXPECT_NEAR(r.max_overlap, s.steady_overlap(), 0.02f * s.steady_overlap());
    EXPECT_NEAR(r.min_speed, s.steady_speed(), 0.02f * s.steady_speed());
    EXPECT_NEAR(r.max_speed, s.steady_speed(), 0.02f * s.steady_speed());
    EXPECT_LT(r.max_sideways, 1e-3f * s.steady_speed()) << "drifted off the edge line";
}

TEST(GeometryRuns, ACaptureKeepsTheBodiesAndContinuesBitForBit) {
    const Slope s;
    auto straight = make_simulator(Backend::Cpu);
    straight->reset(s.initial(), s.params);
    for (int k = 0; k < 50; ++k) straight->step(s.params);
    auto resumed = make_simulator(Backend::Cpu);
    const InitialState captured = straight->capture_state();
    ASSERT_TRUE(captured.geometry);
    EXPECT_EQ(captured.geometry->triangles.size(), 2u * 40 * 40);
    resumed->reset(captured, s.params);
    for (int k = 0; k < 100; ++k) {
        straight->step(s.params);
        resumed->step(s.params);
    }
    const Snapshot a = straight->download(), b = resumed->download();
    EXPECT_EQ(a.pos[0].y, b.pos[0].y);
    EXPECT_EQ(a.vel[0].x, b.vel[0].x);
    EXPECT_GT(s.overlap(xyz(b.pos[0])), 0.5f * s.steady_overlap()) << "fell through the mesh";
}

// The format version a checkpoint's bytes say (after the 8-byte magic).
std::uint32_t version_of(const std::string& bytes) {
    std::uint32_t v = 0;
    std::memcpy(&v, bytes.data() + 8, sizeof v);
    return v;
}

TEST(GeometryRuns, ACheckpointCarriesTheBodiesAndContinuesBitForBit) {
    const Slope s;
    test::TempDir dir;
    auto straight = make_simulator(Backend::Cpu);
    straight->reset(s.initial(), s.params);
    for (int k = 0; k < 50; ++k) straight->step(s.params);
    save_checkpoint(dir / "slope.plab", *straight, s.params, {});
    const Checkpoint c = load_checkpoint(dir / "slope.plab");
    ASSERT_TRUE(c.state.geometry);
    const SceneGeometry& g = *c.state.geometry;
    const SceneGeometry original = *s.initial().geometry;
    ASSERT_EQ(g.triangles.size(), original.triangles.size());
    EXPECT_EQ(std::memcmp(g.triangles.data(), original.triangles.data(),
                          g.triangles.size() * sizeof(GeoTriangle)),
              0);
    EXPECT_EQ(g.body_names, original.body_names);
    auto resumed = make_simulator(Backend::Cpu);
    restore_checkpoint(*resumed, c);
    for (int k = 0; k < 100; ++k) {
        straight->step(s.params);
        resumed->step(s.params);
    }
    const Snapshot a = straight->download(), b = resumed->download();
    EXPECT_EQ(std::memcmp(a.pos.data(), b.pos.data(), sizeof(Float4)), 0);
    EXPECT_EQ(std::memcmp(a.vel.data(), b.vel.data(), sizeof(Float4)), 0);

    Checkpoint plain = c;
    plain.state.geometry.reset();
    EXPECT_EQ(version_of(encode_checkpoint(c)), 3u);
    EXPECT_EQ(version_of(encode_checkpoint(plain)), 2u)
        << "earlier builds read runs without bodies";
}

TEST(GeometryRuns, ACheckpointWithBrokenBodiesIsRefusedWithTheReason) {
    const Slope s;
    auto sim = make_simulator(Backend::Cpu);
    sim->reset(s.initial(), s.params);
    Checkpoint c;
    c.params = s.params;
    c.state = sim->capture_state();
    auto refused = [&](auto&& spoil) {
        Checkpoint bad = c;
        SceneGeometry g = *c.state.geometry;
        spoil(g);
        bad.state.geometry = std::make_shared<const SceneGeometry>(std::move(g));
        const std::string bytes = encode_checkpoint(bad);
        return error_of([&] {
            read_checkpoint(std::as_bytes(std::span(bytes.data(), bytes.size())), "bad.plab");
        });
    };
    EXPECT_EQ(refused([](SceneGeometry&) {}), "");
    EXPECT_NE(refused([](SceneGeometry& g) { g.triangles[7].body = 3; }).find("belongs to body 3"),
              std::string::npos);
    EXPECT_NE(refused([](SceneGeometry& g) { g.triangles[2].b.y = NAN; }).find("non-finite"),
              std::string::npos);
    EXPECT_NE(
        refused([](SceneGeometry& g) { g.triangles[2].c = g.triangles[2].a; }).find("no area"),
        std::string::npos);
    EXPECT_NE(refused([](SceneGeometry& g) { g.bodies[0].friction = 42.f; }).find("friction"),
              std::string::npos);
    EXPECT_NE(refused([](SceneGeometry& g) { g.bodies[0].omega.z = INFINITY; }).find("non-finite"),
              std::string::npos);
    // Cut inside the triangles: the size check names the section it ran out in.
    const std::string bytes = encode_checkpoint(c);
    std::string cut = bytes.substr(0, bytes.size() - 8 - 40);
    const std::uint64_t sum = checkpoint_checksum(std::as_bytes(std::span(cut.data(), cut.size())));
    cut.append(reinterpret_cast<const char*>(&sum), sizeof sum);
    EXPECT_NE(error_of([&] {
                  read_checkpoint(std::as_bytes(std::span(cut.data(), cut.size())), "cut.plab");
              }).find("the triangles"),
              std::string::npos);
}

TEST(GeometryRuns, ABeadOnATiltedMeshSlidesOrRollsAsTheFrictionalLawSays) {
    // The mesh's own friction decides, not the beads' (0.9 in the preset would always roll).
    using testing::SlideOrRoll;
    const SlideOrRoll want = testing::slide_or_roll();
    auto sim = make_simulator(Backend::Cpu);
    EXPECT_NEAR(
        testing::frictional_slope_acceleration(*sim, SlideOrRoll::kSlidingMu, SlideOrRoll::kTheta),
        want.slides, want.tolerance);
    EXPECT_NEAR(
        testing::frictional_slope_acceleration(*sim, SlideOrRoll::kRollingMu, SlideOrRoll::kTheta),
        want.rolls, want.tolerance);
    // The contact kept one memory slot as it crossed the mesh's triangles.
    const FrictionStats st = sim->friction_stats();
    EXPECT_EQ(st.slotless, 0u);
    EXPECT_EQ(st.contacts, 1u);
}

// The tilted mesh is flat: SPH knows its liquid side (the side it faces) and may run with it;
// a curved open mesh it refuses (test_sph_bodies.cpp).
TEST(GeometryRuns, SphAcceptsAFlatMesh) {
    const Slope s;
    auto sim = make_simulator(Backend::Cpu);
    Params sph = s.params;
    sph.model = Model::Sph;
    sim->reset(s.initial(), s.params);
    EXPECT_EQ(sim->unsupported(sph), "");
    ASSERT_EQ(s.initial().geometry->sides.size(), 1u);
    EXPECT_EQ(s.initial().geometry->sides[0], LiquidSide::Facing);
}

// A scene file beside its STL file, as a user keeps them.
struct SceneOnDisk {
    test::TempDir dir;
    std::filesystem::path write(const std::string& json) {
        const auto path = dir / "chute.json";
        std::ofstream(path) << json;
        return path;
    }
};

constexpr const char* kChute = R"({
  "name": "chute", "description": "beads down a ramp", "preset": "classic",
  "particles": 8,
  "params": {"radius": 0.01, "mass": 0.001, "spring": 100, "damping": 0.02, "shear": 0.08,
             "gravity_y": -9.81, "dt": 1e-4, "substeps": 10, "collider_radius": 0},
  "domain": {"min": [-0.3, -0.3, -0.3], "max": [0.3, 0.3, 0.3]},
  "blocks": [{"shape": "box", "min": [-0.05, 0.1, -0.05], "max": [0.05, 0.2, 0.05],
              "spacing": 0.05}],
  "geometry": [
    {"type": "mesh", "file": "meshes/ramp.stl", "rotate": [0, 0, 30], "friction": 0.3},
    {"type": "box", "min": [-0.28, -0.28, -0.28], "max": [0.28, 0.28, 0.28], "inside": true},
    {"type": "plane", "point": [0, -0.25, 0], "normal": [0, 1, 0],
     "motion": {"velocity": [0.1, 0, 0]}}
  ]
})";

TEST(GeometryRuns, AScenesMeshesLoadBesideItAndStartWithItsBodies) {
    SceneOnDisk disk;
    std::filesystem::create_directory(disk.dir / "meshes");
    write_stl(disk.dir / "meshes" / "ramp.stl", testing::flat_grid(4, 0.2f));
    const auto path = disk.write(kChute);
    const SceneFile f = load_scene_file(path);
    ASSERT_EQ(f.bodies.size(), 3u);
    EXPECT_EQ(f.bodies[0].shape, BodyShape::Mesh);
    EXPECT_EQ(f.bodies[0].mesh.triangle_count(), 32u);
    EXPECT_EQ(f.bodies[0].friction, 0.3f);
    EXPECT_TRUE(f.bodies[1].inside);
    EXPECT_FLOAT_EQ(f.bodies[2].motion.velocity.x, 0.1f);

    const InitialState init = scene_initial_state(f.scene, f, f.params, f.particles, path.string());
    ASSERT_TRUE(init.geometry);
    ASSERT_EQ(init.geometry->bodies.size(), 3u);
    EXPECT_EQ(init.geometry->triangles.size(), 32u + 12u + 2u);
    EXPECT_NE(init.geometry->body_names[0].find("ramp.stl"), std::string::npos);
    EXPECT_FLOAT_EQ(init.geometry->bodies[0].friction, 0.3f);
    EXPECT_FLOAT_EQ(init.geometry->bodies[2].velocity.x, 0.1f);

    // The beads fall onto the ramp and slide on it without passing through.
    auto sim = make_simulator(Backend::Cpu);
    sim->reset(init, f.params);
    for (int k = 0; k < 300; ++k) sim->step(f.params);
    const Slope slope;  // the same tilt
    for (const Float4& q : sim->download().pos)
        EXPECT_GT(dot(xyz(q), slope.normal), 0.f) << "a bead passed through the ramp";
}

// The same ramp as a Wavefront OBJ file gives the same triangles.
TEST(GeometryRuns, AnObjMeshLoadsAsTheStlDoes) {
    SceneOnDisk disk;
    std::filesystem::create_directory(disk.dir / "meshes");
    const TriangleMesh ramp = testing::flat_grid(4, 0.2f);
    write_stl(disk.dir / "meshes" / "ramp.stl", ramp);
    {
        std::ofstream obj(disk.dir / "meshes" / "ramp.obj");
        obj << "# the ramp\no ramp\n";
        obj.precision(9);
        for (const Vec3& v : ramp.vertices) obj << "v " << v.x << ' ' << v.y << ' ' << v.z << '\n';
        for (const auto& t : ramp.triangles)
            obj << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
    }
    const SceneFile from_stl = load_scene_file(disk.write(kChute));
    std::string with_obj = kChute;
    with_obj.replace(with_obj.find("ramp.stl"), 8, "ramp.obj");
    const SceneFile from_obj = load_scene_file(disk.write(with_obj));
    const TriangleMesh& a = from_stl.bodies[0].mesh;
    const TriangleMesh& b = from_obj.bodies[0].mesh;
    ASSERT_EQ(a.triangles.size(), b.triangles.size());
    ASSERT_EQ(a.vertices.size(), b.vertices.size());
    for (std::size_t i = 0; i < a.vertices.size(); ++i) {
        EXPECT_EQ(a.vertices[i].x, b.vertices[i].x);
        EXPECT_EQ(a.vertices[i].z, b.vertices[i].z);
    }
    EXPECT_EQ(a.triangles, b.triangles);
}

TEST(GeometryRuns, ABadBodyIsNamedWithItsFileAndPlace) {
    SceneOnDisk disk;
    std::string missing = kChute;
    const std::string message = error_of([&] { load_scene_file(disk.write(missing)); });
    EXPECT_NE(message.find("chute.json"), std::string::npos) << message;
    EXPECT_NE(message.find("geometry[0]"), std::string::npos) << message;
    EXPECT_NE(message.find("ramp.stl"), std::string::npos) << message;

    std::filesystem::create_directory(disk.dir / "meshes");
    write_stl(disk.dir / "meshes" / "ramp.stl", testing::flat_grid(4, 0.2f));
    std::string away = kChute;
    away.replace(away.find("\"rotate\""), 8, "\"translate\": [5, 0, 0], \"rotate\"");
    const std::string outside = error_of([&] { load_scene_file(disk.write(away)); });
    EXPECT_NE(outside.find("geometry[0]"), std::string::npos) << outside;
    EXPECT_NE(outside.find("domain"), std::string::npos) << outside;

    std::string open_tank = kChute;
    open_tank.replace(open_tank.find("\"friction\""), 10, "\"inside\": true, \"friction\"");
    const std::string open = error_of([&] { load_scene_file(disk.write(open_tank)); });
    EXPECT_NE(open.find("geometry[0]"), std::string::npos) << open;
    EXPECT_NE(open.find("closed (watertight)"), std::string::npos) << open;
}

}  // namespace
}  // namespace plab::sim
