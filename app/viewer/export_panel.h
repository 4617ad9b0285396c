#pragma once
// The Export row of the panel's Run tab: the simulated time, the folder field and
// the Export button (which posts a request; App::sync writes the frame).
#include "app/viewer/ui_state.h"
#include "app/viewer/window_run.h"

namespace plab::app {

void export_controls(UiState& ui, const sim::Run& session);

}  // namespace plab::app
