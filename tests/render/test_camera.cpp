// The orbit camera without any GL: where it puts known points on screen, and how orbit, pan,
// zoom, framing and view-plane drags move things there.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "render/orbit_camera.h"

namespace plab::render {
namespace {

constexpr float kW = 800.f;
constexpr float kH = 600.f;

// Window coordinates with y down (pixel rows from the top).
glm::vec2 to_screen(const OrbitCamera& cam, glm::vec3 p) {
    const glm::vec3 w =
        glm::project(p, cam.view(), cam.projection(kW / kH), glm::vec4(0.f, 0.f, kW, kH));
    return {w.x, kH - w.y};
}

TEST(OrbitCamera, ProjectsKnownPointsWhereThePinholeModelSays) {
    OrbitCamera cam;
    cam.set_orbit({0.f, 0.f, 0.f}, 5.f, 0.f, 0.f);  // eye at +z 5, looking down −z
    EXPECT_NEAR(cam.eye().x, 0.f, 1e-5f);
    EXPECT_NEAR(cam.eye().y, 0.f, 1e-5f);
    EXPECT_NEAR(cam.eye().z, 5.f, 1e-5f);

    const glm::vec2 centre = to_screen(cam, {0.f, 0.f, 0.f});
    EXPECT_NEAR(centre.x, kW / 2, 1e-2f);
    EXPECT_NEAR(centre.y, kH / 2, 1e-2f);

    // 1 m right and 0.5 m up at 5 m: tan-of-half-fov scaling, y up is screen up.
    const float focal_px = (kH / 2) / std::tan(cam.fov_y() / 2);
    const glm::vec2 p = to_screen(cam, {1.f, 0.5f, 0.f});
    EXPECT_NEAR(p.x, kW / 2 + focal_px * 1.f / 5.f, 1e-2f);
    EXPECT_NEAR(p.y, kH / 2 - focal_px * 0.5f / 5.f, 1e-2f);
}

TEST(OrbitCamera, FrameBoxKeepsEveryCornerInView) {
    OrbitCamera cam;
    const glm::vec3 lo(-1.f, -2.f, 0.f);
    const glm::vec3 hi(3.f, 1.f, 0.5f);
    cam.frame_box(lo, hi, kW / kH);
    EXPECT_NEAR(glm::length(cam.target() - 0.5f * (lo + hi)), 0.f, 1e-5f);
    float widest = 0.f;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 c((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
        const glm::vec2 s = to_screen(cam, c);
        EXPECT_GT(s.x, 0.f);
        EXPECT_LT(s.x, kW);
        EXPECT_GT(s.y, 0.f);
        EXPECT_LT(s.y, kH);
        widest = std::max(
            {widest, std::abs(s.x - kW / 2) / (kW / 2), std::abs(s.y - kH / 2) / (kH / 2)});
    }
    EXPECT_GT(widest, 0.4f) << "framed far too loosely";
}

TEST(OrbitCamera, PanMovesTheTargetWithTheCursor) {
    OrbitCamera cam;
    cam.set_orbit({0.f, 0.f, 0.f}, 4.f, 0.7f, 0.3f);
    const glm::vec3 point = cam.target();
    cam.pan(40.f, -25.f, kH);
    const glm::vec2 s = to_screen(cam, point);
    EXPECT_NEAR(s.x, kW / 2 + 40.f, 0.05f);
    EXPECT_NEAR(s.y, kH / 2 - 25.f, 0.05f);
}

TEST(OrbitCamera, OrbitKeepsDistanceAndClampsPitch) {
    OrbitCamera cam;
    cam.set_orbit({1.f, 2.f, 3.f}, 6.f, 0.f, 0.f);
    cam.orbit(100.f, 0.f);
    EXPECT_NEAR(glm::length(cam.eye() - cam.target()), 6.f, 1e-4f);
    EXPECT_LT(cam.yaw(), 0.f);  // dragging right swings the eye to the left
    cam.orbit(0.f, 1e6f);
    EXPECT_LT(cam.pitch(), glm::half_pi<float>());
    EXPECT_GT(glm::dot(cam.up(), glm::vec3(0.f, 1.f, 0.f)), 0.f);  // never upside down
}

TEST(OrbitCamera, ZoomScalesTheDistance) {
    OrbitCamera cam;
    cam.set_orbit({0.f, 0.f, 0.f}, 10.f, 0.f, 0.f);
    cam.zoom(1.f);
    EXPECT_NEAR(cam.distance(), 9.f, 1e-4f);
    cam.zoom(-2.f);
    EXPECT_NEAR(cam.distance(), 10.f / 0.9f, 1e-3f);
    cam.zoom(1e4f);
    EXPECT_GT(cam.distance(), 0.f);
}

TEST(OrbitCamera, ViewPlaneDragKeepsThePointUnderTheCursorAtItsDepth) {
    OrbitCamera cam;
    cam.set_orbit({0.f, 0.f, 0.f}, 5.f, 0.4f, 0.5f);
    const glm::vec3 p(0.3f, -0.2f, 0.6f);
    const glm::vec2 before = to_screen(cam, p);
    const glm::vec3 moved = cam.drag_in_view_plane(p, 30.f, 12.f, kH);
    const glm::vec2 after = to_screen(cam, moved);
    EXPECT_NEAR(after.x - before.x, 30.f, 0.05f);
    EXPECT_NEAR(after.y - before.y, 12.f, 0.05f);
    EXPECT_NEAR(glm::dot(moved - p, cam.forward()), 0.f, 1e-5f);  // same depth
}

}  // namespace
}  // namespace plab::render
