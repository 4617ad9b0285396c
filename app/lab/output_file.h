#pragma once
// The app's outputs go through the one atomic file writer, which lives in sim/ because
// checkpoints (sim/io/checkpoint.h) are written with it too.
#include "sim/io/output_file.h"

namespace plab::app {

using sim::AtomicFile;
using sim::make_folder;
using sim::require_writable;
using sim::write_whole_file;

}  // namespace plab::app
