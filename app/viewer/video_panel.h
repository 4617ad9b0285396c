#pragma once
// The Record video row of the panel's Run tab: the button (start or stop), the
// movie's file field and a progress line; App::sync starts and stops the recording.
#include "app/viewer/ui_state.h"

namespace plab::app {

void video_controls(UiState& ui);

}  // namespace plab::app
