#include "app/lab/recorder.h"

#include <cctype>
#include <cstdlib>
#include <optional>
#include <utility>

#include "app/lab/local_time.h"
#include "sim/core/error.h"

namespace plab::app {

void Recorder::start(std::vector<ConfigEntry> config, std::size_t frames,
                     std::filesystem::path file) {
    abandon();
    if (!file.empty()) {
        // Header first, so that the temporary is a recording's beginning from the start.
        auto stream = std::make_unique<AtomicFile>(file);
        stream->write(recording_header(config, std::nullopt));
        stream->flush();
        stream_ = std::move(stream);
        file_ = std::move(file);
    }
    recording_ = Recording{std::move(config), {}};
    target_ = frames;
    active_ = true;
}

bool Recorder::add(const FrameRecord& frame, const std::vector<ConfigEntry>& current) {
    if (!active_) return false;
    if (stream_) {
        // On disk before it counts: a kill after this keeps the row.
        stream_->write(recording_row(recording_.frames.size(), frame));
        stream_->flush();
    }
    recording_.frames.push_back(frame);
    // Compare against the header: a key whose value moved away from it is noted once.
    for (const auto& [key, value] : current) {
        const std::string* at_start = recording_.find(key);
        if (at_start && *at_start == value) continue;
        bool noted = false;
        for (const auto& k : changed_) noted = noted || k == key;
        if (!noted) changed_.push_back(key);
    }
    return target_ > 0 && recording_.frames.size() >= target_;
}

Recording Recorder::finish() {
    Recording r = std::move(recording_);
    if (!changed_.empty()) {
        std::string keys;
        for (const auto& k : changed_) keys += (keys.empty() ? "" : " ") + k;
        r.config.emplace_back("changed_during", keys);
    }
    const std::filesystem::path file = file_;
    // The stream's temporary is removed when this returns: after the file is written whole
    // (its header now knows the frame count and the changed keys), or after that failed.
    const std::unique_ptr<AtomicFile> stream = std::move(stream_);
    abandon();
    if (!file.empty()) write_recording(r, file);
    return r;
}

void Recorder::abandon() {
    active_ = false;
    target_ = 0;
    recording_ = Recording{};
    changed_.clear();
    file_.clear();
    stream_.reset();
}

std::string recording_file_name(const Recording& r, std::time_t when) {
    std::string name = "particle-lab-" + local_timestamp(when);
    for (const char* key : {"backend", "feed", "particles"}) {
        const std::string* v = r.find(key);
        if (!v || v->empty()) continue;
        // Only name-safe characters in the file name.
        std::string part;
        for (char c : *v) part += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
        name += "-" + part;
    }
    return name + ".csv";
}

std::filesystem::path expand_home(std::string_view path) {
    const char* home = std::getenv("HOME");
    if (home && *home) {
        if (path == "~") return home;
        if (path.starts_with("~/")) return std::filesystem::path(home) / path.substr(2);
    }
    return std::filesystem::path(std::string(path));
}

std::filesystem::path new_recording_path(const std::filesystem::path& folder,
                                         const Recording& recording, std::time_t when) {
    PLAB_REQUIRE(!folder.empty(), "choose a folder for the recording");
    make_folder(folder);
    const std::string name = recording_file_name(recording, when);
    const std::string base = name.substr(0, name.size() - 4);  // without ".csv"
    std::filesystem::path path = folder / name;
    // Two recordings in one second: keep both.
    for (int i = 2; std::filesystem::exists(path); ++i)
        path = folder / (base + "-" + std::to_string(i) + ".csv");
    return path;
}

std::filesystem::path save_recording(const Recording& recording,
                                     const std::filesystem::path& folder, std::time_t when) {
    const std::filesystem::path path = new_recording_path(folder, recording, when);
    write_recording(recording, path);
    return path;
}

}  // namespace plab::app
