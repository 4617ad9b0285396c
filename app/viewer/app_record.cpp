// App's part in recording: the configuration header from the running session, one row per
// finished frame from the frame history (streamed to disk by the Recorder), and saving (to
// --record's file, or to a new file in the panel's folder, then its list).
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>
#include <utility>

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
        try {
            // The file is named now and its frames go to disk as they finish.
            std::vector<ConfigEntry> config = configuration();
            const std::filesystem::path file = new_recording_path(
                expand_home(record_ui_.folder), Recording{config, {}}, std::time(nullptr));
            recorder_.start(std::move(config), frames, file);
            run_recording_ = false;
            record_ui_.say((frames ? "Recording " + std::to_string(frames) + " frames"
                                   : std::string("Recording until stopped")) +
                           " into " + file.string() + "...");
        } catch (const std::exception& e) {
            record_ui_.say(std::string("Recording not started: ") + e.what(), true);
        }
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
    f.edit_ms = history_.edit_ms.last();
    f.fps = frame_ms > 0 ? 1000.0 / frame_ms : 0.0;
    bool done = false;
    try {
        done = recorder_.add(f, configuration());
    } catch (const std::exception& e) {
        if (run_recording_) throw;  // --record's file: the run fails, naming it and why
        recorder_.abandon();
        record_ui_.say(std::string("Recording stopped: ") + e.what(), true);
        return;
    }
    if (done) finish_recording();
}

void App::finish_recording() {
    const std::size_t target = recorder_.target();
    const std::filesystem::path file = recorder_.file();
    // "29 frames", or "12 of 29 frames" for a recording that ended before its count.
    const auto frames = [target](std::size_t n) {
        return (target > n ? std::to_string(n) + " of " + std::to_string(target)
                           : std::to_string(n)) +
               " frames";
    };
    if (std::exchange(run_recording_, false)) {
        // The timed run's file: a failure to write it fails the run.
        const Recording r = recorder_.finish();
        std::printf("particle-lab: recorded %s into %s\n", frames(r.frames.size()).c_str(),
                    file.c_str());
        std::fflush(stdout);
        return;
    }
    try {
        const Recording r = recorder_.finish();
        record_ui_.say("Saved " + frames(r.frames.size()) + " to " + file.string());
        record_ui_.recordings.push_back(ListedRecording{file.filename().string(), file, r, true});
    } catch (const std::exception& e) {
        record_ui_.say(std::string("Recording not saved: ") + e.what(), true);
    }
}

}  // namespace plab::app
