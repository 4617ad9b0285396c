// The window's grab tool (app/viewer/grab.h): the press holds the particles within the radius
// of the first one under the cursor, ids ascending with their offsets (a captured state's ids
// by memory slot); the drag moves the anchor on the plane facing the camera; on a run the
// held particles follow the anchor and the others are left alone.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/resting_block.h"
#include "app/viewer/grab.h"
#include "sim/run/run.h"

namespace plab::app {
namespace {

TEST(Grab, HoldsTheParticlesNearTheFirstOneUnderTheCursor) {
    sim::InitialState s;
    s.pos = {{0.f, 0.f, -2.f, 0.f},    // first on the ray
             {0.05f, 0.f, -2.f, 0.f},  // within reach of it
             {0.f, 0.3f, -2.f, 0.f},   // too far
             {0.f, 0.f, -5.f, 0.f}};   // on the ray, behind the first
    s.order = {7, 3, 9, 1};            // a capture: the id at each memory slot
    const glm::vec3 eye(0.f), dir(0.f, 0.f, -1.f);
    const auto g = grab_particles(s, eye, dir, dir, 0.1f);
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->pull.ids, (std::vector<uint32_t>{3, 7}));
    EXPECT_NEAR(g->pull.offsets[0].x, 0.05f, 1e-6f);  // id 3 sits 5 cm to the side
    EXPECT_NEAR(g->pull.offsets[1].x, 0.f, 1e-6f);
    EXPECT_NEAR(g->pull.target.z, -2.f, 1e-6f);
    EXPECT_NO_THROW(sim::check_pull(g->pull));
    EXPECT_FALSE(grab_particles(s, eye, glm::vec3(1.f, 0.f, 0.f), dir, 0.1f).has_value());

    // A ray to the side of the first meets the plane z = -2 there.
    const glm::vec3 to = grab_point(*g, eye, glm::normalize(glm::vec3(0.5f, 0.f, -2.f)));
    EXPECT_NEAR(to.x, 0.5f, 1e-5f);
    EXPECT_NEAR(to.z, -2.f, 1e-5f);
}

TEST(Grab, AFreshStateIsInIdOrder) {
    sim::InitialState s;
    s.pos = {{1.f, 0.f, -2.f, 0.f}, {0.f, 0.f, -2.f, 0.f}};
    const glm::vec3 dir(0.f, 0.f, -1.f);
    const auto g = grab_particles(s, glm::vec3(0.f), dir, dir, 0.1f);
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->pull.ids, (std::vector<uint32_t>{1}));
}

// On a run: a resting block's top is grabbed and pulled up; the held particles rise towards
// the anchor, the block's bottom stays on the floor.
TEST(Grab, OnARunTheHeldParticlesFollowTheAnchor) {
    sim::Run run(test::resting_block());
    const sim::InitialState s = run.simulator().capture_state();
    const glm::vec3 dir(0.f, 0.f, -1.f);
    // From the front at the block's top middle height: the first bead on the ray is the
    // front face's.
    const auto g = grab_particles(s, glm::vec3(0.f, -0.72f, 3.f), dir, dir, 0.1f);
    ASSERT_TRUE(g.has_value());
    Grab held = *g;
    const sim::Vec3 start = held.pull.target;
    held.pull.target = start + sim::Vec3{0.f, 0.5f, 0.f};
    for (int i = 0; i < 2000; ++i) {
        run.pull(held.pull);
        run.step();
    }
    const sim::Snapshot now = run.simulator().download();
    double rise = 0;
    for (const uint32_t id : held.pull.ids) rise += now.pos[id].y - s.pos[id].y;
    rise /= double(held.pull.ids.size());
    EXPECT_GT(rise, 0.25) << "the held particles did not follow the anchor up";
    std::size_t on_floor = 0;
    for (const sim::Float4& p : now.pos) on_floor += p.y < -0.95f;
    EXPECT_GT(on_floor, now.pos.size() / 10) << "the whole block went up";
    EXPECT_EQ(run.simulator().stats(run.params()).non_finite, 0u);
}

TEST(Grab, ABadPullIsRefused) {
    sim::ParticlePull p;
    p.ids = {3, 2};
    p.offsets = {{}, {}};
    EXPECT_THROW(sim::check_pull(p), std::exception);
    p.ids = {2, 3};
    p.offsets = {{}};
    EXPECT_THROW(sim::check_pull(p), std::exception);
    p.offsets = {{}, {}};
    p.target.x = NAN;
    EXPECT_THROW(sim::check_pull(p), std::exception);
    p.target.x = 0.f;
    p.stiffness = -1.f;
    EXPECT_THROW(sim::check_pull(p), std::exception);
    p.stiffness = 1.f;
    EXPECT_NO_THROW(sim::check_pull(p));
}

}  // namespace
}  // namespace plab::app
