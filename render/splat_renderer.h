#pragma once
// The CUDA particle renderer: the same spheres as the GL impostors (render/particle_renderer.h),
// drawn by compute. It reads the particles from its own device buffers, which the CUDA
// simulator's export fills (feed(): no GL buffer, no map), or from the GL buffers a host feed
// filled (mapped through CUDA-GL interop, no copy), clears a 64-bit depth+colour key per pixel,
// splats each particle's square with atomicMin, resolves the keys into an RGBA8 and an R32F texture
// registered with CUDA (the kernels write them as surfaces: no pixel-buffer copy), and composites
// them into the bound framebuffer with a fullscreen triangle that also writes depth, so lines drawn
// later are hidden behind particles. The math is in render/splat_math.h.
#include <memory>
#include <optional>
#include <string>

#include "render/gl_handles.h"
#include "render/material_math.h"
#include "render/particle_feed.h"
#include "render/particle_renderer.h"
#include "render/shader_program.h"
#include "render/splat_math.h"
#include "sim/geometry/scene_geometry.h"

namespace plab::render {

// Device time of the renderer's passes in one frame (CUDA events), ms.
struct SplatTimings {
    double clear_ms = 0;    // the key target set to empty
    double splat_ms = 0;    // one thread per particle
    double resolve_ms = 0;  // keys → colour and depth surfaces (the material look: its shading)
    // The material look's depth pass and, for the liquid, its depth filter; 0 in the data look.
    double filter_ms = 0;
    double total_ms() const { return clear_ms + splat_ms + filter_ms + resolve_ms; }
    // Host wall clock of the frame's interop calls: mapping and unmapping the images (and the
    // particle buffers after a host feed), what GL memory imported into CUDA once would save.
    double map_host_ms = 0;
};

// The splatter's view of a draw: `view`'s matrices, a width × height target, the particles'
// radius (m) and the impostors' lighting. The CPU reference splat takes the same.
SplatView make_splat_view(const RenderView& view, const Lighting& lighting, float radius, int width,
                          int height);

// Empty when the CUDA renderer can draw with the GL context current on this thread and
// simulator backend `cuda_backend`, otherwise why not (a build without CUDA, the CPU backend, no
// CUDA-GL interop).
std::string splat_unavailable_reason(bool cuda_backend);

class SplatRenderer {
  public:
    SplatRenderer();  // needs a current GL 4.5 context; CUDA is touched at the first draw
    ~SplatRenderer();
    SplatRenderer(const SplatRenderer&) = delete;
    SplatRenderer& operator=(const SplatRenderer&) = delete;

    // Draws the first `count` particles of `feed`'s buffers into the rectangle of the bound
    // framebuffer at (x, y) of width × height pixels, as `view` sees them, lit by `lighting`,
    // each of `radius` m. The images are (re)made when the size changes. Depth testing stays on.
    // Throws plab::Error when a CUDA or GL call fails.
    void draw(ParticleFeed& feed, int count, const RenderView& view, const Lighting& lighting,
              float radius, int x, int y, int width, int height);

    // The device feed: the CUDA simulator exports its particles into buffers of the renderer's
    // own (grown as needed), ordered against the renderer's kernels on the device, with no GL
    // buffer and no interop map (the host waits for the export, which keeps frames in step);
    // draw_device then maps only the two images. The
    // fastest path, and the one `interop` means for this renderer. Throws plab::Error for the
    // CPU backend or when a CUDA call fails.
    FeedTiming feed(sim::Simulator& simulator, const sim::RenderStyle& style);
    // As draw, from the particles of the last feed() (`count` of them at most).
    void draw_device(int count, const RenderView& view, const Lighting& lighting, float radius,
                     int x, int y, int width, int height);

    // The look of the next draws: the data look (colour maps), or the material look of
    // `kind` with its light map fitted around `domain` (render/material_passes.h).
    // `bodies` (null: none) are drawn and shadowed with the particles in the material look.
    void set_look(Look look, MaterialKind kind, const sim::Domain& domain,
                  std::shared_ptr<const sim::SceneGeometry> bodies = nullptr,
                  GrainPalette palette = GrainPalette::Sand);
    Look look() const { return look_; }

    // The newest finished frame's timings without waiting (nothing until one has finished).
    std::optional<SplatTimings> poll_timings();
    // Waits for the last draw's passes and returns their timings (benchmarks).
    SplatTimings wait_timings();

  private:
    // Checks the draw, makes the CUDA side and the images for a width × height viewport.
    void prepare(int count, std::size_t capacity, int width, int height);
    // Clear, splat and resolve on the renderer's stream, the images mapped.
    void run_passes(const void* positions, const void* colors, int count, const SplatView& v,
                    const RenderView& view);
    // The images into the bound framebuffer at (x, y), depth included.
    void composite(int x, int y);

    ShaderProgram composite_;
    VertexArray empty_vao_;  // core profile draws need one bound, even without attributes
    Texture color_, depth_;
    int width_ = 0, height_ = 0;
    Look look_ = Look::Data;
    MaterialKind kind_ = MaterialKind::Grains;
    GrainPalette palette_ = GrainPalette::Sand;
    sim::Domain domain_;
    std::shared_ptr<const sim::SceneGeometry> bodies_;
    // Whose triangles the device holds (kept, so a new scene's bodies never pass for them).
    std::shared_ptr<const sim::SceneGeometry> uploaded_bodies_;
    std::size_t device_count_ = 0;  // particles the last device feed exported
    double map_host_ms_ = 0;        // the last draw's map + unmap, host wall clock

    struct Cuda;  // stream, events, key buffer, registrations (empty without CUDA)
    std::unique_ptr<Cuda> cuda_;
};

}  // namespace plab::render
