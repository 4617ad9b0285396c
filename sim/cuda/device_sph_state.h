#pragma once
// The CUDA backend's SPH state between its two passes (sph_kernels.cuh): the neighbour lists
// the density pass writes for the force pass, and each particle's pressure term. Allocated by
// reserve, never in a step. Private to sim/cuda.
#include <cstddef>
#include <cstdint>

#include "sim/cuda/device_buffer.h"
#include "sim/cuda/sph_list.h"

namespace plab::sim::cuda {

// Per particle: kSphListSlots entries, a count and a pressure term (4 B each) = 264 B.
struct DeviceSphState {
    DeviceBuffer<uint32_t> index, count;  // SPH neighbour lists (sph_kernels.cuh)
    DeviceBuffer<float> pressure_term;    // SPH p/ρ² per sorted particle

    // Bytes resize(n) would add for `n` particles.
    std::size_t growth_bytes(std::size_t n) const {
        return index.growth_bytes(n * kSphListSlots) + count.growth_bytes(n) +
               pressure_term.growth_bytes(n);
    }
    void resize(std::size_t n) {
        index.resize(n * kSphListSlots);
        count.resize(n);
        pressure_term.resize(n);
    }

    SphList view() const { return {index.data(), count.data(), pressure_term.data()}; }
};

}  // namespace plab::sim::cuda
