#pragma once
// The simulator interface both backends implement. A simulator owns the particle state;
// parameters come in by value with every step, so the UI edits its own copy and hands it
// over at one point per frame.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/enum_names.h"
#include "sim/core/vec.h"
#include "sim/engine/initial_state.h"
#include "sim/model/params.h"
#include "sim/model/particle_pull.h"
#include "sim/model/variants.h"
#include "sim/physics/color_map.h"
#include "sim/physics/friction_stats.h"

// cudaStream_t is a CUstream_st*: named here so that sim/ headers need no CUDA header.
struct CUstream_st;

namespace plab::sim {

// Free and total memory of a CUDA device, bytes (run/make_simulator.h: device_memory).
struct DeviceMemory {
    std::size_t free_bytes = 0, total_bytes = 0;
};

// auto, cpu, cuda: the names of the CLI, sweeps and reports.
std::span<const EnumName<Backend>> backend_names();
// Throws plab::Error naming the allowed values.
Backend parse_backend(std::string_view name);
std::string_view backend_name(Backend b);

// Milliseconds one simulation step spent in each stage, measured on the device that ran it
// (CUDA events on the GPU, a steady clock around synchronous loops on the CPU). A step that
// ran as one CUDA graph has only its total.
struct StageTimings {
    double grid_ms = 0;       // hash, per-cell counts, exclusive scan
    double reorder_ms = 0;    // scatter into cell order (counting sort + reorder)
    double forces_ms = 0;     // 27-cell contact sums and the velocity kick
    double integrate_ms = 0;  // drift, walls (0 when fused into the force pass)
    double total_ms = 0;      // the whole step, first stage start to last stage end
    bool has_stages = true;
    bool integrate_fused = false;  // forces_ms then includes the drift
};

struct SimStats {
    std::size_t count = 0;
    float max_speed = 0;         // m/s over finite velocities
    double kinetic_energy = 0;   // J, ½ m v² summed over finite velocities
    std::size_t non_finite = 0;  // particles with a NaN/inf position or velocity
    // SPH only (0 for DEM): summation density of the last step over finite particles, kg/m³.
    float density_min = 0, density_max = 0;
    double density_mean = 0;
};

// How the neighbour lists (SimulatorOptions::neighbour_list) ran since the reset: steps over
// builds is the mean rebuild interval. `overflowed` counts particles whose candidates did not
// fit the list's slots at a build (they scanned the grid instead; the slots then grow).
// `moved` sums, over the steps that checked against a valid build (not one that builds
// anyway: the first, or one the backend asked for), the particles past half the skin since
// that build (why the lists rebuild). `strays` sums the strays repaired over the steps that
// kept the lists, `repaired` the particles those repairs redid (sim/physics/list_strays.h).
struct NeighbourListStats {
    bool active = false;  // the lists run now
    uint64_t steps = 0, builds = 0, overflowed = 0;
    uint64_t moved = 0, strays = 0, repaired = 0;
    uint32_t slots = 0;  // list entries per particle now
    // Cluster pairs (sim/physics/cluster_pairs.h), when they run: neighbour clusters per
    // cluster now, clusters that did not fit (summed over builds), and the neighbour clusters
    // the last build listed in all (× 64 / particles: the pair tests a particle makes).
    uint32_t cluster_slots = 0;
    uint64_t cluster_overflowed = 0;
    uint64_t cluster_entries = 0;
};

// Particle state in id order (for tests and export). With SPH, vel[i].w is the particle's
// density (kg/m³) at the last step; its pressure is sph_pressure of it (sph_kernel.h).
struct Snapshot {
    std::vector<Float4> pos, vel;
};

// The result of one grid build (for tests): ids in cell order, each particle's cell in that
// order, and the per-cell start offsets (num_cells + 1 entries).
struct GridSnapshot {
    std::vector<uint32_t> sorted_id;
    std::vector<uint32_t> sorted_cell;
    std::vector<uint32_t> cell_start;
};

// Where export_render writes: `count` positions (xyz in m, w = radius) and colours (RGBA in
// 0..1), in the same order. On the CUDA backend `on_device` pointers are device memory (a
// mapped GL buffer); host pointers make it copy through the host (the round trip that
// interop avoids). The CPU backend takes host pointers only.
struct RenderTarget {
    Float4* positions = nullptr;
    Float4* colors = nullptr;
    std::size_t capacity = 0;  // elements each array holds
    bool on_device = false;
    // CUDA, on_device: the stream that reads the target (null: none). The export then waits,
    // on the device, for the work that stream had queued (a reader of the last export), and
    // the stream's later work waits for the export, so the caller need not synchronize.
    // Without it the export is ordered on the simulator's stream only.
    CUstream_st* reader_stream = nullptr;
};

// Where an asynchronous export (Simulator::export_render_async) left its particles in host
// memory: `count` positions and colours, as export_render writes them.
struct HostRenderFrame {
    const Float4* positions = nullptr;
    const Float4* colors = nullptr;
    std::size_t count = 0;
};

// The current state where a device keeps it, for readers that take device memory without a
// copy (the Python module's __cuda_array_interface__ and DLPack views): `count` rows of
// positions (xyz in m) and velocities (xyz in m/s, w the SPH density in kg/m³) in memory order
// (cell order after a step with sorted memory), `id[k]` the particle in row k. The pointers stay
// valid until the next reset; the values they point to change with every step, and positions
// written through them between steps are taken up by the next step. Empty (no device) on a
// backend that keeps its state in host memory.
struct DeviceArrays {
    const Float4* pos = nullptr;
    const Float4* vel = nullptr;
    const uint32_t* id = nullptr;
    std::size_t count = 0;
    std::size_t row_bytes = sizeof(Float4);   // stride of pos and vel
    std::size_t id_bytes = sizeof(uint32_t);  // stride of id
    int device = -1;                          // CUDA device ordinal; -1: none

