// Nonsense on the real binary's command line is refused at once, with a message that names the
// flag and says what it takes, and a non-zero exit: empty file names, a NaN flow window, window
// and offscreen sizes out of range, an option of another validation case, a sweep of too many
// points. None of them starts a run or writes a file.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "support/child_process.h"
#include "support/file_text.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct Finished {
    int code = -1;
    std::string output;
};

// Runs the binary with `args` in `dir` (so nothing it might write lands elsewhere) and waits for
// it; a refusal must come well before a run could finish.
Finished run_app(const test::TempDir& dir, std::vector<std::string> args) {
    args.insert(args.begin(), PLAB_APP_BINARY);
    const fs::path log = dir.path() / "log.txt";
    const fs::path here = fs::current_path();
    fs::current_path(dir.path());
    test::Child app(args, log);
    const int code = app.wait(30s);
    fs::current_path(here);
    return {code, test::read_text(log)};
}

// The window command's options exist only in a build with the renderer.
constexpr bool kHasWindow = PLAB_APP_HAS_WINDOW != 0;
bool is_window_case(const std::vector<std::string>& args) { return args.front() == "--backend"; }

bool says(const Finished& f, const std::string& text) {
    return f.output.find(text) != std::string::npos;
}

// The folder holds only the log: nothing was saved or recorded.
void expect_nothing_written(const test::TempDir& dir) {
    for (const auto& e : fs::directory_iterator(dir.path()))
        EXPECT_EQ(e.path().filename(), "log.txt") << "written: " << e.path();
}

TEST(CliRefusals, EmptyFileNamesAreRefused) {
    const test::TempDir dir;
    const std::vector<std::vector<std::string>> cases = {
        {"bench", "--backend", "cpu", "--particles", "64", "--steps", "1", "--save", ""},
        {"bench", "--backend", "cpu", "--scene", ""},
        {"bench", "--backend", "cpu", "--load", ""},
        {"bench", "--backend", "cpu", "--sweep", "particles=64", "--out", ""},
        {"bench", "--backend", "cpu", "--export", ""},
        {"bench", "--backend", "cpu", "--model", ""},
        {"--backend", "cpu", "--scene", ""},
        {"--backend", "cpu", "--frames", "2", "--record", ""},
        {"--backend", "cpu", "--frames", "2", "--screenshot", ""},
        {"validate", "dam-break", "--backend", "cpu", "--out", ""},
    };
    for (const auto& args : cases) {
        if (is_window_case(args) && !kHasWindow) continue;
        const Finished f = run_app(dir, args);
        const std::string& flag = args[args.size() - 2];
        EXPECT_NE(f.code, 0) << flag << "\n" << f.output;
        EXPECT_NE(f.code, -1) << flag << ": did not end\n" << f.output;
        EXPECT_TRUE(says(f, flag + ": the name is empty; give the ")) << f.output;
        expect_nothing_written(dir);
    }
}

TEST(CliRefusals, NonFiniteFlowTimeIsRefusedLikeInfinity) {
    const test::TempDir dir;
    for (const char* v : {"nan", "inf", "0", "1e7"}) {
        const Finished f =
            run_app(dir, {"bench", "--backend", "cpu", "--preset", "water", "--particles", "64",
                          "--window", "flow", "--flow-time", v});
        EXPECT_NE(f.code, 0) << v << "\n" << f.output;
        EXPECT_NE(f.code, -1) << v << "\n" << f.output;
        EXPECT_TRUE(
            says(f, "--flow-time: '" + std::string(v) + "' is not a number in [1e-06, 1e+06]"))
            << f.output;
    }
}

TEST(CliRefusals, SizesOutOfRangeStateTheLimit) {
    const test::TempDir dir;
    for (const char* flag : {"--width", "--height"}) {
        for (const char* v : {"-5", "0", "100000", "nan"}) {
            // bench checks them whether or not --render is given.
            const Finished bench =
                run_app(dir, {"bench", "--backend", "cpu", "--particles", "64", flag, v});
            EXPECT_NE(bench.code, 0) << flag << " " << v << "\n" << bench.output;
            EXPECT_NE(bench.code, -1) << bench.output;
            EXPECT_TRUE(says(
                bench, std::string(flag) + ": '" + v + "' is not a whole number in [16, 16384]"))
                << bench.output;
            if (!kHasWindow) continue;
            const Finished window = run_app(dir, {"--backend", "cpu", flag, v});
            EXPECT_NE(window.code, 0) << flag << " " << v << "\n" << window.output;
            EXPECT_NE(window.code, -1) << window.output;
            EXPECT_TRUE(says(
                window, std::string(flag) + ": '" + v + "' is not a whole number in [64, 16384]"))
                << window.output;
        }
    }
}

