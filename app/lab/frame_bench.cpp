#include "app/lab/frame_bench.h"

#include <glad/gl.h>

#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "app/frame/frame.h"
#include "app/lab/bench_run.h"
#include "app/lab/interrupt.h"
#include "app/lab/output_file.h"
#include "app/lab/percentile.h"
#include "render/egl_context.h"
#include "render/gl_check.h"
#include "render/gl_handles.h"
#include "render/interop_buffer.h"
#include "render/material_view.h"
#include "render/offscreen_target.h"
#include "render/orbit_camera.h"
#include "render/particle_feed.h"
#include "render/scene_pass.h"
#include "render/screenshot.h"
#include "sim/core/error.h"
#include "sim/engine/initial_state.h"
#include "sim/model/presets.h"
#include "sim/model/run_checks.h"

namespace plab::app {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// GPU time of the GL commands between begin() and end(), read back at once (a benchmark may
// stall; the app's GpuTimer must not).
class BlockingGlTimer {
  public:
    BlockingGlTimer() { PLAB_GL_CHECK(glCreateQueries(GL_TIME_ELAPSED, 1, &query_)); }
    ~BlockingGlTimer() { glDeleteQueries(1, &query_); }
    BlockingGlTimer(const BlockingGlTimer&) = delete;
    BlockingGlTimer& operator=(const BlockingGlTimer&) = delete;
    void begin() { PLAB_GL_CHECK(glBeginQuery(GL_TIME_ELAPSED, query_)); }
    double end_and_read() {
        PLAB_GL_CHECK(glEndQuery(GL_TIME_ELAPSED));
        GLuint64 ns = 0;
        PLAB_GL_CHECK(glGetQueryObjectui64v(query_, GL_QUERY_RESULT, &ns));
        return static_cast<double>(ns) * 1e-6;
    }

  private:
    GLuint query_ = 0;
};

void print_row(std::ostream& out, const char* name, const std::vector<double>& v) {
    out << percentile_row(name, v, 30);
}

render::FeedPath feed_path(const std::string& render) {
    require_render_mode(render);
    PLAB_REQUIRE(render != "off", "whole frames need a --render path, not off");
    if (render == "interop") return render::FeedPath::Interop;
    if (render == "pinned") return render::FeedPath::PinnedCopy;
    if (render == "pinned-async") return render::FeedPath::PinnedAsync;
    return render::FeedPath::HostCopy;
}

const char* feed_description(render::FeedPath path) {
    switch (path) {
        case render::FeedPath::Interop:
            return "CUDA-GL interop (map, export kernel, unmap)";
        case render::FeedPath::PinnedCopy:
            return "host round trip through page-locked memory (export, glNamedBufferSubData)";
        case render::FeedPath::PinnedAsync:
            return "host round trip through page-locked memory, copied on a second stream "
                   "during the next step; draws the previous frame's particles";
        case render::FeedPath::HostCopy:
            return "host round trip (export to host, glNamedBufferSubData)";
    }
    return "?";
}

}  // namespace

