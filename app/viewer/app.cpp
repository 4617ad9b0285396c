#include "app/viewer/app.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "app/lab/interrupt.h"
#include "app/lab/local_time.h"
#include "app/lab/output_file.h"
#include "app/viewer/scene_list.h"
#include "app/viewer/session_export.h"
#include "render/gl_check.h"
#include "render/interop_buffer.h"
#include "render/screenshot.h"
#include "sim/core/error.h"
#include "sim/run/divergence.h"
#include "sim/run/make_simulator.h"

namespace plab::app {
namespace {

constexpr int kStatsEvery = 10;   // frames between divergence checks (stats may sync the GPU)
constexpr int kMemoryEvery = 30;  // frames between GPU memory queries

double ms_between(std::chrono::steady_clock::time_point a,
                  std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string timestamped_png() { return "particle-lab-" + local_timestamp() + ".png"; }

}  // namespace

App::App(const AppConfig& config)
    : config_(config),
      window_(config.width, config.height, "Particle Lab", config.vsync),
      session_(window_start(config)) {
    install_callbacks();
    imgui_ = std::make_unique<ImGuiLayer>(window_.handle());

    ui_.params = session_.params();
    ui_.scenes = find_scene_files();
    if (const auto& file = session_.scene_file()) {
        for (std::size_t i = 0; i < ui_.scenes.size(); ++i)
            if (std::filesystem::path(ui_.scenes[i]).stem() == file->name)
                ui_.scene_index = static_cast<int>(i);
    }
    submitted_ = ui_.params;
    ui_.vsync = config.vsync;
    ui_.view.color = config.color;
    ui_.view.spin_scale = config.spin_scale;
    if (config.speed_scale > 0.f) {
        ui_.view.auto_speed_scale = false;
        ui_.view.speed_scale = config.speed_scale;
    }
    ui_.view.show_panel = config.show_panel;
    ui_.view.look = config.look;
    ui_.open_tab = config.panel_tab;
    // Where the panel will be (its layout may differ once the ini file is read; frame 1
    // frames the scene again with the real one).
    ui_.panel_right = kPanelMargin + kPanelWidth;
    ui_.options = session_.options();
    ui_.particles_field = static_cast<int>(session_.particle_count());

    facts_.device_name = session_.simulator().device_name();
    facts_.gl_renderer = window_.gl_renderer();
    facts_.gl_version = window_.gl_version();
    facts_.cuda_reason = sim::cuda_unavailable_reason();
    // Interop needs the GL context on the simulating GPU; ask only now that it is current.
    facts_.interop_reason = facts_.cuda_reason.empty()
                                ? render::interop_unavailable_reason()
                                : "no CUDA device (" + facts_.cuda_reason + ")";
    frame_.scene().reserve(session_.particle_count());
    frame_scene();

    std::printf("particle-lab: GL_RENDERER %s, OpenGL %s\n", facts_.gl_renderer.c_str(),
                facts_.gl_version.c_str());
    std::printf(
        "particle-lab: %s backend on %s, %zu particles (%s preset)%s%s\n",
        std::string(sim::backend_name(session_.backend())).c_str(), facts_.device_name.c_str(),
        session_.particle_count(), std::string(sim::preset_name(session_.preset())).c_str(),
        session_.fallback().empty() ? "" : "; CUDA not used: ", session_.fallback().c_str());
    if (session_.backend() == sim::Backend::Cuda) {
        std::printf("particle-lab: CUDA-GL interop %s%s\n",
                    facts_.interop_reason.empty() ? "on" : "off, host copy: ",
                    facts_.interop_reason.c_str());
    }
    std::fflush(stdout);
    for (const sim::RunWarning& w : session_.warnings())
        std::fprintf(stderr, "particle-lab: WARNING %s\n", w.text.c_str());
    // A timed run's recording: every frame interval of the run, streamed into --record's file.
    if (!config_.record.empty()) {
        recorder_.start(configuration(), config_.frames - 1, config_.record);
        run_recording_ = true;
    }
    if (!config_.video.path.empty()) {
        WindowVideoSettings v = config_.video;
        if (config_.video_seconds > 0)  // frames of 1/(fps × slowmo) simulated seconds
            v.max_frames = std::max(1L, std::lround(config_.video_seconds * v.fps * v.slowmo));
        start_video(v);
        run_video_ = true;
    }
    last_frame_start_ = std::chrono::steady_clock::now();
}

App::~App() {
    // ImGui first: its backend restores the callbacks it chained to ours.
    imgui_.reset();
}

int App::run() {
    try {
        // A signal ends the loop as closing the window does (the handler only sets a flag).
        while (!interrupted() && frame()) {
        }
    } catch (...) {
        keep_recording_after_error();
        finish_video();  // the movie so far stays playable
        throw;
    }
    finish_video();
    return finish_run();
}

render::Viewport App::scene_viewport(WindowSize fb) const {
    const WindowSize win = window_.window_size();
    const float panel = ui_.view.show_panel ? ui_.panel_right : 0.f;
    int x0 = win.width > 0 ? static_cast<int>(std::lround(panel * static_cast<float>(fb.width) /
                                                          static_cast<float>(win.width)))
                           : 0;
    if (fb.width - x0 < fb.width / 3) x0 = 0;  // a wide panel on a narrow window: draw under it
    return {x0, 0, fb.width - x0, fb.height};
}

float App::aspect() const {
    const WindowSize fb = window_.framebuffer_size();
    if (fb.empty()) return static_cast<float>(config_.width) / static_cast<float>(config_.height);
    return scene_viewport(fb).aspect();
}

void App::frame_scene() { frame_.frame_camera(session_, aspect()); }

FrameView App::frame_view() const {
    const ViewSettings& v = ui_.view;
    return {{v.color, v.speed_scale, v.density_span, v.auto_pressure_scale, v.pressure_scale,
             v.spin_scale},
            v.show_box,
            v.show_collider,
            v.show_bodies,
            v.look};
}

template <typename Change>
bool App::attempt(const char* what, Change&& change) {
    try {
        change();
        return true;
    } catch (const std::exception& e) {
        ui_.say(std::string(what) + " failed: " + e.what() + " (the current run continues)", true);
        return false;
    }
}

SceneEdits App::scene_edits() const {
    const auto& file = session_.scene_file();
    if (!file) return {session_.params(), {}, {}};
    return {session_.params(), file->bodies, file->sources};
}

void App::put_back(const EditHistory::Change& change) {
    switch (change.kind) {
        case EditKind::Params:
            ui_.params = change.state.params;  // applied below as any edit
            break;
        case EditKind::Bodies:
            attempt("Undoing", [&] { session_.set_bodies(change.state.bodies); });
            ui_.selected_body =
                std::min<int>(ui_.selected_body, static_cast<int>(change.state.bodies.size()) - 1);
            break;
        case EditKind::Sources:
            attempt("Undoing", [&] { session_.set_sources(change.state.sources); });
            break;
    }
}

void App::sync() {
    const Requests r = std::exchange(ui_.requests, Requests{});
    if (window_.vsync() != ui_.vsync) window_.set_vsync(ui_.vsync);
    // Undo and redo put an earlier state back as an edit that is not itself recorded.
    bool from_history = false;
    if (r.undo || r.redo) {
        if (const auto back = r.undo ? ui_.history.undo() : ui_.history.redo()) {
            from_history = true;
            put_back(*back);
            ui_.say(std::string(r.undo ? "Undone" : "Redone") + ": " + back->what + ".");
        } else {
            ui_.say(r.undo ? "Nothing to undo." : "Nothing to redo.");
        }
    }
    if (ui_.params != submitted_) {
        const sim::Params before = submitted_;
        submitted_ = ui_.params;
        if (attempt("Parameter change", [&] { session_.set_params(ui_.params); }) &&
            !from_history) {
            const SceneEdits now = scene_edits();
            ui_.history.record_params(before, ui_.params, now.bodies, now.sources, glfwGetTime());
        }
    }
    if (r.options_changed) attempt("Option change", [&] { session_.set_options(ui_.options); });
    if (r.backend) {
        if (attempt("Switching backend",
                    [&] { session_.change_backend(*r.backend, ui_.params); })) {
            diverged_ = false;
            facts_.device_name = session_.simulator().device_name();
            ui_.say("Now on the " + std::string(sim::backend_name(session_.backend())) +
                    " backend (scene restarted).");
        }
    }
    if (r.preset) {
        if (attempt("Switching preset", [&] {
                session_.change_preset(*r.preset);
                ui_.params = session_.params();
            })) {
            ui_.history.clear();
            ui_.selected_body = -1;
            submitted_ = ui_.params;
            diverged_ = false;
            frame_scene();
        }
    }
    if (r.scene) {
        if (attempt("Loading the scene", [&] {
                const sim::SceneFile file = sim::load_scene_file(*r.scene);
                frame_.scene().reserve(
                    file.particles);  // first: a failed start then only leaves buffers
                session_.use_scene_file(file, *r.scene);
                ui_.params = session_.params();
            })) {
            ui_.history.clear();
            ui_.selected_body = -1;
            submitted_ = ui_.params;
            diverged_ = false;
            ui_.particles_field = static_cast<int>(session_.particle_count());
            frame_scene();
            ui_.say("Scene " + session_.scene_file()->name + ": " +
                    session_.scene_file()->description);
        }
    }
    if (r.particles) {
        const std::size_t n = *r.particles;
        if (attempt("Changing the particle count", [&] {
                frame_.scene().reserve(n);  // first: a failed reset then only leaves bigger buffers
                session_.restart(ui_.params, n);
            })) {
            diverged_ = false;
            frame_scene();
            ui_.say("Running " + std::to_string(session_.particle_count()) + " particles.");
        }
        ui_.particles_field = static_cast<int>(session_.particle_count());
    }
    if (r.reset) {
        if (attempt("Reset", [&] { session_.restart(ui_.params); })) {
            submitted_ = ui_.params;
            if (diverged_) ui_.message.clear();
            diverged_ = false;
        }
    }
    if (r.body_spin)
        attempt("Spin", [&] { session_.set_body_spin(r.body_spin->first, r.body_spin->second); });
    if (r.bodies) {
        SceneEdits before = scene_edits();
        if (attempt("Editing the bodies", [&] { session_.set_bodies(*r.bodies); }))
            ui_.history.record(EditKind::Bodies, "the bodies", std::move(before), scene_edits(),
                               glfwGetTime());
    }
    if (r.sources) {
        SceneEdits before = scene_edits();
        if (attempt("Editing the sources", [&] { session_.set_sources(*r.sources); }))
            ui_.history.record(EditKind::Sources, "the emitters and sinks", std::move(before),
                               scene_edits(), glfwGetTime());
    }
    if (r.brush_at)
        attempt("Brush", [&] { brush_stroke_at(r.brush_at->first, r.brush_at->second); });
    if (r.pick_at) pick_at(r.pick_at->first, r.pick_at->second);
    if (r.grab_at && drag_.grab)  // not after a release within the frame
        attempt("Grab", [&] { grab_at(r.grab_at->first, r.grab_at->second); });
    if (r.export_frame)
        attempt("Export", [&] {
            ui_.say("Exported " + export_session_frame(session_, ui_.export_folder).string());
        });
    sync_checkpoints(r);
    if (r.save_scene) attempt("Saving the scene", [&] { save_scene(ui_.scene_path); });
    sync_video(r);
    sync_recording();
    if (r.step_once) step_once_ = true;
    if (r.frame_scene) frame_scene();
    if (r.screenshot) {
        const WindowSize fb = window_.framebuffer_size();
        // Taken after this frame is drawn (see frame()); remembered until then.
        ui_.requests.screenshot = !fb.empty();
        if (fb.empty()) ui_.say("No screenshot: the window is minimised.", true);
    }
}

void App::step_and_time(bool advance) {
    if (advance && grab_)
        if (!attempt("Grab", [&] { session_.pull(grab_->pull); })) grab_.reset();
    if (advance) session_.step();
    const std::vector<sim::StageTimings> steps = session_.simulator().take_timings();
    if (steps.empty()) {
        if (!advance) history_.sim_ms.push(0.f);
        return;
    }
    sim::StageTimings sum;
    sum.has_stages = true;
    for (const sim::StageTimings& t : steps) {
        sum.grid_ms += t.grid_ms;
        sum.reorder_ms += t.reorder_ms;
        sum.forces_ms += t.forces_ms;
        sum.integrate_ms += t.integrate_ms;
        sum.total_ms += t.total_ms;
        sum.has_stages = sum.has_stages && t.has_stages;
        sum.integrate_fused = t.integrate_fused;
    }
    history_.sim_ms.push(static_cast<float>(sum.total_ms));
    history_.grid_ms = sum.grid_ms;
    history_.reorder_ms = sum.reorder_ms;
    history_.forces_ms = sum.forces_ms;
    history_.integrate_ms = sum.integrate_ms;
    history_.has_stages = sum.has_stages;
    history_.integrate_fused = sum.integrate_fused;
}

void App::check_stats() {
    const sim::SimStats stats = session_.simulator().stats(session_.params());
    if (ui_.view.auto_speed_scale && std::isfinite(stats.max_speed)) {
        // Smoothed, so one fast particle does not make the colours flicker.
        const float target = std::max(stats.max_speed, 1e-6f);
        ui_.view.speed_scale += 0.3f * (target - ui_.view.speed_scale);
    }
    ui_.stats = stats;
    ui_.stats_start = session_.starts();
    const sim::Params& p = session_.params();
    ui_.friction =
        sim::runs_frictional_law(p) ? session_.simulator().friction_stats() : sim::FrictionStats{};
    const std::string why = sim::divergence_reason(stats, session_.params());
    if (!why.empty() && !diverged_) {
        diverged_ = true;
        ui_.paused = true;
        ui_.say("Diverged, paused: " + why + " Then Reset.", true);
    }
}

void App::choose_renderer() {
    // The renderer variant: the CUDA splatter where it can draw, else the GL sprites and why.
    // Chosen before the feed: the CUDA renderer's interop feed goes to its own buffers.
    const bool cuda_asked =
        session_.simulator().effective_options().effective.renderer == sim::kRendererCuda;
    if (!cuda_asked) {
        facts_.renderer_reason.clear();
    } else if (facts_.renderer_reason.empty() && !facts_.interop_reason.empty()) {
        facts_.renderer_reason =
            "the CUDA renderer needs CUDA-GL interop: " + facts_.interop_reason;
    }
    frame_.choose_renderer(session_, facts_.renderer_reason);
}

void App::feed_particles() {
    const FrameView view = frame_view();
    const bool interop = session_.backend() == sim::Backend::Cuda &&
                         facts_.interop_reason.empty() && ui_.use_interop;
    const render::FeedPath host = ui_.host_path;
    render::FeedTiming t;
    if (interop) {
        try {
            t = frame_.feed(session_, view, render::FeedPath::Interop);
        } catch (const std::exception& e) {
            // Registration or mapping refused: fall back for good and say why.
            facts_.interop_reason = std::string("interop failed: ") + e.what();
            t = frame_.feed(session_, view, host);
        }
    } else {
        t = frame_.feed(session_, view, host);
    }
    facts_.feeding_interop = t.path == render::FeedPath::Interop;
    facts_.feed_path = render::feed_path_name(t.path);
    history_.feed_interop = facts_.feeding_interop;
    history_.map_ms = t.map_ms;
    history_.export_ms = t.export_ms;
    history_.upload_ms = t.upload_ms;
    history_.unmap_ms = t.unmap_ms;
    history_.feed_ms.push(static_cast<float>(t.total_ms()));
}

void App::draw_scene(WindowSize fb) {
    // The whole window is cleared (under the panel too); the scene gets the part right of it.
    PLAB_GL_CHECK(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    render::ScenePass::clear(fb.width, fb.height);
    const FrameView view = frame_view();
    const bool cuda = frame_.cuda_renderer();

    scene_timer_.begin();
    try {
        frame_.draw(session_, view, scene_viewport(fb));
    } catch (const std::exception& e) {
        if (!cuda) throw;
        // The splatter failed (registration, memory): the GL sprites draw from now on, from
        // a feed to their buffers.
        facts_.renderer_reason = std::string("the CUDA renderer failed: ") + e.what();
        frame_.scene().set_renderer(render::ParticleRendererKind::Gl);
        feed_particles();
        frame_.draw(session_, view, scene_viewport(fb));
    }
    scene_timer_.end();
    if (const auto ms = scene_timer_.poll()) history_.render_ms.push(static_cast<float>(*ms));
    history_.cuda_renderer = frame_.scene().renderer() == render::ParticleRendererKind::Cuda;
    if (const auto t = frame_.scene().poll_splat_timings()) {
        history_.splat_clear_ms = t->clear_ms;
        history_.splat_ms = t->splat_ms;
        history_.splat_resolve_ms = t->resolve_ms;
        history_.splat_filter_ms = t->filter_ms;
    }
}

void App::draw_panel_layer() {
    imgui_->begin_frame();
    if (ui_.view.show_panel) draw_panel(ui_, session_, history_, facts_, record_ui_, recorder_);
    panel_timer_.begin();
    imgui_->end_frame();
    panel_timer_.end();
    if (const auto ms = panel_timer_.poll()) history_.panel_ms.push(static_cast<float>(*ms));
}

void App::save_screenshot(const std::string& path, WindowSize fb) {
    const std::vector<std::uint8_t> rgba = render::read_framebuffer(0, fb.width, fb.height);
    write_whole_file(path, render::encode_png(fb.width, fb.height, rgba));
}

bool App::frame() {
    const auto start = std::chrono::steady_clock::now();
    if (frames_ > 0) {
        const double ms = ms_between(last_frame_start_, start);
        history_.frame_ms.push(static_cast<float>(ms));
        measured_ms_ += ms;
        // The frame that just ended, with the timings it gathered.
        if (recorder_.active()) record_frame(ms);
    }
    last_frame_start_ = start;

    WindowSize fb = window_.framebuffer_size();
    // Minimised: wait for events instead of spinning (timed runs keep going).
    if (fb.empty() && config_.frames == 0) {
        glfwWaitEventsTimeout(0.1);
    } else {
        glfwPollEvents();
    }
    if (window_.should_close()) return false;

    const auto sync_start = std::chrono::steady_clock::now();
    sync();
    history_.edit_ms.push(
        static_cast<float>(ms_between(sync_start, std::chrono::steady_clock::now())));
    const bool advance = !ui_.paused || std::exchange(step_once_, false);
    step_and_time(advance);
    save_every_tick();
    // Every few frames, after each single step while paused, and at once in a run just begun
    // (the panel shows no statistics of the run before it).
    if (frames_ % kStatsEvery == 0 || (advance && ui_.paused) ||
        ui_.stats_start != session_.starts())
        check_stats();
    if (session_.backend() == sim::Backend::Cuda && frames_ % kMemoryEvery == 0) {
        facts_.gpu_memory = sim::device_memory();
    } else if (session_.backend() != sim::Backend::Cuda) {
        facts_.gpu_memory.reset();
    }

    fb = window_.framebuffer_size();
    if (!fb.empty()) {
        choose_renderer();
        feed_particles();
        if (!look_told_) {  // --look material where the GL sprites draw: said once, at the start
            look_told_ = true;
            if (const std::string why = frame_.scene().look_fallback(); !why.empty())
                std::fprintf(stderr, "particle-lab: --look material: %s\n", why.c_str());
        }
        draw_scene(fb);
        video_tick();
    }
    draw_panel_layer();
    if (!ui_.view.show_panel) ui_.panel_right = 0.f;
    if (frames_ == 0) frame_scene();  // now that the panel's real size is known

    ++frames_;
    const bool last = (config_.frames > 0 && frames_ >= config_.frames) ||
                      (run_video_ && video_ && video_->done());
    if (!fb.empty() && std::exchange(ui_.requests.screenshot, false)) {
        const std::string path = timestamped_png();
        if (attempt("Screenshot", [&] { save_screenshot(path, fb); })) ui_.say("Saved " + path);
    }
    if (last && !config_.screenshot.empty()) {
        PLAB_REQUIRE(!fb.empty(),
                     "cannot take the screenshot: the window has no pixels "
                     "(minimised?)");
        save_screenshot(config_.screenshot, fb);
        std::printf("particle-lab: wrote %s (%dx%d) after %ld frames\n", config_.screenshot.c_str(),
                    fb.width, fb.height, frames_);
    }
    window_.swap_buffers();
    return !last;
}

}  // namespace plab::app
