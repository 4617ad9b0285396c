// A body's motion edited while the run goes on (Run::set_body_spin): a small drum of frictional
// beads carries its bed up the rising side whichever way it turns, the edit reaches the step,
// captures, restarts and checkpoints (which continue bit for bit), and edits that cannot run are
// refused with the body's name, the run unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "sim/core/error.h"
#include "sim/io/checkpoint.h"
#include "sim/io/scene_file.h"
#include "sim/run/run.h"
#include "support/error_of.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

using test::error_of;

// A drum 12 cm across and three beads deep about z, a third full of 1 cm glass beads, at rest;
// and a box body, which cannot spin.
constexpr const char* kSmallDrum = R"({
  "name": "small drum", "description": "a drum for the tests", "preset": "glass-beads",
  "params": {"collider_radius": 0},
  "domain": {"min": [-0.07, 0, -0.02], "max": [0.07, 0.14, 0.02]},
  "blocks": [{"shape": "box", "min": [-0.04, 0.03, -0.0155], "max": [0.04, 0.09, 0.0155],
              "spacing": 0.0105}],
  "geometry": [
    {"type": "cylinder", "center": [0, 0.07, 0], "axis": [0, 0, 1], "radius": 0.06,
     "length": 0.032, "inside": true,
     "motion": {"spin_axis": [0, 0, 1], "spin_center": [0, 0.07, 0], "spin_rpm": 0}},
    {"type": "box", "min": [-0.01, 0.12, -0.01], "max": [0.01, 0.13, 0.01]}
  ]
})";

struct DrumRun {
    test::TempDir dir;
    std::unique_ptr<Run> run;
    DrumRun() {
        const auto path = dir / "drum.json";
        std::ofstream(path) << kSmallDrum;
        RunStart start;
        start.backend = Backend::Cpu;
        start.request.scene_file = load_scene_file(path);
        start.request.scene_source = path.string();
        run = std::make_unique<Run>(start);
    }
    // Steps for `seconds` of simulated time.
    void advance(double seconds) {
        const double until = run->time() + seconds;
        while (run->time() < until) run->step();
    }
    // The bed's mean x, m: 0 at rest, towards the rising side while the drum turns.
    double mean_x() {
        const Snapshot s = run->simulator().download();
        double sum = 0;
        for (const Float4& q : s.pos) sum += q.x;
        return sum / double(s.pos.size());
    }
};

TEST(BodyMotion, ASpinningDrumLiftsItsBedOnTheRisingSide) {
    DrumRun d;
    ASSERT_EQ(d.run->body_spin(0), 0.f);
    EXPECT_FALSE(d.run->body_spin(1)) << "a box cannot spin";
    d.advance(0.4);  // the bed falls and settles
    const double at_rest = d.mean_x();
    EXPECT_LT(std::fabs(at_rest), 0.003);
    // About +z, the drum's bottom moves towards +x: the bed rides up that side.
    d.run->set_body_spin(0, 30.f);
    EXPECT_FLOAT_EQ(*d.run->body_spin(0), 30.f);
    EXPECT_NEAR(d.run->geometry()->bodies[0].omega.z, 30.f * 2.f * M_PI / 60.f, 1e-5);
    d.advance(0.6);
    const double forwards = d.mean_x();
    EXPECT_GT(forwards, at_rest + 0.01);
    d.run->set_body_spin(0, -30.f);
    d.advance(1.0);
    EXPECT_LT(d.mean_x(), at_rest - 0.01);
    // Captures carry the spin; a restart keeps it.
    EXPECT_NEAR(d.run->simulator().capture_state().geometry->bodies[0].omega.z,
                -30.f * 2.f * M_PI / 60.f, 1e-5);
    d.run->restart(d.run->params());
    EXPECT_FLOAT_EQ(*d.run->body_spin(0), -30.f);
}

TEST(BodyMotion, ACheckpointOfATurningDrumContinuesBitForBit) {
    DrumRun d;
    d.run->set_body_spin(0, 30.f);
    d.advance(0.2);
    const auto path = d.dir / "drum.plab";
    d.run->save(path);
    const auto c = std::make_shared<const Checkpoint>(load_checkpoint(path));
    // The beads' contacts with the wall are in the file's memory.
    std::size_t held = 0;
    for (const Float4& m : c->state.friction.mesh_xi) held += m.w != 0.f;
    EXPECT_GT(held, 10u);
    RunStart start;
    start.backend = Backend::Cpu;
    start.checkpoint = c;
    sim::Run resumed(start);
    EXPECT_FLOAT_EQ(*resumed.body_spin(0), 30.f);
    for (int k = 0; k < 200; ++k) {
        d.run->step();
        resumed.step();
    }
    const Snapshot a = d.run->simulator().download(), b = resumed.simulator().download();
    ASSERT_EQ(a.pos.size(), b.pos.size());
    EXPECT_EQ(std::memcmp(a.pos.data(), b.pos.data(), a.pos.size() * sizeof(Float4)), 0);
    EXPECT_EQ(std::memcmp(a.vel.data(), b.vel.data(), a.vel.size() * sizeof(Float4)), 0);
}

TEST(BodyMotion, EditsThatCannotRunAreRefusedNamingTheBody) {
    DrumRun d;
    d.advance(0.01);
    const auto before = d.run->geometry();
    EXPECT_NE(error_of([&] { d.run->set_body_spin(1, 10.f); }).find("geometry[1] (box)"),
              std::string::npos);
    EXPECT_NE(error_of([&] { d.run->set_body_spin(0, NAN); }).find("not a number"),
              std::string::npos);
    EXPECT_NE(error_of([&] { d.run->set_body_spin(0, 1e6f); }).find("not a number in"),
              std::string::npos);
    EXPECT_NE(error_of([&] { d.run->set_body_spin(7, 10.f); }).find("no body 7"),
              std::string::npos);
    EXPECT_EQ(d.run->geometry(), before) << "a refused edit changed the bodies";
    EXPECT_EQ(*d.run->body_spin(0), 0.f);
    // The simulator checks what it is given: other triangles are not new motions.
    auto moved = std::make_shared<SceneGeometry>(*before);
    moved->triangles[0].a.x += 0.001f;
    EXPECT_THROW(d.run->simulator().set_body_motions(moved), Error);
}

}  // namespace
}  // namespace plab::sim
