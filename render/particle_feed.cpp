#include "render/particle_feed.h"

#include <chrono>
#include <string>

#include "render/gl_check.h"
#include "render/interop_buffer.h"

#if PLAB_HAS_CUDA
#include <cuda_gl_interop.h>

#include "sim/cuda/cuda_check.h"
#endif

namespace plab::render {
namespace {

constexpr std::size_t kVec4Bytes = 4 * sizeof(float);

constexpr sim::EnumName<FeedPath> kFeedPathNames[] = {{FeedPath::HostCopy, "host"},
                                                      {FeedPath::PinnedCopy, "pinned"},
                                                      {FeedPath::PinnedAsync, "pinned-async"},
                                                      {FeedPath::Interop, "interop"}};

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

Buffer make_vec4_buffer(std::size_t count) {
    Buffer b = make_buffer();
    // Mutable storage: the host path orphans and refills it every frame.
    PLAB_GL_CHECK(glNamedBufferData(b.get(), static_cast<GLsizeiptr>(count * kVec4Bytes), nullptr,
                                    GL_DYNAMIC_DRAW));
    return b;
}

}  // namespace

#if PLAB_HAS_CUDA
struct ParticleFeed::Interop {
    InteropBuffer positions;
    InteropBuffer colors;
};
#else
struct ParticleFeed::Interop {};
#endif

ParticleFeed::ParticleFeed() : interop_(std::make_unique<Interop>()) { reserve(1); }

// The registrations (in interop_) go before the GL buffers they refer to.
ParticleFeed::~ParticleFeed() { interop_.reset(); }

void ParticleFeed::reserve(std::size_t count) {
    if (count <= capacity_ && positions_) return;
    Buffer positions = make_vec4_buffer(count);
    Buffer colors = make_vec4_buffer(count);
#if PLAB_HAS_CUDA
    // Registered to the old buffers: release before those are deleted.
    interop_->positions.release();
    interop_->colors.release();
#endif
    positions_ = std::move(positions);
    colors_ = std::move(colors);
    capacity_ = count;
}

std::span<const sim::EnumName<FeedPath>> feed_path_names() { return kFeedPathNames; }

// The table's names are literals, so data() ends in a NUL.
const char* feed_path_name(FeedPath path) { return sim::enum_name(feed_path_names(), path).data(); }

FeedTiming ParticleFeed::feed(sim::Simulator& simulator, const sim::RenderStyle& style,
                              FeedPath path) {
    PLAB_REQUIRE(simulator.particle_count() <= capacity_,
                 "particle buffers hold " + std::to_string(capacity_) + " particles, " +
                     std::to_string(simulator.particle_count()) + " to draw");
    if (path == FeedPath::PinnedAsync) return feed_pinned_async(simulator, style);
    // The export in flight is not drawn; a later asynchronous feed starts afresh.
    async_source_ = nullptr;
    if (path == FeedPath::Interop) return feed_interop(simulator, style);
    return feed_host(simulator, style, path == FeedPath::PinnedCopy);
}

FeedTiming ParticleFeed::feed_host(sim::Simulator& simulator, const sim::RenderStyle& style,
                                   bool pinned) {
    FeedTiming t;
    t.path = pinned ? FeedPath::PinnedCopy : FeedPath::HostCopy;
    const std::size_t n = simulator.particle_count();
    sim::RenderTarget target;
    if (pinned) {
        sim::Float4* staging = simulator.host_staging(n);
        target.positions = staging;
        target.colors = staging + n;
        target.capacity = n;
    } else {
        if (host_positions_.size() < n) {
            host_positions_.resize(n);
            host_colors_.resize(n);
        }
        target.positions = host_positions_.data();
        target.colors = host_colors_.data();
        target.capacity = host_positions_.size();
    }
    auto start = std::chrono::steady_clock::now();
    target.on_device = false;
    simulator.export_render(target, style);
    t.export_ms = ms_since(start);

    start = std::chrono::steady_clock::now();
    upload(target.positions, target.colors, n);
    t.upload_ms = ms_since(start);
    return t;
}

FeedTiming ParticleFeed::feed_pinned_async(sim::Simulator& simulator,
                                           const sim::RenderStyle& style) {
    FeedTiming t;
    t.path = FeedPath::PinnedAsync;
    const std::size_t n = simulator.particle_count();
    auto start = std::chrono::steady_clock::now();
    // Last frame's export, copied while this frame's step ran.
    sim::HostRenderFrame ready;
    if (async_source_ == &simulator) ready = simulator.wait_export_async();
    if (ready.count != n || (n > 0 && !ready.positions)) {
        // Nothing of this size in flight (first frame, a new simulator or particle count):
        // export now and wait, rather than draw stale or missing particles.
        simulator.export_render_async(style);
        ready = simulator.wait_export_async();
    }
    // This frame's particles: copied on the simulator's second stream while the next step
    // runs, drawn next frame. `ready` lives in the other host buffer, so it stays valid.
    simulator.export_render_async(style);
    async_source_ = &simulator;
    t.export_ms = ms_since(start);

    start = std::chrono::steady_clock::now();
    upload(ready.positions, ready.colors, n);
    t.upload_ms = ms_since(start);
    return t;
}

void ParticleFeed::upload(const sim::Float4* positions, const sim::Float4* colors,
                          std::size_t count) {
    const auto bytes = static_cast<GLsizeiptr>(count * kVec4Bytes);
    if (bytes == 0) return;
    // Orphan first, so the upload need not wait for last frame's draw to finish.
    PLAB_GL_CHECK(glInvalidateBufferData(positions_.get()));
    PLAB_GL_CHECK(glInvalidateBufferData(colors_.get()));
    PLAB_GL_CHECK(glNamedBufferSubData(positions_.get(), 0, bytes, positions));
    PLAB_GL_CHECK(glNamedBufferSubData(colors_.get(), 0, bytes, colors));
}

#if PLAB_HAS_CUDA

std::pair<InteropBuffer*, InteropBuffer*> ParticleFeed::interop_buffers() {
    const std::size_t bytes = capacity_ * kVec4Bytes;
    interop_->positions.attach(positions_.get(), bytes);
    interop_->colors.attach(colors_.get(), bytes);
    return {&interop_->positions, &interop_->colors};
}

FeedTiming ParticleFeed::feed_interop(sim::Simulator& simulator, const sim::RenderStyle& style) {
    PLAB_REQUIRE(simulator.backend() == sim::Backend::Cuda,
                 "CUDA-GL interop needs the CUDA backend");
    FeedTiming t;
    t.path = FeedPath::Interop;
    // Once per buffer and size, not per frame. A CUDA reader may have mapped them read-only.
    interop_buffers();
    for (const InteropBuffer* b : {&interop_->positions, &interop_->colors})
        PLAB_CUDA_CHECK(
            cudaGraphicsResourceSetMapFlags(b->resource(), cudaGraphicsMapFlagsWriteDiscard));

    auto start = std::chrono::steady_clock::now();
    InteropBuffer* const buffers[] = {&interop_->positions, &interop_->colors};
    InteropMapping mapping(buffers);
    t.map_ms = ms_since(start);

    start = std::chrono::steady_clock::now();
    sim::RenderTarget target;
    target.positions = static_cast<sim::Float4*>(mapping.device_pointer(0));
    target.colors = static_cast<sim::Float4*>(mapping.device_pointer(1));
    target.capacity = capacity_;
    target.on_device = true;
    simulator.export_render(target, style);
    // The simulator writes on its own stream; unmapping on the default stream would not wait
    // for it, so wait here before GL gets the buffers back.
    simulator.synchronize();
    t.export_ms = ms_since(start);

    start = std::chrono::steady_clock::now();
    mapping.unmap();
    t.unmap_ms = ms_since(start);
    return t;
}

#else

FeedTiming ParticleFeed::feed_interop(sim::Simulator&, const sim::RenderStyle&) {
    throw Error("CUDA-GL interop: " + interop_unavailable_reason());
}

#endif

}  // namespace plab::render
