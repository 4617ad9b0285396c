#pragma once
// Where the shipped scene files are. An installed copy keeps them in
// <prefix>/share/particle-lab/scenes and finds them relative to the file that is running (the
// program in <prefix>/bin, the Python module in its site-packages folder), so an install works
// under any prefix and never reads the source tree it was built from. A build that is not
// installed finds the source tree's assets/scenes (known at build time), else ./assets/scenes.
#include <filesystem>
#include <string>
#include <vector>

namespace plab::app {

// The folders to look in, in order: `installed` (when not empty), the source tree's
// assets/scenes, ./assets/scenes.
std::vector<std::filesystem::path> scene_dirs(const std::filesystem::path& installed);

// Every *.json in the first of `dirs` that holds any, sorted by name; empty when none does.
std::vector<std::string> list_scene_files(const std::vector<std::filesystem::path>& dirs);

// The installed scene folder of the running program: its own folder (/proc/self/exe) joined
// with the path from the install's bin folder to its scene folder. Empty when the program's
// path cannot be read.
std::filesystem::path program_scene_dir();

// The installed scene folder seen from a file installed in the Python module's folder.
std::filesystem::path module_scene_dir(const std::filesystem::path& module_file);

}  // namespace plab::app
