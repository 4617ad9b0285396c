#pragma once
// The scene files the panel offers: every *.json in the project's assets/scenes (known at
// build time) or, failing that, in ./assets/scenes, sorted by name.
#include <string>
#include <vector>

namespace plab::app {

std::vector<std::string> find_scene_files();

}  // namespace plab::app