    bool on_device() const { return device >= 0; }
};

class Simulator {
  public:
    virtual ~Simulator() = default;

    virtual Backend backend() const = 0;
    // e.g. "NVIDIA H200 (sm_90, 132 SMs, driver 13.0)" or the CPU model and thread count.
    virtual std::string device_name() const = 0;

    // Replaces the state. `params.radius` fixes the grid until the next reset.
    virtual void reset(const InitialState& initial, const Params& params) = 0;
    // The scene's bodies take new surface motions (a drum's spin edited live): `geometry` is
    // the running one with only its bodies' GeoBody entries changed (the same triangles, so
    // their bins stand). The next step uses it and captures carry it. Throws plab::Error, with
    // nothing changed, when it does not match the running bodies.
    virtual void set_body_motions(std::shared_ptr<const SceneGeometry> geometry) = 0;
    // The scene's bodies replaced between steps (a body moved, added or removed in the window;
    // null or empty: none): the particles and their contacts with one another stay where they
    // are, without the round trip of a capture and a reset; the memory of contacts with bodies
    // is forgotten (a slot may name another body now). The bins (or, for SPH, the distance
    // field) are built for `params`, the running ones, on the running grid. Throws plab::Error
    // with nothing changed when the bodies cannot run (an open mesh for SPH, the bins' limit,
    // memory).
    virtual void set_geometry(std::shared_ptr<const SceneGeometry> geometry,
                              const Params& params) = 0;
    // The grab tool, between steps: the velocity of each particle `pull` names becomes its
    // velocity after `seconds` under the pull's spring (sim/physics/pull_spring.h); the others
    // and every position stay. Ids the run does not hold are passed over. Throws plab::Error
    // (check_pull) before changing anything.
    virtual void pull(const ParticlePull& pull, float seconds) = 0;
    // Advances params.substeps steps. Throws plab::Error on invalid parameters, leaving the
    // state unchanged. May return before the device finishes.
    virtual void step(const Params& params) = 0;
    virtual void synchronize() = 0;
    // Sets aside room for `particles` particles on the scene's grid (a run whose emitters may
    // grow it that far), so that later resets up to that count allocate nothing. Throws
    // plab::Error, changing nothing, when the device lacks the memory. The CPU's vectors grow
    // as needed.
    virtual void reserve_particles(std::size_t /*particles*/) {}

