#pragma once
// "20261130-104500": local date and time for file names (screenshots, recordings, exports),
// so that they sort in the order they were made.
#include <ctime>
#include <string>

namespace plab::app {

inline std::string local_timestamp(std::time_t when = std::time(nullptr)) {
    std::tm local{};
    localtime_r(&when, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &local);
    return text;
}

}  // namespace plab::app
