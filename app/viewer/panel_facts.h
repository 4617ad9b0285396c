#pragma once
// What the panel shows of the machine and the frame (app/viewer/panel.h, timing_panel.h).
#include <optional>
#include <string>

#include "sim/engine/simulator.h"

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

}  // namespace plab::app
