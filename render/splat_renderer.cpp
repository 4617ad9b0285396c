#include "render/splat_renderer.h"

#include <chrono>
#include <string>

#include "render/gl_check.h"  // glad first: cuda_gl_interop.h includes <GL/gl.h>
#include "render/glm_matrix.h"
#include "render/interop_buffer.h"
#include "render/particle_feed.h"

#if PLAB_HAS_CUDA
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include "render/material_kernels.h"
#include "render/material_view.h"
#include "render/splat_kernels.h"
#include "sim/cuda/cuda_check.h"
#include "sim/cuda/device_buffer.h"
#endif

namespace plab::render {

SplatView make_splat_view(const RenderView& view, const Lighting& lighting, float radius, int width,
                          int height) {
    SplatView v;
    v.view = to_mat4(view.view);
    v.projection = to_mat4(view.projection);
    v.width = width;
    v.height = height;
    v.radius = radius;
    v.light_dir = {lighting.direction_view.x, lighting.direction_view.y, lighting.direction_view.z};
    v.ambient = lighting.ambient;
    return v;
}

void SplatRenderer::set_look(Look look, MaterialKind kind, const sim::Domain& domain,
                             std::shared_ptr<const sim::SceneGeometry> bodies,
                             GrainPalette palette) {
    look_ = look;
    kind_ = kind;
    palette_ = palette;
    domain_ = domain;
    bodies_ = std::move(bodies);
}

std::string splat_unavailable_reason(bool cuda_backend) {
#if PLAB_HAS_CUDA
    if (!cuda_backend)
        return "the CUDA renderer reads the particles from the CUDA backend's device buffers; "
               "the CPU backend runs";
    const std::string why = interop_unavailable_reason();
    if (!why.empty()) return "the CUDA renderer needs CUDA-GL interop: " + why;
    return {};
#else
    (void)cuda_backend;
    return "this build has no CUDA, so there is no CUDA renderer";
#endif
}

#if PLAB_HAS_CUDA

namespace {

// Host time between two clock readings, ms.
double elapsed_host_ms(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// Time between two recorded events, ms.
double elapsed_ms(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0.f;
    PLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

// A GL texture registered with CUDA for surface writes, and the surface object of its array.
// The array of a registered image keeps its address across maps unless GL reallocates it;
// the surface is remade only when it moves.
struct SurfaceImage {
    cudaGraphicsResource* resource = nullptr;
    cudaArray_t array = nullptr;
    cudaSurfaceObject_t surface = 0;

    ~SurfaceImage() { release(); }
    void release() {
        if (surface != 0) PLAB_CUDA_LOG(cudaDestroySurfaceObject(surface));
        if (resource != nullptr) PLAB_CUDA_LOG(cudaGraphicsUnregisterResource(resource));
        resource = nullptr;
        array = nullptr;
        surface = 0;
    }
    void attach(GLuint texture) {
        release();
        PLAB_CUDA_CHECK(cudaGraphicsGLRegisterImage(&resource, texture, GL_TEXTURE_2D,
                                                    cudaGraphicsRegisterFlagsSurfaceLoadStore));
        // Every pixel is written each frame: GL's contents need not be kept for CUDA.
        PLAB_CUDA_CHECK(
            cudaGraphicsResourceSetMapFlags(resource, cudaGraphicsMapFlagsWriteDiscard));
    }
    // While mapped: the surface of the current array. `stream` is drained before a surface
    // that kernels may still use is destroyed.
    void update_surface(cudaStream_t stream) {
        cudaArray_t now = nullptr;
        PLAB_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&now, resource, 0, 0));
        if (now == array && surface != 0) return;
        if (surface != 0) {
            PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
            PLAB_CUDA_CHECK(cudaDestroySurfaceObject(surface));
            surface = 0;
        }
        cudaResourceDesc desc{};
        desc.resType = cudaResourceTypeArray;
        desc.res.array.array = now;
        PLAB_CUDA_CHECK(cudaCreateSurfaceObject(&surface, &desc));
        array = now;
    }
};

}  // namespace

struct SplatRenderer::Cuda {
    cudaStream_t stream = nullptr;
    // Before clear, after clear, after splat, after the material look's depth and filter
    // passes (at once in the data look), after resolve.
    cudaEvent_t events[5] = {};
    bool in_flight = false;  // events recorded and not yet read
    std::optional<SplatTimings> latest;
    sim::cuda::DeviceBuffer<std::uint64_t> keys;
    SurfaceImage color, depth;
    // The particles of a device feed (SplatRenderer::feed): the export writes them, the splat
    // reads them, both ordered on the device (RenderTarget::reader_stream).
    sim::cuda::DeviceBuffer<sim::Float4> positions, colors;
    // The material look's images (render/material_passes.h), made at its first frame.
    sim::cuda::DeviceBuffer<float> thickness, dist, scratch;
    sim::cuda::DeviceBuffer<std::uint32_t> light;
    sim::cuda::DeviceBuffer<sim::GeoTriangle> triangles;
    int triangle_count = 0;

