#include "support/csv.h"

#include <charconv>

#include "support/file_text.h"

namespace plab::test {

std::vector<std::string> csv_cells(std::string_view line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            cells.back() += '"';  // "" inside quotes is one quote
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            cells.emplace_back();
        } else {
            cells.back() += c;
        }
    }
    return cells;
}

std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& path) {
    std::vector<std::vector<std::string>> rows;
    for (const std::string& line : read_lines(path))
        if (!line.empty()) rows.push_back(csv_cells(line));
    return rows;
}

std::optional<double> parse_number(std::string_view cell) {
    double v = 0;
    const auto r = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (cell.empty() || r.ec != std::errc() || r.ptr != cell.data() + cell.size())
        return std::nullopt;
    return v;
}

}  // namespace plab::test
