#pragma once
// The CUDA backend's state, shared by the files that implement CudaSimulator: the step
// (cuda_simulator.cu) and the readbacks (cuda_readback.cu). Private to sim/cuda.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/cuda/async_export.h"
#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/cuda_simulator.h"
#include "sim/cuda/device_buffer.h"
#include "sim/cuda/device_friction_state.h"
#include "sim/cuda/list_control.h"
#include "sim/cuda/persistent_step.h"
#include "sim/cuda/pinned_buffer.h"
#include "sim/cuda/sph_list.h"
#include "sim/cuda/stage_event_ring.h"
#include "sim/dem_step.h"
#include "sim/list_strays.h"
#include "sim/neighbour_list.h"
#include "sim/sph_kernel.h"

namespace plab::sim::cuda {

// Per particle: pos, vel and their cell-ordered copies (4 × 16 B), id and its copy (2 × 4 B),
// cell and slot (2 × 4 B) = 80 B. Per cell: count and start (2 × 4 B).
constexpr std::size_t kBytesPerParticle = 4 * sizeof(Float4) + 4 * sizeof(uint32_t);
constexpr std::size_t kBytesPerCell = 2 * sizeof(uint32_t);

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

    DeviceBuffer<Float4> pos, vel, sorted_pos, sorted_vel;
    DeviceBuffer<uint32_t> id, sorted_id, cell, slot, cell_count, cell_start;
    DeviceBuffer<std::byte> scan_temp;
    DeviceBuffer<Float4> force;  // scatter mode only: summed pair forces per sorted particle
    DeviceBuffer<DeviceStats> stats;
    DeviceBuffer<uint32_t> sph_index, sph_count;  // SPH neighbour lists (sph_kernels.cuh)
    // double_state: positions and velocities in double, A and S (allocated when first used).
    DeviceBuffer<Double4> pos_hi, vel_hi, sorted_pos_hi, sorted_vel_hi;
    bool hi_active = false;                 // the double state holds the current state
    DeviceBuffer<float> sph_pressure_term;  // SPH p/ρ² per sorted particle
    // The frictional contact law's rotations and contact memory (cuda_frictional_step.cu).
    DeviceFrictionState friction;
    DeviceBuffer<Float4> staging;  // export through the host: positions then colours
    PinnedBuffer<Float4> pinned;   // host_staging: page-locked positions then colours
    Event export_start = make_event(), export_end = make_event();
    // A device export's handshake with its reader's stream (RenderTarget::reader_stream).
    Event reader_done = make_event(), export_ready = make_event();
    bool export_recorded = false;
    // export_render_async's stream, events and double-buffered page-locked memory. After
    // `staging`, so it is destroyed first: its destructor waits for a copy still reading it.
    AsyncExport async_export;
    // The export kernel into device memory, and the staging of exports to host memory
    // (cuda_readback.cu).
    void enqueue_export(const RenderStyle& style, Float4* pos_out, Float4* color_out);
    Float4* claim_staging(std::size_t n);

    Domain domain;
    GridSpec grid;
    Params reset_params;  // what the grid was built for (keep_reset_params)
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
    // decided on the device each step (ListControl); the host learns what the builds found from
    // a copy made every kListPoll steps, read once it has arrived, so no step waits.
    DeviceBuffer<uint32_t> list_index, list_count;
    DeviceBuffer<Float4> list_ref;
    DeviceBuffer<uint32_t> stray_index, stray_repair, stray_queued;
    uint32_t stray_limit_now = 0;
    uint32_t stray_repair_slots_set = 0;  // set_stray_repair_slots; 0: from the limit
    DeviceBuffer<ListControl> list_control;
    PinnedBuffer<ListControl> list_mirror;
    Event list_mirror_ready = make_event();
    bool list_mirror_pending = false;
    unsigned long long list_overflow_seen = 0;  // ListControl::overflowed when last read
    ListControl list_last_seen{};               // the last copy that arrived
    uint32_t list_slots = 0;                    // per particle in list_index
    uint32_t list_slots_requested = 0;          // set_list_slots; 0: from the parameters
    bool list_grow = true;                      // grow the slots after an overflow
    bool list_was_on = false;                   // the last step ran with the lists
    uint64_t list_step_calls = 0;
    GridSpec list_grid;
    ListGeometry list_geometry_;

