#pragma once
// The panel's Record and Compare sections: record N frames (or until stopped) into a folder,
// list the recordings made or loaded from disk, tick two or more and see them side by side
// with ratios against the first ticked and the configuration that differs, then export the
// comparison as Markdown or CSV. Starting and stopping are requests the frame loop applies.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/lab/comparison.h"
#include "app/lab/recorder.h"
#include "app/lab/recording.h"

namespace plab::app {

struct ListedRecording {
    std::string name;  // file name without the folder
    std::filesystem::path path;
    Recording recording;
    bool ticked = false;
};

struct RecordUi {
    std::string folder = "~/particle-lab-recordings";
    int frames = 600;
    bool until_stopped = false;
    bool start_requested = false;
    bool stop_requested = false;

    std::vector<ListedRecording> recordings;
    std::string load_path;

    // The comparison of the ticked recordings, remade when the ticks change.
    std::vector<std::size_t> compared;
    std::optional<Comparison> comparison;

    std::string message;
    bool message_is_error = false;
    void say(std::string text, bool error = false) {
        message = std::move(text);
        message_is_error = error;
    }
};

// Reads `path` into the list (ticked); failures become the section's message.
void load_into_list(RecordUi& ui, const std::filesystem::path& path);

void draw_record_section(RecordUi& ui, const Recorder& recorder);
void draw_compare_section(RecordUi& ui);

}  // namespace plab::app
