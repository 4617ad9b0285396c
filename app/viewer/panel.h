#pragma once
// The ImGui panel: Simulation (sliders generated from the Params table, preset, colour,
// particle count, pause / step / reset), Timing (rates, per-stage times, rolling plots,
// device facts), Optimizations (backend, interop vs host copy, CUDA kernel options), and
// Record / Compare (app/record_panel.h).
// It only edits UiState; the frame loop applies the edits.
#include <cstddef>
#include <optional>
#include <string>

#include "app/lab/recorder.h"
#include "app/viewer/frame_history.h"
#include "app/viewer/record_panel.h"
#include "app/viewer/ui_state.h"
#include "app/viewer/window_run.h"

namespace plab::app {

// Facts about the machine and the frame the panel shows but does not change.
struct PanelFacts {
    // Simulator::device_name() queries the driver or reads /proc: asked once per backend.
    std::string device_name;
    std::string gl_renderer;
    std::string gl_version;
    std::string cuda_reason;     // "" when a CUDA device is usable
    std::string interop_reason;  // "" when CUDA-GL interop works with this GL context
    bool feeding_interop = false;
    std::string feed_path = "host";  // render::feed_path_name of the last feed
    // Why the CUDA renderer asked for (the renderer variant) does not draw; "" when it does or
    // was not asked for.
    std::string renderer_reason;
    std::optional<sim::DeviceMemory> gpu_memory;
};

// Width of the panel when it first appears (screen coordinates); the layout is then kept in
// the ImGui ini file.
inline constexpr float kPanelWidth = 400.f;
inline constexpr float kPanelMargin = 10.f;

void draw_panel(UiState& ui, const sim::Run& session, const FrameHistory& history,
                const PanelFacts& facts, RecordUi& record, const Recorder& recorder);

}  // namespace plab::app
