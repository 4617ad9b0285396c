// CudaSimulator's readbacks: statistics, downloads for tests and export, the grid for tests,
// and the export into render buffers.
#include <cstring>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "sim/cuda/cuda_simulator_impl.cuh"
#include "sim/cuda/nvtx_range.h"
#include "sim/engine/host_state.h"
#include "sim/model/bead_size.h"
#include "sim/physics/color_map.h"
#include "sim/physics/sph_kernel.h"
#include "sim/physics/stats_body.h"

namespace plab::sim::cuda {
namespace {

// `omega`: rotations by id (the spin colour), null before the frictional law runs.
__global__ void export_kernel(const Float4* pos, const Float4* vel, const uint32_t* id, uint32_t n,
                              GridSpec g, float radius, RenderStyle style, const Float4* omega,
                              Float4* out_pos, Float4* out_color) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Float4 q = load(pos + i);
    const Vec3 p = xyz(q);
    out_pos[i] = to_float4(p, bead_radius(q, radius));  // each bead's own size
    out_color[i] = particle_color(style, load(vel + i), load(id + i), cell_index(p, g), omega);
}

__global__ void stats_kernel(const Float4* pos, const Float4* vel, uint32_t n, float mass,
                             DeviceStats* out) {
    float speed = 0.f, density_min = INFINITY, density_max = 0.f;
    double energy = 0.0, density_sum = 0.0;
    unsigned int bad = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const ParticleStat s = particle_stat(pos[i], vel[i], mass);
        if (!s.finite) {
            ++bad;
            continue;
        }
        // sqrt and the rounding to float keep the order, so this is the CPU's max as well.
        speed = fmaxf(speed, static_cast<float>(sqrt(s.speed2)));
        energy += s.kinetic_energy;
        density_min = fminf(density_min, s.density);
        density_max = fmaxf(density_max, s.density);
        density_sum += s.density;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        speed = fmaxf(speed, __shfl_down_sync(0xffffffffu, speed, offset));
        energy += __shfl_down_sync(0xffffffffu, energy, offset);
        bad += __shfl_down_sync(0xffffffffu, bad, offset);
        density_min = fminf(density_min, __shfl_down_sync(0xffffffffu, density_min, offset));
        density_max = fmaxf(density_max, __shfl_down_sync(0xffffffffu, density_max, offset));
        density_sum += __shfl_down_sync(0xffffffffu, density_sum, offset);
    }
    if ((threadIdx.x & 31) == 0) {
        // Densities are ≥ 0 (and +inf when a warp saw none), so their bits order like them.
        atomicMax(&out->max_speed_bits, __float_as_uint(speed));
        atomicAdd(&out->kinetic_energy, energy);
        atomicAdd(&out->non_finite, bad);
        atomicMin(&out->density_min_bits, __float_as_uint(density_min));
        atomicMax(&out->density_max_bits, __float_as_uint(density_max));
        atomicAdd(&out->density_sum, density_sum);
    }
}

}  // namespace

SimStats CudaSimulator::stats(const Params& params) {
    Impl& m = *impl_;
    cudaStream_t s = m.stream.get();
    Params p = params;
    keep_reset_params(p, m.reset_params);
    DeviceStats init{};
    init.density_min_bits = 0x7f800000u;  // +inf
    m.stats.upload({&init, 1}, s);
    if (m.count > 0) {
        const uint32_t blocks = std::min<uint32_t>(blocks_for(m.count, 256), 1024);
        stats_kernel<<<blocks, 256, 0, s>>>(m.particles.pos.data(), m.particles.vel.data(), m.count,
                                            particle_mass(p), m.stats.data());
        m.check_launch();
    }
    DeviceStats host{};
    m.stats.download({&host, 1}, s);
    m.sync();
    SimStats st;
    st.count = m.count;
    std::memcpy(&st.max_speed, &host.max_speed_bits, sizeof st.max_speed);
    st.kinetic_energy = host.kinetic_energy;
    st.non_finite = host.non_finite;
    if (p.model == Model::Sph && st.count > st.non_finite) {
        std::memcpy(&st.density_min, &host.density_min_bits, sizeof st.density_min);
        std::memcpy(&st.density_max, &host.density_max_bits, sizeof st.density_max);
        st.density_mean = host.density_sum / double(st.count - st.non_finite);
    }
    return st;
}

