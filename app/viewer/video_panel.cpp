#include "app/viewer/video_panel.h"

#include <imgui.h>

#include "app/viewer/panel_style.h"

#include <string>

namespace plab::app {

void video_controls(UiState& ui) {
    if (ImGui::Button(ui.video_recording ? "Stop video" : "Record video"))
        ui.requests.toggle_video = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Records the scene (without the panel) as an MP4 movie at the simulation's speed: "
            "a frame each 1/fps simulated seconds, encoded on its own thread. Stopping, Esc or "
            "closing the window finish the file.");
    ImGui::SameLine();
    // The movie being written keeps its name until it is finished.
    std::string edited = ui.video_path;
    if (path_field("##video_path", "movie file (.mp4)", edited) && !ui.video_recording)
        ui.video_path = edited;
    if (!ui.video_status.empty()) ImGui::TextUnformatted(ui.video_status.c_str());
}

}  // namespace plab::app
