#pragma once
// The Checkpoint row of the panel's Run tab: the file field and the Save (F5) and
// Load (F9) buttons, which post requests; App::sync saves or loads and says how it went in
// the panel's message line.
#include "app/viewer/ui_state.h"

namespace plab::app {

void checkpoint_controls(UiState& ui);

}  // namespace plab::app
