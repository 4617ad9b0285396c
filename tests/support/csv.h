#pragma once
// Reading the CSV files the program writes (sweeps, recordings, validations).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plab::test {

// Splits one CSV line (RFC 4180 quotes, no embedded line breaks).
std::vector<std::string> csv_cells(std::string_view line);

// The file's non-empty lines, split into cells; none when it cannot be read.
std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& path);

// The cell as a number when all of it is one.
std::optional<double> parse_number(std::string_view cell);

}  // namespace plab::test
