#include "support/file_text.h"

#include <fstream>
#include <sstream>

namespace plab::test {

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::vector<std::string> read_lines(const std::filesystem::path& path) {
    return lines_of(read_text(path));
}

}  // namespace plab::test
