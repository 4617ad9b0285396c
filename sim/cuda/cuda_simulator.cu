// CudaSimulator: memory, the step's stages, plain and graph launches. The readbacks are in
// cuda_readback.cu, the state they share in cuda_simulator_impl.cuh.
#include "sim/cuda/cuda_simulator.h"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>

#include "sim/cuda/cell_order_kernels.cuh"
#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/cuda_simulator_impl.cuh"
#include "sim/cuda/dem_kernels.cuh"
#include "sim/cuda/nvtx_range.h"
#include "sim/cuda/sph_kernels.cuh"
#include "sim/error.h"
#include "sim/format_numbers.h"
#include "sim/host_state.h"

namespace plab::sim::cuda {
namespace {

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
            text += " (about " + std::to_string(usable / bytes_per_item) + " particles would fit)";
        throw Error(text);
    }
}

// Grid build: zero the counts, hash + count with atomics, exclusive scan.
// With neighbour lists: the displacement check, and zero + hash only on a rebuild; the scan
// runs every step (on unchanged counts it rewrites the same starts).
// The scatter form starts at the scan once the last step's finish kernel has hashed (`hashed`).
void CudaSimulator::Impl::enqueue_grid() {
    if (listed()) {
        enqueue_list_grid();
    } else if (!(carry_hash() && hashed)) {
        enqueue_hash();
    }
    hashed = false;  // the scatter form's reorder zeroes the counts; others hash every step
    const uint32_t cells = step_grid().num_cells() + 1;
    cudaStream_t s = stream.get();
    std::size_t temp_bytes = scan_temp.size();
    PLAB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp.data(), temp_bytes, cell_count.data(),
                                                  cell_start.data(), cells, s));
}

void CudaSimulator::Impl::enqueue_hash() {
    cudaStream_t s = stream.get();
    PLAB_CUDA_CHECK(
        cudaMemsetAsync(cell_count.data(), 0, (grid.num_cells() + 1) * sizeof(uint32_t), s));
    if (count == 0) return;
    hash_count_kernel<<<blocks_for(count, options.block_size), options.block_size, 0, s>>>(views(),
                                                                                           grid);
    check_launch();
}

void CudaSimulator::Impl::enqueue_reorder() {
    if (count == 0) return;
    if (listed()) {
        enqueue_list_reorder();
        return;
    }
    if (hashes_in_finish()) {  // the scatter form: its sums and the next hash start from zero
        auto* kernel = memory == Memory::Sorted ? scatter_zeroing_kernel<Memory::Sorted>
                                                : scatter_zeroing_kernel<Memory::Unsorted>;
        kernel<<<blocks_for(count, options.block_size), options.block_size, 0, stream.get()>>>(
            views(), grid.num_cells() + 1);
        check_launch();
        return;
    }
    // Unsorted memory scatters only the index into cell order.
    auto* kernel = memory == Memory::Sorted ? scatter_kernel : scatter_index_kernel;
    kernel<<<blocks_for(count, options.block_size), options.block_size, 0, stream.get()>>>(views());
    check_launch();
    if (options.deterministic) enqueue_cell_order(grid.num_cells(), nullptr);
}

void CudaSimulator::Impl::enqueue_cell_order(uint32_t cells, const ListControl* ctl) {
    auto* kernel = memory == Memory::Sorted ? order_cells_by_id_kernel<Memory::Sorted>
                                            : order_cells_by_id_kernel<Memory::Unsorted>;
    kernel<<<blocks_for(cells, options.block_size), options.block_size, 0, stream.get()>>>(
        views(), cells, ctl);
    check_launch();
}

void CudaSimulator::Impl::enqueue_sph_density(const Params& p, const SphConstants& c) {
    const int block = sph_block_size();
    if (listed()) {
        sph_density_list_kernel<<<blocks_for(count, block), block, 0, stream.get()>>>(
            views(), list_grid, p, domain, c, list_view(), sph_pressure_term.data());
        check_launch();
        return;
    }
    sph_density_kernel<<<blocks_for(count, block), block, 0, stream.get()>>>(views(), grid, p,
                                                                             domain, c, sph_list());
    check_launch();
}