FrameBenchResult measure_frames(BenchRun& run, const BenchConfig& c, std::ostream* progress) {
    const render::FeedPath path = feed_path(c.render);
    PLAB_REQUIRE(c.width >= kMinOffscreenSide && c.height >= kMinOffscreenSide &&
                     c.width <= kMaxOffscreenSide && c.height <= kMaxOffscreenSide,
                 "--width and --height must be between " + std::to_string(kMinOffscreenSide) +
                     " and " + std::to_string(kMaxOffscreenSide) + " pixels");
    sim::Simulator& simulator = run.simulator();

    render::EglContext gl;
    FrameBenchResult result;
    result.gl = gl.renderer() + ", " + gl.version() + " (" + gl.source() + ")";
    if (path == render::FeedPath::Interop) {
        const std::string why = render::interop_unavailable_reason();
        PLAB_REQUIRE(why.empty(), "--render interop: CUDA-GL interop unavailable: " + why);
        PLAB_REQUIRE(simulator.backend() == sim::Backend::Cuda,
                     "--render interop needs the CUDA backend");
    }

    // The window's scene: same style, layers, background and camera framing; the whole
    // target is the viewport (the window's panel is closed).
    render::OffscreenTarget target(c.width, c.height);
    Frame drawing;
    // The renderer variant as the simulator resolved it (the CPU backend draws GL sprites and
    // says why); the CUDA renderer also needs interop, refused here with the reason.
    const sim::ResolvedOptions& resolved = simulator.effective_options();
    if (const sim::OptionNote* note = resolved.note("renderer"))
        result.renderer_note = note->reason;
    drawing.require_renderer(run.run());
    result.cuda_renderer = drawing.cuda_renderer();
    const render::Viewport all{0, 0, c.width, c.height};
    drawing.frame_camera(run.run(), all.aspect());
    const FrameView view{.color = {.mode = sim::ColorMode::Speed, .speed_scale = c.speed_scale},
                         .look = sim::parse_enum(render::look_names(), c.look, "look")};
    drawing.scene().set_look(view.look);
    result.look = c.look;
    result.look_note = drawing.scene().look_fallback();

    BlockingGlTimer draw_timer;
    bool shot_written = false;
    // `finish`: wait for every part and time it (serial frames). Otherwise only queue the
    // work, as the app does, so that a pinned-async copy can overlap the next step.
    auto frame = [&](bool finish) {
        if (interrupted()) {
            const std::string shot = c.screenshot.empty() ? ""
                                     : shot_written       ? "; the screenshot is in " + c.screenshot
                                                          : "; no screenshot was written";
            throw_if_interrupted("during the whole frames" + shot);
        }
        FrameSample s;
        const auto t0 = Clock::now();
        run.run().step();
        const auto t_feed = Clock::now();
        drawing.feed(run.run(), view, path);
        s.feed_cpu_ms = ms_since(t_feed);
        if (finish) s.export_gpu_ms = simulator.last_export_ms();
        target.bind();
        render::ScenePass::clear(c.width, c.height);
        if (finish) draw_timer.begin();
        drawing.draw(run.run(), view, all);
        if (finish) {
            s.draw_gpu_ms = draw_timer.end_and_read();
            PLAB_GL_CHECK(glFinish());
            s.frame_cpu_ms = ms_since(t0);
            if (result.cuda_renderer) {
                const render::SplatTimings t = drawing.scene().wait_splat_timings();
                s.clear_ms = t.clear_ms;
                s.splat_ms = t.splat_ms;
                s.resolve_ms = t.resolve_ms;
                s.filter_ms = t.filter_ms;
                s.renderer_ms = t.total_ms();
                s.map_host_ms = t.map_host_ms;
            }
        }
        return s;
    };

    for (int i = 0; i < c.warmup; ++i) frame(true);
    simulator.synchronize();
    simulator.take_timings();

    // Serial frames: each one finished before the next, so every part can be timed.
    auto last_report = Clock::now();
    for (int i = 0; i < c.steps; ++i) {
        result.serial.push_back(frame(true));
        // After the frame's timings: reading the target back is not part of a frame.
        if (i == 0 && !c.screenshot.empty()) {
            write_whole_file(c.screenshot,
                             render::encode_png(c.width, c.height, target.read_pixels()));
            shot_written = true;
        }
        if (progress && Clock::now() - last_report > std::chrono::milliseconds(500)) {
            *progress << "\r  frame " << i + 1 << "/" << c.steps << std::flush;
            last_report = Clock::now();
        }
    }
    simulator.synchronize();
    const auto steps = simulator.take_timings();
    for (std::size_t i = 0; i < result.serial.size() && i < steps.size(); ++i)
        result.serial[i].step_ms = steps[i].total_ms;

    // Pipelined frames: the host queues the next frame while the GPU draws (what the app
    // does with vsync off); only the end is waited for.
    const auto t_pipe = Clock::now();
    for (int i = 0; i < c.steps; ++i) frame(false);
    PLAB_GL_CHECK(glFinish());
    simulator.synchronize();
    simulator.take_timings();
    result.pipelined_ms = ms_since(t_pipe) / c.steps;
    result.invalid = invalid_state(simulator, run.params(), "after the measured frames");
    if (progress) *progress << "\r" << std::string(40, ' ') << "\r" << std::flush;
    return result;
}

std::vector<double> frame_column(const FrameBenchResult& r, double FrameSample::*field) {
    std::vector<double> v;
    v.reserve(r.serial.size());
    for (const auto& s : r.serial) v.push_back(s.*field);
    return v;
}

