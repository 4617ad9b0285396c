#include "sim/cuda/cuda_simulator.h"

#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>

#include "sim/cuda/dem_kernels.cuh"
#include "sim/cuda/device_buffer.h"
#include "sim/cuda/nvtx_range.h"
#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/stage_event_ring.h"
#include "sim/error.h"
#include "sim/host_state.h"

namespace plab::sim::cuda {
namespace {

// Per particle: pos, vel and their cell-ordered copies (4 × 16 B), id and its copy (2 × 4 B),
// cell and slot (2 × 4 B) = 80 B. Per cell: count and start (2 × 4 B).
constexpr std::size_t kBytesPerParticle = 4 * sizeof(Float4) + 4 * sizeof(uint32_t);
constexpr std::size_t kBytesPerCell = 2 * sizeof(uint32_t);

// Up to this many particles the force kernel gives each particle two threads. Measured on an
// H200 (docs/benchmarks.md): 2 beat 1, 4 and 8 at 65k and 262k particles; 1 wins from 1M on.
constexpr uint32_t kTwoThreadsLimit = 262144;

uint32_t blocks_for(uint32_t n, int block) { return (n + block - 1) / block; }

std::size_t scan_temp_bytes(uint32_t items) {
    std::size_t bytes = 0;
    PLAB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<uint32_t*>(nullptr),
                                                  static_cast<uint32_t*>(nullptr), items));
    return bytes;
}

}  // namespace

std::size_t device_bytes_needed(std::size_t particles, std::size_t cells) {
    return particles * kBytesPerParticle + (cells + 1) * kBytesPerCell;
}

void require_free_device_memory(std::size_t bytes, const std::string& what,
                                std::size_t bytes_per_item) {
    if (bytes == 0) return;
    std::size_t free = 0, total = 0;
    PLAB_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    // Leave a little headroom for the driver, graphs and the scan's scratch space.
    const std::size_t usable = free > (64u << 20) ? free - (64u << 20) : 0;
    if (bytes > usable) {
        char msg[320];
        std::snprintf(msg, sizeof msg,
                      "%s needs %.1f MiB more GPU memory, but only %.1f MiB of %.1f MiB is free",
                      what.c_str(), bytes / 1048576.0, free / 1048576.0, total / 1048576.0);
        std::string text = msg;
        if (bytes_per_item > 0)
            text += " (about " + std::to_string(usable / bytes_per_item) +
                    " particles would fit)";
        throw Error(text);
    }
}

struct CudaSimulator::Impl {
    SimulatorOptions options;
    int device = 0;
    Stream stream = make_stream();
    StageEventRing ring;

    DeviceBuffer<Float4> pos, vel, sorted_pos, sorted_vel;
    DeviceBuffer<uint32_t> id, sorted_id, cell, slot, cell_count, cell_start;
    DeviceBuffer<std::byte> scan_temp;
    DeviceBuffer<Float4> force;  // scatter mode only: summed pair forces per sorted particle
    DeviceBuffer<DeviceStats> stats;
    DeviceBuffer<Float4> staging;  // export through the host: positions then colours
    Event export_start = make_event(), export_end = make_event();
    bool export_recorded = false;

    Domain domain;
    GridSpec grid;
    float grid_radius = 0;
    uint32_t count = 0;

    // The captured step, valid while the parameters and buffers it baked in are unchanged.
    GraphExec graph;
    Params graph_params;
    int graph_block = 0;
    int graph_group = 0;
    bool graph_fused = false;
    bool graph_listed = false;
    bool graph_scatter = false;

    StepBuffers views() const {
        StepBuffers b;
        b.pos = pos.data();
        b.vel = vel.data();
        b.id = id.data();
        b.sorted_pos = sorted_pos.data();
        b.sorted_vel = sorted_vel.data();
        b.sorted_id = sorted_id.data();
        b.cell = cell.data();
        b.slot = slot.data();
        b.cell_count = cell_count.data();
        b.cell_start = cell_start.data();
        b.force = force.data();
        b.count = count;
        return b;
    }

