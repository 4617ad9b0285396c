#pragma once
// The scene files the panel offers: every *.json in the installed scene folder beside the
// program, else in the project's assets/scenes (known at build time), else in ./assets/scenes,
// sorted by name (app/lab/scene_dirs.h).
#include <string>
#include <vector>

namespace plab::app {

std::vector<std::string> find_scene_files();

}  // namespace plab::app
