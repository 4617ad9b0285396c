#include "app/viewer/scene_list.h"

#include "app/lab/scene_dirs.h"

namespace plab::app {

std::vector<std::string> find_scene_files() {
    return list_scene_files(scene_dirs(program_scene_dir()));
}

}  // namespace plab::app