    bool listed() const { return options.neighbour_list && count > 0; }
    // The scatter form's finish kernel counts the next step's positions into the grid, so that
    // step starts at the scan. `hashed`: cell, slot and cell_count hold the hash of the state's
    // current positions (set where that hash is enqueued; cleared by whatever moves or
    // reorders the state otherwise).
    bool hashes_in_finish() const {
        return options.scatter_forces && !listed() && count > 0 && reset_params.model == Model::Dem;
    }
    bool hashed = false;
    // device_state handed the state's memory out (the Python module's views), and whatever
    // holds it may write positions between steps: until the next reset every step hashes
    // (carry_hash).
    bool state_shared = false;
    bool carry_hash() const { return hashes_in_finish() && !state_shared; }
    // The grid this step builds: the list's (cells range + skin wide) or the scene's.
    const GridSpec& step_grid() const { return listed() ? list_grid : grid; }
    NeighbourList list_view() const {
        return {list_index.data(), list_count.data(), list_ref.data(), list_slots, count};
    }
    // Sets up the lists for a reset with `params` (allocating them while the option is on).
    void reset_lists(const Params& params);
    // Allocates the lists for the current count and list_slots (checked like any growth).
    void reserve_lists();
    // The next step rebuilds (enqueued on the stream).
    void request_list_build();
    // Before each step: a rebuild when the lists were off, slots grown after an overflow the
    // last copied-back control reported, and every kListPoll steps a new copy (the host is
    // usually steps ahead of the device, so a report arrives some steps after its build;
    // read_list_stats reports at once).
    void prepare_list_step(const Params& p);
    // This step's stray limit (sim/list_strays.h; 0 without lists or where the repair has no
    // form) and its buffers, allocated outside any captured step.
    void prepare_strays(const Params& p);
    StrayList stray_view() {
        return {stray_index.data(), stray_repair.data(), stray_queued.data(), stray_limit_now,
                repair_slots(stray_limit_now)};
    }
    uint32_t repair_slots(uint32_t limit) const {
        return stray_repair_slots_set > 0 ? stray_repair_slots_set : stray_repair_slots(limit);
    }
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
        if (hi_active) {
            b.pos_hi = pos_hi.data();
            b.vel_hi = vel_hi.data();
            b.sorted_pos_hi = sorted_pos_hi.data();
            b.sorted_vel_hi = sorted_vel_hi.data();
        }
        b.count = count;
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

    void check_launch() { PLAB_CUDA_CHECK(cudaGetLastError()); }
    void record(cudaEvent_t e) { PLAB_CUDA_CHECK(cudaEventRecord(e, stream.get())); }
    void sync() { PLAB_CUDA_CHECK(cudaStreamSynchronize(stream.get())); }

    // The stages of one step, enqueued on `stream` (cuda_simulator.cu).
    // Grid build: zero the counts, hash + count with atomics, exclusive scan.
    void enqueue_grid();
    // Zero the counts, hash + count with atomics (the grid build's first half).
    void enqueue_hash();
    void enqueue_reorder();
    void enqueue_forces(const Params& p);
    void enqueue_integrate(const Params& p);

    // One step with CUDA events between the stages, or replayed as a captured graph.
    void substep_with_stage_events(const Params& p);
    void substep_as_graph(const Params& p);
    void capture_graph(const Params& p);
    // The step as one persistent kernel, timed as a whole (cuda_simulator.cu).
    void substep_persistent(const Params& p);
    // Sets `memory` and the precision for the next step.
    void choose_step(const Params& p);
    // The variants the contact law of `p` runs with (into `options`), and its state ready
    // (cuda_frictional_step.cu). Before choose_step, outside any capture.
    void choose_law(const Params& p);
    // The frictional law's force, spin and drift pass, then the rotations copied over.
    void enqueue_frictional(const Params& p);

    // Threads per particle in the force kernel. Automatic: enough threads in flight to cover
    // the GPU several times over, which small runs reach only by sharing a particle's rows.
    // The SPH density pass (which also lists each particle's neighbours), and its lists.
    void enqueue_sph_density(const Params& p, const SphConstants& c);
    SphList sph_list() { return {sph_index.data(), sph_count.data(), sph_pressure_term.data()}; }

    // Threads per block for the SPH kernels: the option, capped by what their registers allow.
    int sph_block_size() const;
    static int sph_block_limit();

    int force_group() const {
        if (reset_params.model == Model::Sph) return 1;  // the SPH passes use one thread each
        if (options.threads_per_particle > 0) return options.threads_per_particle;
        return count <= kTwoThreadsLimit ? 2 : 1;
    }
};

}  // namespace plab::sim::cuda
