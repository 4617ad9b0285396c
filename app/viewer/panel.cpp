#include "app/viewer/panel.h"

#include "app/viewer/checkpoint_panel.h"
#include "app/viewer/export_panel.h"
#include "app/viewer/geometry_panel.h"
#include "app/viewer/panel_style.h"
#include "app/viewer/param_panel.h"
#include "app/viewer/scene_file_panel.h"
#include "app/viewer/timing_panel.h"
#include "app/viewer/video_panel.h"
#include "sim/core/format_numbers.h"
#include "sim/model/derived.h"
#include "sim/model/presets.h"
#include "sim/model/variants.h"
#include "sim/physics/sph_kernel.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plab::app {
namespace {

using sim::format_numbers;

// Density error, fastest particle and the Courant number, with the CFL limit on dt and a
// warning when the step is above it.
void sph_stats_line(const UiState& ui, const sim::Run& session) {
    const sim::SimStats& st = ui.stats;
    const sim::Params& p = ui.params;
    const double rho0 = p.rest_density;
    ImGui::Text("density error  min %+.2f%%  max %+.2f%%  mean %+.2f%%",
                100.0 * (st.density_min / rho0 - 1.0), 100.0 * (st.density_max / rho0 - 1.0),
                100.0 * (st.density_mean / rho0 - 1.0));
    help_marker(
        "Summation density against the rest density. The minimum is at the free surface, "
        "where particles lack neighbours (no pressure there); the maximum and the mean show "
        "the compression: keep it within 1% by raising sound_speed.");
    const float courant = sim::sph_courant_number(p, st.max_speed);
    const float limit = sim::sph_max_dt(p, st.max_speed);
    ImGui::Text("max speed %.3g m/s   CFL number %.3f", st.max_speed, courant);
    ImGui::Text("dt limit %.3g s (dt %.3g s)", limit, p.dt);
    help_marker("CFL number = dt (c + v_max) / h; the step is stable up to 0.25.");
    if (p.dt > limit)
        ImGui::TextColored(kWarn, "dt %.3g s is above the CFL limit %.3g s: lower dt", p.dt, limit);
    (void)session;
}

// The frictional law's contacts: how many a particle touches and how many of them slide.
void friction_stats_line(const sim::FrictionStats& f) {
    const double per = double(f.contacts) / double(f.particles);
    const double sliding = f.contacts > 0 ? 100.0 * double(f.sliding) / double(f.contacts) : 0.0;
    ImGui::Text("contacts %.2f a particle   sliding %.1f%%", per, sliding);
    help_marker(
        "Contacts with particles, walls and the collider at the last step, and the share at "
        "the Coulomb limit (friction x normal force). A pile at rest slides little; a flow "
        "slides much.");
    if (f.slotless > 0)
        ImGui::TextColored(kWarn, "%zu particles had more contacts than memory slots", f.slotless);
}

// The Run tab's top: scene, preset, particle count, the sources' tally, pause / step / reset
// and the export, checkpoint and video buttons.
void run_controls(UiState& ui, const sim::Run& session) {
    if (!ui.scenes.empty()) {
        const auto& file = session.scene_file();
        const std::string current = file ? file->name : std::string("(preset's own scene)");
        if (ImGui::BeginCombo("scene", current.c_str())) {
            for (std::size_t i = 0; i < ui.scenes.size(); ++i) {
                const std::string name = std::filesystem::path(ui.scenes[i]).stem().string();
                if (ImGui::Selectable(name.c_str(), static_cast<int>(i) == ui.scene_index)) {
                    ui.scene_index = static_cast<int>(i);
                    ui.requests.scene = ui.scenes[i];
                }
            }
            ImGui::EndCombo();
        }
        help_marker(file && !file->description.empty()
                        ? file->description + "\n[ and ] cycle the scenes."
                        : std::string("Scene files from assets/scenes; [ and ] cycle them."));
    }

    const sim::Preset preset = session.preset();
    if (ImGui::BeginCombo("preset", std::string(sim::preset_name(preset)).c_str())) {
        for (const auto& row : sim::preset_names())
            if (ImGui::Selectable(std::string(row.name).c_str(), row.value == preset))
                ui.requests.preset = row.value;
        ImGui::EndCombo();
    }
    help_marker(
        "classic: the units of NVIDIA's CUDA particles sample.\n"
        "granular: 5 mm glass beads in SI units.\n"
        "water: an SPH liquid, a dam break in a tank.\nSwitching restarts the scene.");

    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.f);
    ImGui::InputInt("##particles", &ui.particles_field, 1000, 10000);
    ui.particles_field = std::max(ui.particles_field, 1);
    ImGui::SameLine();
    if (ImGui::Button("Apply count")) {
        ui.requests.particles = static_cast<std::size_t>(ui.particles_field);
    }
    ImGui::SameLine();
    ImGui::Text("running: %zu", session.particle_count());
    help_marker(
        "Re-allocates and restarts. A count that does not fit is refused and the "
        "current run continues.");
    if (const sim::SourceProgress& src = session.source_progress();
        !src.emitted.empty() || src.sunk > 0) {
        std::uint64_t owed = 0;
        for (const std::uint64_t e : src.emitted) owed += e;
        const std::uint64_t laid = owed - std::min(owed, src.blocked + src.capped);
        ImGui::Text("emitters laid %llu, sinks took %llu", static_cast<unsigned long long>(laid),
                    static_cast<unsigned long long>(src.sunk));
        help_marker(
            "The scene file's emitters and sinks, applied between steps. Not laid: face points "
            "a particle still held, or the run was at max_particles.");
    }