    Cuda() {
        PLAB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        for (cudaEvent_t& e : events) PLAB_CUDA_CHECK(cudaEventCreate(&e));
    }
    ~Cuda() {
        // Kernels may still write the surfaces: finish before they are released.
        if (stream != nullptr) PLAB_CUDA_LOG(cudaStreamSynchronize(stream));
        color.release();
        depth.release();
        for (cudaEvent_t e : events)
            if (e != nullptr) PLAB_CUDA_LOG(cudaEventDestroy(e));
        if (stream != nullptr) PLAB_CUDA_LOG(cudaStreamDestroy(stream));
    }
    Cuda(const Cuda&) = delete;
    Cuda& operator=(const Cuda&) = delete;

    SplatTimings read() const {
        SplatTimings t;
        t.clear_ms = elapsed_ms(events[0], events[1]);
        t.splat_ms = elapsed_ms(events[1], events[2]);
        t.filter_ms = elapsed_ms(events[2], events[3]);
        t.resolve_ms = elapsed_ms(events[3], events[4]);
        return t;
    }
    // Collects the last frame's timings if its passes have finished.
    void poll() {
        if (!in_flight) return;
        const cudaError_t done = cudaEventQuery(events[4]);
        if (done == cudaErrorNotReady) {
            cudaGetLastError();  // not an error: clear it so later checks start clean
            return;
        }
        PLAB_CUDA_CHECK(done);
        latest = read();
        in_flight = false;
    }
};

SplatRenderer::SplatRenderer()
    : composite_(ShaderProgram::from_embedded("splat_composite.vert", "splat_composite.frag")),
      empty_vao_(make_vertex_array()) {}

// The registrations go before the textures they refer to (members die in reverse order).
SplatRenderer::~SplatRenderer() { cuda_.reset(); }

void SplatRenderer::prepare(int count, std::size_t capacity, int width, int height) {
    PLAB_REQUIRE(count >= 0 && static_cast<std::size_t>(count) <= capacity,
                 "the CUDA renderer got " + std::to_string(count) + " particles for buffers of " +
                     std::to_string(capacity));
    PLAB_REQUIRE(width > 0 && height > 0, "the CUDA renderer's viewport is empty");
    if (!cuda_) cuda_ = std::make_unique<Cuda>();
    Cuda& c = *cuda_;
    c.poll();

    // The images follow the viewport: a resize or a HiDPI change makes them anew.
    if (width != width_ || height != height_) {
        PLAB_CUDA_CHECK(cudaStreamSynchronize(c.stream));
        c.color.release();
        c.depth.release();
        const std::size_t pixels = static_cast<std::size_t>(width) * height;
        sim::cuda::require_free_device_memory(c.keys.growth_bytes(pixels),
                                              "the CUDA renderer's depth+colour target");
        c.keys.resize(pixels);
        color_ = make_texture(GL_TEXTURE_2D);
        depth_ = make_texture(GL_TEXTURE_2D);
        PLAB_GL_CHECK(glTextureStorage2D(color_.get(), 1, GL_RGBA8, width, height));
        PLAB_GL_CHECK(glTextureStorage2D(depth_.get(), 1, GL_R32F, width, height));
        for (const GLuint t : {color_.get(), depth_.get()}) {
            PLAB_GL_CHECK(glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
            PLAB_GL_CHECK(glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
        }
        c.color.attach(color_.get());
        c.depth.attach(depth_.get());
        width_ = width;
        height_ = height;
    }
}

void SplatRenderer::run_passes(const void* positions, const void* colors, int count,
                               const SplatView& v, const RenderView& view) {
    Cuda& c = *cuda_;
    c.color.update_surface(c.stream);
    c.depth.update_surface(c.stream);
    const auto* pos = static_cast<const sim::Float4*>(positions);
    const auto* col = static_cast<const sim::Float4*>(colors);
    if (look_ == Look::Material) {
        const MaterialView m = make_material_view(v, view, domain_, kind_, true, palette_);
        const std::size_t pixels = c.keys.size();
        const std::size_t texels = static_cast<std::size_t>(m.shadow_size) * m.shadow_size;
        const std::size_t growth = c.thickness.growth_bytes(pixels) + c.dist.growth_bytes(pixels) +
                                   c.scratch.growth_bytes(pixels) + c.light.growth_bytes(texels);
        if (growth > 0) {
            sim::cuda::require_free_device_memory(growth, "the material look's images");
            PLAB_CUDA_CHECK(cudaStreamSynchronize(c.stream));
            c.thickness.resize(pixels);
            c.dist.resize(pixels);
            c.scratch.resize(pixels);
            c.light.resize(texels);
        }
        // The bodies' triangles, uploaded when the scene's geometry changes.
        if (bodies_ != uploaded_bodies_) {
            const std::size_t n = bodies_ ? bodies_->triangles.size() : 0;
            PLAB_CUDA_CHECK(cudaStreamSynchronize(c.stream));
            sim::cuda::require_free_device_memory(c.triangles.growth_bytes(n),
                                                  "the bodies' triangles for the material look");
            c.triangles.resize(n);
            if (n > 0) c.triangles.upload(bodies_->triangles, c.stream);
            PLAB_CUDA_CHECK(cudaStreamSynchronize(c.stream));
            c.triangle_count = static_cast<int>(n);
            uploaded_bodies_ = bodies_;
        }
        MaterialFrame f{c.keys.data(), c.thickness.data(), c.dist.data(), c.scratch.data(),
                        c.light.data()};
        PLAB_CUDA_CHECK(cudaEventRecord(c.events[0], c.stream));
        PLAB_CUDA_CHECK(cudaMemsetAsync(c.keys.data(), 0xff, c.keys.bytes(), c.stream));
        if (m.kind == MaterialKind::Liquid)
            PLAB_CUDA_CHECK(
                cudaMemsetAsync(c.thickness.data(), 0, pixels * sizeof(float), c.stream));
        if (texels > 0)
            PLAB_CUDA_CHECK(cudaMemsetAsync(c.light.data(), 0xff, texels * 4, c.stream));
        PLAB_CUDA_CHECK(cudaEventRecord(c.events[1], c.stream));
        cuda::launch_material_splat(pos, col, count, m, f, c.stream);
        cuda::launch_material_bodies(c.triangles.data(), c.triangle_count, m, f, c.stream);
        PLAB_CUDA_CHECK(cudaEventRecord(c.events[2], c.stream));
        cuda::launch_material_depth(m, f, c.stream);
        PLAB_CUDA_CHECK(cudaEventRecord(c.events[3], c.stream));
        cuda::launch_material_shade(m, f, c.color.surface, c.depth.surface, c.stream);
        PLAB_CUDA_CHECK(cudaEventRecord(c.events[4], c.stream));
        c.in_flight = true;
        return;
    }
    PLAB_CUDA_CHECK(cudaEventRecord(c.events[0], c.stream));
    PLAB_CUDA_CHECK(cudaMemsetAsync(c.keys.data(), 0xff, c.keys.bytes(), c.stream));
    PLAB_CUDA_CHECK(cudaEventRecord(c.events[1], c.stream));
    cuda::launch_splat(pos, col, count, v, c.keys.data(), c.stream);
    PLAB_CUDA_CHECK(cudaEventRecord(c.events[2], c.stream));
    PLAB_CUDA_CHECK(cudaEventRecord(c.events[3], c.stream));
    cuda::launch_resolve(c.keys.data(), v.width, v.height, c.color.surface, c.depth.surface,
                         c.stream);
    PLAB_CUDA_CHECK(cudaEventRecord(c.events[4], c.stream));
    c.in_flight = true;
}

void SplatRenderer::draw(ParticleFeed& feed, int count, const RenderView& view,
                         const Lighting& lighting, float radius, int x, int y, int width,
                         int height) {
    PLAB_REQUIRE(radius > 0.f, "particle radius must be positive");
    prepare(count, feed.capacity(), width, height);
    Cuda& c = *cuda_;
    const SplatView v = make_splat_view(view, lighting, radius, width, height);

    // The feed's buffers are read, the images overwritten whole; one map call for all four
    // (each call costs host time in the driver), ordered after GL's use of them on our stream.
    const auto [positions, colors] = feed.interop_buffers();
    cudaGraphicsResource* resources[] = {positions->resource(), colors->resource(),
                                         c.color.resource, c.depth.resource};
    PLAB_CUDA_CHECK(cudaGraphicsResourceSetMapFlags(resources[0], cudaGraphicsMapFlagsReadOnly));
    PLAB_CUDA_CHECK(cudaGraphicsResourceSetMapFlags(resources[1], cudaGraphicsMapFlagsReadOnly));
    using Clock = std::chrono::steady_clock;
    const auto map_start = Clock::now();
    PLAB_CUDA_CHECK(cudaGraphicsMapResources(4, resources, c.stream));
    const auto mapped = Clock::now();
    try {
        void* pos = nullptr;
        void* col = nullptr;
        std::size_t bytes = 0;
        PLAB_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&pos, &bytes, resources[0]));
        PLAB_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&col, &bytes, resources[1]));
        run_passes(pos, col, count, v, view);
    } catch (...) {
        PLAB_CUDA_LOG(cudaGraphicsUnmapResources(4, resources, c.stream));
        throw;
    }
    // GL's later use of the images waits for the kernels queued on the stream.
    const auto unmap_start = Clock::now();
    PLAB_CUDA_CHECK(cudaGraphicsUnmapResources(4, resources, c.stream));
    map_host_ms_ = elapsed_host_ms(map_start, mapped) + elapsed_host_ms(unmap_start, Clock::now());
    composite(x, y);
}

