#pragma once
// Small helpers for the CSV files the app writes (RFC 4180 quoting, round-trip numbers).
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

namespace plab::app {

// `s` as one CSV field: quoted (with doubled quotes) when it holds a comma, quote or line break.
inline std::string csv_field(std::string_view s) {
    if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

// The shortest text that reads back as the same double; empty for NaN and infinities (an
// empty cell means "no value").
inline std::string csv_number(double v) {
    if (!std::isfinite(v)) return "";
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

}  // namespace plab::app
