#pragma once
// The current CUDA device's memory rates, measured with CUDA events (stage_bytes.h's roof).
#include "sim/engine/stage_bytes.h"

namespace plab::sim::cuda {

// A device-to-device copy of up to 512 MiB (smaller where less memory is free), and a kernel
// reading an 8 MiB buffer (inside any recent GPU's L2 cache) 64 times; the median of five
// runs each. Throws plab::Error when a CUDA call fails.
MemoryRates measure_device_rates();

}  // namespace plab::sim::cuda
