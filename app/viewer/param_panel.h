#pragma once
// The panel's Parameters tab: the parameter table in groups (time, material, contact, liquid,
// gravity, walls), each showing the parameters the run reads; those it does not read (the
// other contact law's, the other model's) one click away, greyed, each with the reason
// (sim/model/param_groups.h).
#include "app/viewer/ui_state.h"
#include "sim/run/run.h"

namespace plab::app {

void parameters_tab(UiState& ui, const sim::Run& session);

}  // namespace plab::app
