#pragma once
// One thread per particle (or per group of threads, forces) around the shared bodies of
// dem_step.h and dem_thread_bodies.cuh. Memory::Unsorted instances read the state in place
// through the cell-ordered index (SimulatorOptions::sorted_memory off).
#include <cstdint>

#include "sim/cuda/dem_thread_bodies.cuh"
#include "sim/physics/dem_step.h"

namespace plab::sim::cuda {

__global__ void hash_count_kernel(StepBuffers b, GridSpec g) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count) hash_count_particle(i, b, g);
}

__global__ void scatter_kernel(StepBuffers b) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count) scatter_particle(i, b);
}

// Unsorted memory: only each particle's index goes into cell order.
__global__ void scatter_index_kernel(StepBuffers b) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count) scatter_particle<Memory::Unsorted>(i, b);
}

// The scatter form's reorder, which also zeroes what the rest of its step adds into: the pair
// forces (pair_scatter_kernel) and the `cells` cell counts, into which finish_kernel counts the
// next step's positions (the scan has read them). No memset nodes of their own.
template <Memory M>
__global__ void scatter_zeroing_kernel(StepBuffers b, uint32_t cells) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    scatter_particle<M>(i, b);
    b.force[i] = Float4{};
    for (uint32_t c = i; c < cells; c += b.count) b.cell_count[c] = 0;
}

// The force pass, force_thread per thread (see there for `group`, `fused` and `listed`;
// `listed` needs dynamic shared memory of kContactSlots × blockDim.x uint32).
// `list`: the neighbour lists when they run (sorted memory), inactive otherwise.
template <Memory M>
__global__ void force_kernel(StepBuffers b, GridSpec g, Params p, Domain d, int group, bool fused,
                             bool listed, NeighbourList list) {
    extern __shared__ uint32_t contact_slots[];
    force_thread<M>(blockIdx.x * blockDim.x + threadIdx.x, b, g, p, d, group, fused, listed,
                    contact_slots + threadIdx.x, blockDim.x, list);
}

template <Memory M>
__global__ void drift_kernel(StepBuffers b, Params p, Domain d) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count) dem_drift_particle<M>(i, b, p, d);
}

// Scatter form of the force pass: each touching pair once, the neighbour's opposite force
// added with atomics into b.force (zeroed by scatter_zeroing_kernel, cell order), then
// finish_kernel kicks and drifts. `listed`: contacts listed first (pair_forces_half_listed; dynamic
// shared memory of kContactSlots × blockDim.x uint32).
template <Memory M>
__global__ void pair_scatter_kernel(StepBuffers b, GridSpec g, Params p, bool listed) {
    extern __shared__ uint32_t contact_slots[];
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    auto add = [&](uint32_t j, Vec3 f) {
#if __CUDA_ARCH__ >= 900
        // One 16 B atomic (compute capability 9.x) instead of three 4 B ones.
        atomicAdd(reinterpret_cast<float4*>(b.force + j), make_float4(f.x, f.y, f.z, 0.f));
#else
        atomicAdd(&b.force[j].x, f.x);
        atomicAdd(&b.force[j].y, f.y);
        atomicAdd(&b.force[j].z, f.z);
#endif
    };
    const uint32_t s = stored_at<M>(b, i);
    const Vec3 pos = xyz(load(read_pos<M>(b) + s));
    const Vec3 vel = xyz(load(read_vel<M>(b) + s));
    const uint32_t id = load(read_id<M>(b) + s);
    add(i, listed ? pair_forces_half_listed<M>(i, pos, vel, id, b, g, p,
                                               contact_slots + threadIdx.x, blockDim.x, add)
                  : dem_pair_forces_half<M>(i, pos, vel, id, b, g, p, add));
}

// After the pair pass nothing reads a neighbour any more, so each particle may write its own
// state in place, sorted or not. It then counts its new position into grid `g` (the cell
// counts zeroed by scatter_zeroing_kernel): the next step's hash, whose positions are in
// registers here, so that step starts at the scan (CudaSimulator::Impl::hashed).
// `mesh_done`: the triangles' forces are in b.force already (mesh_cells_kernel), so the kick
// adds only the collider's.
template <Memory M>
__global__ void finish_kernel(StepBuffers b, Params p, Domain d, GridSpec g, bool mesh_done) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    const uint32_t s = stored_at<M>(b, i);
    const Vec3 pos = xyz(load(read_pos<M>(b) + s));
    const Vec3 vel = xyz(load(read_vel<M>(b) + s));
    const uint32_t id = load(read_id<M>(b) + s);
    GeometryView bodies = b.geometry;
    if (mesh_done) bodies.triangle_count = 0;
    const Float4 kicked = dem_new_velocity(pos, vel, id, xyz(b.force[i]), bodies, p);
    const uint32_t at = M == Memory::Sorted ? i : s;
    count_into_cell(at, dem_drift_into_state(at, pos, xyz(kicked), id, b, p, d), b, g);
}

}  // namespace plab::sim::cuda
