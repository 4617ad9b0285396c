// The panel's tabs through the real window under Xvfb: every tab of a frictional drum with a
// body and of an SPH liquid draws without an ImGui error, --panel-tab brings each one to the
// front (the panel's pixels differ from tab to tab, the scene's do not need to), and a bad tab
// name is refused with the list. Skipped (with the reason) where xvfb-run is missing.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "app/app_under_xvfb.h"
#include "app/viewer/panel.h"
#include "support/shell.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

constexpr int kWidth = 960;
constexpr int kHeight = 600;

// The panel's part of a screenshot below its status lines and tab row (the window's left
// kPanelWidth + margins, from 140 px down), RGB: what the chosen tab shows.
std::vector<unsigned char> panel_pixels(const fs::path& png) {
    int w = 0, h = 0, channels = 0;
    unsigned char* data = stbi_load(png.c_str(), &w, &h, &channels, 3);
    if (!data) return {};
    std::vector<unsigned char> out;
    const int right = static_cast<int>(kPanelMargin + kPanelWidth);
    for (int y = 140; y < h; ++y)
        out.insert(out.end(), data + (y * w) * 3, data + (y * w + right) * 3);
    stbi_image_free(data);
    return out;
}

void every_tab_draws(const std::string& scene_args, const std::string& name) {
    const test::TempDir dir;
    fs::create_directories(dir / "config");
    std::map<std::string, std::vector<unsigned char>> panels;
    for (const auto& tab : panel_tab_names()) {
        EXPECT_NE(panel_tab_title(tab.value), "?") << tab.name << " has no title";
        const fs::path shot = dir / (std::string(tab.name) + ".png");
        const std::string command = test::app_under_xvfb(dir / "config", kWidth, kHeight) +
                                    " --backend cpu " + scene_args +
                                    " --frames 8 --vsync off --panel-tab " + std::string(tab.name) +
                                    " --screenshot '" + shot.string() + "'";
        const test::CommandOutput run = test::run_logged(command, dir / "log.txt");
        ASSERT_TRUE(run.succeeded())
            << name << ", tab " << tab.name << ": exit code " << run.code << "\n"
            << run.output;
        panels[std::string(tab.name)] = panel_pixels(shot);
        ASSERT_FALSE(panels[std::string(tab.name)].empty()) << "no screenshot of " << tab.name;
    }
    for (const auto& [a, pa] : panels)
        for (const auto& [b, pb] : panels)
            if (a < b) {
                EXPECT_NE(pa, pb) << name << ": tabs " << a << " and " << b << " look alike";
            }
}

TEST(AppPanel, EveryTabOfAFrictionalDrumAndOfALiquidDraws) {
    if (!test::on_path("xvfb-run"))
        GTEST_SKIP() << "xvfb-run not found (install xvfb: scripts/setup.sh)";
    every_tab_draws("--scene '" PLAB_SCENES_DIR "/drum.json' --particles 800", "drum");
    every_tab_draws("--preset water --particles 800", "water");
}

TEST(AppPanel, AnUnknownTabIsRefusedWithTheNames) {
    const test::TempDir dir;
    const test::CommandOutput run =
        test::run_logged("'" PLAB_APP_BINARY "' --panel-tab sliders --frames 1", dir / "log.txt");
    EXPECT_FALSE(run.succeeded());
    EXPECT_NE(run.output.find("--panel-tab"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("optimizations"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace plab::app