bool run_frame_bench(const BenchConfig& c, std::ostream& out, std::ostream* progress) {
    const render::FeedPath path = feed_path(c.render);
    // Written after the first measured frame; a bad path fails before the run, not after it.
    if (!c.screenshot.empty()) require_writable(c.screenshot);
    BenchRun run(c);
    const FrameBenchResult r = measure_frames(run, c, progress);
    sim::Simulator& simulator = run.simulator();
    const bool interop = path == render::FeedPath::Interop;

    out << "Particle Lab frame bench (headless)\n";
    out << "  GL           " << r.gl << "\n";
    out << "  backend      " << sim::backend_name(simulator.backend()) << ": "
        << simulator.device_name() << "\n";
    if (!run.fallback().empty()) out << "  note         CUDA not used: " << run.fallback() << "\n";
    out << "  scene        " << run.label() << ", " << simulator.particle_count() << " particles, "
        << c.width << "x" << c.height << " offscreen, vsync n/a (no window), no panel\n";
    out << sim::warning_lines(run.warnings(), "  WARNING      ");
    out << "  feed         "
        << (interop && r.cuda_renderer
                ? "device feed: export kernel into the CUDA renderer's own buffers (no GL buffer, "
                  "no map)"
                : feed_description(path))
        << "\n";
    out << "  renderer     "
        << (r.cuda_renderer ? "cuda: sphere splats (64-bit atomic min), resolve, GL composite"
                            : "gl: point sprites shaded as spheres")
        << (r.renderer_note.empty() ? "" : " (" + r.renderer_note + ")") << "\n";
    out << "  look         " << r.look
        << (r.look_note.empty() ? "" : " asked, data drawn: " + r.look_note) << "\n";
    out << "  frames       " << c.steps << " measured after " << c.warmup << " warm-up"
        << (run.simulator().effective_options().effective.graph ? ", step as CUDA graph" : "")
        << "\n";
    if (!c.screenshot.empty())
        out << "  screenshot   " << c.screenshot << " (" << c.width << "x" << c.height
            << "): the first measured frame, after " << c.warmup + 1
            << (c.warmup == 0 ? " step" : " steps")
            << (path == render::FeedPath::PinnedAsync && c.warmup > 0
                    ? " (drawing the particles of the step before)\n"
                    : "\n");

    const bool valid = r.invalid.empty();
    if (!valid)
        out << "\n  INVALID      the run diverged " << r.invalid
            << "\n               The timings below are not a result.\n";
    const auto col = [&](double FrameSample::*f) { return frame_column(r, f); };
    out << "\npart of a frame                  median ms     p10 ms     p90 ms"
        << (valid ? "" : "  [INVALID]") << "\n";
    print_row(out, "simulation step (device)", col(&FrameSample::step_ms));
    print_row(out, interop ? "export kernel (device)" : "export kernel+copy (device)",
              col(&FrameSample::export_gpu_ms));
    // With the CUDA renderer the interop feed is its device feed: no GL buffer is mapped.
    print_row(out,
              !interop          ? "export+copy+upload (host wall)"
              : r.cuda_renderer ? "export, waited (host wall)"
                                : "map+export+unmap (host wall)",
              col(&FrameSample::feed_cpu_ms));
    print_row(out, r.cuda_renderer ? "composite+lines (GL timer)" : "draw scene (GL timer)",
              col(&FrameSample::draw_gpu_ms));
    if (r.cuda_renderer) {
        print_row(out, "renderer: clear (device)", col(&FrameSample::clear_ms));
        print_row(out, "renderer: splat (device)", col(&FrameSample::splat_ms));
        if (r.look == "material")
            print_row(out, "renderer: depth + filter (device)", col(&FrameSample::filter_ms));
        print_row(out,
                  r.look == "material" ? "renderer: shade (device)" : "renderer: resolve (device)",
                  col(&FrameSample::resolve_ms));
        print_row(out, "renderer: map+unmap images (host)", col(&FrameSample::map_host_ms));
    }
    print_row(out, "whole frame, serial (host wall)", col(&FrameSample::frame_cpu_ms));
    const double serial_ms = median(col(&FrameSample::frame_cpu_ms));
    char line[240];
    std::snprintf(line, sizeof line,
                  "\n  frame, pipelined   %.4f ms = %.1f FPS (wall clock over %d frames)\n"
                  "  frame, serial      %.4f ms = %.1f FPS (median)\n",
                  r.pipelined_ms, 1000.0 / r.pipelined_ms, c.steps, serial_ms, 1000.0 / serial_ms);
    out << line;
    if (path == render::FeedPath::PinnedAsync)
        out << "  (serial frames wait for every part, so the asynchronous copy overlaps the "
               "next step only in the pipelined frames)\n";
    if (!valid) out << "  [INVALID: the run diverged; these frame times are not a result]\n";
    return valid;
}

}  // namespace plab::app
