#pragma once
// The CUDA SPH neighbour lists (sph_kernels.cuh says why): views of the buffers the
// simulator owns.
#include <cstdint>

namespace plab::sim::cuda {

inline constexpr uint32_t kSphListSlots = 64;
inline constexpr uint32_t kSphListOverflow = 0xffffffffu;

struct SphList {
    uint32_t* index = nullptr;       // kSphListSlots × count, slot-major
    uint32_t* count = nullptr;       // per sorted particle; kSphListOverflow when it did not fit
    float* pressure_term = nullptr;  // per sorted particle: p/ρ², so the force pass reads
                                     // each neighbour's instead of computing it 55 times
};

}  // namespace plab::sim::cuda
