#pragma once
// Running the project's plotting scripts from tests: Debian's /usr/bin/python3 with
// matplotlib (python3-matplotlib, installed by scripts/setup.sh), their exit codes and the
// files they write.
#include <filesystem>
#include <string>

#include "support/shell.h"

namespace plab::testing {

inline constexpr const char* kPython = "/usr/bin/python3";

// Why the plotting scripts cannot run on this machine (a test skips with it), or "".
inline std::string why_plots_cannot_run() {
    if (!std::filesystem::exists(kPython)) return std::string(kPython) + " is not installed";
    if (test::run_command(std::string(kPython) + " -c 'import matplotlib' 2>/dev/null") != 0)
        return std::string("matplotlib is not importable by ") + kPython +
               " (Debian: python3-matplotlib, see scripts/setup.sh)";
    return {};
}

}  // namespace plab::testing
