#pragma once
// The panel's Timing tab: the frame rate, each part of a frame, the step's stages against
// their roofline floor (sim/engine/stage_bytes.h), rolling plots and the device's facts.
#include "app/viewer/frame_history.h"
#include "app/viewer/panel_facts.h"
#include "sim/run/run.h"

namespace plab::app {

void timing_section(const sim::Run& session, const FrameHistory& h, const PanelFacts& f);

}  // namespace plab::app