void CudaSimulator::Impl::enqueue_forces(const Params& p) {
    if (count == 0) return;
    if (p.model == Model::Sph) {  // density, then forces with the drift fused in
        const SphConstants c = sph_constants(p);
        enqueue_sph_density(p, c);
        const int block = sph_block_size();
        if (listed()) {
            sph_force_list_kernel<<<blocks_for(count, block), block, 0, stream.get()>>>(
                views(), list_grid, p, domain, c, list_view(), sph_pressure_term.data());
            check_launch();
            return;
        }
        sph_force_kernel<<<blocks_for(count, block), block, 0, stream.get()>>>(
            views(), grid, p, domain, c, sph_list());
        check_launch();
        return;
    }
    if (p.contact == int(ContactLaw::Frictional)) {  // force, spin and drift in one pass
        enqueue_frictional(p);
        return;
    }
    // Both forms list each particle's contacts first unless the variant says otherwise.
    const bool contacts_listed = options.contact_list;
    const std::size_t shared = cuda::contact_list_bytes(contacts_listed, options.block_size);
    if (options.scatter_forces) {  // into the forces the reorder zeroed
        auto* pairs = memory == Memory::Sorted ? pair_scatter_kernel<Memory::Sorted>
                                               : pair_scatter_kernel<Memory::Unsorted>;
        pairs<<<blocks_for(count, options.block_size), options.block_size, shared, stream.get()>>>(
            views(), grid, p, contacts_listed);
        check_launch();
        return;
    }
    const int group = force_group();
    const NeighbourList list = listed() ? list_view() : NeighbourList{};
    // Unsorted: never fused (the drift would overwrite the state other particles still read).
    auto* kernel =
        memory == Memory::Sorted ? force_kernel<Memory::Sorted> : force_kernel<Memory::Unsorted>;
    kernel<<<blocks_for(count * group, options.block_size), options.block_size, shared,
             stream.get()>>>(views(), step_grid(), p, domain, group, options.fuse_integrate,
                             contacts_listed, list);
    check_launch();
}

void CudaSimulator::Impl::enqueue_integrate(const Params& p) {
    if (count == 0 || p.model == Model::Sph) return;  // SPH drifts in its force pass
    if (options.scatter_forces) {  // the summed forces still need the kick, then the drift
        auto* finish = memory == Memory::Sorted ? finish_kernel<Memory::Sorted>
                                                : finish_kernel<Memory::Unsorted>;
        finish<<<blocks_for(count, options.block_size), options.block_size, 0, stream.get()>>>(
            views(), p, domain, grid);
        check_launch();
        hashed = true;
        return;
    }
    if (options.fuse_integrate && memory == Memory::Sorted) return;
    auto* drift =
        memory == Memory::Sorted ? drift_kernel<Memory::Sorted> : drift_kernel<Memory::Unsorted>;
    drift<<<blocks_for(count, options.block_size), options.block_size, 0, stream.get()>>>(
        views(), p, domain);
    check_launch();
}

void CudaSimulator::Impl::substep_with_stage_events(const Params& p) {
    NvtxRange step("step");
    const bool fused =
        p.model == Model::Sph ||
        (options.fuse_integrate && !options.scatter_forces && memory == Memory::Sorted);
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
    {
        NvtxRange stage("integrate");
        if (!fused) enqueue_integrate(p);
        enqueue_stray_repair(p);  // timed with the integrate stage
    }
    record(marks[4]);
}