    // Timings of the steps completed since the last call, oldest first. Never waits for the
    // device; call synchronize() first to collect every step.
    virtual std::vector<StageTimings> take_timings() = 0;

    virtual std::size_t particle_count() const = 0;
    virtual SimStats stats(const Params& params) = 0;
    virtual Snapshot download() = 0;
    // Everything the next step depends on, in memory order (InitialState::order, the double
    // state while it runs), with the domain and grid: reset(capture_state(), params) continues
    // the run bit for bit on the CPU backend (on CUDA up to the order of its atomics).
    virtual InitialState capture_state() = 0;

    // Writes the current particles for drawing. Throws plab::Error when the target is too
    // small or its memory kind is not one this backend can write.
    virtual void export_render(const RenderTarget& target, const RenderStyle& style) = 0;
    // Host memory for 2 × `count` Float4 (positions, then colours) that this backend copies
    // into fastest: page-locked on the CUDA backend, so a host-copy export runs at full bus
    // speed. Owned by the simulator; valid until the next call. Throws when it cannot be had.
    virtual Float4* host_staging(std::size_t count) = 0;
    // Starts an export of the current particles into host memory and returns without waiting
    // for it. On the CUDA backend the export kernel runs on the simulator's stream and the copy
    // into page-locked memory on a second stream, so it overlaps the steps that follow; the CPU
    // backend exports at once. Two host buffers alternate: what wait_export_async() returns for
    // one export stays valid until the second export_render_async() after it (one to draw from
    // while the next is copied).
    virtual void export_render_async(const RenderStyle& style) = 0;
    // Waits for the last export_render_async() to reach host memory and returns where it is;
    // empty ({}) when none was started.
    virtual HostRenderFrame wait_export_async() = 0;
    // Device time of the last export_render or export_render_async, ms (CUDA: events around its
    // kernel and, for host targets, the copies; CPU: the loop). Waits for that export to finish.
    virtual double last_export_ms() = 0;

    // The neighbour lists' counters (waits for the steps enqueued so far on CUDA).
    virtual NeighbourListStats list_stats() { return {}; }
    // The same without waiting: on CUDA as the device last reported them (a copy made every
    // few dozen steps), for a panel that shows them every frame.
    virtual NeighbourListStats recent_list_stats() const { return {}; }
    // The frictional law's contacts at its last step (sim/physics/friction_stats.h); inactive when
    // it has not run since the reset. On CUDA a copy of 4 B a particle: for the panel's refresh,
    // not for every step.
    virtual FrictionStats friction_stats() { return {}; }

    // Runs only the grid build and reorder on the current state and returns the result.
    virtual GridSnapshot build_grid() = 0;

    // The state's device memory (DeviceArrays); empty on the CPU backend. On CUDA it waits for
    // the device first.
    virtual DeviceArrays device_arrays() = 0;

    // Requests step variants (sim/model/variants.h). Throws plab::Error on a value no backend
    // takes, keeping the options it had.
    virtual void set_options(const SimulatorOptions& options) = 0;
    // The variants the steps run with on this backend and model (resolve_options), with a
    // reason for each request not applied. Follows set_options and reset.
    virtual const ResolvedOptions& effective_options() const = 0;
    // Why requested variants are not in effect (e.g. the persistent kernel on a device without
    // cooperative launch), one sentence each; empty when every asked variant runs.
    std::string option_notes() const { return effective_options().text(); }
    // How the step runs now, for reports: launch form, block size, threads per particle and
    // force form on CUDA ("" on the CPU, whose loops have no shape to report).
    virtual std::string launch_summary() const { return {}; }
    // Why this backend cannot step with `params` ("" when it can): a physics choice its
    // kernels do not have yet. step() throws plab::Error with this text; front ends ask first.
    virtual std::string unsupported(const Params& params) const {
        (void)params;
        return {};
    }
};

}  // namespace plab::sim
