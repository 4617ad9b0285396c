#pragma once
// Choosing a backend: the simulator for a request (CUDA when a device is usable, else the CPU,
// with the reason), and what the CUDA device can say of itself without a simulator.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "sim/engine/simulator.h"
#include "sim/engine/stage_bytes.h"
#include "sim/model/variants.h"

namespace plab::sim {

// The simulator for `wanted`. With Backend::Auto it is CUDA when a device is usable and the
// CPU otherwise; `fallback_reason` (when given) then says why CUDA was not taken. Asking for
// Backend::Cuda where none is usable throws plab::Error with that reason.
std::unique_ptr<Simulator> make_simulator(Backend wanted, std::string* fallback_reason = nullptr,
                                          const SimulatorOptions& options = {});

// Empty when a CUDA device is usable, otherwise why not (no toolkit at build time, no driver,
// no device).
std::string cuda_unavailable_reason();

// Device memory the CUDA backend needs for the state and grid of `particles` particles in a
// grid of `cells` cells, bytes (0 in builds without CUDA).
std::size_t cuda_bytes_needed(std::size_t particles, std::size_t cells);

// The memory rates of `backend`'s device (stage_bytes.h): the current CUDA device's, or the
// host's for the CPU backend; measured once per process and backend (about 0.1 s), then kept.
MemoryRates measure_memory_rates(Backend backend);

// Free and total memory of the current CUDA device (engine/simulator.h). Empty in builds without
// CUDA, or when the query fails (no device, no driver).
std::optional<DeviceMemory> device_memory();

}  // namespace plab::sim
