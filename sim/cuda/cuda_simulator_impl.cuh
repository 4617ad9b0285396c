#pragma once
// The CUDA backend's state, shared by the files that implement CudaSimulator: the step's
// stages (cuda_step_stages.cu), the public methods (cuda_simulator.cu), the readbacks
// (cuda_readback.cu), the lists (cuda_list_step.cu) and the frictional law
// (cuda_frictional_step.cu). Impl holds the parts that own device memory and orchestrates the
// step over them. Private to sim/cuda.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/cuda_simulator.h"
#include "sim/cuda/device_buffer.h"
#include "sim/cuda/device_friction_state.h"
#include "sim/cuda/device_geometry.h"
#include "sim/cuda/device_grid.h"
#include "sim/cuda/device_neighbour_lists.h"
#include "sim/cuda/device_sph_state.h"
#include "sim/cuda/export_buffers.h"
#include "sim/cuda/list_control.h"
#include "sim/cuda/particle_arrays.h"
#include "sim/cuda/persistent_step.h"
#include "sim/cuda/sph_list.h"
#include "sim/cuda/stage_event_ring.h"
#include "sim/engine/host_state.h"
#include "sim/physics/dem_step.h"
#include "sim/physics/list_strays.h"
#include "sim/physics/neighbour_list.h"
#include "sim/physics/sph_kernel.h"

namespace plab::sim::cuda {

// Per particle: the particle arrays and the grid's cell and slot (72 + 8 = 80 B). Per cell:
// count and start (2 × 4 B).
constexpr std::size_t kBytesPerParticle =
    ParticleArrays::kBytesPerParticle + DeviceGrid::kBytesPerParticle;
constexpr std::size_t kBytesPerCell = DeviceGrid::kBytesPerCell;

// Up to this many particles the force kernel gives each particle two threads. Measured on an
// H200 (docs/benchmarks.md): 2 beat 1, 4 and 8 at 65k and 262k particles; 1 wins from 1M on.
constexpr uint32_t kTwoThreadsLimit = 262144;

inline uint32_t blocks_for(uint32_t n, int block) { return (n + block - 1) / block; }

struct DeviceStats {
    unsigned int max_speed_bits;  // float bits; non-negative floats order like their bits
    unsigned int non_finite;
    double kinetic_energy;
    unsigned int density_min_bits, density_max_bits;  // float bits, like max_speed_bits
    double density_sum;
};

// The grid a grid build, reorder or density pass runs on: the step's (the lists' while they
// run) or the scene's, whatever the lists' option says (the starting density of a reset, and
// build_grid, whose reordered state the lists rebuild from).
enum class GridUse { Step, Scene };

struct CudaSimulator::Impl {
    // The requested variants and those that run (resolve_options); `options` is the effective
    // set every stage reads.
    ResolvedOptions resolved;
    // The contact law `resolved` was chosen for: the auto rows follow the law, which may change
    // between steps (choose_law resolves again).
    ContactLaw resolved_law = ContactLaw::Classic;
    SimulatorOptions options;
    int device = 0;
    Stream stream = make_stream();
    StageEventRing ring;

    // The parts that own device memory.
    ParticleArrays particles;  // the state, its cell-ordered copy, the double state
    DeviceGrid grid_arrays;    // cell keys, counts, starts and the scan's scratch
    DeviceBuffer<DeviceStats> stats;
    DeviceSphState sph;  // the SPH passes' lists and pressure terms
    // The frictional contact law's rotations and contact memory (cuda_frictional_step.cu).
    DeviceFrictionState friction;
    ExportBuffers exports;    // the exports for drawing (cuda_readback.cu)
    DeviceGeometry geometry;  // the scene's bodies and their triangle bins
    // The grab tool's particles and offsets (cuda_pull.cu), grown as grabs need. The host
    // copies are what the device holds: a grab keeps its set while the cursor moves, so each
    // frame's pull uploads nothing, and the copies outlive any copy still in flight.
    DeviceBuffer<uint32_t> pull_ids;
    DeviceBuffer<Float4> pull_offsets;
    std::vector<uint32_t> pull_ids_held;
    std::vector<Float4> pull_offsets_held;
    // The export kernel into device memory (cuda_readback.cu).
    void enqueue_export(const RenderStyle& style, Float4* pos_out, Float4* color_out);

