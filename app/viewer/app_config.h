#pragma once
// What `particle-lab` (the window app) is asked to do, as parsed from the command line.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "app/lab/checkpoint_options.h"
#include "app/viewer/ui_state.h"
#include "app/viewer/window_video.h"
#include "render/material_math.h"
#include "sim/engine/simulator.h"
#include "sim/io/checkpoint.h"
#include "sim/physics/color_map.h"
#include "sim/run/run_recipe.h"

namespace plab::app {

struct AppConfig {
    sim::Backend backend = sim::Backend::Auto;
    // --preset or --scene (loaded and checked up front), --particles (0: the default for the
    // backend in use) and --set name=value.
    sim::RunRequest run;
    sim::SimulatorOptions options;  // the step variants (--graph, --block-size, ...)
    sim::ColorMode color = sim::ColorMode::Speed;
    render::Look look = render::Look::Data;  // --look
    float speed_scale = 0.f;   // m/s, a fixed top of the speed ramp; 0: follow the fastest particle
    float spin_scale = 100.f;  // rad/s, the top of the spin ramp
    int frames = 0;            // > 0: run this many frames, then exit
    std::string screenshot;    // with frames: write the last frame here (PNG)
    std::string record;        // with frames: record every frame into this file (CSV recording)
    bool vsync = true;
    bool show_panel = true;
    std::optional<PanelTab> panel_tab;  // --panel-tab: the panel opens on this tab
    int width = 1280;                   // window size in screen coordinates
    int height = 720;
    // --load: continue from this checkpoint (`checkpoint` is the file, read and checked before
    // the window opens) instead of --preset/--scene; --save-every: a checkpoint every so many
    // simulated seconds.
    std::string load;
    std::shared_ptr<const sim::Checkpoint> checkpoint;
    SaveEvery save_every;
    // --video: record the scene (window_video.h); its length is video.max_frames (--frames N)
    // or video_seconds (--video-seconds S) of simulated time, then the app exits.
    WindowVideoSettings video;
    double video_seconds = 0;
};

// Default scene sizes: CUDA draws 100k particles at hundreds of frames per second; the CPU
// backend steps ~25k at an interactive rate on a few cores.
inline constexpr std::size_t kDefaultCudaParticles = 100'000;
inline constexpr std::size_t kDefaultCpuParticles = 25'000;

}  // namespace plab::app
