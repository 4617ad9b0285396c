#include "sim/core/input_limits.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <system_error>

#include "sim/core/error.h"

namespace plab::sim {

std::uint64_t parse_count(std::string_view text, std::string_view what, std::uint64_t lo,
                          std::uint64_t hi) {
    // Signed, so a minus sign is a negative number; out of range of long long is an error.
    long long n = 0;
    const char* last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(text.data(), last, n);
    const bool whole = !text.empty() && ec == std::errc() && end == last;
    if (!whole || n < 0 || static_cast<std::uint64_t>(n) < lo || static_cast<std::uint64_t>(n) > hi)
        throw Error((what.empty() ? "" : std::string(what) + ": ") + "'" + std::string(text) +
                    "' is not a whole number in [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "]");
    return static_cast<std::uint64_t>(n);
}

bool fits_float(double value) {
    return std::isfinite(value) && std::abs(value) <= std::numeric_limits<float>::max();
}

void require_regular_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                          std::string_view what) {
    const std::string where = path.string() + ": ";
    const std::string kind = " (" + std::string(what) + ")";
    // Looked at before opening: opening a FIFO blocks, reading /dev/zero never ends.
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) return;
    if (std::filesystem::is_directory(status))
        throw Error(where + "is a directory, not a file" + kind);
    if (!std::filesystem::is_regular_file(status))
        throw Error(where + "is not a regular file (a device, FIFO or socket)" + kind);
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    const std::string cap = std::to_string(max_bytes) + " bytes";
    if (!ec && size > max_bytes)
        throw Error(where + "is " + std::to_string(size) + " bytes, more than the " + cap +
                    " allowed" + kind);
}

std::string read_input_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                            std::string_view what) {
    const std::string where = path.string() + ": ";
    const std::string kind = " (" + std::string(what) + ")";
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw Error(where + "cannot open: " + (ec ? ec.message() : "no such file") + kind);
    require_regular_file(path, max_bytes, what);
    const std::string cap = std::to_string(max_bytes) + " bytes";
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(where + "cannot open: " + std::strerror(errno) + kind);
    // In chunks up to one byte past the cap, so a file that grew since the size check stops.
    std::string text;
    char chunk[65536];
    while (in && text.size() <= max_bytes) {
        in.read(chunk, sizeof chunk);
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) throw Error(where + "cannot read" + kind);
    if (text.size() > max_bytes) throw Error(where + "is more than the " + cap + " allowed" + kind);
    return text;
}

}  // namespace plab::sim