    Domain domain;
    BodiesBuildKey bodies_key;  // what `geometry` was built for (host_state.h)
    GridSpec grid;              // the scene's
    Params reset_params;        // what the grid was built for (keep_reset_params)
    uint32_t count = 0;

    // The captured step, valid while the parameters and buffers it baked in are unchanged.
    GraphExec graph;
    Params graph_params;
    SimulatorOptions graph_options;
    int graph_group = 0;

    // The whole step as one cooperative kernel (options.persistent_kernel; persistent_step.cu).
    PersistentStep persistent;
    // This step's memory layout: unsorted when options.sorted_memory is off and the model is
    // DEM (the other passes read the sorted copy).
    Memory memory = Memory::Sorted;

    // Neighbour lists with a skin (options.neighbour_list; cuda_list_step.cu). The rebuild is
    // decided on the device each step (ListControl).
    DeviceNeighbourLists lists;

    // Whether the stages run on the lists: on the step's grid while the option is on.
    bool listed(GridUse use = GridUse::Step) const {
        return use == GridUse::Step && options.neighbour_list && count > 0;
    }
    // The scatter form's finish kernel counts the next step's positions into the grid, so that
    // step starts at the scan. `hashed`: cell, slot and cell_count hold the hash of the state's
    // current positions (set where that hash is enqueued; cleared by whatever moves or
    // reorders the state otherwise).
    bool hashes_in_finish(GridUse use = GridUse::Step) const {
        return options.scatter_forces && !listed(use) && count > 0 &&
               reset_params.model == Model::Dem;
    }
    bool hashed = false;
    // device_arrays handed the state's memory out (the Python module's views), and whatever
    // holds it may write positions between steps: until the next reset every step hashes
    // (carry_hash).
    bool state_shared = false;
    bool carry_hash(GridUse use = GridUse::Step) const {
        return hashes_in_finish(use) && !state_shared;
    }
    // The grid this step builds: the list's (cells range + skin wide) or the scene's.
    const GridSpec& step_grid(GridUse use = GridUse::Step) const {
        return listed(use) ? lists.grid : grid;
    }
    NeighbourList list_view() const { return lists.view(count); }
    // The classic law's triangles a warp per cell (mesh_kernels.cuh) rather than in the kick:
    // in the scatter form on the scene's grid, whose cell ranges the bins share.
    bool mesh_by_cells(const Params& p) const {
        return options.scatter_forces && !listed() && count > 0 && p.model == Model::Dem &&
               p.contact == int(ContactLaw::Classic) && geometry.binned_cell_count() > 0;
    }
    // The classic force pass by cluster pairs (options.cluster_pairs), built with the lists.
    bool clustered() const { return listed() && options.cluster_pairs == kOn; }
    ClusterPairs cluster_view() const { return lists.cluster_view(count); }
    // Sets up the lists for a reset with `params` (allocating them while the option is on).
    void reset_lists(const Params& params);
    // Allocates the lists for the current count and slots (checked like any growth).
    void reserve_lists();
    // Before each step: a rebuild when the lists were off, slots grown after an overflow the
    // last copied-back control reported, and every kListPoll steps a new copy (the host is
    // usually steps ahead of the device, so a report arrives some steps after its build;
    // read_list_stats reports at once).
    void prepare_list_step(const Params& p);
    // This step's stray limit (sim/physics/list_strays.h; 0 without lists or where the repair
    // has no form) and its buffers, allocated outside any captured step.
    void prepare_strays(const Params& p);
    // After the force pass and the drift: the strays' queue and repair (classic DEM only).
    void enqueue_stray_repair(const Params& p);
    // The grid stage with lists: the displacement check, then zero + hash on a rebuild.
    void enqueue_list_grid();
    // The reorder stage with lists: scatter or copy, then the build.
    void enqueue_list_reorder();
    // Deterministic mode: each of the `cells` cells put in id order after the scatter (`ctl`:
    // the lists' control, whose rebuild flag gates it; null without lists).
    void enqueue_cell_order(uint32_t cells, const ListControl* ctl);
    // What a copy of the control says: kept for recent_list_stats, and slots grown after an
    // overflow (with a rebuild requested).
    void take_list_report(const ListControl& seen);
    NeighbourListStats read_list_stats();

