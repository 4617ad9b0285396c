#include "sim/core/error.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace plab {
namespace {

std::string location(const char* file, int line) {
    return std::filesystem::path(file).filename().string() + ":" + std::to_string(line);
}

}  // namespace

void throw_error(const std::string& what, const char* file, int line) {
    const std::string where = location(file, line);
    throw Error(what + " (" + where + ")", where);
}

void throw_broken_rule(const std::string& what, const char* file, int line) {
    throw Error(what, location(file, line));
}

bool error_locations_wanted() {
    const char* v = std::getenv("PLAB_ERROR_LOCATIONS");
    return v && *v && std::strcmp(v, "0") != 0;
}

std::string error_report(const std::exception& e) {
    const auto* error = dynamic_cast<const Error*>(&e);
    if (!error || error->where().empty() || !error_locations_wanted()) return e.what();
    const std::string what = e.what();
    // throw_error's messages carry it already.
    if (what.ends_with("(" + error->where() + ")")) return what;
    return what + " (" + error->where() + ")";
}

}  // namespace plab
