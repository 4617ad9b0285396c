#pragma once
// Records the app's frames into a Recording: started with the configuration of the moment and
// a frame count (or none: until stopped), fed one row per frame. A configuration key that
// changes while recording (the collider dragged, a slider moved) is listed in the header
// under `changed_during`, so the file never claims a steadier run than it was.
#include <cstddef>
#include <ctime>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "app/lab/recording.h"

namespace plab::app {

class Recorder {
  public:
    // Starts a new recording (dropping one in progress). `frames` 0 records until stopped.
    void start(std::vector<ConfigEntry> config, std::size_t frames);
    // Adds a frame; `current` is the configuration now. Returns true when the requested
    // number of frames is reached (call finish()).
    bool add(const FrameRecord& frame, const std::vector<ConfigEntry>& current);
    // The recording so far, with `changed_during` when keys changed; the recorder goes idle.
    Recording finish();

    bool active() const { return active_; }
    std::size_t recorded() const { return recording_.frames.size(); }
    std::size_t target() const { return target_; }  // 0: until stopped

  private:
    bool active_ = false;
    std::size_t target_ = 0;
    Recording recording_;
    std::vector<std::string> changed_;  // keys, in first-change order
};

// A recording's file name: particle-lab-YYYYmmdd-HHMMSS-<backend>-<feed>-<particles>.csv, from
// the local time `when` and the configuration (parts it lacks are left out).
std::string recording_file_name(const Recording& recording, std::time_t when);

// `~` or `~/...` at the start becomes $HOME; anything else is returned as it is.
std::filesystem::path expand_home(std::string_view path);

// Creates `folder` (and parents) and writes `recording` there under recording_file_name.
// Returns the path. Throws plab::Error.
std::filesystem::path save_recording(const Recording& recording,
                                     const std::filesystem::path& folder, std::time_t when);

}  // namespace plab::app
