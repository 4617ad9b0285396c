#pragma once
// Running the project's plotting scripts from tests: Debian's /usr/bin/python3 with
// matplotlib (python3-matplotlib, installed by scripts/setup.sh), their exit codes and the
// files they write.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace plab::testing {

inline constexpr const char* kPython = "/usr/bin/python3";

// The shell command's exit code, or -1 when it did not exit normally.
inline int run_command(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// Why the plotting scripts cannot run on this machine (a test skips with it), or "".
inline std::string why_plots_cannot_run() {
    if (!std::filesystem::exists(kPython)) return std::string(kPython) + " is not installed";
    if (run_command(std::string(kPython) + " -c 'import matplotlib' 2>/dev/null") != 0)
        return std::string("matplotlib is not importable by ") + kPython +
               " (Debian: python3-matplotlib, see scripts/setup.sh)";
    return {};
}

}  // namespace plab::testing
