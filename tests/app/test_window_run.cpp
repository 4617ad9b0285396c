// The window's run (sim::Run from the command line) with scene files: start one, change its size
// within what its blocks place, refuse more and keep running, and leave it for a preset; and the
// start-up warnings it keeps for the panel.
#include <gtest/gtest.h>

#include "app/viewer/window_run.h"
#include "sim/core/error.h"
#include "sim/io/scene_file.h"

namespace plab::app {
namespace {

AppConfig small_cpu_config() {
    AppConfig c;
    c.backend = sim::Backend::Cpu;
    c.run.particles = 500;
    return c;
}

const char* kBlockScene = R"({
    "name": "cube", "preset": "granular", "params": {"spring": 4000},
    "domain": {"min": [0, 0, 0], "max": [0.2, 0.2, 0.2]},
    "blocks": [{"min": [0, 0, 0], "max": [0.1, 0.1, 0.1], "spacing": 0.0125}]})";

TEST(WindowRun, StartsASceneFileWithItsBlocksAndParameters) {
    sim::Run session(window_start(small_cpu_config()));
    const sim::SceneFile file = sim::parse_scene_file(kBlockScene, "cube.json");
    session.use_scene_file(file, "cube.json");
    const sim::Params p = session.params();
    EXPECT_EQ(session.particle_count(), 512u);  // 8³ lattice points
    EXPECT_FLOAT_EQ(p.spring, 4000.f);
    EXPECT_FLOAT_EQ(session.domain().max.x, 0.2f);
    ASSERT_TRUE(session.scene_file().has_value());
    EXPECT_EQ(session.scene_file()->name, "cube");

    session.restart(session.params(), 100);  // fewer than the blocks place: fine
    EXPECT_EQ(session.particle_count(), 100u);
    EXPECT_FLOAT_EQ(session.domain().max.x, 0.2f);
    EXPECT_THROW(session.restart(session.params(), 600), Error);
    EXPECT_EQ(session.particle_count(), 100u) << "a refused size keeps the running scene";
    session.step();
}

TEST(WindowRun, AFailedSceneFileKeepsTheRunningScene) {
    sim::Run session(window_start(small_cpu_config()));
    const sim::SceneFile file = sim::parse_scene_file(kBlockScene, "cube.json");
    EXPECT_THROW(session.use_scene_file(file, "cube.json", 10'000),
                 Error);  // more than the blocks place
    EXPECT_EQ(session.particle_count(), 500u);
    EXPECT_FALSE(session.scene_file().has_value());
}

TEST(WindowRun, ChangingPresetLeavesTheSceneFile) {
    sim::Run session(window_start(small_cpu_config()));
    session.use_scene_file(sim::parse_scene_file(kBlockScene, "cube.json"), "cube.json");
    session.change_preset(sim::Preset::Classic);
    EXPECT_FALSE(session.scene_file().has_value());
    EXPECT_EQ(session.preset(), sim::Preset::Classic);
    EXPECT_FLOAT_EQ(session.domain().max.x, 1.f);
}

TEST(WindowRun, StartUpWarningsFollowTheSceneAndLiveEdits) {
    AppConfig config = small_cpu_config();
    config.run.preset = "water";
    config.run.assignments = {"spring=4"};  // DEM only: the panel says it has no effect
    sim::Run session(window_start(config));
    ASSERT_EQ(session.warnings().size(), 1u);
    EXPECT_NE(session.warnings()[0].text.find("parameter spring (spring=4) applies to dem only"),
              std::string::npos);
    sim::Params edited = session.params();
    edited.dt *= 10;  // dragged past the CFL limit: warned at once, without a reset
    session.set_params(edited);
    ASSERT_EQ(session.warnings().size(), 2u);
    EXPECT_NE(session.warnings()[0].text.find("above the SPH stability limit"), std::string::npos);
    edited.dt /= 10;
    session.set_params(edited);
    EXPECT_EQ(session.warnings().size(), 1u);
}

TEST(WindowRun, ASiloFloorNeedsTheFrictionalLaw) {
    AppConfig config = small_cpu_config();
    config.run.preset = "glass-beads";
    sim::Run session(window_start(config));
    sim::Params edited = session.params();
    edited.silo_floor = 0.05f;
    edited.orifice = 0.03f;
    session.set_params(edited);  // the frictional law has the plate
    EXPECT_FLOAT_EQ(session.params().silo_floor, 0.05f);
    edited.contact = static_cast<int>(sim::ContactLaw::Classic);
    try {
        session.set_params(edited);
        FAIL() << "expected the classic law with a plate to be refused";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("silo_floor"), std::string::npos) << e.what();
    }
    EXPECT_EQ(session.params().contact, static_cast<int>(sim::ContactLaw::Frictional))
        << "a refused edit keeps the running parameters";
    EXPECT_THROW(session.restart(edited), Error);
    EXPECT_EQ(session.params().contact, static_cast<int>(sim::ContactLaw::Frictional));
}

}  // namespace
}  // namespace plab::app
