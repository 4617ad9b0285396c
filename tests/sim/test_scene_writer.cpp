// Scene files written back: every shipped scene saved into another folder loads to the same
// scene (parameters, blocks, bodies with their meshes, sources, camera) and saves again to the
// same text; a run's edits (a parameter, a body's spin) survive a save; a checkpoint whose
// scene is gone and an unwritable path are refused with the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "sim/core/error.h"
#include "sim/io/scene_file.h"
#include "sim/io/scene_writer.h"
#include "sim/run/run.h"
#include "support/error_of.h"
#include "support/file_text.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

namespace fs = std::filesystem;

void expect_same_vec(Vec3 a, Vec3 b, const std::string& what) {
    EXPECT_EQ(a.x, b.x) << what;
    EXPECT_EQ(a.y, b.y) << what;
    EXPECT_EQ(a.z, b.z) << what;
}

// The normals the reader makes unit length may move by a rounding step when read again.
void expect_near_vec(Vec3 a, Vec3 b, const std::string& what) {
    EXPECT_NEAR(a.x, b.x, 1e-6f) << what;
    EXPECT_NEAR(a.y, b.y, 1e-6f) << what;
    EXPECT_NEAR(a.z, b.z, 1e-6f) << what;
}

void expect_same_scene(const SceneFile& a, const SceneFile& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.description, b.description);
    EXPECT_EQ(a.preset, b.preset);
    EXPECT_TRUE(a.params == b.params) << a.name << ": parameters differ";
    EXPECT_EQ(a.particles, b.particles);
    EXPECT_EQ(a.has_own_blocks, b.has_own_blocks);
    expect_same_vec(a.scene.domain.min, b.scene.domain.min, "domain min");
    expect_same_vec(a.scene.domain.max, b.scene.domain.max, "domain max");
    ASSERT_EQ(a.scene.blocks.size(), b.scene.blocks.size());
    for (std::size_t i = 0; i < a.scene.blocks.size(); ++i) {
        const ParticleBlock &x = a.scene.blocks[i], &y = b.scene.blocks[i];
        EXPECT_EQ(x.shape, y.shape);
        expect_same_vec(x.min, y.min, "block min");
        expect_same_vec(x.max, y.max, "block max");
        EXPECT_EQ(x.spacing, y.spacing);
        EXPECT_EQ(x.jitter, y.jitter);
        expect_same_vec(x.velocity, y.velocity, "block velocity");
    }
    ASSERT_EQ(a.bodies.size(), b.bodies.size());
    for (std::size_t i = 0; i < a.bodies.size(); ++i) {
        const Body &x = a.bodies[i], &y = b.bodies[i];
        EXPECT_EQ(x.shape, y.shape);
        EXPECT_EQ(x.mesh.triangle_count(), y.mesh.triangle_count()) << "mesh " << x.file;
        expect_same_vec(x.box_min, y.box_min, "box min");
        expect_same_vec(x.box_max, y.box_max, "box max");
        expect_same_vec(x.center, y.center, "cylinder centre");
        expect_near_vec(x.axis, y.axis, "cylinder axis");
        EXPECT_EQ(x.radius, y.radius);
        EXPECT_EQ(x.length, y.length);
        expect_same_vec(x.point, y.point, "plane point");
        expect_near_vec(x.normal, y.normal, "plane normal");
        expect_same_vec(x.scale, y.scale, "scale");
        expect_same_vec(x.rotate_deg, y.rotate_deg, "rotate");
        expect_same_vec(x.translate, y.translate, "translate");
        EXPECT_EQ(x.inside, y.inside);
        EXPECT_EQ(x.friction, y.friction);
        EXPECT_EQ(x.motion.spin_rpm, y.motion.spin_rpm);
        expect_near_vec(x.motion.spin_axis, y.motion.spin_axis, "spin axis");
        expect_same_vec(x.motion.spin_center, y.motion.spin_center, "spin centre");
        expect_same_vec(x.motion.velocity, y.motion.velocity, "body velocity");
    }
    ASSERT_EQ(a.sources.emitters.size(), b.sources.emitters.size());
    for (std::size_t i = 0; i < a.sources.emitters.size(); ++i) {
        const Emitter &x = a.sources.emitters[i], &y = b.sources.emitters[i];
        EXPECT_EQ(x.shape, y.shape);
        expect_same_vec(x.center, y.center, "emitter centre");
        expect_near_vec(x.normal, y.normal, "emitter normal");
        expect_same_vec(x.size, y.size, "emitter size");
        EXPECT_EQ(x.speed, y.speed);
        EXPECT_EQ(x.rate, y.rate);
        EXPECT_EQ(x.flow, y.flow);
        EXPECT_EQ(x.start, y.start);
        EXPECT_EQ(x.stop, y.stop);
    }
    ASSERT_EQ(a.sources.sinks.size(), b.sources.sinks.size());
    for (std::size_t i = 0; i < a.sources.sinks.size(); ++i) {
        expect_same_vec(a.sources.sinks[i].min, b.sources.sinks[i].min, "sink min");
        expect_same_vec(a.sources.sinks[i].max, b.sources.sinks[i].max, "sink max");
    }
    EXPECT_EQ(a.sources.max_particles, b.sources.max_particles);
    ASSERT_EQ(a.camera.has_value(), b.camera.has_value());
    if (a.camera) {
        expect_same_vec(a.camera->target, b.camera->target, "camera target");
        EXPECT_EQ(a.camera->distance, b.camera->distance);
        EXPECT_EQ(a.camera->yaw_deg, b.camera->yaw_deg);
        EXPECT_EQ(a.camera->pitch_deg, b.camera->pitch_deg);
    }
}

