#include "app/lab/scene_dirs.h"

#include <algorithm>
#include <system_error>

namespace plab::app {

namespace fs = std::filesystem;

std::vector<fs::path> scene_dirs(const fs::path& installed) {
    std::vector<fs::path> dirs;
    if (!installed.empty()) dirs.push_back(installed);
    dirs.emplace_back(PLAB_SCENES_DIR);
    dirs.emplace_back("assets/scenes");
    return dirs;
}

std::vector<std::string> list_scene_files(const std::vector<fs::path>& dirs) {
    std::vector<std::string> out;
    for (const fs::path& dir : dirs) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        for (const auto& entry : fs::directory_iterator(dir, ec))
            if (entry.path().extension() == ".json") out.push_back(entry.path().string());
        if (!out.empty()) break;
    }
    std::sort(out.begin(), out.end());
    return out;
}

fs::path program_scene_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec || exe.empty()) return {};
    // PLAB_BIN_TO_SCENES: e.g. ../share/particle-lab/scenes (GNUInstallDirs, set by CMake).
    return (exe.parent_path() / PLAB_BIN_TO_SCENES).lexically_normal();
}

fs::path module_scene_dir(const fs::path& module_file) {
    if (module_file.empty()) return {};
    return (module_file.parent_path() / PLAB_PYTHON_TO_SCENES).lexically_normal();
}

}  // namespace plab::app
