// Live edits of a scene's bodies (Run::set_bodies, the window's Geometry tools): a box put
// under a falling block holds a layer of it where the same run without it holds none; a
// moved body moves its triangles; the run keeps its particles, time and starts; a Reset keeps
// the edit; a body that cannot run is refused with its reason and changes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "sim/io/checkpoint.h"
#include "sim/io/scene_file.h"
#include "sim/io/scene_writer.h"
#include "sim/io/starter_body.h"
#include "sim/run/run.h"
#include "support/error_of.h"
#include "support/shelf_scene.h"

namespace plab::sim {
namespace {

constexpr const char* kScene = R"({"name": "falling block", "preset": "classic",
  "params": {"collider_radius": 0},
  "domain": {"min": [-1, -1, -1], "max": [1, 1, 1]},
  "blocks": [{"min": [-0.3, 0.4, -0.3], "max": [0.3, 0.7, 0.3], "spacing": 0.0313}]})";

RunStart start() {
    RunStart s;
    s.backend = Backend::Cpu;
    s.single_dt = true;
    s.request.scene_file = parse_scene_file(kScene, "block.json");
    s.request.scene_source = "block.json";
    return s;
}

Body shelf(float y_top) {
    Body b;
    b.shape = BodyShape::Box;
    b.box_min = {-0.6f, y_top - 0.2f, -0.6f};
    b.box_max = {0.6f, y_top, 0.6f};
    return b;
}

// Beads whose centre lies in [lo, hi] in height over the shelf's footprint (|x|, |z| < 0.6).
std::size_t between(sim::Run& run, float lo, float hi) {
    const InitialState s = run.simulator().capture_state();
    std::size_t n = 0;
    for (const Float4& p : s.pos)
        n += p.y >= lo && p.y <= hi && std::abs(p.x) < 0.6f && std::abs(p.z) < 0.6f;
    return n;
}

TEST(SceneEdit, AShelfPutUnderAFallingBlockCatchesIt) {
    sim::Run free_fall(start()), caught(start());
    const std::size_t n = caught.particle_count();
    const std::uint64_t starts = caught.starts();
    for (int i = 0; i < 10; ++i) {
        free_fall.step();
        caught.step();
    }
    const double t = caught.time();
    caught.set_bodies({shelf(0.f)});
    EXPECT_EQ(caught.particle_count(), n);
    EXPECT_EQ(caught.time(), t) << "the edit restarted the clock";
    EXPECT_EQ(caught.starts(), starts) << "the edit began a new run";
    ASSERT_TRUE(caught.geometry());
    EXPECT_EQ(caught.geometry()->bodies.size(), 1u);
    for (int i = 0; i < 600; ++i) {
        free_fall.step();
        caught.step();
    }
    // The frictionless classic beads spread: some flow off the shelf's edges to the floor (and
    // under the shelf), but none crosses the shelf, and a layer rests on it.
    EXPECT_EQ(between(free_fall, 0.f, 0.1f), 0u) << "without the shelf nothing rests there";
    EXPECT_GT(between(caught, 0.f, 0.1f), n / 10) << "no layer rests on the shelf";
    EXPECT_EQ(between(caught, -0.2f, 0.f), 0u) << "beads inside the shelf";
    EXPECT_EQ(caught.simulator().stats(caught.params()).non_finite, 0u);
}

TEST(SceneEdit, AMovedBodyMovesItsTrianglesAndAResetKeepsTheEdit) {
    sim::Run run(start());
    run.set_bodies({shelf(0.f)});
    Body moved = shelf(0.f);
    moved.translate = {0.f, -0.5f, 0.f};
    run.set_bodies({moved});
    float highest = -1e9f;
    for (const GeoTriangle& t : run.geometry()->triangles)
        highest = std::max({highest, t.a.y, t.b.y, t.c.y});
    EXPECT_NEAR(highest, -0.5f, 1e-5f);
    run.restart(run.params());
    ASSERT_TRUE(run.geometry());
    EXPECT_EQ(run.scene_file()->bodies.size(), 1u);
    EXPECT_EQ(run.scene_file()->bodies[0].translate.y, -0.5f);
    run.set_bodies({});
    EXPECT_TRUE(!run.geometry() || run.geometry()->bodies.empty());
}

TEST(SceneEdit, ABodyThatCannotRunIsRefusedAndChangesNothing) {
    sim::Run run(start());
    run.set_bodies({shelf(0.f)});
    const auto geometry = run.geometry();
    Body far = shelf(0.f);
    far.translate = {0.f, 50.f, 0.f};
    const std::string why = test::error_of([&] { run.set_bodies({shelf(0.f), far}); });
    EXPECT_NE(why.find("geometry[1]"), std::string::npos) << why;
    EXPECT_EQ(run.geometry(), geometry);
    EXPECT_EQ(run.scene_file()->bodies.size(), 1u);
    run.step();
    EXPECT_EQ(run.simulator().stats(run.params()).non_finite, 0u);
}

