// `particle-lab --frames N --record FILE` through the real window under Xvfb: the file reads
// back as a recording of N-1 frames whose header describes the run and whose rows hold
// measured times. Skipped (with the reason) where xvfb-run is missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "app/app_under_xvfb.h"
#include "app/lab/recording.h"
#include "sim/model/params.h"
#include "support/shell.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

TEST(AppRecord, TimedRunRecordsEveryFrameWithItsConfiguration) {
    if (!test::on_path("xvfb-run"))
        GTEST_SKIP() << "xvfb-run not found (install xvfb: scripts/setup.sh)";
    const test::TempDir dir;
    fs::create_directories(dir / "config");
    const fs::path csv = dir / "run.csv";
    const fs::path log = dir / "log.txt";
    const std::string command = test::app_under_xvfb(dir / "config", 800, 600) +
                                " --backend cpu --preset granular --particles 3000 --frames 30 "
                                "--vsync off --width 800 --height 600 --set shear=0.2 --record '" +
                                csv.string() + "'";
    const test::CommandOutput run = test::run_logged(command, log);
    ASSERT_TRUE(run.succeeded()) << run.output;
    EXPECT_NE(run.output.find("recorded 29 frames into"), std::string::npos) << run.output;

    const Recording r = read_recording(csv);
    ASSERT_EQ(r.frames.size(), 29u);
    const auto value = [&](const char* key) {
        const std::string* v = r.find(key);
        return v ? *v : std::string("(missing)");
    };
    EXPECT_EQ(value("backend"), "cpu");
    EXPECT_EQ(value("preset"), "granular");
    EXPECT_EQ(value("particles"), "3000");
    EXPECT_EQ(value("feed"), "host");
    EXPECT_EQ(value("vsync"), "off");
    EXPECT_EQ(value("param.shear"), "0.2");
    EXPECT_EQ(r.find("changed_during"), nullptr);
    for (const auto& p : sim::param_table())
        EXPECT_NE(r.find("param." + std::string(p.name)), nullptr) << p.name;
    int stepped = 0;
    for (const FrameRecord& f : r.frames) {
        EXPECT_GT(f.frame_ms, 0);
        EXPECT_NEAR(f.fps, 1000.0 / f.frame_ms, 1e-9);
        EXPECT_GE(f.step_ms, 0);
        EXPECT_GT(f.feed_ms, 0);
        // The frame's edits and requests are applied inside the frame it records.
        EXPECT_GE(f.edit_ms, 0);
        EXPECT_LT(f.edit_ms, f.frame_ms);
        stepped += f.step_ms > 0 && f.forces_ms > 0;
    }
    // Every frame steps once (not paused); the CPU backend finishes each step in its frame.
    EXPECT_EQ(stepped, 29);
}

}  // namespace
}  // namespace plab::app
