// CudaSimulator's readbacks: statistics, downloads for tests and export, the grid for tests,
// and the export into render buffers.
#include <cstring>
#include <string>
#include <vector>

#include "sim/color_map.h"
#include "sim/cuda/cuda_simulator_impl.cuh"
#include "sim/cuda/nvtx_range.h"
#include "sim/error.h"
#include "sim/host_state.h"

namespace plab::sim::cuda {
namespace {

__global__ void export_kernel(const Float4* pos, const Float4* vel, const uint32_t* id,
                              uint32_t n, GridSpec g, float radius, RenderStyle style,
                              Float4* out_pos, Float4* out_color) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Vec3 p = xyz(load(pos + i));
    out_pos[i] = to_float4(p, radius);
    out_color[i] = particle_color(style.color, xyz(load(vel + i)), load(id + i),
                                  cell_index(p, g), style.speed_scale);
}

__global__ void stats_kernel(const Float4* pos, const Float4* vel, uint32_t n, float mass,
                             DeviceStats* out) {
    float speed = 0.f;
    double energy = 0.0;
    unsigned int bad = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const Float4 p = pos[i], v = vel[i];
        const bool finite = isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && isfinite(v.x) &&
                            isfinite(v.y) && isfinite(v.z);
        if (!finite) {
            ++bad;
            continue;
        }
        const float s2 = v.x * v.x + v.y * v.y + v.z * v.z;
        speed = fmaxf(speed, sqrtf(s2));
        energy += 0.5 * mass * s2;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        speed = fmaxf(speed, __shfl_down_sync(0xffffffffu, speed, offset));
        energy += __shfl_down_sync(0xffffffffu, energy, offset);
        bad += __shfl_down_sync(0xffffffffu, bad, offset);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMax(&out->max_speed_bits, __float_as_uint(speed));
        atomicAdd(&out->kinetic_energy, energy);
        atomicAdd(&out->non_finite, bad);
    }
}

}  // namespace

SimStats CudaSimulator::stats(const Params& params) {
    Impl& m = *impl_;
    cudaStream_t s = m.stream.get();
    PLAB_CUDA_CHECK(cudaMemsetAsync(m.stats.data(), 0, sizeof(DeviceStats), s));
    if (m.count > 0) {
        const uint32_t blocks = std::min<uint32_t>(blocks_for(m.count, 256), 1024);
        stats_kernel<<<blocks, 256, 0, s>>>(m.pos.data(), m.vel.data(), m.count, params.mass,
                                            m.stats.data());
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
    return st;
}

Snapshot CudaSimulator::download() {
    Impl& m = *impl_;
    std::vector<Float4> pos(m.count), vel(m.count);
    std::vector<uint32_t> id(m.count);
    m.pos.download(pos, m.stream.get());
    m.vel.download(vel, m.stream.get());
    m.id.download(id, m.stream.get());
    m.sync();
    return to_id_order(pos, vel, id);
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
        require_free_device_memory(m.staging.growth_bytes(2 * n), "the host-copy export",
                                   2 * sizeof(Float4));
        m.staging.resize(2 * n);
        pos_out = m.staging.data();
        color_out = m.staging.data() + n;
    }
    m.record(m.export_start.get());
    export_kernel<<<blocks_for(static_cast<uint32_t>(n), 256), 256, 0, s>>>(
        m.pos.data(), m.vel.data(), m.id.data(), static_cast<uint32_t>(n), m.grid, m.grid_radius,
        style, pos_out, color_out);
    m.check_launch();
    if (!target.on_device) {
        PLAB_CUDA_CHECK(cudaMemcpyAsync(target.positions, pos_out, n * sizeof(Float4),
                                        cudaMemcpyDeviceToHost, s));
        PLAB_CUDA_CHECK(cudaMemcpyAsync(target.colors, color_out, n * sizeof(Float4),
                                        cudaMemcpyDeviceToHost, s));
    }
    m.record(m.export_end.get());
    m.export_recorded = true;
    if (!target.on_device) m.sync();
}

Float4* CudaSimulator::host_staging(std::size_t count) {
    Impl& m = *impl_;
    m.sync();  // an export may still be copying into the old block
    m.pinned.resize(2 * count);
    return m.pinned.data();
}

double CudaSimulator::last_export_ms() {
    Impl& m = *impl_;
    if (!m.export_recorded) return 0;
    PLAB_CUDA_CHECK(cudaEventSynchronize(m.export_end.get()));
    float ms = 0;
    PLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, m.export_start.get(), m.export_end.get()));
    return ms;
}

GridSnapshot CudaSimulator::build_grid() {
    Impl& m = *impl_;
    cudaStream_t s = m.stream.get();
    m.enqueue_grid();
    m.enqueue_reorder();
    GridSnapshot g;
    std::vector<uint32_t> cell(m.count), slot(m.count);
    g.sorted_id.resize(m.count);
    g.cell_start.resize(m.grid.num_cells() + 1);
    m.sorted_id.download(g.sorted_id, s);
    m.cell_start.download(g.cell_start, s);
    m.cell.download(cell, s);
    m.slot.download(slot, s);
    // Keep the state consistent: the reordered copy becomes the state.
    const std::size_t n = m.count;
    if (n > 0) {
        PLAB_CUDA_CHECK(cudaMemcpyAsync(m.pos.data(), m.sorted_pos.data(), n * sizeof(Float4),
                                        cudaMemcpyDeviceToDevice, s));
        PLAB_CUDA_CHECK(cudaMemcpyAsync(m.vel.data(), m.sorted_vel.data(), n * sizeof(Float4),
                                        cudaMemcpyDeviceToDevice, s));
        PLAB_CUDA_CHECK(cudaMemcpyAsync(m.id.data(), m.sorted_id.data(), n * sizeof(uint32_t),
                                        cudaMemcpyDeviceToDevice, s));
    }
    m.sync();
    g.sorted_cell.resize(n);
    for (std::size_t i = 0; i < n; ++i) g.sorted_cell[g.cell_start[cell[i]] + slot[i]] = cell[i];
    return g;
}

}  // namespace plab::sim::cuda