template <typename T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Glass beads sliding on a shelf (support/shelf_scene.h); the shelf lowered mid-run.
TEST(SceneEdit, AnEditKeepsTheParticlesAndForgetsOnlyTheirContactsWithBodies) {
    RunStart s;
    s.backend = Backend::Cpu;
    s.single_dt = true;
    s.request.scene_file = parse_scene_file(test::kBeadsSlidingOnAShelf, "shelf.json");
    s.request.scene_source = "shelf.json";
    sim::Run run(s);
    for (int i = 0; i < 3000; ++i) run.step();  // landed and sliding (0.17 s)
    const InitialState before = run.simulator().capture_state();
    ASSERT_FALSE(before.friction.empty());
    ASSERT_TRUE(test::remembers_a_body(before.friction.mesh_xi))
        << "no bead remembers sliding on the shelf";
    Body lowered = run.scene_file()->bodies.at(0);
    lowered.translate = {0.f, -0.0002f, 0.f};
    run.set_bodies({lowered});
    const InitialState after = run.simulator().capture_state();
    // The particles, their rotations and their memory of one another, bit for bit.
    EXPECT_TRUE(same_bytes(after.pos, before.pos));
    EXPECT_TRUE(same_bytes(after.vel, before.vel));
    EXPECT_EQ(after.order, before.order);
    EXPECT_TRUE(same_bytes(after.friction.omega, before.friction.omega));
    EXPECT_TRUE(same_bytes(after.friction.contacts, before.friction.contacts));
    EXPECT_TRUE(same_bytes(after.friction.wall_xi, before.friction.wall_xi));
    // Their memory of the body, gone; the new body is the one the next step meets.
    EXPECT_EQ(after.friction.mesh_xi.size(), before.friction.mesh_xi.size());
    EXPECT_FALSE(test::remembers_a_body(after.friction.mesh_xi));
    ASSERT_TRUE(after.geometry);
    EXPECT_EQ(after.geometry, run.geometry());
    for (int i = 0; i < 300; ++i) run.step();
    EXPECT_TRUE(test::remembers_a_body(run.simulator().capture_state().friction.mesh_xi))
        << "the lowered shelf holds no bead";
    EXPECT_EQ(run.simulator().stats(run.params()).non_finite, 0u);
}

// The window's Add buttons: each starter body fits the domain it is made for, and a run takes
// them all at once; a mesh is put at the domain's centre with its path kept whole.
TEST(SceneEdit, EveryStarterBodyFitsItsDomainAndARunTakesThem) {
    sim::Run run(start());
    const Domain& d = run.domain();
    std::vector<Body> bodies;
    for (BodyShape shape : {BodyShape::Box, BodyShape::Cylinder, BodyShape::Plane})
        bodies.push_back(starter_body(shape, d));
    const Body mesh = mesh_body(PLAB_MESHES_DIR "/funnel.stl", d);
    EXPECT_TRUE(std::filesystem::path(mesh.file).is_absolute());
    const Vec3 middle = place_point(mesh, body_middle(mesh));
    EXPECT_NEAR(middle.x, 0.5f * (d.min.x + d.max.x), 1e-4f);
    EXPECT_NEAR(middle.y, 0.5f * (d.min.y + d.max.y), 1e-4f);
    bodies.push_back(mesh);
    run.set_bodies(bodies);
    EXPECT_EQ(run.geometry()->bodies.size(), 4u);
    for (int i = 0; i < 20; ++i) run.step();
    EXPECT_EQ(run.simulator().stats(run.params()).non_finite, 0u);
    EXPECT_NE(test::error_of([&] { (void)mesh_body("no/such/mesh.stl", d); }).find("no/such"),
              std::string::npos);
    // A mesh larger than the domain is scaled down evenly to nine tenths of it, centred.
    const Domain small{{-0.05f, 0.f, -0.05f}, {0.05f, 0.1f, 0.05f}};
    const Body fitted = mesh_body(PLAB_MESHES_DIR "/funnel.stl", small);
    EXPECT_LT(fitted.scale.x, 1.f);
    EXPECT_EQ(fitted.scale.x, fitted.scale.y);
    EXPECT_EQ(fitted.scale.x, fitted.scale.z);
    Vec3 lo{1e9f, 1e9f, 1e9f}, hi{-1e9f, -1e9f, -1e9f};
    for (const Vec3& v : body_surface(fitted, small).vertices) {
        lo = {std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z)};
        hi = {std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z)};
    }
    const float widest = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    EXPECT_NEAR(widest, 0.09f, 1e-4f) << "the fitted mesh does not fill nine tenths";
    EXPECT_NEAR(0.5f * (lo.y + hi.y), 0.05f, 1e-4f);
    EXPECT_EQ(mesh.scale.x, 1.f) << "a mesh that fits keeps its size";
}

