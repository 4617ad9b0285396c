#pragma once
// The panel's Export button, applied at the frame's sync point: the running particles, at the
// session's simulated time, as one more frame in a folder (export_series.h).
#include <filesystem>
#include <string>

#include "app/viewer/window_run.h"

namespace plab::app {

// Adds a frame (VTK + CSV) of `session`'s particles to `folder` (created when missing), after
// the frames already there, and adds it to the folder's particles.vtk.series. Returns the VTK
// file's path. Throws plab::Error naming the folder or file that could not be written; the
// simulation is not touched either way.
std::filesystem::path export_session_frame(sim::Run& session, const std::string& folder);

}  // namespace plab::app
