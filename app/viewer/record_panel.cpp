#include "app/viewer/record_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "app/lab/local_time.h"
#include "app/lab/output_file.h"
#include "app/viewer/panel_style.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"

namespace plab::app {
namespace {

using sim::format_numbers;

const ImVec4 kChanged{1.f, 0.8f, 0.3f, 1.f};     // a differing configuration value
const ImVec4 kFaster{0.45f, 0.85f, 0.45f, 1.f};  // ratio of a time below 1
const ImVec4 kSlower{1.f, 0.55f, 0.45f, 1.f};

std::string stamp() { return local_timestamp(); }

// Writes the current comparison next to the recordings; returns the path written.
std::filesystem::path export_comparison(const RecordUi& ui, bool markdown) {
    const std::filesystem::path folder = expand_home(ui.folder);
    make_folder(folder);
    const std::filesystem::path path =
        folder / ("comparison-" + stamp() + (markdown ? ".md" : ".csv"));
    write_whole_file(
        path, markdown ? comparison_markdown(*ui.comparison) : comparison_csv(*ui.comparison));
    return path;
}

void refresh_comparison(RecordUi& ui) {
    std::vector<std::size_t> ticked;
    for (std::size_t i = 0; i < ui.recordings.size(); ++i)
        if (ui.recordings[i].ticked) ticked.push_back(i);
    if (ticked == ui.compared && (ui.comparison || ticked.size() < 2)) return;
    ui.compared = ticked;
    ui.comparison.reset();
    if (ticked.size() < 2) return;
    std::vector<const Recording*> recs;
    std::vector<std::string> names;
    for (std::size_t i : ticked) {
        recs.push_back(&ui.recordings[i].recording);
        names.push_back(ui.recordings[i].name);
    }
    try {
        ui.comparison = compare(recs, names);
    } catch (const std::exception& e) {
        ui.say(std::string("Cannot compare: ") + e.what(), true);
    }
}

void ratio_text(double ratio, bool time) {
    if (!std::isfinite(ratio)) return;
    ImGui::SameLine();
    // For a time below 1 is better; for FPS above 1.
    const bool better = time ? ratio < 0.995 : ratio > 1.005;
    const bool worse = time ? ratio > 1.005 : ratio < 0.995;
    ImGui::TextColored(better ? kFaster : worse ? kSlower : kDim, "%.2fx", ratio);
}

// A scrolling table fills the window unless told its height: `rows` lines (the header
// included) and the horizontal scrollbar.
float table_height(std::size_t rows) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float row = ImGui::GetTextLineHeight() + 2.f * style.CellPadding.y;
    return row * static_cast<float>(rows) + style.ScrollbarSize + 2.f * style.CellPadding.y;
}

void metrics_table(const Comparison& c) {
    const int columns = static_cast<int>(c.names.size()) + 1;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    const ImVec2 size(0.f, table_height(c.metrics.size() + 2));
    if (!ImGui::BeginTable("metrics", columns, flags, size)) return;
    ImGui::TableSetupColumn("metric");
    for (std::size_t i = 0; i < c.names.size(); ++i)
        ImGui::TableSetupColumn(i == 0 ? ("baseline: " + c.names[i]).c_str() : c.names[i].c_str());
    ImGui::TableHeadersRow();
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("frames");
    for (std::size_t n : c.frames) {
        ImGui::TableNextColumn();
        ImGui::Text("%zu", n);
    }
    for (const Metric& m : c.metrics) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(m.name.c_str());
        const bool time = m.name != "FPS";
        for (std::size_t i = 0; i < m.values.size(); ++i) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_numbers(time ? "%.3f" : "%.1f", m.values[i]).c_str());
            if (i > 0) ratio_text(m.ratios[i], time);
        }
    }
    ImGui::EndTable();
}

// Median frame time per recording as bars on one scale (the longest p95 fills a bar).
void frame_time_bars(const Comparison& c) {
    const Metric& median = c.metrics[0];  // compare() puts the frame-time median first
    const Metric& p5 = c.metrics[1];
    const Metric& p95 = c.metrics[2];
    double longest = 0;
    for (double v : p95.values) longest = std::max(longest, v);
    if (!(longest > 0)) return;
    for (std::size_t i = 0; i < c.names.size(); ++i) {
        const std::string label = format_numbers("%.2f ms", median.values[i]);
        ImGui::ProgressBar(static_cast<float>(median.values[i] / longest),
                           ImVec2(ImGui::GetFontSize() * 10.f, 0.f), label.c_str());
        ImGui::SameLine();
        ImGui::Text("%s (p5 %.2f, p95 %.2f)", c.names[i].c_str(), p5.values[i], p95.values[i]);
    }
}

