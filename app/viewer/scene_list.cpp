#include "app/viewer/scene_list.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace plab::app {

std::vector<std::string> find_scene_files() {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    for (const fs::path& dir : {fs::path(PLAB_SCENES_DIR), fs::path("assets/scenes")}) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        for (const auto& entry : fs::directory_iterator(dir, ec))
            if (entry.path().extension() == ".json") out.push_back(entry.path().string());
        if (!out.empty()) break;
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace plab::app
