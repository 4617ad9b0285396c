#include "app/lab/video_run.h"

#include <chrono>
#include <cmath>
#include <optional>
#include <ostream>
#include <utility>

#include "app/frame/frame.h"
#include "app/lab/bench_run.h"
#include "app/lab/interrupt.h"
#include "app/lab/video_encoder.h"
#include "render/egl_context.h"
#include "render/material_view.h"
#include "render/offscreen_target.h"
#include "render/orbit_camera.h"
#include "render/particle_feed.h"
#include "render/scene_pass.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/model/sim_time.h"

namespace plab::app {

using sim::format_numbers;

void check_video_config(const VideoConfig& v) {
    PLAB_REQUIRE(v.fps == 30 || v.fps == 60,
                 "--video-fps takes 30 or 60, not " + std::to_string(v.fps));
    PLAB_REQUIRE(std::isfinite(v.slowmo) && v.slowmo >= 1e-3 && v.slowmo <= 1e6,
                 format_numbers("--video-slowmo must be in [0.001, 1e6], not %g", v.slowmo));
    PLAB_REQUIRE(v.frames >= 0 && v.frames <= 1'000'000,
                 "--frames must be in [1, 1000000], not " + std::to_string(v.frames));
    PLAB_REQUIRE(std::isfinite(v.seconds) && v.seconds >= 0 && v.seconds <= 1e6,
                 format_numbers("--video-seconds must be in (0, 1e6], not %g", v.seconds));
    PLAB_REQUIRE((v.frames > 0) != (v.seconds > 0),
                 "--video needs its length: --frames N or --video-seconds S (one of them)");
}

double video_frame_seconds(const VideoConfig& v) { return 1.0 / (v.fps * v.slowmo); }

long steps_per_video_frame(const VideoConfig& v, double dt) {
    return std::max(1L, std::lround(video_frame_seconds(v) / dt));
}

int run_video(const BenchConfig& c, const VideoConfig& v, std::ostream& out,
              std::ostream* progress) {
    check_video_config(v);
    const render::FeedPath path = c.render == "interop"        ? render::FeedPath::Interop
                                  : c.render == "pinned"       ? render::FeedPath::PinnedCopy
                                  : c.render == "pinned-async" ? render::FeedPath::PinnedAsync
                                                               : render::FeedPath::HostCopy;
    BenchRun run(c);
    sim::Simulator& simulator = run.simulator();
    const sim::Params& params = run.params();
    const double dt = sim::step_seconds(params.dt);
    const long steps = steps_per_video_frame(v, dt);
    const long frames =
        v.frames > 0 ? v.frames : std::max(1L, std::lround(v.seconds / (steps * dt)));

    render::EglContext gl;
    render::OffscreenTarget target(c.width, c.height);
    Frame drawing;
    // The renderer variant as resolved (the CPU backend draws GL sprites), chosen before the
    // first feed: the CUDA renderer's interop feed goes to its own device buffers.
    drawing.require_renderer(run.run());
    const bool cuda_renderer = drawing.cuda_renderer();
    const render::Viewport all{0, 0, c.width, c.height};
    drawing.frame_camera(run.run(), all.aspect());
    const FrameView view{.color = {.mode = sim::ColorMode::Speed, .speed_scale = c.speed_scale},
                         .look = sim::parse_enum(render::look_names(), c.look, "look")};
    drawing.scene().set_look(view.look);

    std::optional<VideoEncoder> encoder;
    if (v.encode) encoder.emplace(v.path, VideoSettings{c.width, c.height, v.fps});
    out << "Particle Lab video\n";
    out << "  run          " << run.label() << ", " << simulator.particle_count()
        << " particles on " << sim::backend_name(simulator.backend()) << "\n";
    out << "  gl           " << gl.renderer() << "\n";
    out << "  renderer     " << (cuda_renderer ? "cuda (sphere splats)" : "gl (sprites)") << "\n";
    const std::string look_note = drawing.scene().look_fallback();
    out << "  look         " << c.look
        << (look_note.empty() ? "" : " asked, data drawn: " + look_note) << "\n";
    if (encoder)
        out << "  encoder      " << encoder->encoder_name() << " (" << c.width << "x" << c.height
            << ", " << v.fps << " fps)" << (encoder->note().empty() ? "" : "; " + encoder->note())
            << "\n";
    else
        out << "  encoder      none (--video-no-encode: frames drawn and read back only)\n";
    const double speed = 1.0 / (v.fps * steps * dt);  // movie seconds per simulated second
    out << "  timing       " << steps << " steps of " << format_numbers("%g s", dt)
        << " per frame: " << format_numbers("%g simulated s per frame, the movie ", steps * dt)
        << (std::fabs(speed - 1) < 1e-9 ? std::string("at the simulation's speed")
            : speed > 1                 ? format_numbers("%.4g x slower than the simulation", speed)
                        : format_numbers("%.4g x faster than the simulation", 1 / speed))
        << "\n";

    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    double handover_ms = 0;
    long done = 0;
    int code = 0;
    try {
        for (; done < frames; ++done) {
            if (interrupted()) {
                code = interrupt_exit_code();
                break;
            }
            // Frame 0 is the state the run starts from.
            if (done > 0)
                for (long s = 0; s < steps; ++s) run.run().step();
            drawing.feed(run.run(), view, path);
            target.bind();
            render::ScenePass::clear(c.width, c.height);
            drawing.draw(run.run(), view, all);
            std::vector<std::uint8_t> pixels = target.read_pixels();
            const auto t = Clock::now();
            if (encoder) encoder->push(std::move(pixels));
            handover_ms += std::chrono::duration<double, std::milli>(Clock::now() - t).count();
            if (progress && done % 30 == 0)
                *progress << "\r  frame " << done + 1 << "/" << frames << std::flush;
        }
    } catch (...) {
        if (encoder) encoder->finish();  // the frames so far stay a playable movie
        throw;
    }
    const double loop_s = std::chrono::duration<double>(Clock::now() - start).count();
    if (encoder) encoder->finish();
    if (progress) *progress << "\r" << std::string(40, ' ') << "\r" << std::flush;
    out << format_numbers("  frames       %.0f of %.0f written to ",
                          double(encoder ? encoder->frames_written() : 0), double(frames))
        << (encoder ? v.path : std::string("nothing (--video-no-encode)"))
        << (code ? " (stopped by " + interrupt_name() + ")" : "") << "\n";
    out << format_numbers("  loop         %.1f frames/s (step, feed, draw, read back, hand over);",
                          done / loop_s)
        << format_numbers(" handing frames to the encoder took %.3f ms a frame, %.1f ms of it",
                          done ? handover_ms / done : 0.0, encoder ? encoder->waited_ms() : 0.0)
        << " waiting for room in its queue\n";
    return code;
}

}  // namespace plab::app
