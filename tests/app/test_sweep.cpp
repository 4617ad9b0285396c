// `bench --sweep` on the CPU backend at tiny sizes: every combination measured, a well-formed
// sweep.csv and sweep.md, progress lines, and clear errors for bad sweep keys and values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/lab/sweep.h"
#include "sim/core/error.h"
#include "sim/model/variants.h"
#include "support/csv.h"
#include "support/error_of.h"
#include "support/file_text.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;
using test::csv_cells;
using test::lines_of;
using test::parse_number;

BenchConfig tiny() {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.steps = 3;
    c.warmup = 1;
    return c;
}

TEST(Sweep, CrossProductWritesWellFormedCsvAndMarkdown) {
    const test::TempDir dir;
    std::ostringstream out, progress;
    run_sweep(tiny(), {"particles=500,1000", "preset=classic,granular", "spring=0.4"}, dir.path(),
              out, progress, nullptr);

    EXPECT_EQ(progress.str(),
              "[1/4] particles=500 preset=classic spring=0.4\n"
              "[2/4] particles=500 preset=granular spring=0.4\n"
              "[3/4] particles=1000 preset=classic spring=0.4\n"
              "[4/4] particles=1000 preset=granular spring=0.4\n");

    const auto csv = test::read_lines(dir / "sweep.csv");
    ASSERT_EQ(csv.size(), 5u);
    const auto header = csv_cells(csv[0]);
    // The configuration columns: the run, then one per variant (from the table), then the frame
    // path, the validity and the swept parameter.
    std::vector<std::string> config_cols = {"backend", "device", "preset", "particles"};
    for (const sim::VariantInfo& v : sim::variant_table()) config_cols.emplace_back(v.name);
    for (const char* c : {"render", "valid", "invalid_reason", "window", "spring"})
        config_cols.emplace_back(c);
    ASSERT_GT(header.size(), config_cols.size());
    for (std::size_t i = 0; i < config_cols.size(); ++i) EXPECT_EQ(header[i], config_cols[i]);
    for (const char* stage : {"step_ms", "grid_ms", "reorder_ms", "forces_ms", "integrate_ms"})
        for (const char* stat : {"_median", "_p10", "_p90"})
            EXPECT_NE(std::find(header.begin(), header.end(), std::string(stage) + stat),
                      header.end())
                << stage << stat;
    EXPECT_EQ(header.back(), "steps_per_s");

    const char* want_particles[] = {"500", "500", "1000", "1000"};
    const char* want_preset[] = {"classic", "granular", "classic", "granular"};
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto cells = csv_cells(csv[r]);
        ASSERT_EQ(cells.size(), header.size()) << csv[r];
        EXPECT_EQ(cells[0], "cpu");
        EXPECT_FALSE(cells[1].empty());
        EXPECT_EQ(cells[2], want_preset[r - 1]);
        EXPECT_EQ(cells[3], want_particles[r - 1]);
        EXPECT_EQ(cells[config_cols.size() - 5], "off");      // render: steps only
        EXPECT_EQ(cells[config_cols.size() - 4], "yes");      // valid
        EXPECT_EQ(cells[config_cols.size() - 3], "");         // no reason
        EXPECT_EQ(cells[config_cols.size() - 2], "settled");  // DEM's window
        // The swept parameter's column comes right after the fixed configuration columns.
        EXPECT_EQ(cells[config_cols.size() - 1], "0.4");
        std::vector<double> v(header.size());
        for (std::size_t c = config_cols.size(); c < header.size(); ++c) {
            const std::optional<double> x = parse_number(cells[c]);
            EXPECT_TRUE(x) << header[c] << ": '" << cells[c] << "'";
            v[c] = x.value_or(std::nan(""));
        }
        // The step's median lies between its p10 and p90, all positive.
        const std::size_t m = config_cols.size();
        EXPECT_GT(v[m], 0);
        EXPECT_LE(v[m + 1], v[m]);
        EXPECT_LE(v[m], v[m + 2]);
        EXPECT_GT(v.back(), 0);
    }

    const std::string md = test::read_text(dir / "sweep.md");
    EXPECT_EQ(out.str().find(md), 0u);  // the table is printed too
    std::vector<std::string> table;
    for (const auto& l : lines_of(md))
        if (l.starts_with("|")) table.push_back(l);
    ASSERT_EQ(table.size(), 2u + 4u);  // header, separator, one row per configuration
    const auto bars = [](const std::string& l) { return std::count(l.begin(), l.end(), '|'); };
    for (const auto& l : table) EXPECT_EQ(bars(l), bars(table[0])) << l;
    EXPECT_TRUE(table[0].starts_with("| particles | preset | spring | backend | step ms |"));
    EXPECT_TRUE(table[2].starts_with("| 500 | classic | 0.4 | cpu | ")) << table[2];
    EXPECT_NE(
        md.find("4 of 4 configurations, each measured over the window its window column names "
                "(auto: 3 steps after 1 warm-up"),
        std::string::npos);
}

std::string error_of(const std::vector<std::string>& sweeps, const fs::path& dir = "unused") {
    std::ostringstream out, progress;
    return test::error_of([&] { run_sweep(tiny(), sweeps, dir, out, progress, nullptr); });
}

