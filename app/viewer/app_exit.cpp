// How the window's run ends. Closing the window (Esc) and SIGINT/SIGTERM stop the loop alike;
// then the run says what it did not finish, saves the recording in progress with the frames it
// has, and exits non-zero unless it did all it was asked: a `--frames N` run that stopped
// early exits 1 (its screenshot was never taken), an interrupted one 128 + the signal.
#include <cstdio>
#include <string>

#include "app/lab/interrupt.h"
#include "app/viewer/app.h"

namespace plab::app {

int App::finish_run() {
    const bool timed = config_.frames > 0;
    const bool early = timed && frames_ < config_.frames;
    const bool signalled = interrupted();
    if (early || signalled) {
        const std::string why =
            signalled ? "interrupted by " + interrupt_name() : std::string("the window was closed");
        const std::string of = timed ? " of " + std::to_string(config_.frames) : "";
        std::fprintf(stderr, "particle-lab: %s after %ld%s frames\n", why.c_str(), frames_,
                     of.c_str());
    }
    if (recorder_.active()) {
        const bool panel = !run_recording_;
        finish_recording();  // --record's file says how many frames it got; failing, throws
        if (panel) std::printf("particle-lab: %s\n", record_ui_.message.c_str());
    }
    if (early && !config_.screenshot.empty())
        std::fprintf(stderr,
                     "particle-lab: error: no screenshot written to %s: it was to be taken "
                     "after frame %d\n",
                     config_.screenshot.c_str(), config_.frames);
    if (timed && frames_ > 1) {
        const double mean = measured_ms_ / static_cast<double>(frames_ - 1);
        std::printf("particle-lab: %ld frames, mean %.2f ms (%.1f FPS)\n", frames_, mean,
                    mean > 0 ? 1000.0 / mean : 0.0);
    }
    std::fflush(stdout);
    if (signalled) return interrupt_exit_code();
    return early ? 1 : 0;
}

void App::keep_recording_after_error() noexcept {
    if (!recorder_.active()) return;
    try {
        const bool panel = !run_recording_;
        finish_recording();
        if (panel) std::printf("particle-lab: %s\n", record_ui_.message.c_str());
        std::fflush(stdout);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "particle-lab: the recording could not be saved: %s\n", e.what());
    }
}

}  // namespace plab::app
