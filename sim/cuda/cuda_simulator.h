#pragma once
// The CUDA backend. Host-only header: the kernels and device buffers live in the .cu file, so
// including this needs no CUDA compiler.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "sim/engine/simulator.h"
#include "sim/physics/friction_record.h"

namespace plab::sim::cuda {

class CudaSimulator final : public Simulator {
  public:
    explicit CudaSimulator(const SimulatorOptions& options = {});
    ~CudaSimulator() override;

    Backend backend() const override { return Backend::Cuda; }
    std::string device_name() const override;
    void reset(const InitialState& initial, const Params& params) override;
    void set_body_motions(std::shared_ptr<const SceneGeometry> geometry) override;
    void set_geometry(std::shared_ptr<const SceneGeometry> geometry, const Params& params) override;
    void pull(const ParticlePull& pull, float seconds) override;
    void step(const Params& params) override;
    void synchronize() override;
    std::vector<StageTimings> take_timings() override;
    std::size_t particle_count() const override;
    SimStats stats(const Params& params) override;
    Snapshot download() override;
    InitialState capture_state() override;
    // Why the scene's bodies cannot meet a step of `params` (engine/host_state.h).
    std::string unsupported(const Params& params) const override;
    GridSnapshot build_grid() override;
    void export_render(const RenderTarget& target, const RenderStyle& style) override;
    double last_export_ms() override;
    Float4* host_staging(std::size_t count) override;
    void export_render_async(const RenderStyle& style) override;
    HostRenderFrame wait_export_async() override;
    void set_options(const SimulatorOptions& options) override;
    const ResolvedOptions& effective_options() const override;
    std::string launch_summary() const override;
    NeighbourListStats list_stats() override;
    NeighbourListStats recent_list_stats() const override;

    // The neighbour lists' slots per particle from the next build on (0: chosen from the
    // parameters at reset); `grow` off keeps them even when a build overflows, so that the
    // overflowed particles scan the grid until the next rebuild (tests of that path).
    void set_list_slots(uint32_t slots, bool grow = true);
    // Slots for the particles one step's stray repair redoes (0: from the stray limit); a
    // step that queues more redoes every particle (tests of that path).
    void set_stray_repair_slots(uint32_t slots);

    // The frictional contact law's rotations and contact memory by id (empty before it runs
    // after a reset). Waits for the device.
    FrictionSnapshot friction_snapshot();
    FrictionStats friction_stats() override;

    // Grows the device buffers to hold `particles` particles in `cells` grid cells. Checks
    // free memory first: a request that does not fit throws plab::Error (with the largest
    // particle count that would fit) and leaves the running simulation untouched.
    // `sph_lists`: also the SPH neighbour lists and pressure terms (4 × 66 bytes a particle).
    void reserve(std::size_t particles, std::size_t cells, bool sph_lists = false);
    void reserve_particles(std::size_t particles) override;

    // Threads the force kernel gives each particle now (the automatic choice resolved).
    int force_threads_per_particle() const;
    // Blocks of the last persistent launch (what fits on the GPU at once), 0 before any.
    int persistent_grid_blocks() const;

    // The state's device memory (Simulator::device_arrays). Waits for the device first. From
    // the first call until the next reset, every step hashes the state afresh instead of
    // carrying the last step's hash, since positions may be written between steps.
    DeviceArrays device_arrays() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Device memory a run of `particles` in a grid of `cells` cells needs, in bytes.
std::size_t device_bytes_needed(std::size_t particles, std::size_t cells);

// Empty when device 0 can run this build's kernels; otherwise why not.
std::string device_unusable_reason();

}  // namespace plab::sim::cuda
