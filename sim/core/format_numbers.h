#pragma once
// printf-style text for reports and messages whose values are all numbers: every argument is
// passed as a double (so the conversions are %g, %f, %e and kin), and the text is as long as
// it needs to be.
#include <cstdio>
#include <string>

namespace plab::sim {

template <typename... Numbers>
std::string format_numbers(const char* format, Numbers... numbers) {
    const int length = std::snprintf(nullptr, 0, format, static_cast<double>(numbers)...);
    if (length <= 0) return {};
    std::string text(static_cast<std::size_t>(length), '\0');
    std::snprintf(text.data(), text.size() + 1, format, static_cast<double>(numbers)...);
    return text;
}

}  // namespace plab::sim
