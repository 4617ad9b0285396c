#pragma once
// Outside text as an error message shows it: control characters (a NUL, a newline, an escape)
// written as \xNN, so the message is never cut short at a NUL, split over lines or able to
// move the terminal's cursor. Bytes of UTF-8 past ASCII stay as they are.
#include <cstdio>
#include <string>
#include <string_view>

namespace plab {

inline std::string shown_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c != 0x7f) {
            out += ch;
            continue;
        }
        char hex[5];
        std::snprintf(hex, sizeof hex, "\\x%02x", c);
        out += hex;
    }
    return out;
}

}  // namespace plab
