#pragma once
// `particle-lab bench --sweep key=v1,v2 ... --out DIR`: the cross product of the swept values,
// each measured like `bench` (warm-up, measured steps, medians), tabulated in DIR/sweep.csv
// and DIR/sweep.md.
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/lab/bench_config.h"

namespace plab::app {

// Points in one sweep: each is a whole bench run (seconds to minutes), so ten thousand is
// already days of measuring; a longer list is a mistake, refused before anything runs.
inline constexpr std::size_t kMaxSweepPoints = 10000;

struct SweepAxis {
    std::string key;  // canonical: particles, backend, preset, render, a variant or a parameter
    std::vector<std::string> values;
};

// Parses "key=v1,v2,...". Keys: particles, backend, preset, render (off, interop, host,
// pinned, pinned-async: the feed path of whole frames, as `bench --render`), every step variant
// of sim::variant_table() by name (on/off or its number; "variant." in front is accepted, as
// recordings write it) and every parameter of sim::param_table() by name.
// Throws plab::Error naming the known keys or the bad value, or when the axis has more than
// kMaxSweepPoints values.
SweepAxis parse_sweep_axis(std::string_view text);

struct SweepPoint {
    BenchConfig config;
    std::vector<std::pair<std::string, std::string>> settings;  // key, value per axis
};

// Every combination, the last axis varying fastest, each applied to `base`. Checks every value
// first (so a typo fails before hours of measuring); more than kMaxSweepPoints combinations
// are refused before any is made. Throws plab::Error.
std::vector<SweepPoint> expand_sweep(const BenchConfig& base, const std::vector<SweepAxis>& axes);

// Runs the sweep and writes DIR/sweep.csv and DIR/sweep.md (checked writable before the first
// point, rewritten whole after every configuration, so an interrupted sweep keeps the finished
// rows; on SIGINT/SIGTERM it throws Interrupted naming them). A configuration whose render
// is not off (swept, or `base.render` for all) is measured as steps and then as whole frames
// (frame_bench.h); its frame timings fill extra columns. One line per configuration
// goes to `progress`; step-level progress to `step_progress` when not null. The Markdown table
// is also printed to `out`. A point whose run diverged is marked invalid (CSV: valid=no and the
// reason, its timing cells empty; Markdown: INVALID instead of numbers); returns false when any
// point was.
bool run_sweep(const BenchConfig& base, const std::vector<std::string>& sweeps,
               const std::filesystem::path& out_dir, std::ostream& out, std::ostream& progress,
               std::ostream* step_progress);

}  // namespace plab::app