FeedTiming SplatRenderer::feed(sim::Simulator& simulator, const sim::RenderStyle& style) {
    PLAB_REQUIRE(simulator.backend() == sim::Backend::Cuda,
                 "the CUDA renderer's device feed needs the CUDA backend");
    if (!cuda_) cuda_ = std::make_unique<Cuda>();
    Cuda& c = *cuda_;
    FeedTiming t;
    t.path = FeedPath::Interop;
    auto start = std::chrono::steady_clock::now();
    const std::size_t n = simulator.particle_count();
    const std::size_t growth = c.positions.growth_bytes(n) + c.colors.growth_bytes(n);
    if (growth > 0) {
        sim::cuda::require_free_device_memory(growth, "the CUDA renderer's particle buffers");
        PLAB_CUDA_CHECK(cudaStreamSynchronize(c.stream));  // a splat may still read the old ones
    }
    c.positions.resize(n);
    c.colors.resize(n);
    device_count_ = 0;  // a failed export leaves nothing known to draw
    sim::RenderTarget target;
    target.positions = c.positions.data();
    target.colors = c.colors.data();
    target.capacity = c.positions.size();
    target.on_device = true;
    target.reader_stream = c.stream;
    simulator.export_render(target, style);
    // The host waits for the export (as the interop feed of the GL buffers does). Without the
    // wait the host queues frames ahead and the GPU alternates between GL's composites and
    // CUDA's steps and splats of different frames: on an H200, 1M classic particles ran 380
    // pipelined frames/s that way against 1,133 with it (10M: 350 against 333).
    simulator.synchronize();
    device_count_ = n;
    t.export_ms = elapsed_host_ms(start, std::chrono::steady_clock::now());
    return t;
}

