#pragma once
// CLI11 checks that read an option's text before CLI11 converts it, and refuse empty names. CLI11
// reads an unsigned option with strtoull, which turns "-5" into 2^64 - 5 and succeeds, and a float
// option through long double, so "1e39" becomes infinity and "nan" passes CLI::PositiveNumber.
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdint>
#include <string>
#include <system_error>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"
#include "sim/core/shown_text.h"

namespace plab::app {

// A whole number in [lo, hi] (sim::parse_count): --particles, --steps, --warmup.
inline CLI::Validator count_check(std::uint64_t lo, std::uint64_t hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            try {
                sim::parse_count(text, "", lo, hi);
            } catch (const Error& e) {
                return e.what();
            }
            return {};
        },
        "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

// A file or folder name that is not empty: `--save ''` would otherwise save nothing and say
// nothing, and `--scene ''` would run the default preset. `what` says what the name is for.
inline CLI::Validator non_empty_check(const std::string& what) {
    return CLI::Validator(
        [what](std::string& text) -> std::string {
            if (text.empty()) return "the name is empty; give the " + what;
            return {};
        },
        "");
}

// A finite number in [lo, hi] (NaN and infinity fail): --speed-scale, --flow-time.
inline CLI::Validator number_check(double lo, double hi) {
    const std::string range = sim::format_numbers("[%g, %g]", lo, hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            double v = 0;
            const char* last = text.data() + text.size();
            const auto [end, ec] = std::from_chars(text.data(), last, v);
            if (text.empty() || ec != std::errc() || end != last || !(v >= lo && v <= hi))
                return "'" + shown_text(text) + "' is not a number in " + range;
            return {};
        },
        "NUMBER in " + range);
}

}  // namespace plab::app