    if (ImGui::Button(ui.paused ? "Resume (space)" : "Pause (space)")) ui.paused = !ui.paused;
    ImGui::SameLine();
    if (ImGui::Button("Step (.)")) ui.requests.step_once = true;
    ImGui::SameLine();
    if (ImGui::Button("Reset (R)")) ui.requests.reset = true;
    export_controls(ui, session);
    checkpoint_controls(ui);
    scene_file_controls(ui);
    video_controls(ui);
}

// The running model's statistics, only once read from this run: a scene, preset or backend
// change leaves none on show until the next read-back.
void run_stats(const UiState& ui, const sim::Run& session) {
    if (ui.stats_start != session.starts()) {
        ImGui::TextColored(kDim, "statistics: reading this run's first ...");
        return;
    }
    if (session.params().model == sim::Model::Sph) sph_stats_line(ui, session);
    if (sim::runs_frictional_law(session.params()) && ui.friction.active &&
        ui.friction.particles > 0)
        friction_stats_line(ui.friction);
}

void view_section(UiState& ui, const FrameHistory& h) {
    ImGui::TextUnformatted("colour");
    for (const auto& row : sim::color_mode_names()) {
        ImGui::SameLine();
        // A map with nothing to show of this run (spin without the frictional law) is greyed,
        // with the reason on hover; still enabled while chosen, so the note below explains.
        const std::string note = sim::color_mode_note(row.value, ui.params);
        ImGui::BeginDisabled(!note.empty() && ui.view.color != row.value);
        if (ImGui::RadioButton(std::string(row.name).c_str(), ui.view.color == row.value))
            ui.view.color = row.value;
        ImGui::EndDisabled();
        if (!note.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("No rotation to show: %s.", note.c_str());
    }
    if (ui.view.color == sim::ColorMode::Spin) {
        const std::string note = sim::color_mode_note(ui.view.color, ui.params);
        if (!note.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.f, 0.75f, 0.3f, 1.f));
            ImGui::TextWrapped("No rotation to show, particles drawn grey: %s.", note.c_str());
            ImGui::PopStyleColor();
        } else {
            ImGui::SliderFloat("spin scale (rad/s)", &ui.view.spin_scale, 1e-2f, 1e5f, "%.3g",
                               ImGuiSliderFlags_Logarithmic);
            help_marker("The angular speed |omega| shown red; blue is not rotating.");
        }
    }
    if (ui.view.color == sim::ColorMode::Density) {
        float percent = 100.f * ui.view.density_span;
        if (ImGui::SliderFloat("density span (%)", &percent, 0.01f, 50.f, "%.2f",
                               ImGuiSliderFlags_Logarithmic))
            ui.view.density_span = percent / 100.f;
        help_marker("Blue is rest density minus this, red plus this (SPH; DEM shows blue).");
    }
    if (ui.view.color == sim::ColorMode::Pressure) {
        ImGui::Checkbox("auto##pressure", &ui.view.auto_pressure_scale);
        ImGui::SameLine();
        ImGui::BeginDisabled(ui.view.auto_pressure_scale);
        ImGui::SliderFloat("pressure scale (Pa)", &ui.view.pressure_scale, 1.f, 1e7f, "%.3g",
                           ImGuiSliderFlags_Logarithmic);
        ImGui::EndDisabled();
        help_marker(
            "The pressure shown red. Auto: the hydrostatic pressure at the bottom of "
            "the domain.");
    }
    if (ui.view.color == sim::ColorMode::Speed) {
        ImGui::Checkbox("auto", &ui.view.auto_speed_scale);
        ImGui::SameLine();
        ImGui::BeginDisabled(ui.view.auto_speed_scale);
        ImGui::SliderFloat("speed scale (m/s)", &ui.view.speed_scale, 1e-5f, 100.f, "%.3g",
                           ImGuiSliderFlags_Logarithmic);
        ImGui::EndDisabled();
        help_marker("The speed shown red. Auto follows the fastest particle.");
    }
    ImGui::Checkbox("box", &ui.view.show_box);
    ImGui::SameLine();
    ImGui::Checkbox("collider", &ui.view.show_collider);
    ImGui::SameLine();
    ImGui::Checkbox("bodies", &ui.view.show_bodies);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.f);
    int look = static_cast<int>(ui.view.look);
    const char* looks[] = {"data", "material"};
    if (ImGui::Combo("look", &look, looks, 2)) ui.view.look = static_cast<render::Look>(look);
    help_marker(
        "data: the colour maps. material: the liquid as a surface (Fresnel reflection of the "
        "sky, refraction absorbed through its thickness, spray where it is thin) or the grains "
        "shaded with ambient occlusion and a sun's shadow. Drawn by the CUDA renderer; the GL "
        "renderer keeps the data look.");
    if (ui.view.look == render::Look::Material && !h.cuda_renderer) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ImGui::TextWrapped(
            "The GL renderer draws the data look: the material look needs the "
            "CUDA renderer (Optimizations: renderer cuda).");
        ImGui::PopStyleColor();
    }
    ImGui::Checkbox("vsync (V)", &ui.vsync);
    help_marker("Frame rates only mean something with vsync off.");
}

