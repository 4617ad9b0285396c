#include "sim/cpu/cpu_simulator.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <utility>

#include "sim/core/error.h"
#include "sim/engine/host_state.h"
#include "sim/model/bead_size.h"
#include "sim/physics/dem_step.h"
#include "sim/physics/list_strays.h"
#include "sim/physics/pull_spring.h"
#include "sim/physics/sph_step.h"

namespace plab::sim {
namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(colon + 2);
        }
    }
    return "unknown CPU";
}

// Runs body(i) for every particle on all OpenMP threads.
template <typename Body>
void parallel_for(std::size_t n, Body&& body) {
    const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) body(static_cast<uint32_t>(i));
}

// The scatter form of the force pass: each pair once, the neighbour's share added with an
// atomic add (as on the GPU) into b.force (zeroed by the caller, cell order), then the kick.
template <Memory M>
void scatter_pass(const StepBuffers& b, const GridSpec& g, const Params& p) {
    auto add = [&](uint32_t j, Vec3 f) {
#pragma omp atomic
        b.force[j].x += f.x;
#pragma omp atomic
        b.force[j].y += f.y;
#pragma omp atomic
        b.force[j].z += f.z;
    };
    parallel_for(b.count, [&](uint32_t i) {
        const uint32_t s = stored_at<M>(b, i);
        const Vec3 pos = xyz(read_pos<M>(b)[s]), vel = xyz(read_vel<M>(b)[s]);
        add(i, dem_pair_forces_half<M>(i, pos, vel, read_id<M>(b)[s], b, g, p, add));
    });
    parallel_for(b.count, [&](uint32_t i) {
        const uint32_t s = stored_at<M>(b, i);
        const Vec3 pos = xyz(read_pos<M>(b)[s]), vel = xyz(read_vel<M>(b)[s]);
        *kicked_velocity<M>(b, i) =
            dem_new_velocity(pos, vel, read_id<M>(b)[s], xyz(b.force[i]), b.geometry, p);
    });
}

}  // namespace

CpuSimulator::CpuSimulator() { set_options({}); }

std::string CpuSimulator::device_name() const {
    return cpu_model() + " (OpenMP, " + std::to_string(omp_get_max_threads()) + " threads)";
}

void CpuSimulator::reset(const InitialState& initial, const Params& params) {
    validate(params);
    PLAB_REQUIRE(initial.pos.size() == initial.vel.size(),
                 "initial state has different numbers of positions and velocities");
    check_captured_state(initial);
    if (const std::string why = geometry_unsupported(initial.geometry.get(), params); !why.empty())
        throw Error(why);
    // The bodies' bins and field, built again only when what they depend on changed.
    if (!(bodies_build_key(initial, params) == bodies_key_) || !geometry_)
        build_bodies(initial.geometry.get(), initial.domain, initial.grid, params);
    const std::size_t n = initial.pos.size();
    geometry_ = initial.geometry;
    domain_ = initial.domain;
    grid_ = initial.grid;
    reset_params_ = params;
    set_options(resolved_.requested);  // the model decides which variants apply
    hi_active_ = false;                // the next step starts the double state from this one
    pos_ = initial.pos;
    vel_ = initial.vel;
    id_.resize(n);
    std::iota(id_.begin(), id_.end(), 0u);
    const bool captured = restore_captured(initial);
    sorted_pos_.resize(n);
    sorted_vel_.resize(n);
    sorted_id_.resize(n);
    cell_.resize(n);
    slot_.resize(n);
    force_.resize(n);
    // The frictional law's memory: a captured one goes back (by id, checked above), otherwise
    // it starts again with the law's first step.
    friction_.restore(initial.friction);
    cell_count_.assign(grid_.num_cells() + 1, 0);
    cell_start_.assign(grid_.num_cells() + 1, 0);
    timings_.clear();
    if (params.model == Model::Sph && n > 0 && !captured) {
        // The starting density, so stats and exports at t = 0 have one (a step recomputes it).
        grid_and_reorder(grid_);
        const StepBuffers b = views();
        const GridSpec g = grid_;
        const Domain d = domain_;
        const SphConstants c = sph_constants(params);
        parallel_for(b.count, [&](uint32_t i) { scatter_particle(i, b); });
        parallel_for(b.count, [&](uint32_t i) { sph_density_particle(i, b, g, params, d, c); });
        parallel_for(b.count, [&](uint32_t i) {
            vel_[i].w = sorted_vel_[cell_start_[cell_[i]] + slot_[i]].w;
        });
    }
    reset_lists(params);
}

