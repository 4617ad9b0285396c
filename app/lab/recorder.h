#pragma once
// Records the app's frames into a Recording: started with the configuration of the moment and
// a frame count (or none: until stopped), fed one row per frame. A configuration key that
// changes while recording (the collider dragged, a slider moved) is listed in the header
// under `changed_during`, so the file never claims a steadier run than it was. With a file,
// the frames go to disk as they finish: the header and each row are streamed into a hidden
// temporary beside the file (output_file.h), and finish() writes the file whole; a run killed
// outright leaves its finished frames in that temporary (`.<name>.<pid>.part`).
#include <cstddef>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/lab/output_file.h"
#include "app/lab/recording.h"

namespace plab::app {

class Recorder {
  public:
    // Starts a new recording (dropping one in progress). `frames` 0 records until stopped.
    // With a `file`, creates its temporary and writes the header; throws plab::Error naming
    // the file when it cannot (the recorder is then idle).
    void start(std::vector<ConfigEntry> config, std::size_t frames,
               std::filesystem::path file = {});
    // Adds a frame; `current` is the configuration now. Returns true when the requested
    // number of frames is reached (call finish()). Throws plab::Error naming the file when
    // the row cannot be written (the recording stays active: finish() or abandon() it).
    bool add(const FrameRecord& frame, const std::vector<ConfigEntry>& current);
    // The recording so far, with `changed_during` when keys changed; the recorder goes idle.
    // With a file, writes it there first (all frames so far, or the file is left as it was)
    // and throws plab::Error naming it when it cannot.
    Recording finish();
    // Drops the recording in progress and its temporary.
    void abandon();

    bool active() const { return active_; }
    std::size_t recorded() const { return recording_.frames.size(); }
    std::size_t target() const { return target_; }               // 0: until stopped
    const std::filesystem::path& file() const { return file_; }  // empty: kept in memory only

  private:
    bool active_ = false;
    std::size_t target_ = 0;
    Recording recording_;
    std::vector<std::string> changed_;  // keys, in first-change order
    std::filesystem::path file_;
    std::unique_ptr<AtomicFile> stream_;  // the header and the rows so far, beside file_
};

// A recording's file name: particle-lab-YYYYmmdd-HHMMSS-<backend>-<feed>-<particles>.csv, from
// the local time `when` and the configuration (parts it lacks are left out).
std::string recording_file_name(const Recording& recording, std::time_t when);

// `~` or `~/...` at the start becomes $HOME; anything else is returned as it is.
std::filesystem::path expand_home(std::string_view path);

// A free path for a new recording in `folder` (created with its parents when missing):
// recording_file_name, or with -2, -3, ... before ".csv" when that is taken. Throws plab::Error.
std::filesystem::path new_recording_path(const std::filesystem::path& folder,
                                         const Recording& recording, std::time_t when);

// Writes `recording` into `folder` at new_recording_path. Returns the path. Throws plab::Error.
std::filesystem::path save_recording(const Recording& recording,
                                     const std::filesystem::path& folder, std::time_t when);

}  // namespace plab::app
