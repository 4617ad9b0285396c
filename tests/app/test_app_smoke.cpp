// The real window app under Xvfb: 300 frames of the default scene on the CPU backend with a
// screenshot, exit code 0, and a screenshot that shows the panel and particle-coloured pixels
// inside the projected domain box. Skipped (with the reason) where xvfb-run is missing.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "app/app_under_xvfb.h"
#include "app/viewer/app_config.h"
#include "app/viewer/panel.h"
#include "render/orbit_camera.h"
#include "sim/model/presets.h"
#include "support/shell.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

constexpr int kWidth = 1280;
constexpr int kHeight = 720;

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgba;
    std::array<int, 3> at(int x, int y) const {
        const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 4;
        return {rgba[i], rgba[i + 1], rgba[i + 2]};
    }
};

// A particle colour: the speed ramp and the id/cell palettes are all strongly saturated,
// unlike the background, the grey box lines and the panel's text.
bool particle_coloured(const std::array<int, 3>& c) {
    const int hi = std::max({c[0], c[1], c[2]});
    const int lo = std::min({c[0], c[1], c[2]});
    return hi >= 120 && hi - lo >= 90;
}

TEST(AppSmoke, DefaultSceneOnTheCpuRunsUnderXvfbAndDrawsParticlesInTheBox) {
    if (!test::on_path("xvfb-run"))
        GTEST_SKIP() << "xvfb-run not found (install xvfb: scripts/setup.sh)";
    const test::TempDir dir;
    fs::create_directories(dir / "config");
    const fs::path shot = dir / "smoke.png";
    const fs::path log = dir / "log.txt";
    // A fresh config folder: the panel starts at its default place, as the checks below assume.
    const std::string command = test::app_under_xvfb(dir / "config", kWidth, kHeight) +
                                " --backend cpu --frames 300 --vsync off --screenshot '" +
                                shot.string() + "'";
    const test::CommandOutput run = test::run_logged(command, log);
    std::printf("%s", run.output.c_str());
    ASSERT_TRUE(run.succeeded()) << "exit code " << run.code << "\n" << run.output;
    EXPECT_NE(run.output.find("300 frames"), std::string::npos) << run.output;

    Image img;
    int channels = 0;
    unsigned char* data = stbi_load(shot.c_str(), &img.width, &img.height, &channels, 4);
    ASSERT_NE(data, nullptr) << "no readable screenshot: " << stbi_failure_reason();
    img.rgba.assign(data, data + static_cast<std::size_t>(img.width) * img.height * 4);
    stbi_image_free(data);
    ASSERT_EQ(img.width, kWidth);
    ASSERT_EQ(img.height, kHeight);

    // Not blank: many distinct colours, and the panel (text on its background) at the left.
    std::vector<int> colours;
    for (int y = 0; y < img.height; y += 3) {
        for (int x = 0; x < img.width; x += 3) {
            const auto c = img.at(x, y);
            colours.push_back((c[0] << 16) | (c[1] << 8) | c[2]);
        }
    }
    std::sort(colours.begin(), colours.end());
    const auto distinct = std::unique(colours.begin(), colours.end()) - colours.begin();
    EXPECT_GT(distinct, 200) << "the screenshot looks blank";

    // The scene is drawn right of the panel: project the default scene's box the way the app
    // frames it and look for particle colours inside.
    const int x0 = static_cast<int>(kPanelMargin + kPanelWidth);
    const int vw = kWidth - x0;
    const sim::Params params = sim::preset_params(sim::Preset::Classic);
    const sim::Domain d =
        sim::preset_scene(sim::Preset::Classic, kDefaultCpuParticles, params).domain;
    render::OrbitCamera cam;
    const float aspect = static_cast<float>(vw) / kHeight;
    cam.frame_box({d.min.x, d.min.y, d.min.z}, {d.max.x, d.max.y, d.max.z}, aspect);
    glm::vec2 lo(1e9f), hi(-1e9f);
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 c((i & 1) ? d.max.x : d.min.x, (i & 2) ? d.max.y : d.min.y,
                          (i & 4) ? d.max.z : d.min.z);
        const glm::vec3 s =
            glm::project(c, cam.view(), cam.projection(aspect), glm::vec4(x0, 0.f, vw, kHeight));
        lo = glm::min(lo, glm::vec2(s.x, kHeight - s.y));
        hi = glm::max(hi, glm::vec2(s.x, kHeight - s.y));
    }
    ASSERT_GT(lo.x, x0 - 1.f) << "the framed box reaches under the panel";
    long inside = 0, particle = 0, outside_particle = 0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = x0; x < kWidth; ++x) {
            const bool in_box = x >= lo.x && x <= hi.x && y >= lo.y && y <= hi.y;
            const bool p = particle_coloured(img.at(x, y));
            inside += in_box;
            particle += in_box && p;
            outside_particle += !in_box && p;
        }
    }
    ASSERT_GT(inside, 10000);
    // 25k particles settled on the floor cover a good part of the box's image.
    EXPECT_GT(static_cast<double>(particle) / static_cast<double>(inside), 0.05)
        << particle << " particle pixels of " << inside << " in the box";
    EXPECT_LT(outside_particle, particle / 20) << "particle colours outside the box";
}

}  // namespace
}  // namespace plab::app