void optimizations_section(UiState& ui, const sim::Run& session, const PanelFacts& f) {
    const bool cuda_running = session.backend() == sim::Backend::Cuda;
    int backend = cuda_running ? 1 : 0;
    ImGui::TextUnformatted("backend");
    ImGui::SameLine();
    if (ImGui::RadioButton("CPU", &backend, 0) && cuda_running) {
        ui.requests.backend = sim::Backend::Cpu;
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(!f.cuda_reason.empty());
    if (ImGui::RadioButton("CUDA", &backend, 1) && !cuda_running) {
        ui.requests.backend = sim::Backend::Cuda;
    }
    ImGui::EndDisabled();
    if (!f.cuda_reason.empty()) ImGui::TextWrapped("CUDA unavailable: %s", f.cuda_reason.c_str());

    ImGui::BeginDisabled(!cuda_running || !f.interop_reason.empty());
    ImGui::Checkbox("CUDA-GL interop (off: host round trip)", &ui.use_interop);
    ImGui::EndDisabled();
    ImGui::BeginDisabled(!cuda_running);
    static constexpr std::array<render::FeedPath, 3> kHostPaths{
        render::FeedPath::HostCopy, render::FeedPath::PinnedCopy, render::FeedPath::PinnedAsync};
    int host = static_cast<int>(std::find(kHostPaths.begin(), kHostPaths.end(), ui.host_path) -
                                kHostPaths.begin());
    if (ImGui::Combo("host copy", &host, "pageable\0page-locked\0page-locked, async\0"))
        ui.host_path = kHostPaths[static_cast<std::size_t>(host)];
    ImGui::EndDisabled();
    help_marker(
        "How the host round trip copies. Pageable: through the driver's bounce buffer. "
        "Page-locked: at full bus speed, waited for. Page-locked, async: copied on a "
        "second CUDA stream while the next step runs, so the frame shows the previous "
        "step's particles (one frame of latency).");
    if (!f.interop_reason.empty()) {
        ImGui::TextWrapped("Interop unavailable, host copy in use: %s", f.interop_reason.c_str());
    } else if (cuda_running) {
        ImGui::TextColored(
            kDim, "in use: %s",
            f.feeding_interop ? "interop (no host copy)" : ("host copy, " + f.feed_path).c_str());
    }

    // One widget per row of the variant table: a combo for a number, a checkbox for a switch.
    // Rows the running backend or model has no form of are greyed out, with the reason.
    const sim::ResolvedOptions& running = session.simulator().effective_options();
    const sim::Model model = session.params().model;
    for (const sim::VariantInfo& v : sim::variant_table()) {
        const bool here = (v.backends & (cuda_running ? sim::kOnCuda : sim::kOnCpu)) != 0 &&
                          sim::applies_to(v.models, model);
        ImGui::BeginDisabled(!here);
        if (v.is_switch()) {
            bool on = v.get(ui.options) != 0;
            if (ImGui::Checkbox(std::string(v.label).c_str(), &on)) {
                v.set(ui.options, on ? "on" : "off");
                ui.requests.options_changed = true;
            }
        } else {
            // Named values (the renderer) show their names; threads/particle 0 is "auto".
            const int now = v.get(ui.options);
            const bool autos = v.name == "threads_per_particle";
            const std::string preview =
                now == 0 && autos ? std::string("auto") : v.text(ui.options);
            if (ImGui::BeginCombo(std::string(v.label).c_str(), preview.c_str())) {
                const std::vector<std::string> texts = v.value_texts();
                for (std::size_t i = 0; i < texts.size() && i < v.choices.size(); ++i) {
                    const int choice = v.choices[i];
                    const std::string shown = choice == 0 && autos ? "auto" : texts[i];
                    if (ImGui::Selectable(shown.c_str(), choice == now)) {
                        v.set(ui.options, texts[i]);
                        ui.requests.options_changed = true;
                    }
                }
                ImGui::EndCombo();
            }
        }
        ImGui::EndDisabled();
        const sim::OptionNote* note = running.note(v.name);
        help_marker(std::string(v.help) + (note ? "\n\nNow: " + note->reason + "." : ""));
        if (v.name == "renderer" && !f.renderer_reason.empty())
            ImGui::TextWrapped("GL sprites in use: %s", f.renderer_reason.c_str());
    }
    // Requested options the simulator could not apply, and why (never silently).
    const std::string notes = session.simulator().option_notes();
    if (!notes.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ImGui::TextWrapped("%s", notes.c_str());
        ImGui::PopStyleColor();
    }
}

void help_section() {
    section_title("Keys and mouse");
    ImGui::TextUnformatted(
        "space pause   . step   R reset   V vsync   [ ] scenes\n"
        "F1 hide panel   F12 screenshot   Esc quit\n"
        "Ctrl+Z undo   Ctrl+Y redo   Ctrl+S save scene\n"
        "click a body: select it   Alt+left-drag move it\n"
        "Alt+right-drag turn it   Alt+wheel scale it\n"
        "B brush: off, spray, erase, grab\n"
        "left-drag orbit   right-drag pan   wheel zoom\n"
        "double-click frame the box\n"
        "shift+left-drag move the collider");
}

// Always in view above the tabs: what runs and how fast, so a slider's effect on the frame
// rate shows from any tab.
void status_line(const sim::Run& session, const FrameHistory& h) {
    const float frame = h.frame_ms.mean();
    ImGui::Text("%.0f FPS  frame %.2f ms  step %.3f ms", frame > 0.f ? 1000.f / frame : 0.f, frame,
                h.sim_ms.last());
    ImGui::TextColored(
        kDim, "%s, %s, %zu particles, t = %.3g s",
        std::string(sim::preset_name(session.preset())).c_str(),
        session.params().model == sim::Model::Sph
            ? "SPH liquid"
            : (sim::runs_frictional_law(session.params()) ? "DEM frictional" : "DEM classic"),
        session.particle_count(), session.time());
}

}  // namespace