void CudaSimulator::Impl::capture_graph(const Params& p) {
    graph.reset();
    cudaStream_t s = stream.get();
    PLAB_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    try {
        enqueue_grid();
        enqueue_reorder();
        enqueue_forces(p);
        enqueue_integrate(p);
        enqueue_stray_repair(p);
    } catch (...) {
        hashed = false;
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
    graph_options = options;
    graph_group = force_group();
}

void CudaSimulator::Impl::substep_as_graph(const Params& p) {
    NvtxRange step("step (CUDA graph)");
    // The graph baked in the parameters, the launch shapes and the variant switches.
    // The graph of the scatter form starts at the scan: the first step's hash runs before it.
    if (carry_hash() && !hashed) {
        enqueue_hash();
        hashed = true;
    }
    if (!graph || !(graph_params == p) || !(graph_options == options) ||
        graph_group != force_group())
        capture_graph(p);
    const auto marks = ring.begin_step(false);
    record(marks[0]);
    PLAB_CUDA_CHECK(cudaGraphLaunch(graph.get(), stream.get()));
    record(marks[4]);
}

int CudaSimulator::Impl::sph_block_limit() {
    // The SPH kernels need more registers than 1024 threads of one block can have.
    static const int limit = [] {
        int limit = 1024;
        for (const void* kernel : {reinterpret_cast<const void*>(sph_density_kernel),
                                   reinterpret_cast<const void*>(sph_force_kernel),
                                   reinterpret_cast<const void*>(sph_density_list_kernel),
                                   reinterpret_cast<const void*>(sph_force_list_kernel)}) {
            cudaFuncAttributes a{};
            PLAB_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
            limit = std::min(limit, a.maxThreadsPerBlock);
        }
        return limit / 32 * 32;
    }();
    return limit;
}

int CudaSimulator::Impl::sph_block_size() const {
    return std::min(options.block_size, sph_block_limit());
}

ResolvedOptions CudaSimulator::Impl::resolve(const SimulatorOptions& requested, Model model,
                                             ContactLaw law) {
    DeviceCaps caps;
    caps.backend = Backend::Cuda;
    caps.sph_block_limit = sph_block_limit();
    caps.persistent_unavailable = [this, model](const SimulatorOptions& e) {
        return persistent.unavailable_reason(device, e, model,
                                             e.sorted_memory ? Memory::Sorted : Memory::Unsorted);
    };
    return resolve_options(requested, model, caps, law);
}

namespace {

__global__ void widen_kernel(const Float4* in, Double4* out, uint32_t n) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = {in[i].x, in[i].y, in[i].z, 0.0};
}

}  // namespace

void CudaSimulator::Impl::choose_precision() {
    const bool wanted = options.double_state && count > 0;
    if (wanted && !hi_active) {
        // Checked like any growth, allocated here (never inside a captured step), and started
        // from the current float state (exact: every float is a double).
        const std::size_t n = count;
        require_free_device_memory(pos_hi.growth_bytes(n) + vel_hi.growth_bytes(n) +
                                       sorted_pos_hi.growth_bytes(n) +
                                       sorted_vel_hi.growth_bytes(n),
                                   "the double-precision state", 4 * sizeof(Double4));
        sync();
        for (auto* buf : {&pos_hi, &vel_hi, &sorted_pos_hi, &sorted_vel_hi}) buf->resize(n);
        widen_kernel<<<blocks_for(count, 256), 256, 0, stream.get()>>>(pos.data(), pos_hi.data(),
                                                                       count);
        check_launch();
        widen_kernel<<<blocks_for(count, 256), 256, 0, stream.get()>>>(vel.data(), vel_hi.data(),
                                                                       count);
        check_launch();
    }
    if (wanted != hi_active) graph.reset();  // the captured step has the other buffers
    hi_active = wanted;
}

void CudaSimulator::Impl::choose_step(const Params& p) {
    memory = options.sorted_memory ? Memory::Sorted : Memory::Unsorted;
    choose_precision();
    prepare_list_step(p);
    // Only the scatter form keeps the hash from one step to the next (the persistent kernel,
    // for one, moves the state without passing through enqueue_grid).
    if (!hashes_in_finish()) hashed = false;
}

void CudaSimulator::Impl::substep_persistent(const Params& p) {
    NvtxRange step("step (persistent kernel)");
    // One kernel: like a graph replay, only the whole step is timed.
    const auto marks = ring.begin_step(false);
    record(marks[0]);
    persistent.enqueue(views(), grid, p, domain, options, memory, force_group(), stream.get());
    record(marks[4]);
}

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
    std::snprintf(buf, sizeof buf,
                  "%s (sm_%d%d, %d SMs, %.0f GiB, driver CUDA %d.%d, runtime %d.%d)", prop.name,
                  prop.major, prop.minor, prop.multiProcessorCount,
                  prop.totalGlobalMem / 1073741824.0, driver / 1000, (driver % 1000) / 10,
                  runtime / 1000, (runtime % 1000) / 10);
    return buf;
}

void CudaSimulator::Impl::apply_variants(const SimulatorOptions& requested, ContactLaw law) {
    ResolvedOptions r = resolve(requested, reset_params.model, law);
    // Buffers a variant needs (the scatter forces, the persistent kernel's scan) are allocated
    // here, never in a step, and checked like any growth.
    reserve(count, grid.num_cells(), reset_params.model == Model::Sph, r.effective);
    resolved = std::move(r);
    resolved_law = law;
    options = resolved.effective;
}

void CudaSimulator::set_options(const SimulatorOptions& options) {
    impl_->apply_variants(options, impl_->resolved_law);
}

