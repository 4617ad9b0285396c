#include "app/viewer/checkpoint_panel.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace plab::app {

void checkpoint_controls(UiState& ui) {
    if (ImGui::Button("Save (F5)")) ui.requests.save_checkpoint = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Writes the whole state (particles, parameters, variants, simulated time) to the "
            "checkpoint file; Load continues from it exactly where it was.");
    ImGui::SameLine();
    if (ImGui::Button("Load (F9)")) ui.requests.load_checkpoint = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Continues from the checkpoint file; a bad file leaves the run as it is.");
    ImGui::SameLine();
    // ImGui edits a fixed buffer; the path lives in UiState as a string.
    std::array<char, 1024> buffer{};
    const std::size_t n = std::min(ui.checkpoint_path.size(), buffer.size() - 1);
    std::memcpy(buffer.data(), ui.checkpoint_path.data(), n);
    ImGui::SetNextItemWidth(-1.f);
    if (ImGui::InputTextWithHint("##checkpoint_path", "checkpoint file", buffer.data(),
                                 buffer.size()))
        ui.checkpoint_path = buffer.data();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Checkpoint file (.plab), relative to the working directory; its folder is created "
            "when missing.");
}

}  // namespace plab::app
