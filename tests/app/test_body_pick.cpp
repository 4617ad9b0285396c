// Picking and turning bodies with the mouse (app/viewer/body_pick.h): the ray selects the body
// whose surface it meets first, from outside or inside, and none when it misses; a turn or a
// scaling keeps the body's placed middle where it was.
#include <gtest/gtest.h>

#include <algorithm>

#include "app/viewer/body_pick.h"
#include "sim/geometry/scene_geometry.h"

namespace plab::app {
namespace {

const sim::Domain kDomain{{-1.f, -1.f, -1.f}, {1.f, 1.f, 1.f}};

sim::Body box(float x) {
    sim::Body b;
    b.shape = sim::BodyShape::Box;
    b.box_min = {x - 0.1f, -0.1f, -0.1f};
    b.box_max = {x + 0.1f, 0.1f, 0.1f};
    return b;
}

TEST(BodyPick, TheRaySelectsTheFirstBodyItMeets) {
    const sim::SceneGeometry g = sim::place_bodies({box(-0.5f), box(0.f), box(0.5f)}, kDomain);
    const glm::vec3 down_x(1.f, 0.f, 0.f);
    // Along x from the left: the left box first, though all three lie on the ray.
    EXPECT_EQ(body_under_ray(g, glm::vec3(-0.9f, 0.f, 0.f), down_x), 0u);
    // From the right, looking back.
    EXPECT_EQ(body_under_ray(g, glm::vec3(0.9f, 0.f, 0.f), -down_x), 2u);
    // Down through the middle one only.
    EXPECT_EQ(body_under_ray(g, glm::vec3(0.f, 0.9f, 0.f), glm::vec3(0.f, -1.f, 0.f)), 1u);
    // Past them all.
    EXPECT_FALSE(body_under_ray(g, glm::vec3(0.f, 0.5f, 0.f), down_x).has_value());
    // From inside the middle box: its own wall.
    EXPECT_EQ(body_under_ray(g, glm::vec3(0.f, 0.f, 0.f), down_x), 1u);
}

TEST(BodyPick, ATurnOrAScalingKeepsTheMiddle) {
    const sim::Body b = box(0.5f);
    const sim::Vec3 middle = sim::place_point(b, sim::body_middle(b));
    const sim::Body turned = turned_body(b, 1, 30.f);
    EXPECT_FLOAT_EQ(turned.rotate_deg.y, 30.f);
    const sim::Vec3 turned_middle = sim::place_point(turned, sim::body_middle(turned));
    EXPECT_NEAR(turned_middle.x, middle.x, 1e-5f);
    EXPECT_NEAR(turned_middle.z, middle.z, 1e-5f);
    EXPECT_FLOAT_EQ(turned_body(turned, 1, 340.f).rotate_deg.y, 10.f);  // kept within ±180°
    const sim::Body scaled = scaled_body(b, 2.f);
    EXPECT_FLOAT_EQ(scaled.scale.x, 2.f);
    const sim::Vec3 scaled_middle = sim::place_point(scaled, sim::body_middle(scaled));
    EXPECT_NEAR(scaled_middle.x, middle.x, 1e-5f);
    // The surface grew about the middle: its box spans twice as far.
    const sim::TriangleMesh s = sim::body_surface(scaled, kDomain);
    float lo = 1e9f, hi = -1e9f;
    for (const sim::Vec3& p : s.vertices) {
        lo = std::min(lo, p.x);
        hi = std::max(hi, p.x);
    }
    EXPECT_NEAR(lo, 0.3f, 1e-5f);
    EXPECT_NEAR(hi, 0.7f, 1e-5f);
}

}  // namespace
}  // namespace plab::app
