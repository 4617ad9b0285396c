#pragma once
// Reading back what a test or the program wrote.
#include <filesystem>
#include <string>
#include <vector>

namespace plab::test {

// The file's bytes; "" when it cannot be read.
std::string read_text(const std::filesystem::path& path);

// The lines of `text`, without their '\n'.
std::vector<std::string> lines_of(const std::string& text);

// The lines of the file; none when it cannot be read.
std::vector<std::string> read_lines(const std::filesystem::path& path);

}  // namespace plab::test
