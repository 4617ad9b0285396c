#pragma once
// The two vertex buffers the particle renderer draws from (positions with w = radius, RGBA
// colours; one vec4 each per particle), and the two ways of filling them from a simulator:
// CUDA-GL interop (the simulator writes straight into the mapped buffers) or the host round
// trip (export into host arrays, then glNamedBufferSubData), synchronous or one frame late.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "render/gl_handles.h"
#include "sim/core/enum_names.h"
#include "sim/engine/simulator.h"

namespace plab::render {

class InteropBuffer;

// HostCopy exports into ordinary (pageable) host arrays, PinnedCopy into the simulator's
// page-locked staging (host_staging), Interop straight into the mapped buffers. PinnedAsync
// starts this frame's export into page-locked memory (copied on a second CUDA stream while
// the next step runs; Simulator::export_render_async) and uploads the previous frame's, so
// what is drawn is one frame old; the first frame, or one after the particle count changed,
// waits for its own export instead.
enum class FeedPath { HostCopy, PinnedCopy, PinnedAsync, Interop };

// "host", "pinned", "pinned-async", "interop" (`bench --render` takes the same names).
std::span<const sim::EnumName<FeedPath>> feed_path_names();
const char* feed_path_name(FeedPath path);

// Host wall-clock time of the last feed, ms. With interop the export kernel's completion is
// waited for before unmapping, so export_ms covers the kernel too.
struct FeedTiming {
    FeedPath path = FeedPath::HostCopy;
    double map_ms = 0;     // interop: cudaGraphicsMapResources + pointers
    double export_ms = 0;  // Simulator::export_render (host copy: includes device → host);
                           // pinned-async: waiting for the last export and starting this one
    double upload_ms = 0;  // host copy: glNamedBufferSubData of both buffers
    double unmap_ms = 0;   // interop: cudaGraphicsUnmapResources
    double total_ms() const { return map_ms + export_ms + upload_ms + unmap_ms; }
};

class ParticleFeed {
  public:
    ParticleFeed();  // needs a current GL 4.5 context
    ~ParticleFeed();
    ParticleFeed(const ParticleFeed&) = delete;
    ParticleFeed& operator=(const ParticleFeed&) = delete;

    // Grows both buffers to hold at least `count` particles (never shrinks). New buffers are
    // made, so interop registrations are redone at the next interop feed.
    void reserve(std::size_t count);
    std::size_t capacity() const { return capacity_; }

    // Writes the simulator's particles into the buffers along `path` and returns how long
    // each part took. Interop needs a CUDA simulator and a GL context where interop works
    // (interop_unavailable_reason() is empty); the caller picks the path. Throws plab::Error
    // when a call fails, e.g. when CUDA refuses to register the buffers.
    FeedTiming feed(sim::Simulator& simulator, const sim::RenderStyle& style, FeedPath path);

    GLuint positions() const { return positions_.get(); }
    GLuint colors() const { return colors_.get(); }

#if PLAB_HAS_CUDA
    // The position and colour buffers registered with CUDA (registered now if they were not),
    // for a CUDA reader of what the last feed wrote (render/splat_renderer.h). Not mapped.
    std::pair<InteropBuffer*, InteropBuffer*> interop_buffers();
#endif

  private:
    FeedTiming feed_host(sim::Simulator& simulator, const sim::RenderStyle& style, bool pinned);
    FeedTiming feed_interop(sim::Simulator& simulator, const sim::RenderStyle& style);
    FeedTiming feed_pinned_async(sim::Simulator& simulator, const sim::RenderStyle& style);
    void upload(const sim::Float4* positions, const sim::Float4* colors, std::size_t count);

    Buffer positions_;
    Buffer colors_;
    std::size_t capacity_ = 0;
    std::vector<sim::Float4> host_positions_, host_colors_;  // host-copy staging
    // The simulator whose asynchronous export is in flight for the next frame (null when the
    // last feed took another path): only its export may be drawn.
    const sim::Simulator* async_source_ = nullptr;

    struct Interop;  // CUDA registrations (empty in builds without CUDA)
    std::unique_ptr<Interop> interop_;
};

}  // namespace plab::render
