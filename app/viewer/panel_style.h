#pragma once
// What the panel's sections share: their text colours and the tooltip on the item before.
#include <imgui.h>

#include <string>

namespace plab::app {

inline const ImVec4 kWarn{1.f, 0.8f, 0.3f, 1.f};
inline const ImVec4 kError{1.f, 0.4f, 0.35f, 1.f};
inline const ImVec4 kDim{0.65f, 0.65f, 0.7f, 1.f};

// A wrapped tooltip with `text` while the last item is hovered.
void help_marker(const std::string& text);

// A file or folder path typed into a field as wide as the rest of the row: true when the text
// was edited (then `path` holds it).
bool path_field(const char* id, const char* hint, std::string& path);

// A part's title inside a tab: a rule, then the title.
void section_title(const char* title);

// What a row keeps to the right of its widget for a label `label_width` wide: the label, the
// gap before it and the scroll bar's share, so that the label is not cut at the panel's edge.
float room_beside(float label_width);

}  // namespace plab::app
