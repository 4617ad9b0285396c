#pragma once
// The hidden temporaries that app/lab/output_file.h writes (".<name>.<pid>.part"), for the
// tests that check an interrupted or failed write leaves none behind.
#include <filesystem>
#include <system_error>
#include <vector>

namespace plab::test {

// The temporaries in `dir`; none when it cannot be read.
inline std::vector<std::filesystem::path> temporaries(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> found;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().ends_with(".part")) found.push_back(it->path());
    return found;
}

}  // namespace plab::test
