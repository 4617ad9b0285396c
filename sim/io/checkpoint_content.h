#pragma once
// What the checkpoint reader checks after the checksum: whether the state means anything.
#include <string>

#include "sim/engine/initial_state.h"
#include "sim/model/params.h"

namespace plab::sim {

// What makes a state that passed its checksum meaningless: no particles, a non-finite position
// or velocity (the run it was saved from had diverged, or the file was written so), or a
// particle farther outside the domain than the walls ever let one go. "" when none.
std::string content_problem(const InitialState& s, const Params& p);

}  // namespace plab::sim
