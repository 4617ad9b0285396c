#include "app/viewer/panel_style.h"

#include <algorithm>
#include <array>
#include <cstring>

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

float room_beside(float label_width) {
    return label_width + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::GetStyle().ScrollbarSize;
}

bool path_field(const char* id, const char* hint, std::string& path) {
    // ImGui edits a fixed buffer; the path lives in a string.
    std::array<char, 1024> buffer{};
    const std::size_t n = std::min(path.size(), buffer.size() - 1);
    std::memcpy(buffer.data(), path.data(), n);
    ImGui::SetNextItemWidth(-1.f);
    if (!ImGui::InputTextWithHint(id, hint, buffer.data(), buffer.size())) return false;
    path = buffer.data();
    return true;
}

void section_title(const char* title) {
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextUnformatted(title);
}

}  // namespace plab::app