StepBuffers CpuSimulator::views() {
    StepBuffers b;
    b.pos = pos_.data();
    b.vel = vel_.data();
    b.id = id_.data();
    b.sorted_pos = sorted_pos_.data();
    b.sorted_vel = sorted_vel_.data();
    b.sorted_id = sorted_id_.data();
    b.cell = cell_.data();
    b.slot = slot_.data();
    b.cell_count = cell_count_.data();
    b.cell_start = cell_start_.data();
    b.force = force_.data();
    if (geometry_ && !geometry_->empty()) {
        b.geometry.triangles = geometry_->triangles.data();
        b.geometry.bodies = geometry_->bodies.data();
        b.geometry.bin_start = bins_.start.data();
        b.geometry.bin_items = bins_.items.data();
        b.geometry.triangle_count = static_cast<uint32_t>(geometry_->triangles.size());
        b.geometry.grid = grid_;
        b.geometry.field = field_.view(field_.nodes.data(), field_.crease.data());
    }
    if (hi_active_) {
        b.pos_hi = pos_hi_.data();
        b.vel_hi = vel_hi_.data();
        b.sorted_pos_hi = sorted_pos_hi_.data();
        b.sorted_vel_hi = sorted_vel_hi_.data();
    }
    b.count = static_cast<uint32_t>(pos_.size());
    return b;
}

void CpuSimulator::grid_and_reorder(const GridSpec& g) {
    const StepBuffers b = views();
    parallel_for(b.count, [&](uint32_t i) { b.cell[i] = cell_index(xyz(b.pos[i]), g); });
    // Serial counting keeps the previous order inside each cell (a stable counting sort).
    std::fill(cell_count_.begin(), cell_count_.end(), 0u);
    for (uint32_t i = 0; i < b.count; ++i) b.slot[i] = cell_count_[b.cell[i]]++;
    std::exclusive_scan(cell_count_.begin(), cell_count_.end(), cell_start_.begin(), 0u);
}

void CpuSimulator::set_options(const SimulatorOptions& options) {
    resolved_ = resolve_options(options, reset_params_.model, DeviceCaps{Backend::Cpu});
}

// Starts or stops the double-precision state for the next step.
void CpuSimulator::choose_precision(bool frictional) {
    // The frictional pass integrates the float state only: the double state stops while it
    // runs and starts again from the float state after it.
    const bool wanted = resolved_.effective.double_state && !frictional;
    if (wanted && !hi_active_) {
        // Start from the current float state (exact: every float is a double).
        const std::size_t n = pos_.size();
        pos_hi_.resize(n);
        vel_hi_.resize(n);
        sorted_pos_hi_.resize(n);
        sorted_vel_hi_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            pos_hi_[i] = {pos_[i].x, pos_[i].y, pos_[i].z, 0.0};
            vel_hi_[i] = {vel_[i].x, vel_[i].y, vel_[i].z, 0.0};
        }
    }
    hi_active_ = wanted;
}