void SplatRenderer::draw_device(int count, const RenderView& view, const Lighting& lighting,
                                float radius, int x, int y, int width, int height) {
    PLAB_REQUIRE(radius > 0.f, "particle radius must be positive");
    prepare(count, device_count_, width, height);
    Cuda& c = *cuda_;
    const SplatView v = make_splat_view(view, lighting, radius, width, height);
    // Only the images go through interop: the particles are in the renderer's own memory.
    cudaGraphicsResource* resources[] = {c.color.resource, c.depth.resource};
    using Clock = std::chrono::steady_clock;
    const auto map_start = Clock::now();
    PLAB_CUDA_CHECK(cudaGraphicsMapResources(2, resources, c.stream));
    const auto mapped = Clock::now();
    try {
        run_passes(c.positions.data(), c.colors.data(), count, v, view);
    } catch (...) {
        PLAB_CUDA_LOG(cudaGraphicsUnmapResources(2, resources, c.stream));
        throw;
    }
    const auto unmap_start = Clock::now();
    PLAB_CUDA_CHECK(cudaGraphicsUnmapResources(2, resources, c.stream));
    map_host_ms_ = elapsed_host_ms(map_start, mapped) + elapsed_host_ms(unmap_start, Clock::now());
    composite(x, y);
}

void SplatRenderer::composite(int x, int y) {
    PLAB_GL_CHECK(glEnable(GL_DEPTH_TEST));
    PLAB_GL_CHECK(glDepthFunc(GL_LESS));
    PLAB_GL_CHECK(glBindTextureUnit(0, color_.get()));
    PLAB_GL_CHECK(glBindTextureUnit(1, depth_.get()));
    PLAB_GL_CHECK(glProgramUniform1i(composite_.id(), composite_.uniform_location("u_color"), 0));
    PLAB_GL_CHECK(glProgramUniform1i(composite_.id(), composite_.uniform_location("u_depth"), 1));
    PLAB_GL_CHECK(
        glProgramUniform2i(composite_.id(), composite_.uniform_location("u_origin"), x, y));
    composite_.use();
    PLAB_GL_CHECK(glBindVertexArray(empty_vao_.get()));
    PLAB_GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, 3));
}