    void check_launch() { PLAB_CUDA_CHECK(cudaGetLastError()); }

    // Grid build: zero the counts, hash + count with atomics, exclusive scan.
    void enqueue_grid() {
        cudaStream_t s = stream.get();
        const uint32_t cells = grid.num_cells() + 1;
        PLAB_CUDA_CHECK(cudaMemsetAsync(cell_count.data(), 0, cells * sizeof(uint32_t), s));
        if (count > 0) {
            hash_count_kernel<<<blocks_for(count, options.block_size), options.block_size, 0, s>>>(
                views(), grid);
            check_launch();
        }
        std::size_t temp_bytes = scan_temp.size();
        PLAB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp.data(), temp_bytes,
                                                      cell_count.data(), cell_start.data(), cells,
                                                      s));
    }

    void enqueue_reorder() {
        if (count == 0) return;
        scatter_kernel<<<blocks_for(count, options.block_size), options.block_size, 0,
                         stream.get()>>>(views());
        check_launch();
    }

    void enqueue_forces(const Params& p) {
        if (count == 0) return;
        if (options.scatter_forces) {
            PLAB_CUDA_CHECK(cudaMemsetAsync(force.data(), 0, count * sizeof(Float4), stream.get()));
            pair_scatter_kernel<<<blocks_for(count, options.block_size), options.block_size, 0,
                                  stream.get()>>>(views(), grid, p);
            check_launch();
            return;
        }
        const int group = force_group();
        const bool listed = options.contact_list;
        const std::size_t shared =
            listed ? std::size_t{kContactSlots} * options.block_size * sizeof(uint32_t) : 0;
        force_kernel<<<blocks_for(count * group, options.block_size), options.block_size, shared,
                       stream.get()>>>(views(), grid, p, domain, group, options.fuse_integrate,
                                       listed);
        check_launch();
    }

    // Threads per particle in the force kernel. Automatic: enough threads in flight to cover
    // the GPU several times over, which small runs reach only by sharing a particle's rows.
    int force_group() const {
        if (options.threads_per_particle > 0) return options.threads_per_particle;
        return count <= kTwoThreadsLimit ? 2 : 1;
    }

    void enqueue_integrate(const Params& p) {
        if (count == 0) return;
        if (options.scatter_forces) {  // the summed forces still need the kick, then the drift
            finish_kernel<<<blocks_for(count, options.block_size), options.block_size, 0,
                            stream.get()>>>(views(), p, domain);
            check_launch();
            return;
        }
        if (options.fuse_integrate) return;
        drift_kernel<<<blocks_for(count, options.block_size), options.block_size, 0,
                       stream.get()>>>(views(), p, domain);
        check_launch();
    }

    void record(cudaEvent_t e) { PLAB_CUDA_CHECK(cudaEventRecord(e, stream.get())); }

    void substep_with_stage_events(const Params& p) {
        NvtxRange step("step");
        const bool fused = options.fuse_integrate && !options.scatter_forces;
        const auto marks = ring.begin_step(true, fused);
        record(marks[0]);
        {
            NvtxRange stage("grid build");
            enqueue_grid();
        }
        record(marks[1]);
        {
            NvtxRange stage("sort/reorder");
            enqueue_reorder();
        }
        record(marks[2]);
        {
            NvtxRange stage(fused ? "forces+integrate" : "forces");
            enqueue_forces(p);
        }
        record(marks[3]);
        if (!fused) {
            NvtxRange stage("integrate");
            enqueue_integrate(p);
        }
        record(marks[4]);
    }

    void capture_graph(const Params& p) {
        graph.reset();
        cudaStream_t s = stream.get();
        PLAB_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        try {
            enqueue_grid();
            enqueue_reorder();
            enqueue_forces(p);
            enqueue_integrate(p);
        } catch (...) {
            cudaGraph_t broken = nullptr;
            cudaStreamEndCapture(s, &broken);
            if (broken) cudaGraphDestroy(broken);
            throw;
        }
        cudaGraph_t g = nullptr;
        PLAB_CUDA_CHECK(cudaStreamEndCapture(s, &g));
        Graph owned(g);
        cudaGraphExec_t exec = nullptr;
        PLAB_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
        graph.reset(exec);
        graph_params = p;
        graph_block = options.block_size;
        graph_group = force_group();
        graph_fused = options.fuse_integrate;
        graph_listed = options.contact_list;
        graph_scatter = options.scatter_forces;
    }

    void substep_as_graph(const Params& p) {
        NvtxRange step("step (CUDA graph)");
        if (!graph || !(graph_params == p) || graph_block != options.block_size ||
            graph_group != force_group() || graph_fused != options.fuse_integrate ||
            graph_listed != options.contact_list || graph_scatter != options.scatter_forces)
            capture_graph(p);
        const auto marks = ring.begin_step(false);
        record(marks[0]);
        PLAB_CUDA_CHECK(cudaGraphLaunch(graph.get(), stream.get()));
        record(marks[4]);
    }

    void sync() { PLAB_CUDA_CHECK(cudaStreamSynchronize(stream.get())); }
};