std::span<const sim::EnumName<PanelTab>> panel_tab_names() {
    static constexpr sim::EnumName<PanelTab> kNames[] = {
        {PanelTab::Run, "run"},       {PanelTab::Parameters, "parameters"},
        {PanelTab::Bodies, "bodies"}, {PanelTab::View, "view"},
        {PanelTab::Timing, "timing"}, {PanelTab::Optimizations, "optimizations"},
        {PanelTab::Record, "record"}};
    return kNames;
}

std::string_view panel_tab_title(PanelTab tab) {
    switch (tab) {
        case PanelTab::Run:
            return "Run";
        case PanelTab::Parameters:
            return "Params";
        case PanelTab::Bodies:
            return "Bodies";
        case PanelTab::View:
            return "View";
        case PanelTab::Timing:
            return "Timing";
        case PanelTab::Optimizations:
            return "Optimize";
        case PanelTab::Record:
            return "Record";
    }
    return "?";
}

void draw_panel(UiState& ui, const sim::Run& session, const FrameHistory& history,
                const PanelFacts& facts, RecordUi& record, const Recorder& recorder) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(
        ImVec2(viewport->WorkPos.x + kPanelMargin, viewport->WorkPos.y + kPanelMargin),
        ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(kPanelWidth, viewport->WorkSize.y - 2.f * kPanelMargin),
                             ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Particle Lab")) {
        ui.panel_right = 0.f;  // collapsed to its title bar
        ImGui::End();
        return;
    }
    const ImVec2 pos = ImGui::GetWindowPos();
    const bool at_left = pos.x - viewport->WorkPos.x <= 2.f * kPanelMargin;
    ui.panel_right = at_left ? pos.x - viewport->WorkPos.x + ImGui::GetWindowSize().x : 0.f;
    if (session.backend() == sim::Backend::Cpu) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        if (session.fallback().empty()) {
            ImGui::TextWrapped("CPU backend (as asked).");
        } else {
            ImGui::TextWrapped(
                "CPU backend: CUDA is not in use because %s. Scenes run smaller "
                "here (%zu particles by default).",
                session.fallback().c_str(), default_particles(sim::Backend::Cpu));
        }
        ImGui::PopStyleColor();
    }
    if (!ui.message.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui.message_is_error ? kError : kWarn);
        ImGui::TextWrapped("%s", ui.message.c_str());
        ImGui::PopStyleColor();
        if (ImGui::SmallButton("dismiss")) ui.message.clear();
    }
    // The start-up checks (sim/model/run_checks.h) stay on show while they hold.
    for (const sim::RunWarning& w : session.warnings()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ImGui::TextWrapped("Warning: %s", w.text.c_str());
        ImGui::PopStyleColor();
    }
    status_line(session, history);
    // The longest widget label of the tabs but Parameters (which sizes its own): the step
    // variants' and the brush's.
    float widest_label = ImGui::CalcTextSize("brush radius (radii)").x;
    for (const sim::VariantInfo& v : sim::variant_table())
        widest_label = std::max(widest_label, ImGui::CalcTextSize(std::string(v.label).c_str()).x);
    if (ImGui::BeginTabBar("sections")) {
        const std::optional<PanelTab> open = std::exchange(ui.open_tab, std::nullopt);
        auto tab = [&](PanelTab which, auto&& draw) {
            const std::string label(panel_tab_title(which));
            const ImGuiTabItemFlags flags = open == which ? ImGuiTabItemFlags_SetSelected : 0;
            if (!ImGui::BeginTabItem(label.c_str(), nullptr, flags)) return;
            // Each tab scrolls on its own; the status line and the tabs stay in view.
            ImGui::BeginChild("tab");
            // A child window starts its own item widths (65% of its width): here the widgets
            // end where the longest label outside the Parameters tab still fits beside them.
            ImGui::PushItemWidth(-room_beside(widest_label));
            draw();
            ImGui::PopItemWidth();
            ImGui::EndChild();
            ImGui::EndTabItem();
        };
        tab(PanelTab::Run, [&] {
            run_controls(ui, session);
            ImGui::Separator();
            run_stats(ui, session);
            help_section();
        });
        tab(PanelTab::Parameters, [&] { parameters_tab(ui, session); });
        tab(PanelTab::Bodies, [&] { bodies_tab(ui, session); });
        tab(PanelTab::View, [&] { view_section(ui, history); });
        tab(PanelTab::Timing, [&] { timing_section(session, history, facts); });
        tab(PanelTab::Optimizations, [&] { optimizations_section(ui, session, facts); });
        tab(PanelTab::Record, [&] {
            draw_record_section(record, recorder);
            draw_compare_section(record);
        });
        ImGui::EndTabBar();
    }
    ImGui::End();
}

}  // namespace plab::app