void differences_table(const Comparison& c) {
    if (c.differences.empty()) {
        ImGui::TextColored(kDim, "The configurations are identical.");
        return;
    }
    ImGui::TextUnformatted("Configuration that differs:");
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    const ImVec2 size(0.f, table_height(c.differences.size() + 1));
    if (!ImGui::BeginTable("differences", static_cast<int>(c.names.size()) + 1, flags, size))
        return;
    ImGui::TableSetupColumn("key");
    for (const auto& n : c.names) ImGui::TableSetupColumn(n.c_str());
    ImGui::TableHeadersRow();
    for (const ConfigDifference& d : c.differences) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(kChanged, "%s", d.key.c_str());
        for (std::size_t i = 0; i < d.values.size(); ++i) {
            ImGui::TableNextColumn();
            const bool differs = d.values[i] != d.values.front();
            ImGui::TextColored(differs ? kChanged : kDim, "%s", d.values[i].c_str());
        }
    }
    ImGui::EndTable();
}

void message_line(const RecordUi& ui) {
    if (ui.message.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ui.message_is_error ? kError : kDim);
    ImGui::TextWrapped("%s", ui.message.c_str());
    ImGui::PopStyleColor();
}

}  // namespace

void load_into_list(RecordUi& ui, const std::filesystem::path& path) {
    try {
        ListedRecording item;
        item.recording = read_recording(path);
        item.path = path;
        item.name = path.filename().string();
        item.ticked = true;
        ui.recordings.push_back(std::move(item));
        ui.say("Loaded " + path.string());
    } catch (const std::exception& e) {
        ui.say(e.what(), true);
    }
}

void draw_record_section(RecordUi& ui, const Recorder& recorder) {
    if (!ImGui::CollapsingHeader("Record")) return;
    ImGui::InputText("folder", &ui.folder);
    if (recorder.active()) {
        const std::size_t n = recorder.recorded();
        if (recorder.target() > 0) {
            const std::string label =
                std::to_string(n) + " / " + std::to_string(recorder.target()) + " frames";
            ImGui::ProgressBar(static_cast<float>(n) / static_cast<float>(recorder.target()),
                               ImVec2(-1.f, 0.f), label.c_str());
        } else {
            const std::string label = std::to_string(n) + " frames (until stopped)";
            ImGui::ProgressBar(0.f, ImVec2(-1.f, 0.f), label.c_str());
        }
        if (ImGui::Button("Stop and save")) ui.stop_requested = true;
    } else {
        ImGui::BeginDisabled(ui.until_stopped);
        ImGui::InputInt("frames", &ui.frames, 100, 1000);
        ImGui::EndDisabled();
        ui.frames = std::max(ui.frames, 1);
        ImGui::SameLine();
        ImGui::Checkbox("until stopped", &ui.until_stopped);
        if (ImGui::Button("Record")) ui.start_requested = true;
        ImGui::SameLine();
        ImGui::TextColored(kDim, "vsync off gives frame times that mean something");
    }
    message_line(ui);
}

void draw_compare_section(RecordUi& ui) {
    if (!ImGui::CollapsingHeader("Compare")) return;
    ImGui::InputText("##load", &ui.load_path);
    ImGui::SameLine();
    if (ImGui::Button("Load") && !ui.load_path.empty())
        load_into_list(ui, expand_home(ui.load_path));
    if (ui.recordings.empty()) {
        ImGui::TextColored(kDim, "Record a run, or load a recording's CSV by path.");
        message_line(ui);
        return;
    }
    for (std::size_t i = 0; i < ui.recordings.size(); ++i) {
        ListedRecording& r = ui.recordings[i];
        ImGui::PushID(static_cast<int>(i));
        ImGui::Checkbox(r.name.c_str(), &r.ticked);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.path.string().c_str());
        ImGui::SameLine();
        ImGui::TextColored(kDim, "%zu frames", r.recording.frames.size());
        ImGui::PopID();
    }
    refresh_comparison(ui);
    if (!ui.comparison) {
        ImGui::TextColored(kDim, "Tick two or more; the first ticked is the baseline.");
        message_line(ui);
        return;
    }
    frame_time_bars(*ui.comparison);
    metrics_table(*ui.comparison);
    differences_table(*ui.comparison);
    for (const bool markdown : {true, false}) {
        if (ImGui::Button(markdown ? "Export Markdown" : "Export CSV")) {
            try {
                ui.say("Wrote " + export_comparison(ui, markdown).string());
            } catch (const std::exception& e) {
                ui.say(e.what(), true);
            }
        }
        if (markdown) ImGui::SameLine();
    }
    message_line(ui);
}

}  // namespace plab::app