std::optional<SplatTimings> SplatRenderer::poll_timings() {
    if (!cuda_) return std::nullopt;
    cuda_->poll();
    std::optional<SplatTimings> t = cuda_->latest;
    if (t) t->map_host_ms = map_host_ms_;  // the last draw's (the device's may be older)
    return t;
}

SplatTimings SplatRenderer::wait_timings() {
    PLAB_REQUIRE(cuda_ && cuda_->in_flight, "the CUDA renderer has drawn nothing to time");
    PLAB_CUDA_CHECK(cudaEventSynchronize(cuda_->events[4]));
    cuda_->poll();
    SplatTimings t = *cuda_->latest;
    t.map_host_ms = map_host_ms_;
    return t;
}

#else  // no CUDA in this build

struct SplatRenderer::Cuda {};

SplatRenderer::SplatRenderer()
    : composite_(ShaderProgram::from_embedded("splat_composite.vert", "splat_composite.frag")),
      empty_vao_(make_vertex_array()) {}

SplatRenderer::~SplatRenderer() = default;

void SplatRenderer::draw(ParticleFeed&, int, const RenderView&, const Lighting&, float, int, int,
                         int, int) {
    throw Error(splat_unavailable_reason(false));
}

FeedTiming SplatRenderer::feed(sim::Simulator&, const sim::RenderStyle&) {
    throw Error(splat_unavailable_reason(false));
}

void SplatRenderer::draw_device(int, const RenderView&, const Lighting&, float, int, int, int,
                                int) {
    throw Error(splat_unavailable_reason(false));
}

std::optional<SplatTimings> SplatRenderer::poll_timings() { return std::nullopt; }

SplatTimings SplatRenderer::wait_timings() { throw Error(splat_unavailable_reason(false)); }

#endif  // PLAB_HAS_CUDA

}  // namespace plab::render
