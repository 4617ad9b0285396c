#pragma once
// The panel's Bodies tab: the scene's bodies listed, one selected at a time and edited live
// (move, turn, scale, friction, inside, spin, remove; Run::set_bodies), and Add buttons for a
// box, a cylinder, a plane or an STL/OBJ mesh by path (sim/io/starter_body.h). Alt+left-drag in
// the scene moves the selected body (app/viewer/input.cpp). Below, the emitters and sinks:
// added, edited and removed live (Run::set_sources), with max_particles.
#include <vector>

#include "app/viewer/ui_state.h"
#include "sim/run/run.h"

namespace plab::app {

void bodies_tab(UiState& ui, const sim::Run& session);

// The bodies an edit starts from: the edit already asked for this frame, else the running ones
// (valid until either changes; copy it to edit).
const std::vector<sim::Body>& bodies_to_edit(const UiState& ui, const sim::Run& session);

}  // namespace plab::app
