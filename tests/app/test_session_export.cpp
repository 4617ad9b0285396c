// The panel's Export path: the session's simulated time (steps × dt, back to 0 on Reset) and
// export_session_frame adding frames with that time to a folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "app/lab/export_series.h"
#include "app/lab/output_file.h"
#include "app/lab/particle_export.h"
#include "app/viewer/session_export.h"
#include "app/viewer/window_run.h"
#include "sim/core/error.h"
#include "sim/model/sim_time.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

sim::Run small_session() {
    AppConfig c;
    c.backend = sim::Backend::Cpu;
    c.run.preset = "granular";
    c.run.particles = 400;
    return sim::Run(window_start(c));
}

TEST(SessionExport, SimulatedTimeCountsStepsAndResetsWithTheScene) {
    sim::Run session = small_session();
    EXPECT_EQ(session.time(), 0.0);
    const sim::Params& p = session.params();
    for (int i = 0; i < 3; ++i) session.step();
    EXPECT_NEAR(session.time(), 3.0 * p.substeps * sim::step_seconds(p.dt), 1e-15);
    EXPECT_NEAR(sim::step_seconds(p.dt), p.dt, 1e-7 * p.dt) << "the same step, as written";
    session.restart(session.params());
    EXPECT_EQ(session.time(), 0.0);
}

TEST(SessionExport, StepSecondsIsTheDecimalTheStepWasWrittenAs) {
    EXPECT_EQ(sim::step_seconds(0.00014f), 0.00014);
    EXPECT_EQ(429 * sim::step_seconds(0.00014f), 429 * 0.00014);
    EXPECT_EQ(sim::step_seconds(0.5f), 0.5);
}

TEST(SessionExport, EachExportAddsAFrameWithTheSimulatedTime) {
    sim::Run session = small_session();
    TempDir dir;
    const std::string folder = (dir.path() / "exports").string();
    EXPECT_EQ(export_session_frame(session, folder), fs::path(folder) / "frame_000000.vtk");
    session.step();
    session.step();
    EXPECT_EQ(export_session_frame(session, folder), fs::path(folder) / "frame_000001.vtk");
    const auto listed = read_series(fs::path(folder) / kSeriesFileName);
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[0].time, 0.0);
    EXPECT_NEAR(listed[1].time, session.time(), 1e-12 * session.time());
    EXPECT_GT(listed[1].time, 0.0);
    EXPECT_TRUE(fs::exists(fs::path(folder) / "frame_000001.csv"));
}

TEST(SessionExport, AnUnwritableFolderIsAnErrorAndTheSessionRunsOn) {
    sim::Run session = small_session();
    TempDir dir;
    const fs::path file = dir.path() / "file";
    write_whole_file(file, "x");
    const std::string folder = (file / "exports").string();
    try {
        export_session_frame(session, folder);
        FAIL() << "exported under a regular file";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(folder), std::string::npos) << e.what();
    }
    session.step();
    EXPECT_GT(session.time(), 0.0);
}

}  // namespace
}  // namespace plab::app