TEST(CliRefusals, AnOptionOfAnotherValidationCaseNamesItsCase) {
    const test::TempDir dir;
    const auto refused = [&](std::vector<std::string> args, const std::string& message) {
        args.insert(args.end(), {"--backend", "cpu", "--out", (dir.path() / "v").string()});
        const Finished f = run_app(dir, args);
        EXPECT_EQ(f.code, 1) << f.output;
        EXPECT_TRUE(says(f, message)) << f.output;
        EXPECT_FALSE(fs::exists(dir.path() / "v"));
    };
    refused({"validate", "silo", "--heap"},
            "validate silo: --heap is an option of the angle-of-repose case, not of silo");
    refused({"validate", "dam-break", "--aspect", "2"},
            "validate dam-break: --aspect is an option of the column-collapse case, not of "
            "dam-break");
    refused({"validate", "hydrostatic", "--orifice", "5"},
            "--orifice is an option of the silo case, not of hydrostatic");
    refused({"validate", "dam-break", "--preset", "sand-like"},
            "--preset is an option of the cases column-collapse, angle-of-repose, silo and drum, "
            "not of dam-break");
    refused({"validate", "silo", "--depth", "4"},
            "--depth is an option of the dam-break case, not of silo");
    refused({"validate", "silo", "--set", "friction=0.5"},
            "--set is an option of the drum case, not of silo");
    refused({"validate", "nonesuch"},
            "unknown validation case 'nonesuch'; available: dam-break, hydrostatic, "
            "column-collapse, angle-of-repose, silo and drum");
}

TEST(CliRefusals, ASweepOfTooManyPointsStatesTheLimit) {
    const test::TempDir dir;
    // 20,000 values (one argument may hold 128 KiB).
    std::string many = "particles=";
    for (int i = 1; i <= 20'000; ++i) many += (i == 1 ? "" : ",") + std::to_string(i);
    const auto start = std::chrono::steady_clock::now();
    const Finished f = run_app(
        dir, {"bench", "--backend", "cpu", "--sweep", many, "--out", (dir.path() / "s").string()});
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(f.code, 1) << f.output.substr(0, 500);
    EXPECT_TRUE(says(f,
                     "--sweep particles: more than 10000 values; a sweep runs at most 10000 "
                     "points"))
        << f.output.substr(0, 500);
    EXPECT_LT(took.count(), 5.0);
    EXPECT_FALSE(fs::exists(dir.path() / "s"));
}

// A message ends with a source location such as "(run_checks.cpp:219)".
bool ends_with_location(const std::string& output) {
    static const std::regex location(R"(\([a-z_]+\.(cpp|h|cu):[0-9]+\)\s*$)");
    return std::regex_search(output, location);
}

TEST(CliMessages, UserErrorsCarryNoSourceLocationUnlessAskedFor) {
    const test::TempDir dir;
    const std::vector<std::vector<std::string>> cases = {
        {"validate", "silo", "--heap"},
        {"bench", "--backend", "cpu", "--particles", "64", "--set", "spring=-1"},
        {"bench", "--backend", "cpu", "--particles", "64", "--preset", "nonesuch"},
        {"bench", "--backend", "cpu", "--particles", "64", "--out", "x"},
        {"bench", "--backend", "cpu", "--load", (dir.path() / "missing.plab").string()},
    };
    for (const auto& args : cases) {
        const Finished plain = run_app(dir, args);
        EXPECT_EQ(plain.code, 1) << plain.output;
        EXPECT_TRUE(says(plain, "particle-lab: error: ")) << plain.output;
        EXPECT_FALSE(ends_with_location(plain.output)) << plain.output;
    }
    // Whoever debugs the program can have them.
    ASSERT_EQ(setenv("PLAB_ERROR_LOCATIONS", "1", 1), 0);
    const Finished located = run_app(dir, {"validate", "silo", "--heap"});
    unsetenv("PLAB_ERROR_LOCATIONS");
    EXPECT_EQ(located.code, 1) << located.output;
    EXPECT_TRUE(ends_with_location(located.output)) << located.output;
    EXPECT_TRUE(says(located, "not of silo (validate_command.cpp:")) << located.output;
}

TEST(CliMessages, ErrorKeepsTheLocationApartForBrokenRulesAndInTheMessageForFailedCalls) {
    try {
        PLAB_REQUIRE(1 + 1 == 3, "a rule");
        FAIL() << "no throw";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "a rule");
        EXPECT_TRUE(e.where().starts_with("test_cli_refusals.cpp:")) << e.where();
        EXPECT_EQ(error_report(e),
                  error_locations_wanted() ? "a rule (" + e.where() + ")" : "a rule");
    }
    try {
        throw_error("cudaMalloc failed", __FILE__, 7);
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "cudaMalloc failed (test_cli_refusals.cpp:7)");
        EXPECT_EQ(e.where(), "test_cli_refusals.cpp:7");
        EXPECT_EQ(error_report(e), e.what());
    }
}

