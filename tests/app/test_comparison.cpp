// Statistics and comparisons of recordings on known inputs: percentiles, FPS, per-stage
// medians, ratios against the baseline, the configuration keys that differ, and the exports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "app/lab/comparison.h"
#include "sim/core/error.h"

namespace plab::app {
namespace {

// 101 frames of 0, 2, ..., 200 ms times `scale`, in shuffled order; constant stage times.
Recording make(double scale, double step_ms, std::vector<ConfigEntry> config) {
    Recording r;
    r.config = std::move(config);
    for (int k = 0; k <= 100; ++k) {
        FrameRecord f;
        f.frame_ms = 2.0 * k * scale;
        f.step_ms = step_ms;
        f.grid_ms = 0.5;
        f.forces_ms = step_ms - 0.5;
        f.integrate_ms = 0;                  // fused
        f.draw_ms = k % 2 == 0 ? 1.0 : 3.0;  // 51 ones, 50 threes: median 1
        f.fps = f.frame_ms > 0 ? 1000.0 / f.frame_ms : 0;
        r.frames.push_back(f);
    }
    std::shuffle(r.frames.begin(), r.frames.end(), std::mt19937(7));
    return r;
}

const Metric& metric(const Comparison& c, const std::string& name) {
    for (const auto& m : c.metrics)
        if (m.name == name) return m;
    throw std::runtime_error("no metric " + name);
}

TEST(Comparison, StatsOfKnownFrames) {
    const RecordingStats s = compute_stats(make(1.0, 3.0, {}));
    EXPECT_EQ(s.frames, 101u);
    EXPECT_DOUBLE_EQ(s.frame_ms_median, 100.0);
    EXPECT_DOUBLE_EQ(s.frame_ms_p5, 10.0);
    EXPECT_DOUBLE_EQ(s.frame_ms_p95, 190.0);
    EXPECT_DOUBLE_EQ(s.frame_ms_p99, 198.0);
    EXPECT_DOUBLE_EQ(s.fps, 10.0);
    const auto names = stage_names();
    ASSERT_EQ(names.size(), s.stage_medians.size());
    const auto at = [&](const char* n) {
        return s.stage_medians[static_cast<std::size_t>(std::find(names.begin(), names.end(), n) -
                                                        names.begin())];
    };
    EXPECT_DOUBLE_EQ(at("step_ms"), 3.0);
    EXPECT_DOUBLE_EQ(at("forces_ms"), 2.5);
    EXPECT_DOUBLE_EQ(at("draw_ms"), 1.0);
    EXPECT_DOUBLE_EQ(at("integrate_ms"), 0.0);
}

TEST(Comparison, InterpolatesBetweenRanks) {
    Recording r;
    for (double ms : {10.0, 20.0, 30.0, 40.0}) r.frames.push_back(FrameRecord{.frame_ms = ms});
    const RecordingStats s = compute_stats(r);
    EXPECT_DOUBLE_EQ(s.frame_ms_median, 25.0);  // rank 1.5
    EXPECT_DOUBLE_EQ(s.frame_ms_p5, 11.5);      // rank 0.15
    EXPECT_DOUBLE_EQ(s.frame_ms_p95, 38.5);     // rank 2.85
    EXPECT_DOUBLE_EQ(s.fps, 40.0);
}

TEST(Comparison, RatiosAgainstTheFirstRecording) {
    const Recording a = make(1.0, 3.0, {});
    const Recording b = make(1.5, 6.0, {});
    const Recording c = make(0.5, 1.5, {});
    const Comparison cmp = compare({&a, &b, &c}, {"A", "B", "C"});
    ASSERT_EQ(cmp.names.size(), 3u);
    const Metric& med = metric(cmp, "frame ms median");
    EXPECT_DOUBLE_EQ(med.values[1], 150.0);
    EXPECT_DOUBLE_EQ(med.ratios[0], 1.0);
    EXPECT_DOUBLE_EQ(med.ratios[1], 1.5);
    EXPECT_DOUBLE_EQ(med.ratios[2], 0.5);
    EXPECT_DOUBLE_EQ(metric(cmp, "frame ms p99").ratios[1], 1.5);
    const Metric& fps = metric(cmp, "FPS");
    EXPECT_DOUBLE_EQ(fps.values[2], 20.0);
    EXPECT_DOUBLE_EQ(fps.ratios[2], 2.0);
    EXPECT_DOUBLE_EQ(metric(cmp, "step_ms median").ratios[1], 2.0);
    EXPECT_DOUBLE_EQ(metric(cmp, "grid_ms median").ratios[2], 1.0);
    // A stage the baseline does not have has no ratio.
    EXPECT_TRUE(std::isnan(metric(cmp, "integrate_ms median").ratios[1]));
}

TEST(Comparison, FindsTheConfigurationThatDiffers) {
    const Recording a =
        make(1, 1, {{"backend", "cpu"}, {"feed", "host"}, {"param.dt", "0.5"}, {"only_a", "1"}});
    const Recording b = make(1, 1, {{"backend", "cuda"}, {"feed", "host"}, {"param.dt", "0.5"}});
    const Recording c =
        make(1, 1, {{"backend", "cuda"}, {"feed", "host"}, {"param.dt", "0.25"}, {"only_c", "x"}});
    const auto d = config_differences({&a, &b, &c});
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[0].key, "backend");
    EXPECT_EQ(d[0].values, (std::vector<std::string>{"cpu", "cuda", "cuda"}));
    EXPECT_EQ(d[1].key, "param.dt");
    EXPECT_EQ(d[1].values, (std::vector<std::string>{"0.5", "0.5", "0.25"}));
    EXPECT_EQ(d[2].key, "only_a");
    EXPECT_EQ(d[2].values, (std::vector<std::string>{"1", kAbsent, kAbsent}));
    EXPECT_EQ(d[3].key, "only_c");
    EXPECT_EQ(d[3].values, (std::vector<std::string>{kAbsent, kAbsent, "x"}));
    EXPECT_TRUE(config_differences({&b, &b}).empty());
}

TEST(Comparison, MarkdownShowsValuesRatiosAndDifferences) {
    const Recording a = make(1.0, 3.0, {{"backend", "cpu"}, {"feed", "host"}});
    const Recording b = make(1.5, 6.0, {{"backend", "cuda"}, {"feed", "host"}});
    const std::string md = comparison_markdown(compare({&a, &b}, {"cpu run", "cuda|run"}));
    EXPECT_NE(md.find("| metric | cpu run (baseline) | cuda\\|run |"), std::string::npos) << md;
    EXPECT_NE(md.find("| frames | 101 | 101 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| frame ms median | 100.000 | 150.000 (1.50×) |"), std::string::npos) << md;
    EXPECT_NE(md.find("| integrate_ms median | 0.000 | 0.000 (–×) |"), std::string::npos) << md;
    EXPECT_NE(md.find("| backend | cpu | cuda |"), std::string::npos) << md;
    EXPECT_EQ(md.find("| feed |"), std::string::npos) << md;
    EXPECT_NE(comparison_markdown(compare({&a, &a}, {"x", "y"}))
                  .find("The configurations are identical."),
              std::string::npos);
}

TEST(Comparison, CsvHasOneRowPerMetricAndRecording) {
    const Recording a = make(1.0, 3.0, {});
    const Recording b = make(1.5, 6.0, {});
    const Comparison cmp = compare({&a, &b}, {"A", "B, pinned"});
    std::istringstream csv(comparison_csv(cmp));
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line, "metric,recording,value,ratio_vs_baseline");
    std::vector<std::string> rows;
    while (std::getline(csv, line)) rows.push_back(line);
    EXPECT_EQ(rows.size(), 2 * (1 + cmp.metrics.size()));
    const auto has = [&](const std::string& row) {
        return std::find(rows.begin(), rows.end(), row) != rows.end();
    };
    EXPECT_TRUE(has("frames,A,101,1"));
    EXPECT_TRUE(has("frame ms median,A,100,1"));
    EXPECT_TRUE(has("frame ms median,\"B, pinned\",150,1.5"));
    EXPECT_TRUE(has("step_ms median,\"B, pinned\",6,2"));
    EXPECT_TRUE(has("integrate_ms median,\"B, pinned\",0,"));  // no ratio: empty cell
}

TEST(Comparison, BadInputIsAClearError) {
    const Recording a = make(1, 1, {});
    const Recording empty;
    EXPECT_THROW(compare({}, {}), Error);
    EXPECT_THROW(compare({&a}, {"a", "b"}), Error);
    try {
        compare({&a, &empty}, {"a", "b"});
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("recording 'b' has no frames"), std::string::npos);
    }
}

}  // namespace
}  // namespace plab::app