StageTimings CpuSimulator::substep(const Params& p) {
    const bool frictional = runs_frictional_law(p);
    choose_precision(frictional);
    const StepBuffers b = views();
    const GridSpec g = step_grid();
    const Domain d = domain_;
    StageTimings t;
    const auto t0 = Clock::now();
    // With neighbour lists, only a step that rebuilds them builds the grid and sorts; the
    // others copy the state, still in the order of the last build (the list build is timed
    // with the reorder).
    const bool build = list_step_builds(p);
    if (build) grid_and_reorder(g);
    const auto t1 = Clock::now();
    // Unsorted memory scatters only the index (DEM only: the SPH passes read the sorted copy).
    // The frictional pass reads the cell-ordered copy whatever the memory variant says.
    const bool sorted = resolved_.effective.sorted_memory || frictional;
    if (!build)
        parallel_for(b.count, [&](uint32_t i) { copy_particle_in_place(i, b); });
    else if (sorted)
        parallel_for(b.count, [&](uint32_t i) { scatter_particle(i, b); });
    else
        parallel_for(b.count, [&](uint32_t i) { scatter_particle<Memory::Unsorted>(i, b); });
    if (build && listed()) build_lists();
    if (build && clustered()) build_cluster_pairs();
    const auto t2 = Clock::now();
    if (p.model == Model::Sph) {
        sph_forces(b, p, t);
        t.grid_ms = ms_between(t0, t1);
        t.reorder_ms = ms_between(t1, t2);
        t.total_ms = ms_between(t0, Clock::now());
        return t;
    }
    if (frictional || hi_active_) {
        if (frictional) {
            frictional_pass(b, p);
        } else {
            // Forces in float, then the kick and drift in double, fused (the pass reads only S).
            parallel_for(b.count, [&](uint32_t i) {
                const Vec3 pos = xyz(b.sorted_pos[i]), vel = xyz(b.sorted_vel[i]);
                const uint32_t id = b.sorted_id[i];
                dem_kick_drift_hi(i, pos, vel, id, dem_pair_forces(i, pos, vel, id, b, g, p), b, p,
                                  d);
            });
        }
        // Both passes drift inside the force pass.
        const auto t3 = Clock::now();
        t.grid_ms = ms_between(t0, t1);
        t.reorder_ms = ms_between(t1, t2);
        t.forces_ms = ms_between(t2, t3);
        t.total_ms = ms_between(t0, t3);
        t.integrate_fused = true;
        return t;
    }
    if (resolved_.effective.scatter_forces) {
        scatter_forces(b, p);
    } else if (clustered()) {
        const NeighbourList l = list_view();
        const ClusterPairs cp = cluster_view();
        parallel_for(b.count, [&](uint32_t i) { dem_force_particle_clustered(i, b, g, p, l, cp); });
    } else if (listed()) {
        const NeighbourList l = list_view();
        parallel_for(b.count, [&](uint32_t i) { dem_force_particle_listed(i, b, g, p, l); });
    } else if (sorted) {
        parallel_for(b.count, [&](uint32_t i) { dem_force_particle(i, b, g, p); });
    } else {
        parallel_for(b.count,
                     [&](uint32_t i) { dem_force_particle<Memory::Unsorted>(i, b, g, p); });
    }
    const auto t3 = Clock::now();
    if (sorted)
        parallel_for(b.count, [&](uint32_t i) { dem_drift_particle(i, b, p, d); });
    else
        parallel_for(b.count,
                     [&](uint32_t i) { dem_drift_particle<Memory::Unsorted>(i, b, p, d); });
    repair_strays(b, p);
    const auto t4 = Clock::now();
    t.grid_ms = ms_between(t0, t1);
    t.reorder_ms = ms_between(t1, t2);
    t.forces_ms = ms_between(t2, t3);
    t.integrate_ms = ms_between(t3, t4);
    t.total_ms = ms_between(t0, t4);
    return t;
}

void CpuSimulator::frictional_pass(const StepBuffers& b, const Params& p) {
    // Rotations and contact memory start at zero the first time the law runs (or after the
    // particle count changed); a reset clears them.
    if (friction_.size() != b.count) friction_.reset(b.count);
    const FrictionBuffers f = friction_.buffers();
    const GridSpec g = step_grid();
    const Domain d = domain_;
    if (listed() && !strays_.empty()) {
        // Lists kept with strays: the pass finds their contacts itself (sim/physics/list_strays.h).
        const NeighbourList l = list_view();
        const float range = interaction_range(p);
        const float rebuild_dist2 = list_geometry_.rebuild_dist2;
        const auto count = static_cast<uint32_t>(strays_.size());
        parallel_for(b.count, [&](uint32_t i) {
            frictional_particle_step(i, b, f, p, d, [&](auto&& visit) {
                for_each_candidate_with_strays(i, l, b, g, strays_.data(), count, range * range,
                                               rebuild_dist2, visit);
            });
        });
    } else if (listed()) {
        const NeighbourList l = list_view();
        parallel_for(b.count, [&](uint32_t i) {
            frictional_particle_step(i, b, f, p, d,
                                     [&](auto&& visit) { for_each_listed(i, l, b, g, visit); });
        });
    } else {
        parallel_for(b.count, [&](uint32_t i) {
            frictional_particle_step(i, b, f, p, d, [&](auto&& visit) {
                for_each_candidate(xyz(b.sorted_pos[i]), b, g, visit);
            });
        });
    }
    friction_.swap_rotation();
}