const ResolvedOptions& CudaSimulator::effective_options() const { return impl_->resolved; }

std::string CudaSimulator::launch_summary() const {
    const Impl& m = *impl_;
    const SimulatorOptions& o = m.options;
    std::string s = o.persistent_kernel ? "one persistent cooperative kernel per step"
                    : o.graph           ? "CUDA graph per step"
                                        : "plain launches";
    s += ", block " + std::to_string(o.block_size);
    if (o.deterministic) s += ", cells in id order (deterministic)";
    const std::string lists = m.listed()
                                  ? ", neighbour lists with a skin of " +
                                        format_numbers("%g", m.reset_params.skin) + " ranges, " +
                                        std::to_string(m.list_slots) + " entries"
                                  : "";
    if (m.reset_params.model == Model::Sph)
        return s + ", SPH density and force passes of " + std::to_string(m.sph_block_size()) +
               " threads per block" +
               (lists.empty() ? " with neighbour lists built each step" : lists);
    if (m.reset_params.contact == int(ContactLaw::Frictional))
        return s +
               ", frictional contact pass of one thread per particle (touching neighbours "
               "listed first, sorted memory, drift fused, rotations copied after it)" +
               lists;
    if (o.scatter_forces) {  // one thread per particle whatever threads_per_particle says
        s += o.contact_list ? ", pair scatter with atomics and contact list"
                            : ", single-pass pair scatter with atomics";
        s += ", then the kick, the drift and the next step's hash in one kernel";
        return s;
    }
    s += ", force threads per particle " + std::to_string(m.force_group()) +
         (o.threads_per_particle == 0 ? " (automatic)" : "");
    s += o.fuse_integrate ? ", integrate fused into the force kernel"
                          : ", integrate as its own kernel";
    s += o.contact_list ? ", gather with contact list" : ", single-pass gather";
    s += lists;
    if (o.persistent_kernel && m.persistent.grid_blocks() > 0)
        s += ", " + std::to_string(m.persistent.grid_blocks()) + " blocks (all resident at once)";
    return s;
}

int CudaSimulator::persistent_grid_blocks() const { return impl_->persistent.grid_blocks(); }

void CudaSimulator::reset(const InitialState& initial, const Params& params) {
    validate(params);
    PLAB_REQUIRE(initial.pos.size() == initial.vel.size(),
                 "initial state has different numbers of positions and velocities");
    check_captured_state(initial);
    Impl& m = *impl_;
    const std::size_t n = initial.pos.size();
    const bool captured = !initial.order.empty();
    const bool hi = !initial.pos_hi.empty();
    // A captured double state needs its buffers; checked before anything changes.
    if (hi)
        require_free_device_memory(m.pos_hi.growth_bytes(n) + m.vel_hi.growth_bytes(n) +
                                       m.sorted_pos_hi.growth_bytes(n) +
                                       m.sorted_vel_hi.growth_bytes(n),
                                   "the double-precision state", 4 * sizeof(Double4));
    if (!initial.friction.empty()) m.friction.require_fits(n);
    // The model decides which variants apply.
    const ContactLaw law = contact_law_of(params);
    ResolvedOptions variants = m.resolve(m.resolved.requested, params.model, law);
    m.reserve(n, initial.grid.num_cells(), params.model == Model::Sph, variants.effective);
    m.resolved = std::move(variants);
    m.resolved_law = law;
    m.options = m.resolved.effective;
    m.graph.reset();
    m.ring.clear();

    std::vector<uint32_t> ids(captured ? 0 : n);
    std::iota(ids.begin(), ids.end(), 0u);
    m.pos.upload(initial.pos, m.stream.get());
    m.vel.upload(initial.vel, m.stream.get());
    m.id.upload(captured ? std::span<const uint32_t>(initial.order) : ids, m.stream.get());
    m.domain = initial.domain;
    m.grid = initial.grid;
    m.reset_params = params;
    m.count = static_cast<uint32_t>(n);
    m.hashed = false;
    m.state_shared = false;  // the views of the old state are stale now
    m.hi_active = false;     // the next step starts the double state from this one
    if (hi) {
        m.sync();
        for (auto* buf : {&m.pos_hi, &m.vel_hi, &m.sorted_pos_hi, &m.sorted_vel_hi}) buf->resize(n);
        m.pos_hi.upload(initial.pos_hi, m.stream.get());
        m.vel_hi.upload(initial.vel_hi, m.stream.get());
        m.hi_active = true;  // choose_precision drops it when double_state is off
    }
    // A captured state's vel.w already holds the last step's density.
    if (params.model == Model::Sph && n > 0 && !captured) {
        // The starting density, so stats and exports at t = 0 have one (a step recomputes it).
        // On the scene's grid: the lists start with the first step.
        const bool lists = std::exchange(m.options.neighbour_list, false);
        m.enqueue_grid();
        m.enqueue_reorder();
        m.enqueue_sph_density(params, sph_constants(params));
        sph_density_to_state_kernel<<<blocks_for(m.count, 256), 256, 0, m.stream.get()>>>(
            m.views());
        m.check_launch();
        m.options.neighbour_list = lists;
    }
    m.reset_lists(params);
    // The frictional law's memory: a captured one goes back (allocated here, outside any
    // captured step; the graph was dropped above), otherwise it starts again with the law's
    // first step.
    if (initial.friction.empty())
        m.friction.forget();
    else
        m.friction.restore(initial.friction, m.stream.get());
    m.sync();  // the host vectors above must outlive the copies
}

