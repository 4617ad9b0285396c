#include "sim/core/error.h"

#include <filesystem>

namespace plab {

void throw_error(const std::string& what, const char* file, int line) {
    throw Error(what + " (" + std::filesystem::path(file).filename().string() + ":" +
                std::to_string(line) + ")");
}

}  // namespace plab
