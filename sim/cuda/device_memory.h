#pragma once
// Free and total memory of the current CUDA device, asked of the runtime without a simulator
// (the window's memory line, the largest run that fits).
#include <optional>

#include "sim/engine/simulator.h"

namespace plab::sim::cuda {

// Empty when the query fails (no device, no driver); the failure is cleared, not thrown.
std::optional<DeviceMemory> query_device_memory();

}  // namespace plab::sim::cuda
