#pragma once
// The camera a run opens with: its domain framed from the default direction, or the scene
// file's own view backed off until the whole domain shows at the window's shape.
#include <optional>

#include "render/orbit_camera.h"
#include "sim/io/scene_file.h"
#include "sim/model/grid.h"

namespace plab::render {

OrbitCamera opening_camera(const sim::Domain& domain,
                           const std::optional<sim::SceneCamera>& file_camera, float aspect);

}  // namespace plab::render
