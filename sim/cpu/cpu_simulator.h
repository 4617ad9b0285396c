#pragma once
// The CPU backend: the same per-particle bodies as the CUDA backend (dem_step.h), looped with
// OpenMP. Its grid build counts serially, so within a cell particles keep their previous
// order: the result equals a stable sort by cell, which makes it the reference for tests.
#include <memory>
#include <string>
#include <vector>

#include "sim/cpu/friction_state.h"
#include "sim/engine/host_state.h"
#include "sim/engine/simulator.h"
#include "sim/geometry/triangle_bins.h"
#include "sim/physics/cluster_pairs.h"
#include "sim/physics/dem_step.h"
#include "sim/physics/neighbour_list.h"

namespace plab::sim {

class CpuSimulator final : public Simulator {
  public:
    CpuSimulator();

    Backend backend() const override { return Backend::Cpu; }
    std::string device_name() const override;
    void reset(const InitialState& initial, const Params& params) override;
    void set_body_motions(std::shared_ptr<const SceneGeometry> geometry) override;
    void set_geometry(std::shared_ptr<const SceneGeometry> geometry, const Params& params) override;
    void pull(const ParticlePull& pull, float seconds) override;
    void step(const Params& params) override;
    void synchronize() override {}
    std::vector<StageTimings> take_timings() override;
    std::size_t particle_count() const override { return pos_.size(); }
    SimStats stats(const Params& params) override;
    Snapshot download() override;
    InitialState capture_state() override;
    std::string unsupported(const Params& params) const override {
        return geometry_unsupported(geometry_.get(), params);
    }
    GridSnapshot build_grid() override;
    DeviceArrays device_arrays() override { return {}; }  // the state is in host memory
    void export_render(const RenderTarget& target, const RenderStyle& style) override;
    double last_export_ms() override { return last_export_ms_; }
    Float4* host_staging(std::size_t count) override {
        staging_.resize(2 * count);
        return staging_.data();
    }
    // Nothing to overlap with: exports at once (cpu_export_async.cpp).
    void export_render_async(const RenderStyle& style) override;
    HostRenderFrame wait_export_async() override { return async_frame_; }
    void set_options(const SimulatorOptions& options) override;
    const ResolvedOptions& effective_options() const override { return resolved_; }
    NeighbourListStats list_stats() override;
    NeighbourListStats recent_list_stats() const override;
    // The neighbour lists' slots per particle from the next build on (0: chosen from the
    // parameters at reset); `grow` off keeps them even when a build overflows, so that the
    // overflowed particles scan the grid until the next rebuild (tests of that path).
    void set_list_slots(uint32_t slots, bool grow = true);
    // The frictional contact law's rotations and contact memory by id (empty before it runs).
    FrictionSnapshot friction_snapshot() const { return friction_.snapshot(); }
    FrictionStats friction_stats() override { return summarize_contacts(friction_.contact_info()); }

  private:
    // The bodies' bins (DEM) or distance field (SPH) for `grid`, and the key they were built
    // for; builds both before it replaces either (the bins' limit throws with nothing changed).
    void build_bodies(const SceneGeometry* geometry, const Domain& domain, const GridSpec& grid,
                      const Params& params);
    StageTimings substep(const Params& p);
    void choose_precision(bool frictional);
    bool restore_captured(const InitialState& initial);
    void scatter_forces(const StepBuffers& b, const Params& p);
    void sph_forces(const StepBuffers& b, const Params& p, StageTimings& t);
    // The frictional contact law's force, spin and drift pass (dem_frictional_step.h).
    void frictional_pass(const StepBuffers& b, const Params& p);
    void grid_and_reorder(const GridSpec& g);
    // Neighbour lists (cpu_neighbour_list.cpp): whether this step rebuilds, and the build.
    bool listed() const { return resolved_.effective.neighbour_list && !pos_.empty(); }
    // The classic force pass by cluster pairs, built after each list build.
    bool clustered() const { return listed() && resolved_.effective.cluster_pairs == kOn; }
    const GridSpec& step_grid() const { return listed() ? list_grid_ : grid_; }
    void reset_lists(const Params& params);
    // Whether this step builds the grid and sorts (always without lists); counts the step and
    // lists its strays when it keeps the lists.
    bool list_step_builds(const Params& p);
    // After the classic force pass and the drift: the strays' repair (sim/physics/list_strays.h).
    void repair_strays(const StepBuffers& b, const Params& p);
    void build_lists();
    void build_cluster_pairs();
    NeighbourList list_view();
    ClusterPairs cluster_view();
    StepBuffers views();

    Domain domain_;
    GridSpec grid_;
    Params reset_params_;  // what the grid was built for (keep_reset_params)
    std::shared_ptr<const SceneGeometry> geometry_;  // the scene's bodies (null: none)
    TriangleBins bins_;                              // their triangles in grid_'s cells (DEM)
    BoundaryField field_;                            // their distance field (SPH)
    BodiesBuildKey bodies_key_;                      // what bins_ and field_ were built for
    std::vector<Float4> pos_, vel_, sorted_pos_, sorted_vel_;
    std::vector<uint32_t> id_, sorted_id_, cell_, slot_, cell_count_, cell_start_;
    std::vector<StageTimings> timings_;
    // The requested variants and those that run here (scatter_forces, sorted_memory and
    // double_state apply to this backend; the others are CUDA's).
    ResolvedOptions resolved_;
    std::vector<Float4> force_;         // scatter mode: summed pair forces per sorted particle
    FrictionState friction_;            // rotations and contact memory (frictional contact law)
    std::vector<float> pressure_term_;  // SPH: p/ρ² per sorted particle, after the density
    // Neighbour lists (SimulatorOptions::neighbour_list): entries, counts, build positions.
    std::vector<uint32_t> list_index_, list_count_;
    std::vector<Float4> list_ref_;
    GridSpec list_grid_;
    ListGeometry list_geometry_;
    uint32_t list_slots_ = 0, list_slots_requested_ = 0, list_most_found_ = 0;
    bool list_grow_ = true;
    bool list_valid_ = false;       // the lists and the cell order belong to the current state
    bool list_overflowed_ = false;  // the last build overflowed: grow before the next
    NeighbourListStats list_stats_;
    // Cluster pairs (SimulatorOptions::cluster_pairs): neighbour clusters and their counts.
    std::vector<uint32_t> cluster_index_, cluster_count_;
    uint32_t cluster_slots_ = 0, cluster_most_found_ = 0;
    bool cluster_overflowed_ = false;  // the last build overflowed: grow before the next
    bool clusters_built_ = false;      // the last list build built them too
    std::vector<uint32_t> strays_;     // this step's strays, in cell order (empty on a build)
    std::vector<uint32_t> repairs_;    // the particles their repair redoes
    std::vector<uint8_t> queued_;      // per particle: in repairs_ (zero between steps)
    // double_state: the state in double (A and S), allocated while the option is on.
    std::vector<Double4> pos_hi_, vel_hi_, sorted_pos_hi_, sorted_vel_hi_;
    bool hi_active_ = false;                // the double state holds the current state
    std::vector<Float4> staging_;           // host_staging
    std::vector<Float4> async_staging_[2];  // export_render_async, used in turn
    int async_next_ = 0;                    // the one the next async export writes
    HostRenderFrame async_frame_;           // the last async export
    double last_export_ms_ = 0;
};

}  // namespace plab::sim
