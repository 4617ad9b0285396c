#pragma once
// What one `particle-lab bench` configuration asks for: the run (preset or scene, count,
// assignments), the step variants, how long to measure and whether to draw whole frames.
// Shared by the bench, its sweeps and whole-frame measurements.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/io/checkpoint.h"

namespace plab::app {

struct BenchConfig {
    sim::Backend backend = sim::Backend::Auto;
    std::string model;  // empty: the preset's or scene's; else checked against it
    std::string preset = "classic";
    std::size_t particles = 65536;
    bool particles_given = true;  // false: a --scene file's own count applies
    std::string scene;            // scene file (JSON); its preset and parameters replace
                                  // --preset, and --set applies over them
    int steps = 200;
    // Which part of a run is measured (bench_run.h: resolve_window): auto (settled for DEM,
    // flow for SPH), start (right after the warm-up), settled (once the pile has come to rest)
    // or flow (every step over the first flow_time simulated seconds).
    std::string window = "auto";
    double flow_time = 1.0;        // s of simulated time the flow window covers
    bool flow_time_given = false;  // false: flow_time is the default (messages say so)
    int warmup = 20;
    sim::SimulatorOptions options;         // the step variants (sim/model/variants.h)
    std::vector<std::string> assignments;  // --set name=value
    // off, or whole frames along a feed path: interop, host, pinned or pinned-async
    // (frame_bench.h)
    std::string render = "off";
    int width = 1280, height = 720;  // offscreen target of --render, pixels
    std::string look = "data";       // --render frames: data or material (render/material_math.h)
    float speed_scale = 0.02f;       // m/s, top of the speed colour ramp of --render frames
    // With --render: a PNG of the first measured frame, the one drawn after warmup + 1 steps
    // (as the window's `--frames N --screenshot` shows the state after N steps); empty: none.
    std::string screenshot;
    // Checkpoints (sim/io/checkpoint.h). load: start from this file's state and parameters
    // instead of a preset or scene (`checkpoint`, when set, is that file already read); save:
    // write the state at the end; save_every > 0: a checkpoint every save_every simulated
    // seconds into save_dir, named by step.
    std::string load;
    std::shared_ptr<const sim::Checkpoint> checkpoint;
    std::string save;
    double save_every = 0;
    std::string save_dir;
};

// s of simulated time the flow window may cover (--flow-time); at most kMaxBenchSteps steps of
// dt fit in it too (bench_run.h).
inline constexpr double kMinFlowTime = 1e-6;
inline constexpr double kMaxFlowTime = 1e6;

// Pixels along each side of the offscreen target of --render (and of a headless --video).
inline constexpr int kMinOffscreenSide = 16;
inline constexpr int kMaxOffscreenSide = 16384;

// The --render values: off, or the name of a feed path (render::feed_path_names; listed here
// because the lab also builds without the renderer).
inline constexpr std::string_view kRenderModes[] = {"off", "interop", "host", "pinned",
                                                    "pinned-async"};
// Throws plab::Error naming the allowed values unless `mode` is one of kRenderModes.
void require_render_mode(std::string_view mode);

}  // namespace plab::app