Snapshot CudaSimulator::download() {
    Impl& m = *impl_;
    std::vector<Float4> pos(m.count), vel(m.count);
    std::vector<uint32_t> id(m.count);
    m.particles.pos.download(pos, m.stream.get());
    m.particles.vel.download(vel, m.stream.get());
    m.particles.id.download(id, m.stream.get());
    m.sync();
    return to_id_order(pos, vel, id);
}

DeviceArrays CudaSimulator::device_arrays() {
    Impl& m = *impl_;
    m.sync();
    if (!m.state_shared) {
        m.state_shared = true;  // positions may now change between steps: hash every step
        m.graph.reset();        // a graph captured before starts at the scan
    }
    DeviceArrays d;
    d.pos = m.particles.pos.data();
    d.vel = m.particles.vel.data();
    d.id = m.particles.id.data();
    d.count = m.count;
    d.device = m.device;
    return d;
}

InitialState CudaSimulator::capture_state() {
    Impl& m = *impl_;
    cudaStream_t s = m.stream.get();
    InitialState st;
    st.domain = m.domain;
    st.grid = m.grid;
    st.pos.resize(m.count);
    st.vel.resize(m.count);
    st.order.resize(m.count);
    const ParticleArrays& a = m.particles;
    a.pos.download(st.pos, s);
    a.vel.download(st.vel, s);
    a.id.download(st.order, s);
    if (a.hi_active) {
        st.pos_hi.resize(m.count);
        st.vel_hi.resize(m.count);
        a.pos_hi.download(st.pos_hi, s);
        a.vel_hi.download(st.vel_hi, s);
    }
    m.sync();
    if (m.friction.size() == m.count) st.friction = m.friction.capture(s);
    st.geometry = m.geometry.scene();
    return st;
}

// The export kernel on the simulator's stream, into device memory (a mapped GL buffer or the
// staging of a host export).
void CudaSimulator::Impl::enqueue_export(const RenderStyle& style, Float4* pos_out,
                                         Float4* color_out) {
    const Float4* omega = friction.size() == count ? friction.buffers().omega : nullptr;
    export_kernel<<<blocks_for(count, 256), 256, 0, stream.get()>>>(
        particles.pos.data(), particles.vel.data(), particles.id.data(), count, grid,
        reset_params.radius, style, omega, pos_out, color_out);
    check_launch();
}

void CudaSimulator::export_render(const RenderTarget& target, const RenderStyle& style) {
    NvtxRange range("export");
    Impl& m = *impl_;
    const std::size_t n = m.count;
    PLAB_REQUIRE(target.capacity >= n && (n == 0 || (target.positions && target.colors)),
                 "render target holds " + std::to_string(target.capacity) + " particles, " +
                     std::to_string(n) + " needed");
    if (n == 0) return;
    cudaStream_t s = m.stream.get();
    Float4* pos_out = target.positions;
    Float4* color_out = target.colors;
    if (!target.on_device) {
        pos_out = m.exports.claim_staging(n, s);
        color_out = pos_out + n;
    }
    cudaStream_t reader = target.on_device ? target.reader_stream : nullptr;
    if (reader != nullptr) {
        // Not over particles the reader has yet to read: wait for its queued work.
        PLAB_CUDA_CHECK(cudaEventRecord(m.exports.reader_done.get(), reader));
        PLAB_CUDA_CHECK(cudaStreamWaitEvent(s, m.exports.reader_done.get(), 0));
    }
    m.record(m.exports.start.get());
    m.enqueue_export(style, pos_out, color_out);
    if (reader != nullptr) {
        PLAB_CUDA_CHECK(cudaEventRecord(m.exports.ready.get(), s));
        PLAB_CUDA_CHECK(cudaStreamWaitEvent(reader, m.exports.ready.get(), 0));
    }
    if (!target.on_device) {
        PLAB_CUDA_CHECK(cudaMemcpyAsync(target.positions, pos_out, n * sizeof(Float4),
                                        cudaMemcpyDeviceToHost, s));
        PLAB_CUDA_CHECK(cudaMemcpyAsync(target.colors, color_out, n * sizeof(Float4),
                                        cudaMemcpyDeviceToHost, s));
    }
    m.record(m.exports.end.get());
    m.exports.recorded = true;
    if (!target.on_device) m.sync();
}