// The Bodies tab's + emitter and + sink: the run starts pouring from now and the saved scene
// keeps them; an emitter outside the domain is refused by its key and changes nothing.
TEST(SceneEdit, AnEmitterAddedToARunPoursFromNowAndABadOneIsRefused) {
    sim::Run run(start());
    for (int i = 0; i < 5; ++i) run.step();
    const std::size_t n = run.particle_count();
    Sources s;
    s.max_particles = starter_max_particles(n);
    EXPECT_EQ(s.max_particles, n + 20000);
    // Alone, it pours until the run would be full (no sink needed).
    s.emitters.push_back(starter_emitter(run.domain(), run.params(), run.time(), 20000));
    EXPECT_GT(s.emitters[0].stop, run.time());
    run.set_sources(s);
    s.sinks.push_back(starter_sink(run.domain()));
    run.set_sources(s);
    for (int i = 0; i < 300; ++i) run.step();
    EXPECT_GT(run.particle_count(), n) << "the emitter laid nothing";
    EXPECT_GT(run.source_progress().emitted.at(0), 0u);
    EXPECT_EQ(run.simulator().stats(run.params()).non_finite, 0u);
    EXPECT_EQ(run.scene_to_save().sources.emitters.size(), 1u);

    Sources bad = s;
    bad.emitters[0].center.y = 40.f;
    const std::size_t now = run.particle_count();
    const std::string why = test::error_of([&] { run.set_sources(bad); });
    EXPECT_NE(why.find("emitters[0]"), std::string::npos) << why;
    EXPECT_EQ(run.scene_file()->sources.emitters[0].center.y, s.emitters[0].center.y);
    EXPECT_EQ(run.particle_count(), now);
}

TEST(SceneEdit, APresetsRunTakesABodyAndSavesAsAScene) {
    RunStart s;
    s.backend = Backend::Cpu;
    s.request.preset = "classic";
    s.request.particles = 500;
    sim::Run run(s);
    ASSERT_FALSE(run.scene_file());
    Body floor;
    floor.shape = BodyShape::Plane;
    floor.point = {0.f, -0.9f, 0.f};
    floor.normal = {0.f, 1.f, 0.f};
    run.set_bodies({floor});
    ASSERT_TRUE(run.scene_file());
    EXPECT_EQ(run.scene_file()->bodies.size(), 1u);
    EXPECT_EQ(run.particle_count(), 500u);
    EXPECT_EQ(run.scene_to_save().bodies.size(), 1u);
}

// Save scene, then a checkpoint: the saved file becomes the run's, so the checkpoint names it
// and a run continued from it keeps pouring from the emitter added by hand.
TEST(SceneEdit, ACheckpointAfterSaveSceneKeepsTheSourcesAddedByHand) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "plab_adopt_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    RunStart s;
    s.backend = Backend::Cpu;
    s.single_dt = true;
    s.request.preset = "classic";
    s.request.particles = 500;
    sim::Run run(s);
    Sources src;
    src.max_particles = starter_max_particles(run.particle_count());
    src.emitters.push_back(starter_emitter(run.domain(), run.params(), run.time(), 20000));
    run.set_sources(src);
    const std::string scene = (dir / "built.json").string();
    save_scene_file(run.scene_to_save(), ".", scene);
    run.adopt_scene_file(scene);
    EXPECT_EQ(run.scene_source(), scene);
    const fs::path state = dir / "built.plab";
    for (int i = 0; i < 200; ++i) run.step();
    run.save(state);
    const auto laid = run.source_progress().emitted.at(0);
    ASSERT_GT(laid, 0u);

    RunStart again = s;
    again.request = {};
    again.checkpoint = std::make_shared<const Checkpoint>(load_checkpoint(state));
    sim::Run continued(again);
    ASSERT_TRUE(continued.scene_file());
    EXPECT_EQ(continued.scene_file()->sources.emitters.size(), 1u);
    for (int i = 0; i < 200; ++i) continued.step();
    EXPECT_GT(continued.source_progress().emitted.at(0), laid) << "the emitter stopped";

    // A file of other sources is refused, the run's own kept.
    sim::Run other(s);
    save_scene_file(other.scene_to_save(), ".", (dir / "other.json").string());
    EXPECT_NE(test::error_of([&] {
                  run.adopt_scene_file((dir / "other.json").string());
              }).find("other bodies or sources"),
              std::string::npos);
    EXPECT_EQ(run.scene_source(), scene);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace plab::sim
