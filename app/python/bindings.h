#pragma once
// The parts of the particle_lab module, each bound in its own file.
#include <pybind11/pybind11.h>

#include <filesystem>
#include <vector>

namespace plab::app::py {

// Where Simulation(scene=NAME) and scenes() look: beside an installed module, else the source
// tree's assets/scenes, else ./assets/scenes (app/lab/scene_dirs.h).
std::vector<std::filesystem::path> scene_folders();

void bind_simulation(pybind11::module_& m);

}  // namespace plab::app::py
