// One frame, two drivers: the window (GLX under Xvfb) and the headless `bench --render` (EGL)
// draw through the same scene pass (render/scene_pass.h), so from the same scene after the
// same number of steps, with the same camera framing and colours, their screenshots agree
// pixel for pixel up to the rounding of Mesa's two paths. Runs the real binary twice on the
// CPU backend; skipped where xvfb-run is missing or no EGL display can be made.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/app_under_xvfb.h"
#include "support/shell.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

constexpr int kWidth = 480;
constexpr int kHeight = 360;
constexpr int kSteps = 3;  // simulation steps before the captured frame, in both drivers
// The scene both start from. A fixed speed ramp (the window's follows the measured speeds);
// this low top spreads the colours of the first steps' slow fall over the ramp.
const std::string kScene = " --backend cpu --preset classic --particles 2000 --width " +
                           std::to_string(kWidth) + " --height " + std::to_string(kHeight) +
                           " --speed-scale 0.0005";
// Colours of the shared scene (render/scene_pass.cpp) as 8-bit RGB.
constexpr std::array<int, 3> kBox{140, 148, 166};
constexpr std::array<int, 3> kCollider{242, 191, 89};

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgba;
    std::array<int, 3> at(std::size_t pixel) const {
        return {rgba[pixel * 4], rgba[pixel * 4 + 1], rgba[pixel * 4 + 2]};
    }
    std::size_t pixels() const { return static_cast<std::size_t>(width) * height; }
};

std::optional<Image> load_png(const fs::path& path) {
    Image img;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 4);
    if (!data) return std::nullopt;
    img.rgba.assign(data, data + img.pixels() * 4);
    stbi_image_free(data);
    return img;
}

long count_colour(const Image& img, const std::array<int, 3>& colour) {
    long n = 0;
    for (std::size_t i = 0; i < img.pixels(); ++i) n += img.at(i) == colour;
    return n;
}

// A particle's colour: the speed ramp is strongly saturated, unlike the background and the
// grey box; the collider's one colour is counted apart.
bool particle_coloured(const std::array<int, 3>& c) {
    const int hi = std::max({c[0], c[1], c[2]});
    const int lo = std::min({c[0], c[1], c[2]});
    return c != kCollider && hi >= 120 && hi - lo >= 90;
}

long count_particle_pixels(const Image& img) {
    long n = 0;
    for (std::size_t i = 0; i < img.pixels(); ++i) n += particle_coloured(img.at(i));
    return n;
}

TEST(SceneParity, WindowAndHeadlessBenchDrawTheSameFrame) {
    if (!test::on_path("xvfb-run"))
        GTEST_SKIP() << "xvfb-run not found (install xvfb: scripts/setup.sh)";
    const test::TempDir dir;
    fs::create_directories(dir / "config");
    const fs::path window_png = dir / "window.png";
    const fs::path bench_png = dir / "bench.png";
    // Under the sanitizer build, leaks inside the system's X11/GL libraries are not ours.
    const std::string env = "LSAN_OPTIONS=suppressions='" PLAB_LSAN_SUPPRESSIONS "' ";

    // The window steps once per frame and saves the last frame: kSteps frames, panel closed
    // so the scene has the whole window (substeps as the bench forces them: 1).
    const test::CommandOutput window_run = test::run_logged(
        test::app_under_xvfb(dir / "config", kWidth, kHeight) + kScene + " --frames " +
            std::to_string(kSteps) + " --no-panel --vsync off --set substeps=1 --screenshot '" +
            window_png.string() + "'",
        dir / "window.txt");
    std::printf("window:\n%s", window_run.output.c_str());
    ASSERT_TRUE(window_run.succeeded()) << "exit code " << window_run.code << "\n"
                                        << window_run.output;

    // The bench saves its first measured frame, drawn after warmup + 1 steps; a second
    // measured frame shows that the later ones are not the one captured.
    const test::CommandOutput bench_run = test::run_logged(
        env + "'" PLAB_APP_BINARY "' bench" + kScene + " --render host --warmup " +
            std::to_string(kSteps - 1) + " --steps 2 --screenshot '" + bench_png.string() + "'",
        dir / "bench.txt");
    std::printf("bench:\n%s", bench_run.output.c_str());
    if (!bench_run.succeeded() && bench_run.output.find("EGL unavailable") != std::string::npos)
        GTEST_SKIP() << "no EGL display for the headless bench:\n" << bench_run.output;
    ASSERT_TRUE(bench_run.succeeded()) << "exit code " << bench_run.code << "\n"
                                       << bench_run.output;

    const std::optional<Image> window = load_png(window_png);
    const std::optional<Image> bench = load_png(bench_png);
    ASSERT_TRUE(window && bench) << "unreadable screenshot: " << stbi_failure_reason();
    ASSERT_EQ(window->width, kWidth);
    ASSERT_EQ(window->height, kHeight);
    ASSERT_EQ(bench->width, kWidth);
    ASSERT_EQ(bench->height, kHeight);

    // GLX and EGL are both llvmpipe here but may place a line's pixel differently. The
    // particles cover under 1% of the image, so they are also held to their own share: a
    // frame one step apart recolours nearly all of them.
    long differing = 0, particle_pixels = 0, particle_differing = 0;
    int max_difference = 0;
    for (std::size_t i = 0; i < window->pixels(); ++i) {
        const auto a = window->at(i);
        const auto b = bench->at(i);
        int d = 0;
        for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(a[k] - b[k]));
        const bool particle = particle_coloured(a) || particle_coloured(b);
        differing += d > 2;
        particle_pixels += particle;
        particle_differing += particle && d > 2;
        max_difference = std::max(max_difference, d);
    }
    const double fraction = static_cast<double>(differing) / static_cast<double>(window->pixels());
    std::printf(
        "pixels differing by more than 2/255: %ld of %zu (%.4f %%), of them particle "
        "pixels %ld of %ld; largest difference %d/255\n",
        differing, window->pixels(), 100.0 * fraction, particle_differing, particle_pixels,
        max_difference);
    EXPECT_LE(fraction, 0.005);
    EXPECT_LE(particle_differing, particle_pixels / 50);

    // Not a blank pair: particles, the box and the collider in the shared colours.
    const long particles = count_particle_pixels(*bench);
    std::printf("particle pixels: window %ld, bench %ld\n", count_particle_pixels(*window),
                particles);
    EXPECT_GT(particles, 500) << "no particles drawn";
    EXPECT_GT(count_colour(*bench, kBox), 500) << "no box drawn";
    EXPECT_GT(count_colour(*bench, kCollider), 100) << "no collider drawn";
}

}  // namespace
}  // namespace plab::app