TEST(SceneWriter, EveryShippedSceneSavedElsewhereLoadsToTheSameSceneAndSavesAlike) {
    const test::TempDir dir;
    int scenes = 0;
    for (const auto& entry : fs::directory_iterator(PLAB_SCENES_DIR)) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().filename().string());
        const SceneFile original = load_scene_file(entry.path());
        // Another folder, so a mesh's path must be rewritten to still find the mesh.
        const fs::path saved = dir / "mine" / entry.path().filename();
        save_scene_file(original, entry.path().parent_path(), saved);
        const SceneFile again = load_scene_file(saved);
        expect_same_scene(original, again);
        const std::string text = test::read_text(saved);
        EXPECT_EQ(scene_file_text(again, saved.parent_path(), saved.parent_path()), text)
            << "saving the saved scene changed its text";
        ++scenes;
    }
    EXPECT_GE(scenes, 10);
}

TEST(SceneWriter, FloatsAreWrittenInTheFewestDigitsThatReadBack) {
    SceneFile f = parse_scene_file(R"({"preset": "classic", "particles": 1000})", "t.json");
    f.params.spring = 0.1f;
    f.params.dt = 1.f / 3.f;
    const std::string text = scene_file_text(f, ".", ".");
    EXPECT_NE(text.find("\"spring\": 0.1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\"dt\": 0.33333334"), std::string::npos) << text;
    // Only what differs from the preset is written.
    EXPECT_EQ(text.find("\"damping\""), std::string::npos) << text;
    const SceneFile back = parse_scene_file(text, "t.json");
    EXPECT_EQ(back.params.dt, f.params.dt);
    EXPECT_EQ(back.params.spring, f.params.spring);
}

RunStart start_of(const fs::path& scene, std::size_t particles = 0) {
    RunStart s;
    s.backend = Backend::Cpu;
    s.request.scene_file = load_scene_file(scene);
    s.request.scene_source = scene.string();
    s.request.particles = particles;
    return s;
}

TEST(SceneWriter, ARunsEditsAndItsBodysSpinSurviveASave) {
    const test::TempDir dir;
    const fs::path drum = fs::path(PLAB_SCENES_DIR) / "drum.json";
    sim::Run run(start_of(drum, 500));
    Params p = run.params();
    p.friction = 0.31f;
    run.set_params(p);
    run.set_body_spin(0, -17.5f);
    run.step();
    const fs::path saved = dir / "edited_drum.json";
    save_scene_file(run.scene_to_save(), drum.parent_path(), saved);
    const SceneFile back = load_scene_file(saved);
    EXPECT_EQ(back.params.friction, 0.31f);
    EXPECT_EQ(back.particles, 500u);
    ASSERT_EQ(back.bodies.size(), 1u);
    EXPECT_EQ(back.bodies[0].motion.spin_rpm, -17.5f);
    // A run of the saved scene starts as the edited run restarts.
    sim::Run again(start_of(saved));
    EXPECT_TRUE(again.params() == run.params());
    EXPECT_EQ(again.particle_count(), 500u);
    EXPECT_EQ(again.body_spin(0), run.body_spin(0));
}

TEST(SceneWriter, APresetsSceneIsSavedByItsCount) {
    const test::TempDir dir;
    RunStart s;
    s.backend = Backend::Cpu;
    s.request.preset = "water";
    s.request.particles = 700;
    sim::Run run(s);
    save_scene_file(run.scene_to_save(), ".", dir / "water.json");
    const SceneFile back = load_scene_file(dir / "water.json");
    EXPECT_EQ(back.preset, Preset::Water);
    EXPECT_FALSE(back.has_own_blocks);
    EXPECT_EQ(back.particles, 700u);
    EXPECT_TRUE(back.params == run.params());
}

TEST(SceneWriter, RefusalsNameTheReason) {
    const test::TempDir dir;
    // A checkpoint of a preset run has no scene that reproduces its particles.
    RunStart s;
    s.backend = Backend::Cpu;
    s.request.preset = "classic";
    s.request.particles = 400;
    sim::Run run(s);
    run.step();
    run.save(dir / "state.plab");
    RunStart from;
    from.backend = Backend::Cpu;
    from.checkpoint = std::make_shared<const Checkpoint>(load_checkpoint(dir / "state.plab"));
    from.checkpoint_source = (dir / "state.plab").string();
    sim::Run loaded(from);
    EXPECT_NE(test::error_of([&] { (void)loaded.scene_to_save(); }).find("save a checkpoint"),
              std::string::npos);
    // A path under a file, not a folder.
    std::ofstream(dir / "plain") << "x";
    const std::string why = test::error_of(
        [&] { save_scene_file(run.scene_to_save(), ".", dir / "plain" / "s.json"); });
    EXPECT_NE(why.find("plain"), std::string::npos) << why;
}

}  // namespace
}  // namespace plab::sim
