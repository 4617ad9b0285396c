#include "app/viewer/timing_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "app/viewer/panel_style.h"
#include "sim/core/format_numbers.h"
#include "sim/physics/cluster_pairs.h"
#include "sim/run/make_simulator.h"

namespace plab::app {
namespace {

using sim::format_numbers;

void plot(const char* label, const Series& s, const char* unit) {
    const std::string overlay =
        format_numbers("%.2f ", s.last()) + unit + format_numbers(" (max %.2f)", s.max());
    ImGui::PlotLines(label, s.values(), Series::kLength, s.offset(), overlay.c_str(), 0.f,
                     std::max(s.max() * 1.1f, 1e-3f), ImVec2(0, ImGui::GetFontSize() * 3.f));
}

std::string mib(std::size_t bytes) {
    return format_numbers("%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

// How far above its floor each stage runs: its time over the time its least bytes
// (sim/engine/stage_bytes.h) take at the device's copy rate, measured once.
void roofline_line(const sim::Run& session, const FrameHistory& h) {
    const sim::Simulator& s = session.simulator();
    const sim::MemoryRates rates = sim::measure_memory_rates(s.backend());
    if (!(rates.copy_bytes_per_s > 0)) return;
    const sim::StageBytes b =
        sim::stage_bytes(session.params(), s.effective_options().effective, s.particle_count(),
                         session.grid().num_cells(), h.integrate_fused);
    auto times = [&](double ms, double bytes) { return sim::floor_ratio(ms, bytes, rates); };
    ImGui::TextColored(kDim, "  x floor: grid %.1f  reorder %.1f  forces %.1f  integrate %.1f",
                       times(h.grid_ms, b.grid), times(h.reorder_ms, b.reorder),
                       times(h.forces_ms, b.forces), times(h.integrate_ms, b.integrate));
    help_marker(
        "Each stage's time over its floor: the time the least bytes it must move take "
        "at the copy rate, " +
        sim::rate_text(rates.copy_bytes_per_s) + " (" + rates.how +
        format_numbers("). Floor bytes a step: grid %.1f MB, reorder %.1f MB, forces "
                       "%.1f MB, integrate %.1f MB (a model: every neighbour's read "
                       "served by the cache; sim/engine/stage_bytes.h).",
                       b.grid * 1e-6, b.reorder * 1e-6, b.forces * 1e-6, b.integrate * 1e-6));
}

}  // namespace

void timing_section(const sim::Run& session, const FrameHistory& h, const PanelFacts& f) {
    // The lines of numbers wrap at the panel's edge rather than being cut there.
    ImGui::PushTextWrapPos(0.f);
    const float frame = h.frame_ms.mean();
    ImGui::Text("%.1f FPS   frame %.2f ms (mean of %d)", frame > 0.f ? 1000.f / frame : 0.f, frame,
                Series::kLength);
    ImGui::Text("simulation %.3f ms   scene draw %.3f ms   panel %.3f ms", h.sim_ms.last(),
                h.render_ms.last(), h.panel_ms.last());
    // An edit (a body moved, a brush stroke, a parameter) is applied before the frame's step,
    // on the host: this says what the slowest of the last frames' edits cost.
    ImGui::TextColored(kDim, "  edits %.3f ms this frame, at most %.3f ms of the last %d",
                       h.edit_ms.last(), h.edit_ms.max(), Series::kLength);
    if (h.has_stages) {
        ImGui::TextColored(kDim, "  grid %.3f  reorder %.3f  forces%s %.3f  integrate %.3f",
                           h.grid_ms, h.reorder_ms, h.integrate_fused ? "+drift" : "", h.forces_ms,
                           h.integrate_ms);
        roofline_line(session, h);
    } else {
        ImGui::TextColored(kDim,
                           "  one launch per step (CUDA graph or persistent kernel): "
                           "stage times not separated");
    }
    const sim::NeighbourListStats lists = session.simulator().recent_list_stats();
    if (lists.active && lists.builds > 0)
        ImGui::TextColored(kDim,
                           "  neighbour lists: rebuilt every %.1f steps, %u entries, %.1f strays "
                           "a step",
                           double(lists.steps) / double(lists.builds), lists.slots,
                           lists.steps > 0 ? double(lists.strays) / double(lists.steps) : 0.0);
    const std::size_t particles = session.simulator().particle_count();
    if (lists.active && lists.cluster_slots > 0 && particles > 0)
        ImGui::TextColored(kDim,
                           "  cluster pairs: %.1f neighbour clusters a cluster, %.1f pair "
                           "tests a particle",
                           double(lists.cluster_entries) * sim::kClusterSize / double(particles),
                           double(lists.cluster_entries) * sim::kClusterSize * sim::kClusterSize /
                               double(particles));
    if (h.cuda_renderer) {
        if (h.splat_filter_ms > 0.0)  // the material look
            ImGui::Text("CUDA renderer: clear %.3f  splat %.3f  depth+filter %.3f  shade %.3f ms",
                        h.splat_clear_ms, h.splat_ms, h.splat_filter_ms, h.splat_resolve_ms);
        else
            ImGui::Text("CUDA renderer: clear %.3f  splat %.3f  resolve %.3f ms", h.splat_clear_ms,
                        h.splat_ms, h.splat_resolve_ms);
    }
    if (h.feed_interop) {
        ImGui::Text("interop: map %.3f  export %.3f  unmap %.3f ms", h.map_ms, h.export_ms,
                    h.unmap_ms);
    } else {
        ImGui::Text("host copy: export %.3f  upload %.3f ms", h.export_ms, h.upload_ms);
    }
    help_marker(
        "Simulation: device time (CUDA events, or a clock around the CPU loops).\n"
        "Scene draw and panel: GL timer queries (GPU time); with the CUDA renderer the scene "
        "draw is its composite, and its own passes are CUDA events.\n"
        "Export/upload and map/unmap: host wall time.\n"
        "Edits: host wall time applying the frame's edits and requests before its step.");
    plot("frame", h.frame_ms, "ms");
    plot("simulation", h.sim_ms, "ms");
    plot("scene draw", h.render_ms, "ms");
    plot("export", h.feed_ms, "ms");

    ImGui::Separator();
    ImGui::Text("backend: %s", std::string(sim::backend_name(session.backend())).c_str());
    ImGui::TextWrapped("device: %s", f.device_name.c_str());
    ImGui::TextWrapped("GL: %s (%s)", f.gl_renderer.c_str(), f.gl_version.c_str());
    if (f.gpu_memory) {
        const std::size_t used = f.gpu_memory->total_bytes - f.gpu_memory->free_bytes;
        ImGui::Text("GPU memory: %s used, %s free of %s", mib(used).c_str(),
                    mib(f.gpu_memory->free_bytes).c_str(), mib(f.gpu_memory->total_bytes).c_str());
    }
    ImGui::PopTextWrapPos();
}

}  // namespace plab::app
