// CudaSimulator's step: its stages (grid build, reorder, forces, integrate), launched plainly
// with events between them, captured and replayed as a graph, or as one persistent kernel;
// the precision and memory layout each step runs with; and the SPH starting density of a
// reset. Every launch of the step's kernels is here (their headers define them, so one
// translation unit includes them). The state they use is in cuda_simulator_impl.cuh.
#include <algorithm>
#include <string>

#include "sim/cuda/cell_order_kernels.cuh"
#include "sim/cuda/cluster_kernels.cuh"
#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/cuda_simulator_impl.cuh"
#include "sim/cuda/dem_kernels.cuh"
#include "sim/cuda/mesh_kernels.cuh"
#include "sim/cuda/nvtx_range.h"
#include "sim/cuda/sph_kernels.cuh"

namespace plab::sim::cuda {

// Grid build: zero the counts, hash + count with atomics, exclusive scan.
// With neighbour lists: the displacement check, and zero + hash only on a rebuild; the scan
// runs every step (on unchanged counts it rewrites the same starts).
// The scatter form starts at the scan once the last step's finish kernel has hashed (`hashed`).
void CudaSimulator::Impl::enqueue_grid(GridUse use) {
    if (listed(use)) {
        enqueue_list_grid();
    } else if (!(carry_hash(use) && hashed)) {
        enqueue_hash();
    }
    hashed = false;  // the scatter form's reorder zeroes the counts; others hash every step
    grid_arrays.enqueue_scan(step_grid(use).num_cells() + 1, stream.get());
}

void CudaSimulator::Impl::enqueue_hash() {
    cudaStream_t s = stream.get();
    grid_arrays.enqueue_zero_counts(grid.num_cells() + 1, s);
    if (count == 0) return;
    hash_count_kernel<<<blocks_for(count, options.block_size), options.block_size, 0, s>>>(views(),
                                                                                           grid);
    check_launch();
}

void CudaSimulator::Impl::enqueue_reorder(GridUse use) {
    if (count == 0) return;
    if (listed(use)) {
        enqueue_list_reorder();
        return;
    }
    if (hashes_in_finish(use)) {  // the scatter form: its sums and the next hash start from zero
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

void CudaSimulator::Impl::enqueue_sph_density(const Params& p, const SphConstants& c, GridUse use) {
    const int block = sph_block_size();
    if (listed(use)) {
        sph_density_list_kernel<<<blocks_for(count, block), block, 0, stream.get()>>>(
            views(), lists.grid, p, domain, c, list_view(), sph.pressure_term.data());
        check_launch();
        return;
    }
    sph_density_kernel<<<blocks_for(count, block), block, 0, stream.get()>>>(views(), grid, p,
                                                                             domain, c, sph.view());
    check_launch();
}

void CudaSimulator::Impl::enqueue_starting_density(const Params& p) {
    // On the scene's grid: the lists start with the first step.
    enqueue_grid(GridUse::Scene);
    enqueue_reorder(GridUse::Scene);
    enqueue_sph_density(p, sph_constants(p), GridUse::Scene);
    sph_density_to_state_kernel<<<blocks_for(count, 256), 256, 0, stream.get()>>>(views());
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
                views(), lists.grid, p, domain, c, list_view(), sph.pressure_term.data());
            check_launch();
            return;
        }
        sph_force_kernel<<<blocks_for(count, block), block, 0, stream.get()>>>(
            views(), grid, p, domain, c, sph.view());
        check_launch();
        return;
    }
    if (p.contact == int(ContactLaw::Frictional)) {  // force, spin and drift in one pass
        enqueue_frictional(p);
        return;
    }
    if (clustered()) {  // a warp per cluster, gathered
        const ClusterPairs cp = cluster_view();
        const uint32_t threads = cp.clusters * kClusterLanes;
        const std::size_t bytes = contact_list_bytes(options.contact_list, options.block_size);
        cluster_force_kernel<<<blocks_for(threads, options.block_size), options.block_size, bytes,
                               stream.get()>>>(views(), lists.grid, p, domain, list_view(), cp,
                                               options.fuse_integrate, options.contact_list);
        check_launch();
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
        if (mesh_by_cells(p)) {  // the triangles' forces onto the pairs'
            auto* mesh = memory == Memory::Sorted ? mesh_cells_kernel<Memory::Sorted>
                                                  : mesh_cells_kernel<Memory::Unsorted>;
            const uint32_t cells = geometry.binned_cell_count();
            mesh<<<blocks_for(cells, kMeshWarpsPerBlock), kMeshBlock, 0, stream.get()>>>(
                views(), p, geometry.binned_cells(), cells);
            check_launch();
        }
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
            views(), p, domain, grid, mesh_by_cells(p));
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

namespace {

__global__ void widen_kernel(const Float4* in, Double4* out, uint32_t n) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = {in[i].x, in[i].y, in[i].z, 0.0};
}

}  // namespace

void CudaSimulator::Impl::choose_precision() {
    const bool wanted = options.double_state && count > 0;
    ParticleArrays& a = particles;
    if (wanted && !a.hi_active) {
        // Checked like any growth, allocated here (never inside a captured step), and started
        // from the current float state (exact: every float is a double).
        const std::size_t n = count;
        a.require_hi_fits(n);
        sync();
        a.resize_hi(n);
        widen_kernel<<<blocks_for(count, 256), 256, 0, stream.get()>>>(a.pos.data(),
                                                                       a.pos_hi.data(), count);
        check_launch();
        widen_kernel<<<blocks_for(count, 256), 256, 0, stream.get()>>>(a.vel.data(),
                                                                       a.vel_hi.data(), count);
        check_launch();
    }
    if (wanted != a.hi_active) graph.reset();  // the captured step has the other buffers
    a.hi_active = wanted;
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

// Asks one of the step's kernels (they are defined in this translation unit) whether device 0
// has an image of it.
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