// Export N of a frame that is drawn one frame later. The work it enqueues:
//   simulator's stream: [wait for copy N-1 to leave the staging] export kernel N -> staging,
//                       record `exported`
//   copy stream:        [wait for `exported`] staging -> host[N % 2], record `copied`
// The simulator's stream then runs step N+1 while copy N runs. Why nothing is overwritten
// early:
// - Copy N reads the staging only after kernel N wrote it: cudaStreamWaitEvent waits for the
//   event as last recorded when it is called (after kernel N); recording it again for export
//   N+1 does not change what copy N waits for.
// - Kernel N+1 writes the staging only after copy N has read it (claim_staging waits the
//   simulator's stream for `copied` as recorded after copy N).
// - Step N+1 rewrites the particle state that kernel N read, but after it on the same stream;
//   the copy touches only the staging and host memory.
// - host[N % 2] is written next by copy N+2, enqueued by the second call after this one: by
//   the interface's contract the caller has finished reading it by then. Growing a host
//   buffer frees it, so the host waits for the copy stream first.
void CudaSimulator::export_render_async(const RenderStyle& style) {
    NvtxRange range("export (async copy)");
    Impl& m = *impl_;
    AsyncExport& a = m.exports.async;
    const std::size_t n = m.count;
    PinnedBuffer<Float4>& host = a.host[a.next];
    if (host.size() < 2 * n) PLAB_CUDA_CHECK(cudaStreamSynchronize(a.copy_stream.get()));
    host.resize(2 * n);
    if (n > 0) {
        cudaStream_t copy = a.copy_stream.get();
        Float4* staging = m.exports.claim_staging(n, m.stream.get());
        m.record(m.exports.start.get());
        m.enqueue_export(style, staging, staging + n);
        m.record(a.exported.get());
        PLAB_CUDA_CHECK(cudaStreamWaitEvent(copy, a.exported.get(), 0));
        // Positions and colours lie back to back in both the staging and the host buffer.
        PLAB_CUDA_CHECK(cudaMemcpyAsync(host.data(), staging, 2 * n * sizeof(Float4),
                                        cudaMemcpyDeviceToHost, copy));
        // From the kernel's start on one stream to the copy's end on the other: the span
        // last_export_ms gives for a synchronous host export too.
        PLAB_CUDA_CHECK(cudaEventRecord(m.exports.end.get(), copy));
        PLAB_CUDA_CHECK(cudaEventRecord(a.copied.get(), copy));
        a.copy_enqueued = true;
        m.exports.recorded = true;
    }
    a.last = {host.data(), host.data() + n, n};
    a.next ^= 1;
}

HostRenderFrame CudaSimulator::wait_export_async() {
    AsyncExport& a = impl_->exports.async;
    if (a.copy_enqueued) PLAB_CUDA_CHECK(cudaEventSynchronize(a.copied.get()));
    return a.last;
}

Float4* CudaSimulator::host_staging(std::size_t count) {
    impl_->sync();  // an export may still be copying into the old block
    return impl_->exports.host_staging(count);
}

double CudaSimulator::last_export_ms() { return impl_->exports.last_ms(); }

GridSnapshot CudaSimulator::build_grid() {
    Impl& m = *impl_;
    // The state is reordered below; a double state restarts from it.
    m.particles.hi_active = false;
    m.graph.reset();
    cudaStream_t s = m.stream.get();
    m.memory = Memory::Sorted;  // the snapshot is the sorted copy, whatever the last step used
    // On the scene's grid; the state is reordered, so lists rebuild at the next step.
    m.enqueue_grid(GridUse::Scene);
    m.enqueue_reorder(GridUse::Scene);
    m.lists.was_on = false;
    m.hashed = false;  // the state is reordered below
    GridSnapshot g;
    std::vector<uint32_t> cell(m.count), slot(m.count);
    g.sorted_id.resize(m.count);
    g.cell_start.resize(m.grid.num_cells() + 1);
    m.particles.sorted_id.download(g.sorted_id, s);
    m.grid_arrays.cell_start.download(g.cell_start, s);
    m.grid_arrays.cell.download(cell, s);
    m.grid_arrays.slot.download(slot, s);
    // Keep the state consistent: the reordered copy becomes the state.
    const std::size_t n = m.count;
    m.particles.adopt_sorted(n, s);
    m.sync();
    g.sorted_cell.resize(n);
    for (std::size_t i = 0; i < n; ++i) g.sorted_cell[g.cell_start[cell[i]] + slot[i]] = cell[i];
    return g;
}

}  // namespace plab::sim::cuda
