#include "app/lab/comparison.h"

#include <cmath>
#include <sstream>

#include "app/lab/csv.h"
#include "app/lab/percentile.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"

namespace plab::app {
namespace {

std::vector<double> column(const Recording& r, double FrameRecord::*field) {
    std::vector<double> v;
    v.reserve(r.frames.size());
    for (const auto& f : r.frames) v.push_back(f.*field);
    return v;
}

double ratio(double value, double baseline) {
    if (!std::isfinite(baseline) || baseline == 0 || !std::isfinite(value)) return std::nan("");
    return value / baseline;
}

std::string fixed(double v, const char* format) {
    if (!std::isfinite(v)) return "–";
    return sim::format_numbers(format, v);
}

// Markdown cells may not hold '|' or line breaks.
std::string md_cell(std::string s) {
    std::string out;
    for (char c : s) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out;
}

}  // namespace

std::vector<std::string> stage_names() {
    std::vector<std::string> names;
    for (const auto& c : record_columns())
        if (c.name != "frame_ms" && c.name != "fps") names.emplace_back(c.name);
    return names;
}

RecordingStats compute_stats(const Recording& r) {
    RecordingStats s;
    s.frames = r.frames.size();
    const std::vector<double> frame = column(r, &FrameRecord::frame_ms);
    s.frame_ms_median = median(frame);
    s.frame_ms_p5 = percentile(frame, 0.05);
    s.frame_ms_p95 = percentile(frame, 0.95);
    s.frame_ms_p99 = percentile(frame, 0.99);
    s.fps = s.frame_ms_median > 0 ? 1000.0 / s.frame_ms_median : std::nan("");
    for (const auto& c : record_columns())
        if (c.name != "frame_ms" && c.name != "fps")
            s.stage_medians.push_back(median(column(r, c.field)));
    return s;
}

std::vector<ConfigDifference> config_differences(const std::vector<const Recording*>& recordings) {
    // Every key in first-seen order, baseline first.
    std::vector<std::string> keys;
    for (const Recording* r : recordings)
        for (const auto& entry : r->config) {
            bool seen = false;
            for (const auto& k : keys) seen = seen || k == entry.first;
            if (!seen) keys.push_back(entry.first);
        }
    std::vector<ConfigDifference> out;
    for (const auto& key : keys) {
        ConfigDifference d{key, {}};
        for (const Recording* r : recordings) {
            const std::string* v = r->find(key);
            d.values.push_back(v ? *v : kAbsent);
        }
        bool differs = false;
        for (const auto& v : d.values) differs = differs || v != d.values.front();
        if (differs) out.push_back(std::move(d));
    }
    return out;
}

Comparison compare(const std::vector<const Recording*>& recordings,
                   const std::vector<std::string>& names) {
    PLAB_REQUIRE(!recordings.empty(), "a comparison needs at least one recording");
    PLAB_REQUIRE(recordings.size() == names.size(), "a comparison needs one name per recording");
    Comparison c;
    c.names = names;
    std::vector<RecordingStats> stats;
    for (std::size_t i = 0; i < recordings.size(); ++i) {
        PLAB_REQUIRE(!recordings[i]->frames.empty(),
                     "recording '" + names[i] + "' has no frames to compare");
        stats.push_back(compute_stats(*recordings[i]));
        c.frames.push_back(stats.back().frames);
    }
    auto add = [&](std::string name, auto get) {
        Metric m{std::move(name), {}, {}};
        for (const auto& s : stats) m.values.push_back(get(s));
        for (double v : m.values) m.ratios.push_back(ratio(v, m.values.front()));
        c.metrics.push_back(std::move(m));
    };
    add("frame ms median", [](const RecordingStats& s) { return s.frame_ms_median; });
    add("frame ms p5", [](const RecordingStats& s) { return s.frame_ms_p5; });
    add("frame ms p95", [](const RecordingStats& s) { return s.frame_ms_p95; });
    add("frame ms p99", [](const RecordingStats& s) { return s.frame_ms_p99; });
    add("FPS", [](const RecordingStats& s) { return s.fps; });
    const std::vector<std::string> stages = stage_names();
    for (std::size_t k = 0; k < stages.size(); ++k)
        add(stages[k] + " median", [k](const RecordingStats& s) { return s.stage_medians[k]; });
    c.differences = config_differences(recordings);
    return c;
}

std::string comparison_markdown(const Comparison& c) {
    std::ostringstream out;
    out << "| metric |";
    for (std::size_t i = 0; i < c.names.size(); ++i)
        out << " " << md_cell(c.names[i]) << (i == 0 ? " (baseline)" : "") << " |";
    out << "\n| --- |";
    for (std::size_t i = 0; i < c.names.size(); ++i) out << " ---: |";
    out << "\n| frames |";
    for (std::size_t n : c.frames) out << " " << n << " |";
    out << "\n";
    for (const auto& m : c.metrics) {
        out << "| " << m.name << " |";
        for (std::size_t i = 0; i < m.values.size(); ++i) {
            out << " " << fixed(m.values[i], "%.3f");
            if (i > 0) out << " (" << fixed(m.ratios[i], "%.2f") << "×)";
            out << " |";
        }
        out << "\n";
    }
    out << "\n";
    if (c.differences.empty()) {
        out << "The configurations are identical.\n";
        return out.str();
    }
    out << "Configuration that differs:\n\n| key |";
    for (const auto& n : c.names) out << " " << md_cell(n) << " |";
    out << "\n| --- |";
    for (std::size_t i = 0; i < c.names.size(); ++i) out << " --- |";
    out << "\n";
    for (const auto& d : c.differences) {
        out << "| " << md_cell(d.key) << " |";
        for (const auto& v : d.values) out << " " << md_cell(v) << " |";
        out << "\n";
    }
    return out.str();
}

std::string comparison_csv(const Comparison& c) {
    std::ostringstream out;
    out << "metric,recording,value,ratio_vs_baseline\n";
    for (std::size_t i = 0; i < c.names.size(); ++i)
        out << "frames," << csv_field(c.names[i]) << "," << c.frames[i] << ","
            << csv_number(static_cast<double>(c.frames[i]) / static_cast<double>(c.frames[0]))
            << "\n";
    for (const auto& m : c.metrics)
        for (std::size_t i = 0; i < m.values.size(); ++i)
            out << csv_field(m.name) << "," << csv_field(c.names[i]) << ","
                << csv_number(m.values[i]) << "," << csv_number(m.ratios[i]) << "\n";
    return out.str();
}

}  // namespace plab::app
