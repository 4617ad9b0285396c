// App's part in recording: the configuration header from the running session, one row per
// finished frame from the frame history, and saving (to --record's file, or to the panel's
// folder and list).
#include <ctime>

#include "app/viewer/app.h"

namespace plab::app {

std::vector<ConfigEntry> App::configuration() {
    ConfigSource s;
    s.params = session_.params();
    s.backend = std::string(sim::backend_name(session_.backend()));
    s.device = facts_.device_name;
    s.options = session_.options();
    s.variant_notes = session_.simulator().option_notes();
    s.feed = facts_.feed_path;
    s.particles = session_.particle_count();
    s.preset = std::string(sim::preset_name(session_.preset()));
    s.vsync = ui_.vsync;
    return describe_configuration(s);
}

void App::sync_recording() {
    if (std::exchange(record_ui_.start_requested, false)) {
        const std::size_t frames =
            record_ui_.until_stopped ? 0 : static_cast<std::size_t>(record_ui_.frames);
        recorder_.start(configuration(), frames);
        record_ui_.say(frames ? "Recording " + std::to_string(frames) + " frames..."
                              : "Recording until stopped...");
    }
    if (std::exchange(record_ui_.stop_requested, false) && recorder_.active()) finish_recording();
}

void App::record_frame(double frame_ms) {
    FrameRecord f;
    f.frame_ms = frame_ms;
    // A paused frame stepped nothing: its stage times are 0, not the last step's.
    f.step_ms = history_.sim_ms.last();
    if (f.step_ms > 0) {
        f.grid_ms = history_.grid_ms;
        f.reorder_ms = history_.reorder_ms;
        f.forces_ms = history_.forces_ms;
        f.integrate_ms = history_.integrate_ms;
    }
    f.export_ms = history_.export_ms;
    f.feed_ms = history_.feed_ms.last();
    f.draw_ms = history_.render_ms.last();  // the latest GL timer result (a frame or two old)
    f.fps = frame_ms > 0 ? 1000.0 / frame_ms : 0.0;
    if (recorder_.add(f, configuration())) finish_recording();
}

void App::finish_recording() {
    const Recording r = recorder_.finish();
    if (!config_.record.empty()) {
        // The timed run's file: a failure to write it fails the run.
        write_recording(r, config_.record);
        std::printf("particle-lab: recorded %zu frames into %s\n", r.frames.size(),
                    config_.record.c_str());
        std::fflush(stdout);
        return;
    }
    try {
        const std::filesystem::path path =
            save_recording(r, expand_home(record_ui_.folder), std::time(nullptr));
        ListedRecording item{path.filename().string(), path, r, true};
        record_ui_.recordings.push_back(std::move(item));
        record_ui_.say("Saved " + std::to_string(r.frames.size()) + " frames to " + path.string());
    } catch (const std::exception& e) {
        record_ui_.say(std::string("Recording not saved: ") + e.what(), true);
    }
}

}  // namespace plab::app
