#include "app/viewer/video_panel.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstring>

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
    std::array<char, 1024> buffer{};
    const std::size_t n = std::min(ui.video_path.size(), buffer.size() - 1);
    std::memcpy(buffer.data(), ui.video_path.data(), n);
    ImGui::SetNextItemWidth(-1.f);
    if (ImGui::InputTextWithHint("##video_path", "movie file (.mp4)", buffer.data(),
                                 buffer.size()) &&
        !ui.video_recording)
        ui.video_path = buffer.data();
    if (!ui.video_status.empty()) ImGui::TextUnformatted(ui.video_status.c_str());
}

}  // namespace plab::app