// A scene file whose parameters the run checks refuse is named, and a flow window too long for
// dt blames --flow-time only where it was given.
TEST(CliMessages, SceneLevelChecksNameTheFileAndBlameOnlyGivenFlags) {
    const test::TempDir dir;
    const fs::path scene = dir.path() / "plate_on_classic.json";
    std::ofstream(scene) << R"({"preset": "classic", "particles": 100,
                               "params": {"silo_floor": 0.1}})";
    const Finished plate = run_app(dir, {"bench", "--backend", "cpu", "--scene", scene.string()});
    EXPECT_EQ(plate.code, 1) << plate.output;
    EXPECT_TRUE(says(plate, "error: " + scene.string() +
                                ": silo_floor = 0.1 m places a silo's "
                                "floor plate"))
        << plate.output;

    const std::vector<std::string> flow = {"bench",   "--backend",   "cpu", "--preset",
                                           "water",   "--particles", "64",  "--set",
                                           "dt=1e-7", "--window",    "flow"};
    const Finished by_default = run_app(dir, flow);
    EXPECT_EQ(by_default.code, 1) << by_default.output;
    EXPECT_TRUE(says(by_default,
                     "preset water: the flow window (1 s, the default of "
                     "--flow-time) is 10000000 steps of dt = 1e-07 s, more than "
                     "1000000 measured steps"))
        << by_default.output;
    std::vector<std::string> given = flow;
    given.insert(given.end(), {"--flow-time", "2"});
    const Finished by_flag = run_app(dir, given);
    EXPECT_EQ(by_flag.code, 1) << by_flag.output;
    EXPECT_TRUE(says(by_flag, "preset water: --flow-time 2 s is 20000000 steps")) << by_flag.output;
}

// A checkpoint continued with --load gets the start-up checks a preset gets: a dt past the
// contact limit and a parameter of the other model set over it are both warned of.
TEST(CliMessages, LoadGivesTheStartUpWarningsAPresetGives) {
    const test::TempDir dir;
    const std::string plab = (dir.path() / "fast.plab").string();
    const Finished saved = run_app(
        dir, {"bench", "--backend", "cpu", "--preset", "granular", "--particles", "200", "--steps",
              "1", "--warmup", "0", "--window", "start", "--set", "dt=0.0004", "--save", plab});
    ASSERT_EQ(saved.code, 0) << saved.output;
    EXPECT_TRUE(says(saved, "WARNING      dt = 0.0004 s is above the DEM contact limit"))
        << saved.output;
    const Finished loaded =
        run_app(dir, {"bench", "--backend", "cpu", "--load", plab, "--steps", "1", "--warmup", "0",
                      "--window", "start", "--set", "sound_speed=80"});
    EXPECT_EQ(loaded.code, 0) << loaded.output;
    EXPECT_TRUE(says(loaded, "WARNING      dt = 0.0004 s is above the DEM contact limit"))
        << loaded.output;
    EXPECT_TRUE(says(loaded, "parameter sound_speed (sound_speed=80) applies to sph only"))
        << loaded.output;
}

}  // namespace
}  // namespace plab::app