CudaSimulator::CudaSimulator(const SimulatorOptions& options) {
    const std::string why = device_unusable_reason();
    PLAB_REQUIRE(why.empty(), "CUDA backend unavailable: " + why);
    PLAB_CUDA_CHECK(cudaSetDevice(0));
    impl_ = std::make_unique<Impl>();
    set_options(options);
    impl_->stats.resize(1);
}

CudaSimulator::~CudaSimulator() {
    if (impl_) PLAB_CUDA_LOG(cudaStreamSynchronize(impl_->stream.get()));
}

std::string CudaSimulator::device_name() const {
    cudaDeviceProp prop{};
    PLAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, impl_->device));
    int driver = 0, runtime = 0;
    PLAB_CUDA_CHECK(cudaDriverGetVersion(&driver));
    PLAB_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    char buf[320];
    std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %d SMs, %.0f GiB, driver CUDA %d.%d, runtime %d.%d)",
                  prop.name, prop.major, prop.minor, prop.multiProcessorCount,
                  prop.totalGlobalMem / 1073741824.0, driver / 1000, (driver % 1000) / 10,
                  runtime / 1000, (runtime % 1000) / 10);
    return buf;
}

void CudaSimulator::set_options(const SimulatorOptions& options) {
    const int b = options.block_size;
    PLAB_REQUIRE(b >= 32 && b <= 1024 && b % 32 == 0,
                 "CUDA block size must be a multiple of 32 in [32, 1024], got " +
                     std::to_string(b));
    const int t = options.threads_per_particle;
    PLAB_REQUIRE(t == 0 || t == 1 || t == 2 || t == 4 || t == 8,
                 "threads per particle must be 0 (automatic), 1, 2, 4 or 8, got " +
                     std::to_string(t));
    Impl& m = *impl_;
    if (options.scatter_forces && m.force.size() < m.count) {
        // The scatter form needs its force buffer (16 B a particle), allocated here, not in a
        // step; checked like any growth.
        require_free_device_memory(m.force.growth_bytes(m.count), "the scatter force buffer",
                                   sizeof(Float4));
        m.sync();
        m.graph.reset();
        m.force.resize(m.count);
    }
    m.options = options;
}

void CudaSimulator::reset(const InitialState& initial, const Params& params) {
    validate(params);
    PLAB_REQUIRE(initial.pos.size() == initial.vel.size(),
                 "initial state has different numbers of positions and velocities");
    Impl& m = *impl_;
    const std::size_t n = initial.pos.size();
    reserve(n, initial.grid.num_cells());
    m.graph.reset();
    m.ring.clear();

    std::vector<uint32_t> ids(n);
    std::iota(ids.begin(), ids.end(), 0u);
    m.pos.upload(initial.pos, m.stream.get());
    m.vel.upload(initial.vel, m.stream.get());
    m.id.upload(ids, m.stream.get());
    m.domain = initial.domain;
    m.grid = initial.grid;
    m.grid_radius = params.radius;
    m.count = static_cast<uint32_t>(n);
    m.sync();  // the host vectors above must outlive the copies
}