    StepBuffers views() const {
        StepBuffers b;
        b.pos = particles.pos.data();
        b.vel = particles.vel.data();
        b.id = particles.id.data();
        b.sorted_pos = particles.sorted_pos.data();
        b.sorted_vel = particles.sorted_vel.data();
        b.sorted_id = particles.sorted_id.data();
        b.cell = grid_arrays.cell.data();
        b.slot = grid_arrays.slot.data();
        b.cell_count = grid_arrays.cell_count.data();
        b.cell_start = grid_arrays.cell_start.data();
        b.force = particles.force.data();
        if (particles.hi_active) {
            b.pos_hi = particles.pos_hi.data();
            b.vel_hi = particles.vel_hi.data();
            b.sorted_pos_hi = particles.sorted_pos_hi.data();
            b.sorted_vel_hi = particles.sorted_vel_hi.data();
        }
        b.count = count;
        b.geometry = geometry.view();
        return b;
    }

    // Starts or stops the double-precision state for the next step (allocating it and
    // starting it from the float state).
    void choose_precision();
    // The variants that run for `requested` with `model` and the contact law `law` on this
    // device.
    ResolvedOptions resolve(const SimulatorOptions& requested, Model model, ContactLaw law);
    // Resolves `requested` for the contact law `law` on the particles and grid held now, grows
    // the buffers the result needs, and makes it the variants that run (set_options, and
    // choose_law when a step brings another law).
    void apply_variants(const SimulatorOptions& requested, ContactLaw law);
    // Grows every buffer for `n` particles in `cells` grid cells with `variants`; checks the
    // free memory of the whole growth first and throws before touching anything.
    void reserve(std::size_t n, std::size_t cells, bool sph_lists,
                 const SimulatorOptions& variants);
    // Bytes reserve(n, cells, ...) would allocate; 0 when every buffer is large enough.
    std::size_t reserve_growth(std::size_t n, std::size_t cells, bool sph_lists,
                               const SimulatorOptions& variants) const;

    void check_launch() { PLAB_CUDA_CHECK(cudaGetLastError()); }
    void record(cudaEvent_t e) { PLAB_CUDA_CHECK(cudaEventRecord(e, stream.get())); }
    void sync() { PLAB_CUDA_CHECK(cudaStreamSynchronize(stream.get())); }

    // The stages of one step, enqueued on `stream` (cuda_step_stages.cu). `use`: the scene's
    // grid instead of the step's, for a grid build outside the steps.
    // Grid build: zero the counts, hash + count with atomics, exclusive scan.
    void enqueue_grid(GridUse use = GridUse::Step);
    // Zero the counts, hash + count with atomics (the grid build's first half).
    void enqueue_hash();
    void enqueue_reorder(GridUse use = GridUse::Step);
    void enqueue_forces(const Params& p);
    void enqueue_integrate(const Params& p);

    // One step with CUDA events between the stages, or replayed as a captured graph.
    void substep_with_stage_events(const Params& p);
    void substep_as_graph(const Params& p);
    void capture_graph(const Params& p);
    // The step as one persistent kernel, timed as a whole.
    void substep_persistent(const Params& p);
    // Sets `memory` and the precision for the next step.
    void choose_step(const Params& p);
    // The variants the contact law of `p` runs with (into `options`), and its state ready
    // (cuda_frictional_step.cu). Before choose_step, outside any capture.
    void choose_law(const Params& p);
    // The frictional law's force, spin and drift pass, then the rotations copied over.
    void enqueue_frictional(const Params& p);

    // The SPH density at the start of a run, so stats and exports at t = 0 have one (a step
    // recomputes it): a grid build, reorder and density pass on the scene's grid, the density
    // then copied into vel.w.
    void enqueue_starting_density(const Params& p);
    // The SPH density pass (which also lists each particle's neighbours).
    void enqueue_sph_density(const Params& p, const SphConstants& c, GridUse use = GridUse::Step);

    // Threads per block for the SPH kernels: the option, capped by what their registers allow.
    int sph_block_size() const;
    static int sph_block_limit();

    // Threads per particle in the force kernel. Automatic: enough threads in flight to cover
    // the GPU several times over, which small runs reach only by sharing a particle's rows.
    int force_group() const {
        if (reset_params.model == Model::Sph) return 1;  // the SPH passes use one thread each
        if (options.threads_per_particle > 0) return options.threads_per_particle;
        return count <= kTwoThreadsLimit ? 2 : 1;
    }
};

}  // namespace plab::sim::cuda
