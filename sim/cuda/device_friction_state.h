#pragma once
// The CUDA backend's frictional state (dem_frictional_step.h), the device twin of
// sim/cpu/friction_state.h: rotations and contact memory per particle id. Allocated and zeroed
// outside any captured step (the step only reads and writes it), so a CUDA graph replays it.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/vec.h"
#include "sim/cuda/device_buffer.h"
#include "sim/physics/dem_frictional_step.h"
#include "sim/physics/friction_record.h"

namespace plab::sim::cuda {

class DeviceFrictionState {
  public:
    // omega, omega_next, 3 wall stretches, the collider and plate stretches (7 × 16 B), the
    // contact memory (12 slots × 16 B), contact_info (4 B) and the geometry bodies' slots
    // (4 × 16 B): 372 B a particle.
    static constexpr std::size_t kBytesPerParticle =
        (7 + kMeshSlots) * sizeof(Float4) + sizeof(ContactMemory) + sizeof(uint32_t);

    // Particles the state holds now (0 until the law first runs, and after forget()).
    std::size_t size() const { return count_; }

    // The next use starts again from zero rotation and no remembered contacts (a reset).
    void forget() { count_ = 0; }

    // Zero rotation and no remembered contacts for `count` particles: the memory is checked
    // first (throws plab::Error and changes nothing when it does not fit), grown when needed
    // and cleared on `stream`. Returns whether the buffers were reallocated (a captured step
    // that holds the old pointers must be captured again).
    bool reset(std::size_t count, cudaStream_t stream);  // cuda_frictional_step.cu

    // Throws plab::Error when the state of `count` particles would not fit in the free device
    // memory (a restore checks it before anything of the simulator changes).
    void require_fits(std::size_t count) const;  // cuda_friction_record.cu
    // A captured state (checked by friction_record_problem; not empty) goes back by id:
    // allocated like reset, outside any captured step, then uploaded on `stream` (waits for
    // it). Returns whether the buffers were reallocated.
    bool restore(const FrictionRecord& record, cudaStream_t stream);
    // The state a capture carries, empty before the law first runs (waits for the stream).
    FrictionRecord capture(cudaStream_t stream) const;

    FrictionBuffers buffers() const {
        return {omega_.data(),       omega_next_.data(), contacts_.data(),     wall_xi_.data(),
                collider_xi_.data(), plate_xi_.data(),   contact_info_.data(), mesh_xi_.data()};
    }

    // No remembered contact with any body (the bodies were replaced); the rest stays. Cleared
    // on `stream`, outside any captured step.
    void forget_mesh_contacts(cudaStream_t stream);  // cuda_friction_record.cu

    // After the pass: the rotations it wrote become the current ones. A copy on the stream,
    // not a pointer swap, so that a captured graph replays it every step.
    void copy_rotation(cudaStream_t stream) const;

    // The state by id, copied to the host (waits for the stream).
    FrictionSnapshot download(cudaStream_t stream) const;
    // contact_info alone, by id (waits for the stream).
    std::vector<uint32_t> download_contact_info(cudaStream_t stream) const;

  private:
    std::size_t growth_bytes(std::size_t count) const;  // to hold `count` particles

    DeviceBuffer<Float4> omega_, omega_next_;  // by id, rad/s
    DeviceBuffer<ContactMemory> contacts_;     // by id
    DeviceBuffer<Float4> wall_xi_;             // by id, 3 each, m
    DeviceBuffer<Float4> collider_xi_;         // by id, m
    DeviceBuffer<Float4> plate_xi_;            // by id, m
    DeviceBuffer<uint32_t> contact_info_;      // by id (FrictionBuffers::contact_info)
    DeviceBuffer<Float4> mesh_xi_;             // by id, kMeshSlots each (mesh_friction.h)
    std::size_t count_ = 0;
};

}  // namespace plab::sim::cuda
