// The frictional contact law on the CUDA backend (dem_frictional_step.h): its device state,
// the variants it runs with, its pass and the readback of its state. The CPU twin is
// CpuSimulator::frictional_pass with sim/cpu/friction_state.h.
#include <algorithm>
#include <type_traits>
#include <utility>

#include "sim/cuda/cuda_simulator_impl.cuh"
#include "sim/cuda/frictional_kernels.cuh"

namespace plab::sim::cuda {

bool DeviceFrictionState::reset(std::size_t count, cudaStream_t stream) {
    const std::size_t n = count;
    const std::size_t growth = growth_bytes(n);
    require_free_device_memory(
        growth, "the frictional contact state of " + std::to_string(n) + " particles",
        kBytesPerParticle);
    if (growth > 0) PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old buffers are freed
    omega_.resize(n);
    omega_next_.resize(n);
    contacts_.resize(n);
    wall_xi_.resize(n * 3);
    collider_xi_.resize(n);
    plate_xi_.resize(n);
    contact_info_.resize(n);
    mesh_xi_.resize(n * kMeshSlots);
    if (n > 0) {
        for (const DeviceBuffer<Float4>* buf :
             {&omega_, &omega_next_, &wall_xi_, &collider_xi_, &plate_xi_, &mesh_xi_})
            PLAB_CUDA_CHECK(cudaMemsetAsync(buf->data(), 0, buf->bytes(), stream));
        PLAB_CUDA_CHECK(cudaMemsetAsync(contact_info_.data(), 0, contact_info_.bytes(), stream));
        // A free slot's partner is kFreeSlot, not zero.
        const unsigned blocks =
            static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65535));
        clear_contact_memory_kernel<<<blocks, 256, 0, stream>>>(contacts_.data(), n);
        PLAB_CUDA_CHECK(cudaGetLastError());
    }
    count_ = n;
    return growth > 0;
}

void DeviceFrictionState::copy_rotation(cudaStream_t stream) const {
    if (count_ > 0)
        PLAB_CUDA_CHECK(cudaMemcpyAsync(omega_.data(), omega_next_.data(), count_ * sizeof(Float4),
                                        cudaMemcpyDeviceToDevice, stream));
}

FrictionSnapshot DeviceFrictionState::download(cudaStream_t stream) const {
    // The capture's arrays, less the fixed bodies' stretches (a test's view, not a hot path).
    FrictionRecord r = capture(stream);
    return {std::move(r.omega), std::move(r.contact_info), std::move(r.contacts)};
}

void CudaSimulator::Impl::choose_law(const Params& p) {
    // The auto rows follow the law (the frictional one reads lists): resolved again when the
    // law changed since. A step that turns the lists on reserves and builds them
    // (prepare_list_step); a graph with other options is captured again.
    if (const ContactLaw law = contact_law_of(p); law != resolved_law)
        apply_variants(resolved.requested, law);
    options = resolved.effective;
    if (!runs_frictional_law(p)) return;
    // What the frictional pass is, whatever was asked (as on the CPU, which decides it in its
    // step: the contact law is a parameter that may change between steps). It reads the
    // cell-ordered copy (sorted memory); it gathers each particle's contacts from its own side,
    // since both copies of a contact keep their own stretch (no scatter form); it kicks and drifts
    // in the same thread (the fused integrate); it has no persistent-kernel form; its state is
    // float. The neighbour lists run as resolved.
    options.sorted_memory = true;
    options.scatter_forces = false;
    options.fuse_integrate = true;
    options.persistent_kernel = false;
    options.double_state = false;
    // Zero rotation and no memory the first time the law runs after a reset or a change of the
    // particle count; allocated here, never inside a captured step.
    if (count > 0 && friction.size() != count && friction.reset(count, stream.get()))
        graph.reset();  // it captured the old buffers
}

void CudaSimulator::Impl::enqueue_frictional(const Params& p) {
    const int block = options.block_size;
    const NeighbourList list = listed() ? list_view() : NeighbourList{};
    const std::size_t shared = frictional_shared_bytes(block);
    auto launch = [&](auto* kernel, const ListControl* ctl) {
        kernel<<<blocks_for(count, block), block, shared, stream.get()>>>(
            views(), friction.buffers(), step_grid(), p, domain, list, lists.stray_view(),
            lists.geometry.rebuild_dist2, ctl);
        check_launch();
    };
    // With or without the bodies' code (frictional_particle_sums' kBodies).
    auto run = [&](auto bodies) {
        constexpr bool kBodies = decltype(bodies)::value;
        if (!list.active()) {
            launch(frictional_kernel<FrictionalSource::Grid, kBodies>, nullptr);
        } else if (lists.stray_limit_now == 0) {
            launch(frictional_kernel<FrictionalSource::Lists, kBodies>, nullptr);
        } else {
            // Which of the two runs is the device's decision (ListControl::strays).
            launch(frictional_kernel<FrictionalSource::Lists, kBodies>, lists.control.data());
            launch(frictional_kernel<FrictionalSource::ListsWithStrays, kBodies>,
                   lists.control.data());
        }
    };
    if (geometry.view().active())
        run(std::true_type{});
    else
        run(std::false_type{});
    friction.copy_rotation(stream.get());
}

FrictionSnapshot CudaSimulator::friction_snapshot() {
    return impl_->friction.download(impl_->stream.get());
}

std::vector<uint32_t> DeviceFrictionState::download_contact_info(cudaStream_t stream) const {
    std::vector<uint32_t> info(count_);
    contact_info_.download(info, stream);
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    return info;
}

FrictionStats CudaSimulator::friction_stats() {
    return summarize_contacts(impl_->friction.download_contact_info(impl_->stream.get()));
}

}  // namespace plab::sim::cuda