void CpuSimulator::sph_forces(const StepBuffers& b, const Params& p, StageTimings& t) {
    // Density for every particle first: the force pass reads the neighbours' densities. The
    // drift is fused into the force pass (it writes only A, which neither pass reads).
    const GridSpec g = step_grid();
    const Domain d = domain_;
    const SphConstants c = sph_constants(p);
    const auto start = Clock::now();
    pressure_term_.resize(b.count);
    float* terms = pressure_term_.data();
    if (listed()) {
        const NeighbourList l = list_view();
        parallel_for(b.count, [&](uint32_t i) {
            const float density = sph_density_listed(i, xyz(b.sorted_pos[i]), l, b, g, p, d, c);
            b.sorted_vel[i].w = density;
            terms[i] = sph_pressure_term(density, c);
        });
        parallel_for(b.count,
                     [&](uint32_t i) { sph_force_particle_listed(i, b, g, p, d, c, terms, l); });
        t.forces_ms = ms_between(start, Clock::now());
        t.integrate_fused = true;
        return;
    }
    parallel_for(b.count, [&](uint32_t i) {
        sph_density_particle(i, b, g, p, d, c);
        terms[i] = sph_pressure_term(b.sorted_vel[i].w, c);
    });
    parallel_for(b.count, [&](uint32_t i) { sph_force_particle(i, b, g, p, d, c, terms); });
    t.forces_ms = ms_between(start, Clock::now());
    t.integrate_fused = true;
}

void CpuSimulator::scatter_forces(const StepBuffers& b, const Params& p) {
    std::fill(force_.begin(), force_.end(), Float4{});
    if (resolved_.effective.sorted_memory)
        scatter_pass<Memory::Sorted>(b, grid_, p);
    else
        scatter_pass<Memory::Unsorted>(b, grid_, p);
}

void CpuSimulator::set_body_motions(std::shared_ptr<const SceneGeometry> geometry) {
    PLAB_REQUIRE(geometry, "no bodies given");
    require_same_bodies(geometry_.get(), *geometry);
    geometry_ = std::move(geometry);  // views() reads its bodies from the next step on
}

void CpuSimulator::build_bodies(const SceneGeometry* geometry, const Domain& domain,
                                const GridSpec& grid, const Params& params) {
    BoundaryField field = sph_body_field(geometry, domain, params);
    TriangleBins bins;
    if (geometry && params.model != Model::Sph)
        bins = bin_triangles(geometry->triangles, grid, geometry_reach(params));
    bins_ = std::move(bins);
    field_ = std::move(field);
    bodies_key_ = bodies_build_key(geometry, domain, grid, params);
}

void CpuSimulator::set_geometry(std::shared_ptr<const SceneGeometry> geometry,
                                const Params& params) {
    if (const std::string why = geometry_unsupported(geometry.get(), params); !why.empty())
        throw Error(why);
    build_bodies(geometry.get(), domain_, grid_, params);
    geometry_ = std::move(geometry);
    friction_.forget_mesh_contacts();
}

void CpuSimulator::pull(const ParticlePull& pull, float seconds) {
    check_pull(pull);
    const auto n = static_cast<uint32_t>(pull.ids.size());
    parallel_for(static_cast<uint32_t>(pos_.size()), [&](uint32_t i) {
        const int k = find_pulled(pull.ids.data(), n, id_[i]);
        if (k < 0) return;
        const Vec3 goal = pull.target + pull.offsets[k];
        if (hi_active_) {  // the step reads the double state
            const Vec3 v = pulled_velocity(xyz(to_float4(vel_hi_[i])), xyz(to_float4(pos_hi_[i])),
                                           goal, pull.stiffness, pull.damping, seconds);
            vel_hi_[i] = {v.x, v.y, v.z, vel_hi_[i].w};
        }
        const Vec3 v = pulled_velocity(xyz(vel_[i]), xyz(pos_[i]), goal, pull.stiffness,
                                       pull.damping, seconds);
        vel_[i] = to_float4(v, vel_[i].w);  // w: the SPH density stays
    });
}

