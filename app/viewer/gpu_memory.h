#pragma once
// Free and total memory of the current CUDA device, for the panel.
#include <optional>

#include "app/viewer/panel.h"

namespace plab::app {

// Empty in builds without CUDA or when the query fails (no device).
std::optional<GpuMemory> query_gpu_memory();

}  // namespace plab::app
