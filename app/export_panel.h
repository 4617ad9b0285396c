#pragma once
// The Export row of the panel's Simulation section: the simulated time, the folder field and
// the Export button (which posts a request; App::sync writes the frame).
#include "app/sim_session.h"
#include "app/ui_state.h"

namespace plab::app {

void export_controls(UiState& ui, const SimSession& session);

}  // namespace plab::app
