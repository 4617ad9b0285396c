// Scene files: the shipped ones load and start, and bad files give errors that name the file,
// the key and what is wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "sim/core/error.h"
#include "sim/engine/initial_state.h"
#include "sim/io/scene_file.h"
#include "sim/physics/sph_kernel.h"
#include "sim/scene_file_errors.h"

namespace plab::sim {
namespace {

using testing::error_of;
using testing::expect_error;

TEST(SceneFile, EveryShippedSceneLoadsAndStarts) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(PLAB_SCENES_DIR)) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().string());
        const SceneFile f = load_scene_file(entry.path());
        EXPECT_FALSE(f.name.empty());
        EXPECT_FALSE(f.description.empty());
        // A scene with emitters may start small: it grows to thousands as it pours.
        EXPECT_GT(std::max(f.particles, f.sources.max_particles), 1000u);
        const InitialState s = build_initial_state(f.scene, f.params, f.particles);
        EXPECT_EQ(s.pos.size(), f.particles);
        if (f.params.model == Model::Sph) {  // liquids ship at a stable step
            EXPECT_LE(f.params.dt, sph_max_dt(f.params, 0.f));
        }
        ++count;
    }
    EXPECT_GE(count, 3);
}

TEST(SceneFile, ShipsTheStandardScenes) {
    const std::pair<const char*, Model> expected[] = {{"classic", Model::Dem},
                                                      {"granular_pile", Model::Dem},
                                                      {"mixer", Model::Dem},
                                                      {"dam_break", Model::Sph},
                                                      {"double_dam_break", Model::Sph},
                                                      {"drop_into_pool", Model::Sph},
                                                      {"hydrostatic_tank", Model::Sph}};
    for (const auto& [name, model] : expected) {
        const SceneFile f =
            load_scene_file(std::filesystem::path(PLAB_SCENES_DIR) / (std::string(name) + ".json"));
        EXPECT_EQ(f.params.model, model) << name;
        EXPECT_EQ(f.name, name);
    }
}

TEST(SceneFile, ParamsOverrideThePreset) {
    const SceneFile f = parse_scene_file(
        R"({"preset": "granular", "particles": 10, "params": {"spring": 4000, "substeps": 3}})",
        "test.json");
    EXPECT_EQ(f.preset, Preset::Granular);
    EXPECT_FLOAT_EQ(f.params.spring, 4000.f);
    EXPECT_EQ(f.params.substeps, 3);
    EXPECT_FLOAT_EQ(f.params.gravity_y, -9.81f);  // untouched keys keep the preset's value
    EXPECT_EQ(f.particles, 10u);
}

TEST(SceneFile, BlocksDefaultToEverythingTheyPlace) {
    const SceneFile f = parse_scene_file(R"({
        "preset": "classic", "domain": {"min": [-1, -1, -1], "max": [1, 1, 1]},
        "blocks": [{"min": [0, 0, 0], "max": [0.5, 0.5, 0.5], "spacing": 0.125}]})",
                                         "test.json");
    EXPECT_EQ(f.particles, 64u);
    EXPECT_EQ(f.name, "test");
}

TEST(SceneFile, ErrorsNameTheFileTheKeyAndTheProblem) {
    expect_error(R"({"preset": "classic", "particles": 10, "colour": 1})",
                 {"colour", "unknown key", "allowed here"});
    expect_error(R"({"preset": "classic", "particles": 10, "params": {"sprng": 1}})",
                 {"params.sprng", "unknown parameter"});
    expect_error(R"({"preset": "classic", "particles": 10, "params": {"dt": -1}})",
                 {"params.dt", "allowed range"});
    expect_error(R"({"preset": "classic", "particles": 10, "params": {"dt": "fast"}})",
                 {"params.dt", "expected a number"});
    expect_error(R"({"preset": "sand", "particles": 10})", {"preset", "unknown preset 'sand'"});
    expect_error(R"({"preset": "classic"})", {"particles"});
    expect_error(R"({"model": "sph", "preset": "classic", "particles": 1})",
                 {"model", "does not match preset 'classic', which is dem"});
    expect_error(R"({"model": "lava", "preset": "water", "particles": 1})",
                 {"model", "available: dem, sph"});
    expect_error(R"({"preset": "classic", "particles": -3})", {"particles", "whole number"});
    const std::string box = R"("domain": {"min": [0, 0, 0], "max": [1, 1, 1]})";
    expect_error(R"({"preset": "classic", )" + box +
                     R"(, "blocks": [{"min": [0, 0, 0], "max": [1, 1, 1], "spacing": -1}]})",
                 {"blocks[0].spacing", "positive"});
    expect_error(R"({"preset": "classic", )" + box +
                     R"(, "blocks": [{"min": [0, 0], "max": [1, 1, 1], "spacing": 0.5}]})",
                 {"blocks[0].min", "3 numbers"});
    expect_error(R"({"preset": "classic", )" + box +
                     R"(, "blocks": [{"min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.5,)"
                     R"( "shape": "cone"}]})",
                 {"blocks[0].shape", "cone"});
    expect_error(R"({"preset": "classic", )" + box +
                     R"(, "particles": 9, "blocks": [{"min": [0, 0, 0], "max": [1, 1, 1],)"
                     R"( "spacing": 0.5}]})",
                 {"particles", "more than the blocks can place (8)"});
    expect_error(R"({"preset": "classic", "domain": {"min": [1, 0, 0], "max": [0, 1, 1]},)"
                 R"( "blocks": [{"min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.5}]})",
                 {"domain", "below"});
}

TEST(SceneFile, CameraIsOptionalAndChecked) {
    const SceneFile f = parse_scene_file(
        R"({"preset": "water", "particles": 10,
            "camera": {"target": [0.5, 0.2, 0.1], "distance": 2, "yaw": 30, "pitch": 20}})",
        "test.json");
    ASSERT_TRUE(f.camera.has_value());
    EXPECT_FLOAT_EQ(f.camera->target.y, 0.2f);
    EXPECT_FLOAT_EQ(f.camera->distance, 2.f);
    EXPECT_FLOAT_EQ(f.camera->pitch_deg, 20.f);
    EXPECT_FALSE(parse_scene_file(R"({"preset": "water", "particles": 10})", "test.json").camera);
    expect_error(R"({"preset": "water", "particles": 1,
                    "camera": {"target": [0, 0, 0], "distance": 0, "yaw": 0, "pitch": 0}})",
                 {"camera.distance", "positive"});
    expect_error(R"({"preset": "water", "particles": 1,
                    "camera": {"target": [0, 0, 0], "distance": 1, "yaw": 0, "pitch": 90}})",
                 {"camera.pitch"});
    expect_error(R"({"preset": "water", "particles": 1,
                    "camera": {"target": [0, 0, 0], "distance": 1, "yaw": 0}})",
                 {"camera", "missing 'pitch'"});
    expect_error(R"({"preset": "water", "particles": 1,
                    "camera": {"target": [0, 0, 0], "distance": 1, "yaw": 0, "pitch": 0,
                               "roll": 3}})",
                 {"camera.roll", "unknown key"});
}

TEST(SceneFile, SyntaxErrorsGiveLineAndColumn) {
    const std::string msg = error_of("{\n  \"preset\": \"classic\",\n  \"particles\": 10,,\n}");
    EXPECT_NE(msg.find("test.json:3:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("invalid JSON"), std::string::npos) << msg;
}

TEST(SceneFile, MissingFileIsNamed) {
    try {
        load_scene_file("/no/such/scene.json");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/no/such/scene.json: cannot open"),
                  std::string::npos);
    }
}

}  // namespace
}  // namespace plab::sim
