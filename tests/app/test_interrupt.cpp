// The headless commands of the real binary stopped by SIGINT/SIGTERM mid-run, and given an
// output they cannot write: an interrupted export keeps its frames with a complete list, an
// interrupted sweep its finished rows, an interrupted validation writes no half result; each
// says what was kept and exits with 128 + the signal. A bad output path fails at once.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/lab/export_series.h"
#include "app/lab/particle_export.h"
#include "app/output_temporaries.h"
#include "support/child_process.h"
#include "support/file_text.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using test::read_text;

std::size_t count_files(const fs::path& dir, std::string_view ending) {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir))
        n += e.path().filename().string().ends_with(ending);
    return n;
}

TEST(Interrupt, AnInterruptedExportKeepsItsFramesWithACompleteList) {
    const test::TempDir dir;
    const fs::path out = dir.path() / "frames";
    const fs::path log = dir.path() / "log.txt";
    // A hundred simulated seconds: far more than the test waits for.
    test::Child app(
        {PLAB_APP_BINARY, "bench", "--backend", "cpu", "--preset", "water", "--particles", "1000",
         "--export", out.string(), "--export-every", "0.001", "--duration", "100"},
        log);
    ASSERT_TRUE(test::wait_until(
        [&] { return fs::exists(out / frame_file_name(3, "csv")) || !app.running(); }, 60s))
        << read_text(log);
    ASSERT_EQ(kill(app.pid(), SIGINT), 0) << read_text(log);
    const int code = app.wait(60s);
    const std::string output = read_text(log);
    ASSERT_EQ(code, 130) << output;
    EXPECT_NE(output.find("interrupted by SIGINT"), std::string::npos) << output;
    EXPECT_NE(output.find("particles.vtk.series listing them are in " + out.string()),
              std::string::npos)
        << output;

    // Every frame written is listed (none is cut off, none left out), no temporary remains.
    const std::vector<SeriesEntry> listed = read_series(out / kSeriesFileName);
    ASSERT_GE(listed.size(), 4u);
    EXPECT_EQ(count_files(out, ".vtk"), listed.size());
    EXPECT_EQ(count_files(out, ".csv"), listed.size());
    for (const SeriesEntry& e : listed) EXPECT_TRUE(fs::exists(out / e.file)) << e.file;
    EXPECT_TRUE(test::temporaries(out).empty());
    EXPECT_NE(output.find("frames 0 to " + std::to_string(listed.size() - 1)), std::string::npos)
        << output;
}

TEST(Interrupt, AnInterruptedSweepKeepsTheRowsItFinished) {
    const test::TempDir dir;
    const fs::path out = dir.path() / "sweep";
    const fs::path log = dir.path() / "log.txt";
    // A quick point, then one that takes far longer than the test waits.
    test::Child app(
        {PLAB_APP_BINARY, "bench", "--backend", "cpu", "--steps", "20", "--warmup", "2", "--window",
         "start", "--sweep", "particles=300,200000,300000", "--out", out.string()},
        log);
    ASSERT_TRUE(
        test::wait_until([&] { return fs::exists(out / "sweep.csv") || !app.running(); }, 60s))
        << read_text(log);
    ASSERT_EQ(kill(app.pid(), SIGTERM), 0) << read_text(log);
    const int code = app.wait(60s);
    const std::string output = read_text(log);
    ASSERT_EQ(code, 128 + SIGTERM) << output;
    EXPECT_NE(output.find("interrupted by SIGTERM"), std::string::npos) << output;
    EXPECT_NE(output.find("1 of 3 points finished; their rows are in"), std::string::npos)
        << output;
    const std::string csv = read_text(out / "sweep.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2) << csv;  // the header and one row
    EXPECT_NE(read_text(out / "sweep.md").find("1 of 3 configurations"), std::string::npos);
    EXPECT_TRUE(test::temporaries(out).empty());
}

TEST(Interrupt, AnInterruptedValidationWritesNoHalfResult) {
    const test::TempDir dir;
    const fs::path out = dir.path() / "validation";
    const fs::path log = dir.path() / "log.txt";
    test::Child app({PLAB_APP_BINARY, "validate", "dam-break", "--backend", "cpu", "--resolution",
                     "40", "--out", out.string()},
                    log);
    // The folder is made by the check before the run; the run takes minutes.
    ASSERT_TRUE(test::wait_until([&] { return fs::exists(out) || !app.running(); }, 30s))
        << read_text(log);
    std::this_thread::sleep_for(500ms);
    ASSERT_EQ(kill(app.pid(), SIGINT), 0) << read_text(log);
    const int code = app.wait(60s);
    const std::string output = read_text(log);
    ASSERT_EQ(code, 130) << output;
    EXPECT_NE(output.find("interrupted by SIGINT before the case finished: nothing was written "
                          "into " +
                          out.string()),
              std::string::npos)
        << output;
    EXPECT_FALSE(fs::exists(out / "dam_break.csv"));
    EXPECT_TRUE(test::temporaries(out).empty());
}

// Runs the binary to its end; returns its exit code and output, and how long it took.
struct Finished {
    int code = -1;
    std::string output;
    double seconds = 0;
};
Finished run_to_end(const std::vector<std::string>& argv, const fs::path& log) {
    const auto start = std::chrono::steady_clock::now();
    test::Child app(argv, log);
    const int code = app.wait(120s);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    return {code, read_text(log), took.count()};
}

TEST(BadOutput, SweepAndValidateOutputsUnderARegularFileFailBeforeAnyWork) {
    const test::TempDir dir;
    const fs::path plain = dir.path() / "plain_file";
    std::ofstream(plain) << "x";
    const fs::path log = dir.path() / "log.txt";

    const fs::path sweep_out = plain / "sweep";
    const Finished sweep = run_to_end({PLAB_APP_BINARY, "bench", "--backend", "cpu", "--sweep",
                                       "particles=100000,200000", "--out", sweep_out.string()},
                                      log);
    EXPECT_EQ(sweep.code, 1) << sweep.output;
    EXPECT_NE(sweep.output.find(sweep_out.string()), std::string::npos) << sweep.output;
    EXPECT_EQ(sweep.output.find("[1/2]"), std::string::npos) << "a point ran\n" << sweep.output;
    EXPECT_LT(sweep.seconds, 1.0) << sweep.output;

    const fs::path validate_out = plain / "validation";
    const Finished validate = run_to_end({PLAB_APP_BINARY, "validate", "hydrostatic", "--backend",
                                          "cpu", "--out", validate_out.string()},
                                         log);
    EXPECT_EQ(validate.code, 1) << validate.output;
    EXPECT_NE(validate.output.find((validate_out / "hydrostatic.csv").string()), std::string::npos)
        << validate.output;
    EXPECT_EQ(validate.output.find("settled"), std::string::npos) << validate.output;
    EXPECT_LT(validate.seconds, 1.0) << validate.output;

    // /dev/full is no folder either.
    const Finished full = run_to_end(
        {PLAB_APP_BINARY, "validate", "dam-break", "--backend", "cpu", "--out", "/dev/full"}, log);
    EXPECT_EQ(full.code, 1) << full.output;
    EXPECT_NE(full.output.find("/dev/full/dam_break.csv"), std::string::npos) << full.output;
    EXPECT_LT(full.seconds, 1.0) << full.output;
}

}  // namespace
}  // namespace plab::app
