#pragma once
// JSON parsing for input files, with errors a person can act on: every failure names the
// source, the line and column, the byte offset, the key being read ("blocks[1].spacing") and
// nlohmann's own reason. A number beyond the range of a double (1e999) is such an error too,
// not an escaped library exception, and so is nesting deeper than kMaxJsonDepth.
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace plab::sim {

// Objects and arrays nested deeper than this are refused (scene files nest four deep).
inline constexpr std::size_t kMaxJsonDepth = 64;

// Throws plab::Error "<source>:<line>:<column>: <key>: invalid JSON at byte <n>: <reason>".
nlohmann::json parse_json(std::string_view text, const std::string& source);

}  // namespace plab::sim