TEST(Sweep, BadKeysAndValuesFailBeforeMeasuring) {
    EXPECT_NE(error_of({"colour=red"}).find("unknown key 'colour'; known: particles"),
              std::string::npos);
    EXPECT_NE(error_of({"particles"}).find("--sweep takes key=v1,v2"), std::string::npos);
    EXPECT_NE(error_of({"particles=100,abc"}).find("'abc' is not a whole number"),
              std::string::npos);
    EXPECT_NE(error_of({"particles=100,,200"}).find("empty value"), std::string::npos);
    EXPECT_NE(error_of({"graph=yes"}).find("must be on or off"), std::string::npos);
    EXPECT_NE(error_of({"render=host,sometimes"}).find("--render takes off, interop, host"),
              std::string::npos);
    EXPECT_NE(error_of({"backend=gpu"}).find("gpu"), std::string::npos);
    EXPECT_NE(error_of({"threads_per_particle=3"}).find("must be 0 (automatic), 1, 2, 4"),
              std::string::npos);
    EXPECT_NE(error_of({"spring=-1"}).find("spring"), std::string::npos);
    EXPECT_NE(error_of({"block=64", "variant.block=128"}).find("given twice"), std::string::npos);
    EXPECT_NE(error_of({"particles=100"}, "").find("--out DIR"), std::string::npos);
}

// A sweep of more points than kMaxSweepPoints is refused before any point is made, whether
// one axis is that long or the product of shorter ones is; the limit is stated.
TEST(Sweep, TooManyPointsAreRefusedWithTheLimit) {
    std::string many = "particles=";
    for (std::size_t i = 1; i <= kMaxSweepPoints + 1; ++i)
        many += (i == 1 ? "" : ",") + std::to_string(i);
    const std::string one_axis = error_of({many});
    EXPECT_NE(one_axis.find("more than 10000 values"), std::string::npos) << one_axis;
    std::string hundred_one = "particles=";
    for (int i = 1; i <= 101; ++i) hundred_one += (i == 1 ? "" : ",") + std::to_string(i);
    std::string hundred = "dt=";
    for (int i = 1; i <= 100; ++i) hundred += (i == 1 ? "" : ",") + std::to_string(i * 1e-3);
    const std::string product = error_of({hundred_one, hundred});
    EXPECT_NE(product.find("101 x 100 values make more than 10000 points"), std::string::npos)
        << product;
    // Exactly the limit is a sweep (not run here: only expanded).
    std::string hundred_dt = "spring=";
    for (int i = 1; i <= 100; ++i) hundred_dt += (i == 1 ? "" : ",") + std::to_string(i * 0.01);
    EXPECT_EQ(
        expand_sweep(tiny(), {parse_sweep_axis(hundred_dt), parse_sweep_axis(hundred)}).size(),
        kMaxSweepPoints);
}

TEST(Sweep, ExpandsLastAxisFastest) {
    const auto points = expand_sweep(
        tiny(), {parse_sweep_axis("graph=on,off"), parse_sweep_axis("variant.block_size=32,64")});
    ASSERT_EQ(points.size(), 4u);
    EXPECT_TRUE(points[0].config.options.graph);
    EXPECT_EQ(points[0].config.options.block_size, 32);
    EXPECT_EQ(points[1].config.options.block_size, 64);
    EXPECT_FALSE(points[2].config.options.graph);
    EXPECT_EQ(points[3].settings.back().first, "block_size");
}

TEST(Sweep, RenderIsAnAxisAndAPlainRenderAppliesToEveryPoint) {
    BenchConfig base = tiny();
    base.render = "pinned";
    const auto points = expand_sweep(
        base, {parse_sweep_axis("particles=100,200"), parse_sweep_axis("render=off,pinned-async")});
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0].config.render, "off");
    EXPECT_EQ(points[1].config.render, "pinned-async");
    const auto plain = expand_sweep(base, {parse_sweep_axis("particles=100,200")});
    for (const auto& p : plain) EXPECT_EQ(p.config.render, "pinned");
}

}  // namespace
}  // namespace plab::app

namespace plab::app {
namespace {

TEST(Sweep, ADivergedPointIsMarkedInvalidAndHasNoTimings) {
    const test::TempDir dir;
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.particles = 1000;
    c.steps = 2;
    c.warmup = 3;
    std::ostringstream out, progress;
    // gravity_y = -1 makes the classic pile fall through itself: a diverged run.
    EXPECT_FALSE(run_sweep(c, {"gravity_y=-0.0003,-1"}, dir.path(), out, progress, nullptr));

    const auto csv = test::read_lines(dir / "sweep.csv");
    ASSERT_EQ(csv.size(), 3u);
    const auto header = csv_cells(csv[0]);
    auto column = [&](const char* name) {
        const auto at = std::find(header.begin(), header.end(), name);
        EXPECT_NE(at, header.end()) << name;
        return static_cast<std::size_t>(at - header.begin());
    };
    const auto sound = csv_cells(csv[1]), diverged = csv_cells(csv[2]);
    EXPECT_EQ(sound[column("valid")], "yes");
    EXPECT_EQ(sound[column("invalid_reason")], "");
    EXPECT_FALSE(sound[column("step_ms_median")].empty());
    EXPECT_EQ(diverged[column("valid")], "no");
    EXPECT_NE(diverged[column("invalid_reason")].find("two diameters"), std::string::npos);
    for (const char* timing : {"step_ms_median", "forces_ms_p90", "steps_per_s"})
        EXPECT_EQ(diverged[column(timing)], "") << timing;

    const std::string md = test::read_text(dir / "sweep.md");
    EXPECT_NE(md.find("| -1 | cpu | INVALID: the run diverged |"), std::string::npos) << md;
    EXPECT_NE(md.find("INVALID (1 of 2 points"), std::string::npos) << md;
    EXPECT_NE(progress.str().find("INVALID"), std::string::npos);
}

}  // namespace
}  // namespace plab::app
