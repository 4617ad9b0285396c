#pragma once
// The Scene file row of the panel's Run tab: Save scene (the running scene with its edits,
// bodies' spins and the camera, app/viewer/app_scene_file.cpp), Open, the file field and the
// choice to save the particles too (a checkpoint beside the scene file).
#include "app/viewer/ui_state.h"

namespace plab::app {

void scene_file_controls(UiState& ui);

}  // namespace plab::app
