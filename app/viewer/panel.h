#pragma once
// The ImGui panel: a status line (frame rate, step time, what runs) above seven tabs, so every
// part is one click away and none scrolls past another: Run (scene, preset, particle count,
// pause / step / reset, save and open scene files, the run's statistics), Bodies
// (app/viewer/geometry_panel.h), Parameters (app/viewer/param_panel.h),
// View, Timing (app/viewer/timing_panel.h), Optimizations (backend, interop vs host copy, the
// kernel options) and Record (recording and comparing, app/viewer/record_panel.h).
// It only edits UiState; the frame loop applies the edits.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "app/lab/recorder.h"
#include "app/viewer/frame_history.h"
#include "app/viewer/panel_facts.h"
#include "app/viewer/record_panel.h"
#include "app/viewer/ui_state.h"
#include "app/viewer/window_run.h"
#include "sim/core/enum_names.h"

namespace plab::app {

// Width of the panel when it first appears (screen coordinates); the layout is then kept in
// the ImGui ini file.
inline constexpr float kPanelWidth = 400.f;
inline constexpr float kPanelMargin = 10.f;

// run, parameters, view, timing, optimizations, record (--panel-tab).
std::span<const sim::EnumName<PanelTab>> panel_tab_names();
std::string_view panel_tab_title(PanelTab tab);

void draw_panel(UiState& ui, const sim::Run& session, const FrameHistory& history,
                const PanelFacts& facts, RecordUi& record, const Recorder& recorder);

}  // namespace plab::app
