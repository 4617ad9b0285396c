// CudaSimulator: memory, variants, reset and step. The step's stages are in
// cuda_step_stages.cu, the readbacks in cuda_readback.cu, the state they share in
// cuda_simulator_impl.cuh.
#include "sim/cuda/cuda_simulator.h"

#include <cstdio>
#include <numeric>
#include <string>
#include <utility>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/cuda_simulator_impl.cuh"
#include "sim/engine/host_state.h"

namespace plab::sim::cuda {

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
                                        std::to_string(m.lists.slots) + " entries"
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
    if (m.clustered())
        return s + ", cluster pairs: a warp per cluster of " + std::to_string(kClusterSize) +
               " against its " + std::to_string(m.lists.cluster_slots) +
               " neighbour-cluster slots" +
               (o.contact_list ? ", contacts kept first" : ", contacts computed in the loop") +
               (o.fuse_integrate ? ", integrate fused" : ", integrate as its own kernel") + lists;
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
    if (const std::string why = geometry_unsupported(initial.geometry.get(), params); !why.empty())
        throw Error(why);
    Impl& m = *impl_;
    const std::size_t n = initial.pos.size();
    const bool captured = !initial.order.empty();
    const bool hi = !initial.pos_hi.empty();
    // A captured double state needs its buffers; checked before anything changes.
    if (hi) m.particles.require_hi_fits(n);
    if (!initial.friction.empty()) m.friction.require_fits(n);
    // The bodies' bins and field, built again only when what they depend on changed.
    const BodiesBuildKey bodies_key = bodies_build_key(initial, params);
    const bool keep_bodies = bodies_key == m.bodies_key && m.geometry.scene() != nullptr;
    BoundaryField field = keep_bodies
                              ? BoundaryField{}
                              : sph_body_field(initial.geometry.get(), initial.domain, params);
    // The model decides which variants apply.
    const ContactLaw law = contact_law_of(params);
    ResolvedOptions variants = m.resolve(m.resolved.requested, params.model, law);
    m.reserve(n, initial.grid.num_cells(), params.model == Model::Sph, variants.effective);
    if (!keep_bodies) {
        m.geometry.upload(initial.geometry, initial.grid, geometry_reach(params), std::move(field),
                          m.stream.get());
        m.bodies_key = bodies_key;
    }
    m.resolved = std::move(variants);
    m.resolved_law = law;
    m.options = m.resolved.effective;
    m.graph.reset();
    m.ring.clear();

    std::vector<uint32_t> ids(captured ? 0 : n);
    std::iota(ids.begin(), ids.end(), 0u);
    ParticleArrays& a = m.particles;
    a.pos.upload(initial.pos, m.stream.get());
    a.vel.upload(initial.vel, m.stream.get());
    a.id.upload(captured ? std::span<const uint32_t>(initial.order) : ids, m.stream.get());
    m.domain = initial.domain;
    m.grid = initial.grid;
    m.reset_params = params;
    m.count = static_cast<uint32_t>(n);
    m.hashed = false;
    m.state_shared = false;  // the views of the old state are stale now
    a.hi_active = false;     // the next step starts the double state from this one
    if (hi) {
        m.sync();
        a.resize_hi(n);
        a.pos_hi.upload(initial.pos_hi, m.stream.get());
        a.vel_hi.upload(initial.vel_hi, m.stream.get());
        a.hi_active = true;  // choose_precision drops it when double_state is off
    }
    // A captured state's vel.w already holds the last step's density.
    if (params.model == Model::Sph && n > 0 && !captured) m.enqueue_starting_density(params);
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

std::string CudaSimulator::unsupported(const Params& params) const {
    return geometry_unsupported(impl_->geometry.scene().get(), params);
}

void CudaSimulator::set_body_motions(std::shared_ptr<const SceneGeometry> geometry) {
    PLAB_REQUIRE(geometry, "no bodies given");
    require_same_bodies(impl_->geometry.scene().get(), *geometry);
    impl_->geometry.set_bodies(std::move(geometry), impl_->stream.get());
}

void CudaSimulator::set_geometry(std::shared_ptr<const SceneGeometry> geometry,
                                 const Params& params) {
    if (const std::string why = geometry_unsupported(geometry.get(), params); !why.empty())
        throw Error(why);
    Impl& m = *impl_;
    BoundaryField field = sph_body_field(geometry.get(), m.domain, params);
    const BodiesBuildKey key = bodies_build_key(geometry.get(), m.domain, m.grid, params);
    // Bins, memory check and copies (waits for the stream first: a step in flight may still
    // read the old triangles); throws with the old bodies in place.
    m.geometry.upload(std::move(geometry), m.grid, geometry_reach(params), std::move(field),
                      m.stream.get());
    m.bodies_key = key;
    m.friction.forget_mesh_contacts(m.stream.get());
    m.graph.reset();  // a captured step holds the old bodies' buffers
}

void CudaSimulator::step(const Params& params) {
    validate(params);
    if (const std::string why = unsupported(params); !why.empty()) throw Error(why);  // bodies
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

void CudaSimulator::reserve_particles(std::size_t particles) {
    Impl& m = *impl_;
    const bool sph = m.reset_params.model == Model::Sph;
    const std::size_t cells = m.grid.num_cells();
    if (m.count == 0 || m.reserve_growth(particles, cells, sph, m.options) == 0) {
        m.reserve(particles, cells, sph, m.options);
        return;
    }
    // Growing a buffer discards what it holds: the state goes to the host and comes back into
    // the larger buffers (as a reset from its own capture, which continues it bit for bit).
    const InitialState kept = capture_state();
    const Params params = m.reset_params;
    m.reserve(particles, cells, sph, m.options);
    reset(kept, params);
}

std::size_t CudaSimulator::Impl::reserve_growth(std::size_t n, std::size_t grid_cells,
                                                bool sph_lists,
                                                const SimulatorOptions& variants) const {
    const std::size_t cells = grid_cells + 1;
    return particles.growth_bytes(n, variants.scatter_forces) + grid_arrays.growth_bytes(n, cells) +
           (variants.persistent_kernel ? persistent.growth_bytes(grid_cells) : 0) +
           (sph_lists ? sph.growth_bytes(n) : 0);
}

void CudaSimulator::Impl::reserve(std::size_t n, std::size_t grid_cells, bool sph_lists,
                                  const SimulatorOptions& variants) {
    const std::size_t cells = grid_cells + 1;
    PLAB_REQUIRE(n <= 0xfffffffeull && cells <= 0xffffffffull,
                 "particle and cell counts must fit in 32 bits");
    // Check the whole growth before touching anything, so a refused size leaves the current
    // simulation running.
    const std::size_t growth = reserve_growth(n, grid_cells, sph_lists, variants);
    require_free_device_memory(
        growth, std::to_string(n) + " particles in " + std::to_string(grid_cells) + " cells",
        kBytesPerParticle);
    if (growth == 0) return;
    sync();
    graph.reset();  // it captured the old buffers
    hashed = false;
    particles.resize(n, variants.scatter_forces);
    grid_arrays.resize(n, cells);
    if (variants.persistent_kernel) persistent.reserve(grid_cells);
    if (sph_lists) sph.resize(n);
}

int CudaSimulator::force_threads_per_particle() const { return impl_->force_group(); }

std::size_t CudaSimulator::particle_count() const { return impl_->count; }

}  // namespace plab::sim::cuda
