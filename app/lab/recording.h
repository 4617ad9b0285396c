#pragma once
// A recording of the app's frames: the whole configuration (every parameter, backend, device,
// variant switches, build) as ordered key=value pairs, and one row of timings per frame. Saved
// as CSV with the configuration as `# key=value` comment lines (format: docs/recording.md).
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/model/params.h"

namespace plab::app {

// One frame, all times in ms.
struct FrameRecord {
    double frame_ms = 0;  // wall time between frame starts
    double step_ms = 0;   // simulation steps finished this frame (device time)
    double grid_ms = 0;   // stages of those steps
    double reorder_ms = 0;
    double forces_ms = 0;
    double integrate_ms = 0;  // 0 when fused into forces
    double export_ms = 0;     // Simulator::export_render
    double feed_ms = 0;       // export + map/unmap or upload
    double draw_ms = 0;       // GL timer query around the scene draw
    double edit_ms = 0;       // host wall time applying the frame's edits and requests
    double fps = 0;           // 1000 / frame_ms
};

// A numeric column of the file, in file order.
struct RecordColumn {
    std::string_view name;
    double FrameRecord::*field;
};
const std::vector<RecordColumn>& record_columns();

using ConfigEntry = std::pair<std::string, std::string>;

struct Recording {
    std::vector<ConfigEntry> config;  // in header order; keys are unique
    std::vector<FrameRecord> frames;

    // The value of `key`, or nullptr.
    const std::string* find(std::string_view key) const;
};

// What describe_configuration needs from the running app.
struct ConfigSource {
    sim::Params params;
    std::string backend;            // "cpu" / "cuda"
    std::string device;             // Simulator::device_name()
    sim::SimulatorOptions options;  // as requested
    std::string variant_notes;      // Simulator::option_notes()
    std::string feed;               // "interop" or "host"
    std::size_t particles = 0;
    std::string preset;
    bool vsync = false;
};

// Every parameter from sim::param_table() (as "param.<name>"), backend, device, every variant
// of sim::variant_table() as requested ("variant.<name>") and the notes on those not run, feed
// path, particle count, preset, vsync, build type, version and git commit.
std::vector<ConfigEntry> describe_configuration(const ConfigSource& source);

// The build this binary came from (compile-time definitions; "unknown" when absent).
std::string_view build_version();
std::string_view build_type();
std::string_view build_commit();

// Writes `recording` to `path` (output_file.h: complete or not at all). Throws plab::Error when
// the file cannot be written or a key is not a valid name.
void write_recording(const Recording& recording, const std::filesystem::path& path);
std::string recording_to_csv(const Recording& recording);
// The file in parts, for writing it as frames finish (recorder.h): the header (first line,
// format, `frames=` when `frames` is given, the configuration, the column line) and one row.
std::string recording_header(const std::vector<ConfigEntry>& config,
                             std::optional<std::size_t> frames);
std::string recording_row(std::size_t index, const FrameRecord& frame);

// Reads a recording. Throws plab::Error naming the file, the line and what is wrong (not a
// recording, wrong columns, a cell that is not a number, a truncated file).
Recording read_recording(const std::filesystem::path& path);
// `name` stands for the file in error messages.
Recording parse_recording(std::string_view text, std::string_view name);

}  // namespace plab::app
