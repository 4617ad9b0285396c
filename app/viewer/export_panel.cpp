#include "app/viewer/export_panel.h"

#include <imgui.h>

#include "app/viewer/panel_style.h"

#include <string>

namespace plab::app {

void export_controls(UiState& ui, const sim::Run& session) {
    ImGui::Text("simulated time %.6g s", session.time());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Steps run since the last reset × dt; Reset sets it back to 0.");

    if (ImGui::Button("Export")) ui.requests.export_frame = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Writes the particles now (positions, velocities; density and pressure for SPH) "
            "with the simulated time as frame_NNNNNN.vtk and .csv, and lists the frame in "
            "particles.vtk.series: open that in ParaView.");
    ImGui::SameLine();
    // ImGui edits a fixed buffer; the folder lives in UiState as a string.
    path_field("##export_folder", "folder", ui.export_folder);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Folder for exported frames, relative to the working directory; "
            "created when missing.");
}

}  // namespace plab::app
