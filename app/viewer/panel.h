#pragma once
// The ImGui panel: Simulation (sliders generated from the Params table, preset, colour,
// particle count, pause / step / reset), Timing (app/viewer/timing_panel.h), Optimizations
// (backend, interop vs host copy, CUDA kernel options), and Record / Compare (app/record_panel.h).
// It only edits UiState; the frame loop applies the edits.
#include <cstddef>
#include <optional>
#include <string>

#include "app/lab/recorder.h"
#include "app/viewer/frame_history.h"
#include "app/viewer/panel_facts.h"
#include "app/viewer/record_panel.h"
#include "app/viewer/ui_state.h"
#include "app/viewer/window_run.h"

namespace plab::app {

// Width of the panel when it first appears (screen coordinates); the layout is then kept in
// the ImGui ini file.
inline constexpr float kPanelWidth = 400.f;
inline constexpr float kPanelMargin = 10.f;

void draw_panel(UiState& ui, const sim::Run& session, const FrameHistory& history,
                const PanelFacts& facts, RecordUi& record, const Recorder& recorder);

}  // namespace plab::app
