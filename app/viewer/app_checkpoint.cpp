// The window's checkpoints: Save and Load from the panel and keys, and --save-every.
#include <cmath>
#include <exception>
#include <string>

#include "app/lab/checkpoint_options.h"
#include "app/lab/output_file.h"
#include "app/viewer/app.h"
#include "sim/core/format_numbers.h"
#include "sim/io/checkpoint.h"

namespace plab::app {

void App::sync_checkpoints(const Requests& r) {
    const std::string& path = ui_.checkpoint_path;
    if (r.save_checkpoint) {
        try {
            require_writable(path);
            session_.save(path);
            ui_.say("Saved " + path +
                    sim::format_numbers(" (step %.0f, t = %.6g s).", double(session_.steps()),
                                        session_.time()));
        } catch (const std::exception& e) {
            ui_.say(std::string("Save failed: ") + e.what(), true);
        }
    }
    if (r.load_checkpoint) {
        try {
            // Read and checked whole before anything of the running session changes.
            const sim::Checkpoint c = sim::load_checkpoint(path);
            frame_.scene().reserve(
                c.particle_count());  // first: a failed load then only leaves buffers
            session_.load(c, path);
            ui_.params = session_.params();
            ui_.history.clear();
            ui_.selected_body = -1;
            submitted_ = ui_.params;
            ui_.options = session_.options();
            ui_.particles_field = static_cast<int>(session_.particle_count());
            ui_.scene_index = -1;
            diverged_ = false;
            frame_scene();
            std::string notes;
            for (const std::string& note : c.notes) notes += " Note: " + note + ".";
            ui_.say(
                "Loaded " + path +
                sim::format_numbers(" (step %.0f, t = %.6g s).", double(c.run.steps), c.run.time) +
                notes);
        } catch (const std::exception& e) {
            ui_.say(std::string("Load failed: ") + e.what() + " (the current run continues)", true);
        }
    }
}

void App::save_every_tick() {
    const SaveEvery& every = config_.save_every;
    if (!every.on()) return;
    // The multiple of the interval the simulated time has passed (a thousandth of a step
    // early, so sums of dt that land a rounding below it count).
    const double slack = 1e-3 * session_.params().dt;
    const auto multiple =
        static_cast<long long>(std::floor((session_.time() + slack) / every.seconds));
    if (saved_multiple_ < 0 || multiple < saved_multiple_) {
        saved_multiple_ = multiple;  // the start, or a reset or load that went back in time
        return;
    }
    if (multiple == saved_multiple_) return;
    saved_multiple_ = multiple;
    const std::string path = save_every_path(every, session_.steps());
    try {
        session_.save(path);
        ui_.say("Saved " + path);
    } catch (const std::exception& e) {
        ui_.say(std::string("Saving the checkpoint failed: ") + e.what(), true);
    }
}

}  // namespace plab::app
