// `bench --sweep` with whole frames, on the CPU backend at tiny sizes through EGL (Mesa here,
// the NVIDIA driver on a GPU host): the render path as a sweep dimension, frame timings as
// extra columns of sweep.csv and sweep.md, empty where a configuration does not render.
// Skipped where no EGL display can be made.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/lab/sweep.h"
#include "render/egl_context.h"
#include "support/csv.h"
#include "support/file_text.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

double number(const std::string& s) {
    const std::optional<double> v = test::parse_number(s);
    EXPECT_TRUE(v) << "'" << s << "' is not a number";
    return v.value_or(std::nan(""));
}

constexpr const char* kFrameColumns[] = {"export_ms_median",
                                         "export_ms_p10",
                                         "export_ms_p90",
                                         "feed_ms_median",
                                         "feed_ms_p10",
                                         "feed_ms_p90",
                                         "draw_ms_median",
                                         "draw_ms_p10",
                                         "draw_ms_p90",
                                         "splat_ms_median",
                                         "splat_ms_p10",
                                         "splat_ms_p90",
                                         "frame_serial_ms_median",
                                         "frame_serial_ms_p10",
                                         "frame_serial_ms_p90",
                                         "frame_pipelined_ms",
                                         "fps"};

class SweepRender : public ::testing::Test {
  protected:
    void SetUp() override {
        try {
            render::EglContext probe;
        } catch (const render::EglUnavailable& e) {
            GTEST_SKIP() << "no EGL display here: " << e.what();
        }
    }

    static BenchConfig tiny() {
        BenchConfig c;
        c.backend = sim::Backend::Cpu;
        c.particles = 400;
        c.steps = 3;
        c.warmup = 1;
        c.width = 64;
        c.height = 48;
        return c;
    }

    // The CSV as header + rows, after checking every row has the header's width.
    std::vector<std::vector<std::string>> csv() {
        const std::vector<std::vector<std::string>> t = test::read_csv(dir_ / "sweep.csv");
        for (const auto& row : t) EXPECT_EQ(row.size(), t.front().size());
        return t;
    }

    const test::TempDir dir_;
};

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << "no column " << name;
    return static_cast<std::size_t>(it - header.begin());
}

TEST_F(SweepRender, RenderPathsAreASweepDimensionWithFrameColumns) {
    std::ostringstream out, progress;
    run_sweep(tiny(), {"render=off,host,pinned-async"}, dir_.path(), out, progress, nullptr);
    EXPECT_EQ(progress.str(), "[1/3] render=off\n[2/3] render=host\n[3/3] render=pinned-async\n");

    const auto t = csv();
    ASSERT_EQ(t.size(), 4u);
    const auto& header = t[0];
    // Step columns as in every sweep, then the frame columns, in this order, at the end.
    const std::size_t steps_per_s = column(header, "steps_per_s");
    ASSERT_EQ(header.size(), steps_per_s + 1 + std::size(kFrameColumns));
    for (std::size_t i = 0; i < std::size(kFrameColumns); ++i)
        EXPECT_EQ(header[steps_per_s + 1 + i], kFrameColumns[i]);
    const std::size_t render = column(header, "render");
    EXPECT_LT(render, column(header, "step_ms_median"));  // a configuration column

    const char* want_render[] = {"off", "host", "pinned-async"};
    for (std::size_t r = 1; r < t.size(); ++r) {
        SCOPED_TRACE(want_render[r - 1]);
        const auto& row = t[r];
        EXPECT_EQ(row[render], want_render[r - 1]);
        EXPECT_GT(number(row[column(header, "step_ms_median")]), 0.0);
        if (r == 1) {
            // Steps only: the frame cells are empty, not zero.
            for (std::size_t c = steps_per_s + 1; c < header.size(); ++c)
                EXPECT_EQ(row[c], "") << header[c];
            continue;
        }
        std::vector<double> v(header.size());
        for (std::size_t c = steps_per_s + 1; c < header.size(); ++c) {
            v[c] = number(row[c]);
            EXPECT_GE(v[c], 0.0) << header[c];
        }
        for (const char* part :
             {"export_ms", "feed_ms", "draw_ms", "splat_ms", "frame_serial_ms"}) {
            const std::string p = part;
            EXPECT_LE(v[column(header, p + "_p10")], v[column(header, p + "_median")]) << p;
            EXPECT_LE(v[column(header, p + "_median")], v[column(header, p + "_p90")]) << p;
        }
        // A whole frame holds its feed and lasts; FPS is the pipelined frame's inverse.
        EXPECT_GE(v[column(header, "frame_serial_ms_median")], v[column(header, "feed_ms_median")]);
        // The GL sprites draw here (no CUDA renderer): nothing is splatted.
        EXPECT_EQ(v[column(header, "splat_ms_median")], 0.0);
        const double pipelined = v[column(header, "frame_pipelined_ms")];
        EXPECT_GT(pipelined, 0.0);
        EXPECT_NEAR(v[column(header, "fps")] * pipelined, 1000.0, 0.01);
    }

    const std::string md = test::read_text(dir_ / "sweep.md");
    EXPECT_EQ(out.str().find(md), 0u);  // the table is printed too
    EXPECT_NE(md.find("Where render is not off"), std::string::npos);
    std::vector<std::string> table;
    for (const auto& l : test::lines_of(md))
        if (l.starts_with("|")) table.push_back(l);
    ASSERT_EQ(table.size(), 2u + 3u);
    const auto bars = [](const std::string& l) { return std::count(l.begin(), l.end(), '|'); };
    for (const auto& l : table) EXPECT_EQ(bars(l), bars(table[0])) << l;
    EXPECT_TRUE(table[0].starts_with("| render | backend | step ms |")) << table[0];
    EXPECT_TRUE(table[0].ends_with("| export | feed | draw | splat | frame | FPS |")) << table[0];
    EXPECT_TRUE(table[2].starts_with("| off | cpu |")) << table[2];
    EXPECT_TRUE(table[2].ends_with("| – | – | – | – | – | – |")) << table[2];
    EXPECT_TRUE(table[3].starts_with("| host | cpu |")) << table[3];
    EXPECT_EQ(table[3].find("| – |"), std::string::npos) << table[3];  // every cell filled
}

TEST_F(SweepRender, PlainRenderTimesFramesAtEveryPoint) {
    BenchConfig c = tiny();
    c.render = "pinned";
    std::ostringstream out, progress;
    run_sweep(c, {"particles=200,400"}, dir_.path(), out, progress, nullptr);
    const auto t = csv();
    ASSERT_EQ(t.size(), 3u);
    const auto& header = t[0];
    EXPECT_EQ(header.back(), "fps");
    for (std::size_t r = 1; r < t.size(); ++r) {
        EXPECT_EQ(t[r][column(header, "render")], "pinned");
        EXPECT_GT(number(t[r][column(header, "fps")]), 0.0);
    }
}

}  // namespace
}  // namespace plab::app
