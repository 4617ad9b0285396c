// The opening view: a scene file's own camera is kept where it already shows the whole domain
// and backed off where the window's shape would cut it, so every shipped scene opens framed
// in the window beside the panel.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "render/scene_camera.h"
#include "sim/io/scene_file.h"

namespace plab::render {
namespace {

// The default window (1280 × 720) less the open panel (10 + 400 px at its left).
constexpr float kViewW = 1280.f - 410.f;
constexpr float kViewH = 720.f;

// How far the box's corners reach on screen, in units of the half viewport (1 = the edge); a
// corner behind the eye or past the far plane counts as out of view.
float reach(const OrbitCamera& cam, glm::vec3 lo, glm::vec3 hi, float w, float h) {
    float widest = 0.f;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 c((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
        const glm::vec3 s =
            glm::project(c, cam.view(), cam.projection(w / h), glm::vec4(0.f, 0.f, w, h));
        if (!(s.z < 1.f) || !(glm::dot(c - cam.eye(), cam.forward()) > 0.f)) return 1e9f;
        widest =
            std::max({widest, std::abs(s.x - w / 2) / (w / 2), std::abs(s.y - h / 2) / (h / 2)});
    }
    return widest;
}

TEST(SceneCamera, FitBoxBacksOffUntilTheBoxShowsAndNeverComesCloser) {
    const glm::vec3 lo(-2.f, 0.f, -0.5f), hi(2.f, 1.f, 0.5f);
    OrbitCamera close;
    close.set_orbit({0.f, 0.5f, 0.f}, 0.8f, 0.3f, 0.2f);
    const glm::vec3 before = close.forward();
    EXPECT_GT(reach(close, lo, hi, kViewW, kViewH), 1.f) << "the test's camera already fits";
    close.fit_box(lo, hi, kViewW / kViewH);
    const float r = reach(close, lo, hi, kViewW, kViewH);
    EXPECT_LE(r, 1.f);
    EXPECT_GT(r, 0.8f) << "backed off far more than needed";
    EXPECT_NEAR(glm::length(close.forward() - before), 0.f, 1e-6f) << "the direction changed";
    EXPECT_NEAR(glm::length(close.target() - glm::vec3(0.f, 0.5f, 0.f)), 0.f, 1e-6f);

    OrbitCamera far;
    far.set_orbit({0.f, 0.5f, 0.f}, 40.f, 0.3f, 0.2f);
    far.fit_box(lo, hi, kViewW / kViewH);
    EXPECT_FLOAT_EQ(far.distance(), 40.f) << "a view that shows the box is kept";
}

TEST(SceneCamera, EveryShippedSceneOpensWithItsWholeDomainInView) {
    int scenes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(PLAB_SCENES_DIR)) {
        if (entry.path().extension() != ".json") continue;
        const sim::SceneFile file = sim::load_scene_file(entry.path().string());
        const sim::Domain& d = file.scene.domain;
        const glm::vec3 lo{d.min.x, d.min.y, d.min.z}, hi{d.max.x, d.max.y, d.max.z};
        for (const auto& [w, h] :
             {std::pair{kViewW, kViewH}, std::pair{1920.f, 1080.f}, std::pair{700.f, 900.f}}) {
            const OrbitCamera cam = opening_camera(d, file.camera, w / h);
            EXPECT_LE(reach(cam, lo, hi, w, h), 1.f)
                << entry.path().filename() << " at " << w << " x " << h;
        }
        ++scenes;
    }
    EXPECT_GE(scenes, 10) << "the shipped scenes were not found in " << PLAB_SCENES_DIR;
}

}  // namespace
}  // namespace plab::render
