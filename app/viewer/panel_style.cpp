#include "app/viewer/panel_style.h"

namespace plab::app {

void help_marker(const std::string& text) {
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.f);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void section_title(const char* title) {
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextUnformatted(title);
}

}  // namespace plab::app
