#include "app/viewer/param_panel.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/viewer/panel_style.h"
#include "sim/core/format_numbers.h"
#include "sim/model/derived.h"
#include "sim/model/param_groups.h"
#include "sim/model/presets.h"

namespace plab::app {
namespace {

using sim::format_numbers;

struct SliderRange {
    float lo, hi;
    bool log;
};

// A useful slider span for each parameter: the table's limits are wide enough for every
// preset, far too wide to drag through. Ctrl+click still types any value in the table range.
SliderRange slider_range(const sim::ParamInfo& info, const sim::Params& preset,
                         const sim::Domain& domain) {
    const std::string_view name = info.name;
    const auto axis = [&](char c) {
        const float lo = c == 'x' ? domain.min.x : c == 'y' ? domain.min.y : domain.min.z;
        const float hi = c == 'x' ? domain.max.x : c == 'y' ? domain.max.y : domain.max.z;
        return SliderRange{lo, hi, false};
    };
    if (name == "collider_x") return axis('x');
    if (name == "collider_y") return axis('y');
    if (name == "collider_z") return axis('z');
    if (name == "collider_radius") {
        const sim::Vec3 size = domain.max - domain.min;
        return {0.f, 0.5f * std::min({size.x, size.y, size.z}), false};
    }
    if (name.starts_with("gravity_")) {
        const float g = std::max(sim::gravity_magnitude(preset), 1e-6f);
        return {-4.f * g, 4.f * g, false};
    }
    if (name == "global_damping") return {0.9f, 1.f, false};
    if (info.min >= -1.0 && info.max <= 1.0) {
        return {static_cast<float>(info.min), static_cast<float>(info.max), false};
    }
    // Positive quantities: logarithmic around the preset's value (attraction, often 0, takes
    // its scale from the spring).
    float reference = static_cast<float>(info.get(preset));
    if (name == "attraction" && reference == 0.f) reference = 0.2f * preset.spring;
    if (!(reference > 0.f)) reference = 1.f;
    const float lo = name == "radius" ? reference / 10.f : 0.f;
    const float hi = name == "radius" ? reference * 4.f : reference * 100.f;
    return {std::max(lo, static_cast<float>(info.min)), std::min(hi, static_cast<float>(info.max)),
            true};
}

std::string param_tooltip(const sim::ParamInfo& info) {
    std::string t = std::string(info.help) +
                    format_numbers("\nAllowed: %g .. %g ", info.min, info.max) +
                    std::string(info.unit);
    if (info.needs_reset) t += "\nTakes effect on Reset.";
    t += "\nCtrl+click to type a value.";
    return t;
}

// A parameter's label beside its widget: the name and its unit.
std::string parameter_label(const sim::ParamInfo& info) {
    return std::string(info.name) + (info.unit.empty() ? "" : " (" + std::string(info.unit) + ")");
}

// One parameter's widget: a list for a choice, a slider for a number; with its tooltip and the
// note that a reset-only edit waits for Reset.
void parameter_row(UiState& ui, const sim::Run& session, const sim::ParamInfo& info,
                   const sim::Params& preset) {
    const std::string label = parameter_label(info);
    ImGui::PushID(info.name.data(), info.name.data() + info.name.size());
    if (!info.names.empty()) {
        // A choice (contact = classic | frictional): a list of its names.
        const auto v = static_cast<std::size_t>(info.get(ui.params));
        const std::string current(v < info.names.size() ? info.names[v] : "?");
        // A value this backend cannot step with is listed greyed out, with the reason.
        std::vector<std::string> why(info.names.size());
        std::string refused;
        for (std::size_t k = 0; k < info.names.size(); ++k) {
            sim::Params candidate = ui.params;
            info.set(candidate, static_cast<double>(k));
            why[k] = session.simulator().unsupported(candidate);
            if (!why[k].empty()) refused = why[k];
        }
        if (ImGui::BeginCombo(label.c_str(), current.c_str())) {
            for (std::size_t k = 0; k < info.names.size(); ++k) {
                const std::string name(info.names[k]);
                if (ImGui::Selectable(name.c_str(), k == v,
                                      why[k].empty() ? 0 : ImGuiSelectableFlags_Disabled))
                    info.set(ui.params, static_cast<double>(k));
            }
            ImGui::EndCombo();
        }
        if (!refused.empty()) ImGui::TextWrapped("%s", refused.c_str());
    } else if (info.kind() == sim::ParamKind::Int) {
        int v = static_cast<int>(info.get(ui.params));
        if (ImGui::SliderInt(label.c_str(), &v, 1, 50)) {
            info.set(ui.params, std::clamp<double>(v, info.min, info.max));
        }
    } else {
        const SliderRange r = slider_range(info, preset, session.domain());
        float v = static_cast<float>(info.get(ui.params));
        ImGuiSliderFlags flags = ImGuiSliderFlags_NoRoundToFormat;
        if (r.log) flags |= ImGuiSliderFlags_Logarithmic;
        if (ImGui::SliderFloat(label.c_str(), &v, r.lo, r.hi, "%.4g", flags)) {
            info.set(ui.params, std::clamp<double>(v, info.min, info.max));
        }
    }
    help_marker(param_tooltip(info));
    if (info.needs_reset && info.get(ui.params) != info.get(session.params())) {
        ImGui::SameLine();
        ImGui::TextColored(kWarn, "applies on Reset");
    }
    ImGui::PopID();
}

}  // namespace

void parameters_tab(UiState& ui, const sim::Run& session) {
    ImGui::BeginDisabled(!ui.history.can_undo());
    if (ImGui::Button("Undo (Ctrl+Z)")) ui.requests.undo = true;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!ui.history.can_redo());
    if (ImGui::Button("Redo (Ctrl+Y)")) ui.requests.redo = true;
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Defaults"))
        ui.params = session.preset_defaults(session.preset(), session.particle_count());
    help_marker(
        "Undo takes back the last edit (a whole slider drag is one); Defaults puts the "
        "preset's parameters back (reset-only ones apply on Reset) and can be undone too. A "
        "new scene, preset or checkpoint starts a new history.");
    const sim::Params preset = sim::preset_params(session.preset());
    // Grouped by what the edited parameters would run: switching the contact law in the
    // Contact group moves the rows at once, before the switch is applied.
    const std::vector<sim::ParamGroupRows> groups = sim::grouped_params(ui.params);
    // The widgets take what the longest label of the rows this run reads leaves of the row.
    float widest = 0.f;
    for (const sim::ParamGroupRows& group : groups)
        for (const sim::ParamInfo* info : group.used)
            widest = std::max(widest, ImGui::CalcTextSize(parameter_label(*info).c_str()).x);
    ImGui::PushItemWidth(std::max(ImGui::GetFontSize() * 6.f,
                                  ImGui::GetContentRegionAvail().x - room_beside(widest)));
    for (const sim::ParamGroupRows& group : groups) {
        if (group.used.empty() && group.unused.empty()) continue;
        const std::string title(sim::param_group_title(group.group));
        // A group this run reads nothing of starts closed (the liquid's for grains).
        const ImGuiTreeNodeFlags open = group.used.empty() ? 0 : ImGuiTreeNodeFlags_DefaultOpen;
        if (!ImGui::CollapsingHeader(title.c_str(), open)) continue;
        ImGui::PushID(title.c_str());
        for (const sim::ParamInfo* info : group.used) parameter_row(ui, session, *info, preset);
        if (!group.unused.empty()) {
            const std::string more = std::to_string(group.unused.size()) + " not read by this run";
            if (ImGui::TreeNode(more.c_str())) {
                for (const sim::UnusedParam& u : group.unused) {
                    // Greyed but editable: a later switch of law or model reads the value.
                    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().Alpha * 0.5f);
                    parameter_row(ui, session, *u.info, preset);
                    ImGui::PopStyleVar();
                    ImGui::TextColored(kDim, "  %s", u.reason.c_str());
                }
                ImGui::TreePop();
            }
        }
        ImGui::PopID();
    }
    ImGui::PopItemWidth();
}

}  // namespace plab::app
