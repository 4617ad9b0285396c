#pragma once
// `particle-lab bench --render interop|host|pinned|pinned-async`: whole frames without a
// window, drawn by the GL sprites or the CUDA splatter (`--renderer gl|cuda`). Each frame is a
// simulation step, the export into the particle vertex buffers (CUDA-GL interop or one of the host
// round trips) and the draw into an offscreen target, in a headless EGL context. `bench --sweep`
// tabulates the same measurement (measure_frames).
#include <iosfwd>
#include <string>
#include <vector>

#include "app/lab/bench_config.h"

namespace plab::app {

class BenchRun;

// One frame, ms.
struct FrameSample {
    double step_ms = 0;        // device: the simulation step
    double export_gpu_ms = 0;  // device: the export kernel (+ the device-to-host copy on the
                               // host paths; pinned-async: kernel start to copy end)
    double feed_cpu_ms = 0;    // host: map + export + (upload) + unmap, synchronised
    double draw_gpu_ms = 0;    // GL timer query around the scene draw (particles, box, collider;
                               // with the CUDA renderer its composite, not its kernels)
    // The CUDA renderer's own passes (CUDA events); 0 with the GL sprites.
    double clear_ms = 0, splat_ms = 0, resolve_ms = 0;
    double filter_ms = 0;     // the material look's depth and filter passes (0 in the data look)
    double renderer_ms = 0;   // their sum: what the CUDA renderer costs the GPU a frame
    double map_host_ms = 0;   // host: the CUDA renderer's map + unmap of its images
    double frame_cpu_ms = 0;  // host: the whole frame, finished (glFinish)
};

struct FrameBenchResult {
    std::vector<FrameSample> serial;  // each frame finished before the next starts
    double pipelined_ms = 0;     // host wall clock per frame when frames are only queued (as the
                                 // app runs with vsync off), over config.steps frames
    std::string gl;              // "GL_RENDERER, GL_VERSION (EGL path)"
    bool cuda_renderer = false;  // the CUDA splatter drew the particles (the renderer variant)
    std::string renderer_note;   // why the asked-for CUDA renderer did not run; "" if it did
    std::string look;            // data or material (--look)
    std::string look_note;       // why the material look asked for is not drawn; "" if it is
    std::string invalid;         // why the frames are not a result (the run diverged); "" if valid
};

// Renders config.warmup frames, config.steps serial frames and config.steps pipelined frames
// of `run`'s simulator along the feed path config.render names (not "off"), into a
// config.width × config.height offscreen target of a headless EGL context made for the
// purpose, drawn as the window draws its scene (render/scene_pass.h). With config.screenshot,
// writes the first serial frame there as PNG. Throws plab::Error; render::EglUnavailable where
// no EGL display can be had.
FrameBenchResult measure_frames(BenchRun& run, const BenchConfig& config, std::ostream* progress);

// One field of every serial frame, in order.
std::vector<double> frame_column(const FrameBenchResult& result, double FrameSample::*field);

// The whole-frame benchmark, printed to `out`. Returns false when the run diverged (said first,
// the timings marked INVALID).
bool run_frame_bench(const BenchConfig& config, std::ostream& out, std::ostream* progress);

}  // namespace plab::app
