#pragma once
// The real window app run under Xvfb as a shell command. The including test defines
// PLAB_APP_BINARY and PLAB_LSAN_SUPPRESSIONS (tests/CMakeLists.txt).
#include <filesystem>
#include <string>

namespace plab::test {

// The start of a shell command running the real binary in a fresh Xvfb screen of `width` x
// `height` pixels; append its arguments. The panel's ini file goes under `config` (a fresh
// folder starts the panel at its default place), and under the sanitizer build the leaks
// inside the system's X11/GL libraries are not reported: they are not ours.
inline std::string app_under_xvfb(const std::filesystem::path& config, int width, int height) {
    return "LSAN_OPTIONS=suppressions='" PLAB_LSAN_SUPPRESSIONS "' XDG_CONFIG_HOME='" +
           config.string() + "' xvfb-run -a -s '-screen 0 " + std::to_string(width) + "x" +
           std::to_string(height) + "x24' '" PLAB_APP_BINARY "'";
}

}  // namespace plab::test
