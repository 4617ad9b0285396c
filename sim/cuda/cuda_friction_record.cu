// The CUDA frictional state as a captured state carries it (sim/physics/friction_record.h): its
// memory check, its restore after a reset and its capture. The CPU twin is
// FrictionState::capture / restore.
#include <string>

#include "sim/cuda/cuda_check.h"
#include "sim/cuda/device_friction_state.h"

namespace plab::sim::cuda {

std::size_t DeviceFrictionState::growth_bytes(std::size_t n) const {
    return omega_.growth_bytes(n) + omega_next_.growth_bytes(n) + contacts_.growth_bytes(n) +
           wall_xi_.growth_bytes(n * 3) + collider_xi_.growth_bytes(n) + plate_xi_.growth_bytes(n) +
           contact_info_.growth_bytes(n) + mesh_xi_.growth_bytes(n * kMeshSlots);
}

void DeviceFrictionState::require_fits(std::size_t count) const {
    require_free_device_memory(
        growth_bytes(count),
        "the frictional contact state of " + std::to_string(count) + " particles",
        kBytesPerParticle);
}

bool DeviceFrictionState::restore(const FrictionRecord& record, cudaStream_t stream) {
    const std::size_t n = record.omega.size();
    FrictionRecord full = record;
    fill_absent_friction_arrays(full, n);
    // Sized and cleared as a reset does (omega_next included), then overwritten.
    const bool reallocated = reset(n, stream);
    omega_.upload(full.omega, stream);
    const std::vector<ContactMemory> memory = memory_of(full.contacts, full.rolling);
    contacts_.upload(memory, stream);
    wall_xi_.upload(full.wall_xi, stream);
    collider_xi_.upload(full.collider_xi, stream);
    plate_xi_.upload(full.plate_xi, stream);
    contact_info_.upload(full.contact_info, stream);
    mesh_xi_.upload(full.mesh_xi, stream);
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));  // `full`, `memory` must outlive the copies
    return reallocated;
}

void DeviceFrictionState::forget_mesh_contacts(cudaStream_t stream) {
    if (count_ == 0) return;
    PLAB_CUDA_CHECK(
        cudaMemsetAsync(mesh_xi_.data(), 0, count_ * kMeshSlots * sizeof(Float4), stream));
}

FrictionRecord DeviceFrictionState::capture(cudaStream_t stream) const {
    FrictionRecord r;
    if (count_ == 0) return r;
    r.omega.resize(count_);
    r.wall_xi.resize(count_ * 3);
    r.collider_xi.resize(count_);
    r.plate_xi.resize(count_);
    r.contact_info.resize(count_);
    r.mesh_xi.resize(count_ * kMeshSlots);
    omega_.download(r.omega, stream);
    std::vector<ContactMemory> memory(count_);
    contacts_.download(memory, stream);
    wall_xi_.download(r.wall_xi, stream);
    collider_xi_.download(r.collider_xi, stream);
    plate_xi_.download(r.plate_xi, stream);
    contact_info_.download(r.contact_info, stream);
    mesh_xi_.download(r.mesh_xi, stream);
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    r.contacts = slots_of(memory);
    r.rolling = rolling_of(memory);
    return r;
}

}  // namespace plab::sim::cuda