void CpuSimulator::step(const Params& params) {
    validate(params);
    if (const std::string why = unsupported(params); !why.empty()) throw Error(why);
    Params p = params;
    keep_reset_params(p, reset_params_);  // the grid was built for these; new ones need a reset
    for (int s = 0; s < p.substeps; ++s) timings_.push_back(substep(p));
}

std::vector<StageTimings> CpuSimulator::take_timings() {
    return std::exchange(timings_, std::vector<StageTimings>{});
}

SimStats CpuSimulator::stats(const Params& params) {
    Params p = params;
    keep_reset_params(p, reset_params_);
    return compute_stats(pos_, vel_, particle_mass(p), p.model == Model::Sph);
}

Snapshot CpuSimulator::download() { return to_id_order(pos_, vel_, id_); }

InitialState CpuSimulator::capture_state() {
    InitialState s{domain_, grid_, pos_, vel_, id_, {}, {}, {}};
    if (hi_active_) {
        s.pos_hi = pos_hi_;
        s.vel_hi = vel_hi_;
    }
    if (friction_.size() == pos_.size()) s.friction = friction_.capture();
    s.geometry = geometry_;
    return s;
}

// A captured state (InitialState::order, checked by reset): its memory order and double
// state. Its vel.w already holds the last step's density, so reset does not recompute it.
bool CpuSimulator::restore_captured(const InitialState& initial) {
    if (initial.order.empty()) return false;
    const std::size_t n = initial.pos.size();
    id_ = initial.order;
    if (!initial.pos_hi.empty()) {
        pos_hi_ = initial.pos_hi;
        vel_hi_ = initial.vel_hi;
        sorted_pos_hi_.resize(n);
        sorted_vel_hi_.resize(n);
        hi_active_ = true;  // choose_precision drops it when double_state is off
    }
    return true;
}

void CpuSimulator::export_render(const RenderTarget& target, const RenderStyle& style) {
    PLAB_REQUIRE(!target.on_device, "the CPU backend cannot write into device memory");
    PLAB_REQUIRE(
        target.capacity >= pos_.size() && (pos_.empty() || (target.positions && target.colors)),
        "render target holds " + std::to_string(target.capacity) + " particles, " +
            std::to_string(pos_.size()) + " needed");
    const GridSpec g = grid_;
    const float radius = reset_params_.radius;
    // Rotations by id once the frictional law has run (the spin colour).
    const Float4* omega = friction_.size() == pos_.size() ? friction_.omega().data() : nullptr;
    const auto start = Clock::now();
    parallel_for(pos_.size(), [&](uint32_t i) {
        const Vec3 p = xyz(pos_[i]);
        target.positions[i] = to_float4(p, bead_radius(pos_[i], radius));
        target.colors[i] = particle_color(style, vel_[i], id_[i], cell_index(p, g), omega);
    });
    last_export_ms_ = ms_between(start, Clock::now());
}

GridSnapshot CpuSimulator::build_grid() {
    hi_active_ = false;   // the state is reordered below; a double state restarts from it
    list_valid_ = false;  // and the lists rebuild
    grid_and_reorder(grid_);
    const StepBuffers b = views();
    parallel_for(b.count, [&](uint32_t i) { scatter_particle(i, b); });
    GridSnapshot s;
    s.sorted_id = sorted_id_;
    s.sorted_cell.resize(pos_.size());
    for (uint32_t i = 0; i < b.count; ++i)
        s.sorted_cell[cell_start_[cell_[i]] + slot_[i]] = cell_[i];
    s.cell_start = cell_start_;
    // Keep the state consistent: the reordered copy becomes the state.
    pos_.swap(sorted_pos_);
    vel_.swap(sorted_vel_);
    id_.swap(sorted_id_);
    return s;
}

}  // namespace plab::sim
