#include "app/viewer/checkpoint_panel.h"

#include <imgui.h>

#include "app/viewer/panel_style.h"

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
    path_field("##checkpoint_path", "checkpoint file", ui.checkpoint_path);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Checkpoint file (.plab), relative to the working directory; its folder is created "
            "when missing.");
}

}  // namespace plab::app
