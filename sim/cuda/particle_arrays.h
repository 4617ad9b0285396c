#pragma once
// The CUDA backend's particle arrays (sim/physics/dem_step.h names their roles): the state A,
// its cell-ordered copy S, the scatter form's force sums and the double-precision state.
// Private to sim/cuda.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "sim/core/vec.h"
#include "sim/cuda/cuda_check.h"
#include "sim/cuda/device_buffer.h"

namespace plab::sim::cuda {

struct ParticleArrays {
    // pos, vel and their cell-ordered copies (4 × 16 B), id and its copy (2 × 4 B) = 72 B.
    static constexpr std::size_t kBytesPerParticle = 4 * sizeof(Float4) + 2 * sizeof(uint32_t);
    // The double state: pos, vel and their copies (4 × 32 B).
    static constexpr std::size_t kBytesPerParticleHi = 4 * sizeof(Double4);

    DeviceBuffer<Float4> pos, vel, sorted_pos, sorted_vel;
    DeviceBuffer<uint32_t> id, sorted_id;
    DeviceBuffer<Float4> force;  // scatter mode only: summed pair forces per sorted particle
    // double_state: positions and velocities in double, A and S (allocated when first used).
    DeviceBuffer<Double4> pos_hi, vel_hi, sorted_pos_hi, sorted_vel_hi;
    bool hi_active = false;  // the double state holds the current state

    // Bytes resize(n, scatter) would add (`scatter`: with the scatter form's force sums).
    std::size_t growth_bytes(std::size_t n, bool scatter) const {
        return pos.growth_bytes(n) + vel.growth_bytes(n) + sorted_pos.growth_bytes(n) +
               sorted_vel.growth_bytes(n) + id.growth_bytes(n) + sorted_id.growth_bytes(n) +
               (scatter ? force.growth_bytes(n) : 0);
    }
    void resize(std::size_t n, bool scatter) {
        for (auto* buf : {&pos, &vel, &sorted_pos, &sorted_vel}) buf->resize(n);
        for (auto* buf : {&id, &sorted_id}) buf->resize(n);
        if (scatter) force.resize(n);
    }

    // Bytes resize_hi(n) would add.
    std::size_t hi_growth_bytes(std::size_t n) const {
        return pos_hi.growth_bytes(n) + vel_hi.growth_bytes(n) + sorted_pos_hi.growth_bytes(n) +
               sorted_vel_hi.growth_bytes(n);
    }
    // Throws plab::Error when the double state of `n` particles would not fit in the free device
    // memory (checked before anything changes).
    void require_hi_fits(std::size_t n) const {
        require_free_device_memory(hi_growth_bytes(n), "the double-precision state",
                                   kBytesPerParticleHi);
    }
    void resize_hi(std::size_t n) {
        for (auto* buf : {&pos_hi, &vel_hi, &sorted_pos_hi, &sorted_vel_hi}) buf->resize(n);
    }

    // The cell-ordered copy of `n` particles becomes the state (build_grid), on `stream`.
    void adopt_sorted(std::size_t n, cudaStream_t stream) {
        if (n == 0) return;
        PLAB_CUDA_CHECK(cudaMemcpyAsync(pos.data(), sorted_pos.data(), n * sizeof(Float4),
                                        cudaMemcpyDeviceToDevice, stream));
        PLAB_CUDA_CHECK(cudaMemcpyAsync(vel.data(), sorted_vel.data(), n * sizeof(Float4),
                                        cudaMemcpyDeviceToDevice, stream));
        PLAB_CUDA_CHECK(cudaMemcpyAsync(id.data(), sorted_id.data(), n * sizeof(uint32_t),
                                        cudaMemcpyDeviceToDevice, stream));
    }
};

}  // namespace plab::sim::cuda
