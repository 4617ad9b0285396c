#pragma once
// A CLI11 check for count options (--particles, --steps, --warmup): the text is read by
// sim::parse_count before CLI11 converts it, because CLI11 reads an unsigned option with
// strtoull, which turns "-5" into 2^64 - 5 and succeeds.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "sim/error.h"
#include "sim/input_limits.h"

namespace plab::app {

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

}  // namespace plab::app