void CudaSimulator::step(const Params& params) {
    validate(params);
    Params p = params;
    p.radius = impl_->grid_radius;  // the grid was built for this radius; a new one needs a reset
    for (int s = 0; s < p.substeps; ++s) {
        if (impl_->options.use_graph)
            impl_->substep_as_graph(p);
        else
            impl_->substep_with_stage_events(p);
    }
}

void CudaSimulator::synchronize() { impl_->sync(); }

std::vector<StageTimings> CudaSimulator::take_timings() {
    std::vector<StageTimings> out;
    impl_->ring.collect(out);
    return out;
}

void CudaSimulator::reserve(std::size_t particles, std::size_t grid_cells) {
    Impl& m = *impl_;
    const std::size_t n = particles;
    const std::size_t cells = grid_cells + 1;
    PLAB_REQUIRE(n <= 0xfffffffeull && cells <= 0xffffffffull,
                 "particle and cell counts must fit in 32 bits");
    const std::size_t temp = scan_temp_bytes(static_cast<uint32_t>(cells));
    // Check the whole growth before touching anything, so a refused size leaves the current
    // simulation running.
    const std::size_t growth = m.pos.growth_bytes(n) + m.vel.growth_bytes(n) +
                               m.sorted_pos.growth_bytes(n) + m.sorted_vel.growth_bytes(n) +
                               m.id.growth_bytes(n) + m.sorted_id.growth_bytes(n) +
                               m.cell.growth_bytes(n) + m.slot.growth_bytes(n) +
                               m.cell_count.growth_bytes(cells) +
                               m.cell_start.growth_bytes(cells) + m.scan_temp.growth_bytes(temp) +
                               (m.options.scatter_forces ? m.force.growth_bytes(n) : 0);
    require_free_device_memory(growth, std::to_string(n) + " particles in " +
                                           std::to_string(grid_cells) + " cells",
                               kBytesPerParticle);
    if (growth == 0) return;
    m.sync();
    m.graph.reset();  // it captured the old buffers
    for (auto* buf : {&m.pos, &m.vel, &m.sorted_pos, &m.sorted_vel}) buf->resize(n);
    for (auto* buf : {&m.id, &m.sorted_id, &m.cell, &m.slot}) buf->resize(n);
    m.cell_count.resize(cells);
    m.cell_start.resize(cells);
    m.scan_temp.resize(temp);
    if (m.options.scatter_forces) m.force.resize(n);
}

int CudaSimulator::force_threads_per_particle() const { return impl_->force_group(); }

std::size_t CudaSimulator::particle_count() const { return impl_->count; }

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

std::string device_unusable_reason() {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        cudaGetLastError();  // clear it: this is an answer, not a failure
        return std::string("no usable CUDA driver or device (") + cudaGetErrorString(err) + ")";
    }
    if (count == 0) return "no CUDA device found";
    // A device older than the architectures this build was compiled for has no kernel image.
    cudaFuncAttributes attr{};
    const cudaError_t image = cudaFuncGetAttributes(&attr, scatter_kernel);
    if (image != cudaSuccess) {
        cudaGetLastError();
        cudaDeviceProp prop{};
        cudaGetDeviceProperties(&prop, 0);
        return std::string("this build has no kernels for ") + prop.name + " (sm_" +
               std::to_string(prop.major) + std::to_string(prop.minor) +
               "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(prop.major) +
               std::to_string(prop.minor) + ": " + cudaGetErrorString(image);
    }
    return {};
}

}  // namespace plab::sim::cuda
