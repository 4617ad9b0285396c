#pragma once
// The host memory's copy rate as the CPU backend's threads see it (stage_bytes.h's roof).
#include "sim/engine/stage_bytes.h"

namespace plab::sim {

// A 64 MiB copy (past the caches) split over the OpenMP threads; the median of five runs (steady
// clock). No L2 rate (0).
MemoryRates measure_host_rates();

}  // namespace plab::sim