void CudaSimulator::step(const Params& params) {
    validate(params);
    if (const std::string why = unsupported(params); !why.empty()) throw Error(why);
    Params p = params;
    keep_reset_params(p,
                      impl_->reset_params);  // the grid was built for these; new ones need a reset
    impl_->choose_law(p);
    for (int s = 0; s < p.substeps; ++s) {
        impl_->choose_step(p);
        if (impl_->options.persistent_kernel)
            impl_->substep_persistent(p);
        else if (impl_->options.graph)
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

void CudaSimulator::reserve(std::size_t particles, std::size_t grid_cells, bool sph_lists) {
    impl_->reserve(particles, grid_cells, sph_lists, impl_->options);
}

void CudaSimulator::Impl::reserve(std::size_t particles, std::size_t grid_cells, bool sph_lists,
                                  const SimulatorOptions& variants) {
    Impl& m = *this;
    const std::size_t n = particles;
    const std::size_t cells = grid_cells + 1;
    PLAB_REQUIRE(n <= 0xfffffffeull && cells <= 0xffffffffull,
                 "particle and cell counts must fit in 32 bits");
    const std::size_t temp = scan_temp_bytes(static_cast<uint32_t>(cells));
    // Check the whole growth before touching anything, so a refused size leaves the current
    // simulation running.
    const std::size_t growth =
        m.pos.growth_bytes(n) + m.vel.growth_bytes(n) + m.sorted_pos.growth_bytes(n) +
        m.sorted_vel.growth_bytes(n) + m.id.growth_bytes(n) + m.sorted_id.growth_bytes(n) +
        m.cell.growth_bytes(n) + m.slot.growth_bytes(n) + m.cell_count.growth_bytes(cells) +
        m.cell_start.growth_bytes(cells) + m.scan_temp.growth_bytes(temp) +
        (variants.scatter_forces ? m.force.growth_bytes(n) : 0) +
        (variants.persistent_kernel ? m.persistent.growth_bytes(grid_cells) : 0) +
        (sph_lists ? m.sph_index.growth_bytes(n * kSphListSlots) + m.sph_count.growth_bytes(n) +
                         m.sph_pressure_term.growth_bytes(n)
                   : 0);
    require_free_device_memory(
        growth, std::to_string(n) + " particles in " + std::to_string(grid_cells) + " cells",
        kBytesPerParticle);
    if (growth == 0) return;
    m.sync();
    m.graph.reset();  // it captured the old buffers
    m.hashed = false;
    for (auto* buf : {&m.pos, &m.vel, &m.sorted_pos, &m.sorted_vel}) buf->resize(n);
    for (auto* buf : {&m.id, &m.sorted_id, &m.cell, &m.slot}) buf->resize(n);
    m.cell_count.resize(cells);
    m.cell_start.resize(cells);
    m.scan_temp.resize(temp);
    if (variants.scatter_forces) m.force.resize(n);
    if (variants.persistent_kernel) m.persistent.reserve(grid_cells);
    if (sph_lists) {
        m.sph_index.resize(n * kSphListSlots);
        m.sph_count.resize(n);
        m.sph_pressure_term.resize(n);
    }
}

int CudaSimulator::force_threads_per_particle() const { return impl_->force_group(); }

std::size_t CudaSimulator::particle_count() const { return impl_->count; }

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
