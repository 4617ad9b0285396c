// `particle-lab bench` against hostile counts and suspicious runs: negative, huge and malformed
// counts fail while the command line is parsed, in well under a second and with the flag and
// the allowed range; a run that starts but is probably not what was meant says so in the
// report (WARNING lines) and still runs; input files that are not regular files are refused.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app/lab/bench_command.h"
#include "app/lab/bench_run.h"
#include "app/lab/export_run.h"
#include "app/lab/recording.h"
#include "app/lab/sweep.h"
#include "sim/core/error.h"
#include "sim/model/presets.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

using Clock = std::chrono::steady_clock;

// The error parsing `bench ARGS...` gives ("" when it parses).
std::string parse_error(std::vector<std::string> args) {
    CLI::App cli;
    BenchCommand bench(cli);
    args.insert(args.begin(), {"particle-lab", "bench"});
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    try {
        cli.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
        return e.what();
    }
    return "";
}

TEST(BenchInputs, NegativeAndHugeCountsFailWhileParsing) {
    const auto start = Clock::now();
    for (const char* count : {"-5", "-1", "18446744073709551615", "2147483648", "0", "1e6"}) {
        const std::string msg = parse_error({"--particles", count});
        EXPECT_NE(msg.find(std::string("'") + count + "' is not a whole number in [1, 2147483647]"),
                  std::string::npos)
            << count << ": " << msg;
    }
    EXPECT_NE(parse_error({"--steps", "-5"}).find("'-5' is not a whole number in [1, 1000000]"),
              std::string::npos);
    EXPECT_NE(parse_error({"--warmup", "-1"}).find("'-1' is not a whole number in [0, 1000000]"),
              std::string::npos);
    EXPECT_NE(parse_error({"--steps", "99999999999"}).find("[1, 1000000]"), std::string::npos);
    EXPECT_EQ(parse_error({"--particles", "2147483647", "--steps", "1000000", "--warmup", "0"}),
              "");
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(1));
}

TEST(BenchInputs, NumbersPastAFloatOrNotFiniteFailWhileParsing) {
    for (const char* v : {"nan", "inf", "1e39", "-1", "0", "fast"})
        EXPECT_NE(parse_error({"--speed-scale", v})
                      .find(std::string("'") + v + "' is not a number in [1e-09, 1e+09]"),
                  std::string::npos)
            << v;
    EXPECT_EQ(parse_error({"--speed-scale", "0.05"}), "");
}

TEST(BenchInputs, CountsPastTheLimitFailFastEverywhere) {
    const auto start = Clock::now();
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    for (const std::size_t n : {std::size_t{0}, std::size_t{sim::kMaxParticles} + 1, SIZE_MAX}) {
        c.particles = n;
        EXPECT_THROW(bench_recipe(c), Error) << n;
    }
    c.particles = 1000;
    c.steps = -5;
    EXPECT_THROW(BenchRun run(c), Error);
    c.steps = 1;
    c.warmup = 2000000;
    EXPECT_THROW(BenchRun run(c), Error);
    for (const char* bad : {"particles=-5", "particles=18446744073709551615"}) {
        try {
            expand_sweep(BenchConfig{}, {parse_sweep_axis(bad)});
            ADD_FAILURE() << bad;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("is not a whole number in [1, 2147483647]"),
                      std::string::npos)
                << e.what();
        }
    }
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(1));
}

// One step of `c` exported into a temporary folder; returns the report.
std::string export_one_step(const BenchConfig& c, double dt) {
    const test::TempDir dir;
    ExportConfig e;
    e.folder = dir.path();
    e.every = e.duration = dt;
    std::ostringstream report, progress;
    run_export(c, e, report, progress);
    return report.str();
}

TEST(BenchInputs, WaterAtTenTimesItsDtWarnsLoudlyAndStillRuns) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.preset = "water";
    c.particles = 2000;
    const float dt = 10 * sim::preset_params(sim::Preset::Water).dt;
    c.assignments = {"dt=" + std::to_string(dt)};
    const BenchRun run(c);  // the bench prints these as "  WARNING      ..." lines
    ASSERT_EQ(run.warnings().size(), 1u);
    EXPECT_NE(run.warnings()[0].text.find("above the SPH stability limit"), std::string::npos);
    const std::string report = export_one_step(c, std::stod(c.assignments[0].substr(3)));
    EXPECT_NE(report.find("  WARNING      dt = "), std::string::npos) << report;
    EXPECT_NE(report.find("wrote        2 frames"), std::string::npos) << report;
}

TEST(BenchInputs, DemOnlySetOnAnSphRunIsReported) {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.preset = "water";
    c.particles = 1000;
    c.assignments = {"spring=4"};
    const std::string report =
        export_one_step(c, sim::preset_params(sim::Preset::Water).dt * (1 + 1e-6));
    EXPECT_NE(report.find("WARNING      parameter spring (spring=4) applies to dem only; this "
                          "run is sph and ignores it."),
              std::string::npos)
        << report;
}

TEST(BenchInputs, RecordingsFromDirectoriesAndDevicesAreRefusedBeforeReading) {
    const test::TempDir dir;
    for (const std::filesystem::path& p : {dir.path(), std::filesystem::path("/dev/zero")}) {
        try {
            read_recording(p);
            ADD_FAILURE() << p;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(p.string() + ": is "), std::string::npos)
                << e.what();
        }
    }
}

}  // namespace
}  // namespace plab::app
