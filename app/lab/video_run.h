#pragma once
// `bench --render MODE --video out.mp4`: the window's scene drawn headless (EGL) and recorded
// as a movie instead of timed. Each video frame covers a fixed simulated time, 1 / (fps ×
// slowmo) s (the steps of dt closest to it, at least one), so the movie plays at the speed of
// the simulation (or `slowmo` times slower). Encoding runs on its own thread
// (app/lab/video_encoder.h); the report says the loop's frame rate and how long it waited for
// the encoder. SIGINT/SIGTERM stop it with a playable movie of the frames so far.
#include <iosfwd>
#include <string>

#include "app/lab/bench_config.h"

namespace plab::app {

struct VideoConfig {
    std::string path;    // --video: the MP4 file; "" = no video
    long frames = 0;     // --frames N (0: from seconds)
    double seconds = 0;  // --video-seconds S: simulated seconds to record (0: from frames)
    double slowmo = 1;   // --video-slowmo F: the movie runs F times slower than the simulation
    int fps = 30;        // --video-fps: 30 or 60
    // --video-no-encode: draw and read back every frame but encode and write nothing, the
    // baseline the cost of recording is measured against.
    bool encode = true;

    bool on() const { return !path.empty(); }
};

// Throws plab::Error naming the flag for an out-of-range value or a missing length.
void check_video_config(const VideoConfig& video);

// Simulated seconds one video frame covers.
double video_frame_seconds(const VideoConfig& video);

// Steps of `dt` one video frame advances: the whole number closest to its simulated time, at
// least 1.
long steps_per_video_frame(const VideoConfig& video, double dt);

// Records the movie; returns the exit code (0, or 128 + the signal when interrupted, with the
// movie kept). Throws plab::Error (the movie so far is still kept).
int run_video(const BenchConfig& config, const VideoConfig& video, std::ostream& out,
              std::ostream* progress);

}  // namespace plab::app
