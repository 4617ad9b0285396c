#include "app/viewer/scene_file_panel.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/viewer/panel_style.h"

namespace plab::app {

void scene_file_controls(UiState& ui) {
    if (ImGui::Button("Save scene (Ctrl+S)")) ui.requests.save_scene = true;
    help_marker(
        "Writes the running scene as a scene file: its preset and the parameters as they are "
        "now, the particle blocks (or the preset's scene at this count), the bodies with their "
        "spins, the emitters and sinks, and this view. Opening it starts the same scene.");
    ImGui::SameLine();
    if (ImGui::Button("Open")) {
        ui.requests.scene = ui.scene_path;
        const auto it = std::find(ui.scenes.begin(), ui.scenes.end(), ui.scene_path);
        ui.scene_index = it == ui.scenes.end() ? -1 : static_cast<int>(it - ui.scenes.begin());
    }
    help_marker("Starts the scene file named in the field (a bad file leaves the run as it is).");
    ImGui::SameLine();
    path_field("##scene_path", "scene file (.json)", ui.scene_path);
    help_marker(
        "Scene file (.json), relative to the working directory; its folder is created when "
        "missing. A mesh it uses is named relative to it.");
    ImGui::Checkbox("save the particles too", &ui.scene_with_particles);
    help_marker(
        "Also writes the particles as they are now into a checkpoint beside the scene file "
        "(the same name, .plab); Load (F9) or --load continues from them, the scene file "
        "starts the scene afresh.");
}

}  // namespace plab::app
