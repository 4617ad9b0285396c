#pragma once
// Statistics of recordings and their comparison against a baseline: frame-time percentiles,
// FPS, per-stage medians, ratios, and the configuration keys that differ (what changed
// between the runs). Exports as Markdown and CSV.
#include <cstddef>
#include <string>
#include <vector>

#include "app/lab/recording.h"

namespace plab::app {

struct RecordingStats {
    std::size_t frames = 0;
    double frame_ms_median = 0, frame_ms_p5 = 0, frame_ms_p95 = 0, frame_ms_p99 = 0;  // ms
    double fps = 0;  // 1000 / median frame ms
    // Median of every column of record_columns() except fps, in that order.
    std::vector<double> stage_medians;
};

RecordingStats compute_stats(const Recording& recording);

// Names of RecordingStats::stage_medians, in order ("step_ms", "grid_ms", ...).
std::vector<std::string> stage_names();

// One compared quantity across the recordings.
struct Metric {
    std::string name;            // e.g. "frame ms p95"
    std::vector<double> values;  // per recording
    std::vector<double> ratios;  // value / baseline value; NaN when the baseline is 0 or NaN
};

// A configuration key whose value is not the same in every recording.
struct ConfigDifference {
    std::string key;
    std::vector<std::string> values;  // per recording; kAbsent where the key is missing
};
inline constexpr const char* kAbsent = "(absent)";

struct Comparison {
    std::vector<std::string> names;  // the first is the baseline
    std::vector<std::size_t> frames;
    // In this order: frame ms median, p5, p95, p99, FPS, then "<stage> median" per
    // stage_names().
    std::vector<Metric> metrics;
    std::vector<ConfigDifference> differences;  // in the baseline's key order, then new keys
};

// Compares `recordings` (at least one) against the first. Throws plab::Error when the names
// and recordings differ in number or a recording has no frames.
Comparison compare(const std::vector<const Recording*>& recordings,
                   const std::vector<std::string>& names);

// Keys whose values differ between the recordings (see ConfigDifference).
std::vector<ConfigDifference> config_differences(const std::vector<const Recording*>& recordings);

// Markdown: a metrics table (one column per recording, ratio vs the baseline in brackets) and
// a table of the configuration that differs.
std::string comparison_markdown(const Comparison& comparison);
// CSV: one row per metric and recording: metric,recording,value,ratio.
std::string comparison_csv(const Comparison& comparison);

}  // namespace plab::app
