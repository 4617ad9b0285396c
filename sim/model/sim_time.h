#pragma once
// Simulated time, as the app and the exports count it: the steps run × dt.
#include <charconv>

namespace plab::sim {

// dt as the decimal it was written as (0.00014) rather than the float nearest it
// (0.000140000003...): sums of steps then print as the multiples a person expects (0.06006,
// not 0.0600600016). The two differ far below a float's precision.
inline double step_seconds(float dt) {
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, dt);
    double seconds = 0;
    std::from_chars(text, written.ptr, seconds);
    return seconds;
}

}  // namespace plab::sim
