#include "app/lab/recording.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include "app/lab/output_file.h"
#include "sim/core/error.h"
#include "sim/core/input_limits.h"

#ifndef PLAB_VERSION
#define PLAB_VERSION "unknown"
#endif
#ifndef PLAB_BUILD_TYPE
#define PLAB_BUILD_TYPE "unknown"
#endif
#ifndef PLAB_GIT_COMMIT
#define PLAB_GIT_COMMIT "unknown"
#endif

namespace plab::app {
namespace {

constexpr std::string_view kMagic = "# particle-lab recording";
constexpr std::string_view kFormatKey = "format";
constexpr std::string_view kFramesKey = "frames";
constexpr std::string_view kFormatVersion = "2";
// Format 1 had no edit_ms column; its files still read, with edit_ms 0.
constexpr std::string_view kFormatWithoutEdits = "1";
constexpr std::string_view kFrameColumn = "frame";

// Shortest text that reads back as the same double.
std::string number(double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string number(float v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string on_off(bool b) { return b ? "on" : "off"; }

// The columns a file of `format` holds, in file order.
std::vector<const RecordColumn*> columns_of(std::string_view format) {
    std::vector<const RecordColumn*> out;
    for (const auto& c : record_columns())
        if (format != kFormatWithoutEdits || c.name != "edit_ms") out.push_back(&c);
    return out;
}

std::string column_line(std::string_view format = kFormatVersion) {
    std::string line(kFrameColumn);
    for (const RecordColumn* c : columns_of(format)) line += "," + std::string(c->name);
    return line;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t at = s.find(sep, start);
        out.push_back(s.substr(start, at == std::string_view::npos ? at : at - start));
        if (at == std::string_view::npos) return out;
        start = at + 1;
    }
}

// Throws "<file>: line <n>: <what>".
[[noreturn]] void fail(std::string_view file, std::size_t line, const std::string& what) {
    throw Error(std::string(file) + ": line " + std::to_string(line) + ": " + what);
}

}  // namespace

const std::vector<RecordColumn>& record_columns() {
    static const std::vector<RecordColumn> kColumns = {
        {"frame_ms", &FrameRecord::frame_ms},
        {"step_ms", &FrameRecord::step_ms},
        {"grid_ms", &FrameRecord::grid_ms},
        {"reorder_ms", &FrameRecord::reorder_ms},
        {"forces_ms", &FrameRecord::forces_ms},
        {"integrate_ms", &FrameRecord::integrate_ms},
        {"export_ms", &FrameRecord::export_ms},
        {"feed_ms", &FrameRecord::feed_ms},
        {"draw_ms", &FrameRecord::draw_ms},
        {"edit_ms", &FrameRecord::edit_ms},
        {"fps", &FrameRecord::fps},
    };
    return kColumns;
}

const std::string* Recording::find(std::string_view key) const {
    for (const auto& [k, v] : config)
        if (k == key) return &v;
    return nullptr;
}

std::string_view build_version() { return PLAB_VERSION; }
std::string_view build_type() { return PLAB_BUILD_TYPE; }
std::string_view build_commit() { return PLAB_GIT_COMMIT; }

std::vector<ConfigEntry> describe_configuration(const ConfigSource& s) {
    std::vector<ConfigEntry> c = {
        {"version", std::string(build_version())},
        {"build_type", std::string(build_type())},
        {"commit", std::string(build_commit())},
        {"backend", s.backend},
        {"device", s.device},
        {"preset", s.preset},
        {"model", std::string(sim::model_name(s.params.model))},
        {"particles", std::to_string(s.particles)},
        {"feed", s.feed},
        {"vsync", on_off(s.vsync)},
    };
    for (const auto& v : sim::variant_table())
        c.emplace_back("variant." + std::string(v.name), v.text(s.options));
    // Requested variants the backend did not run, and why (absent when all ran).
    if (!s.variant_notes.empty()) c.emplace_back("variant_notes", s.variant_notes);
    for (const auto& p : sim::param_table()) {
        const double v = p.get(s.params);
        // Floats print as floats ("0.02", not the double nearest to the float).
        const std::string text = p.kind() == sim::ParamKind::Int
                                     ? std::to_string(static_cast<long long>(v))
                                     : number(static_cast<float>(v));
        c.emplace_back("param." + std::string(p.name), text);
    }
    return c;
}

std::string recording_header(const std::vector<ConfigEntry>& config,
                             std::optional<std::size_t> frames) {
    std::ostringstream out;
    out << kMagic << "\n";
    out << "# " << kFormatKey << "=" << kFormatVersion << "\n";
    if (frames) out << "# " << kFramesKey << "=" << *frames << "\n";
    for (const auto& [key, value] : config) {
        PLAB_REQUIRE(!key.empty() && key.find_first_of("=\r\n ") == std::string::npos,
                     "recording: configuration key '" + key +
                         "' must be non-empty without '=', spaces or line breaks");
        PLAB_REQUIRE(key != kFormatKey && key != kFramesKey,
                     "recording: configuration key '" + key + "' is reserved");
        // One line per entry: line breaks in a value (a device name) become spaces.
        std::string v = value;
        for (char& ch : v)
            if (ch == '\n' || ch == '\r') ch = ' ';
        out << "# " << key << "=" << v << "\n";
    }
    out << column_line() << "\n";
    return out.str();
}

std::string recording_row(std::size_t index, const FrameRecord& f) {
    std::string row = std::to_string(index);
    for (const auto& c : record_columns()) row += "," + number(f.*c.field);
    return row + "\n";
}

std::string recording_to_csv(const Recording& r) {
    std::string out = recording_header(r.config, r.frames.size());
    for (std::size_t i = 0; i < r.frames.size(); ++i) out += recording_row(i, r.frames[i]);
    return out;
}

void write_recording(const Recording& recording, const std::filesystem::path& path) {
    write_whole_file(path, recording_to_csv(recording));
}

Recording read_recording(const std::filesystem::path& path) {
    // A directory, FIFO or /dev/zero would be read forever: refused before opening.
    constexpr std::uintmax_t kMaxRecordingBytes = 256u << 20;  // 10^6 frames take ~200 MB
    sim::require_regular_file(path, kMaxRecordingBytes, "recording");
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw Error("cannot open recording '" + path.string() + "': " + std::strerror(errno));
    }
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad()) throw Error("reading recording '" + path.string() + "' failed");
    return parse_recording(text.str(), path.string());
}

Recording parse_recording(std::string_view text, std::string_view name) {
    if (text.empty()) {
        throw Error(std::string(name) + ": empty file, not a Particle Lab recording");
    }
    std::vector<std::string_view> lines = split(text, '\n');
    // Our writer ends every line with '\n'; without one the last row was cut off.
    const bool ends_cleanly = lines.back().empty();
    if (ends_cleanly) lines.pop_back();
    for (auto& l : lines)
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);

    if (lines[0] != kMagic) {
        fail(name, 1,
             "not a Particle Lab recording: the first line is '" +
                 std::string(lines[0].substr(0, 60)) + "', expected '" + std::string(kMagic) + "'");
    }
    Recording r;
    std::string format, frames_text;
    std::size_t i = 1;
    for (; i < lines.size() && lines[i].starts_with('#'); ++i) {
        std::string_view entry = lines[i].substr(1);
        if (entry.starts_with(' ')) entry.remove_prefix(1);
        const std::size_t eq = entry.find('=');
        if (eq == std::string_view::npos || eq == 0) {
            fail(name, i + 1,
                 "a header line must read '# key=value', not '" + std::string(lines[i]) + "'");
        }
        std::string key(entry.substr(0, eq));
        std::string value(entry.substr(eq + 1));
        if (key == kFormatKey) {
            format = value;
        } else if (key == kFramesKey) {
            frames_text = value;
        } else {
            if (r.find(key)) fail(name, i + 1, "configuration key '" + key + "' appears twice");
            r.config.emplace_back(std::move(key), std::move(value));
        }
    }
    if (format != kFormatVersion && format != kFormatWithoutEdits) {
        fail(name, 2,
             format.empty() ? "no '# format=' line in the header"
                            : "format " + format +
                                  " is not supported (this build "
                                  "reads formats " +
                                  std::string(kFormatWithoutEdits) + " and " +
                                  std::string(kFormatVersion) + ")");
    }
    std::size_t expected = 0;
    {
        const char* end = frames_text.data() + frames_text.size();
        const auto res = std::from_chars(frames_text.data(), end, expected);
        if (frames_text.empty() || res.ec != std::errc() || res.ptr != end)
            fail(name, 3, "the header needs '# frames=N' with a whole number of frames");
    }
    if (i == lines.size()) {
        fail(name, i, "the file ends after the header: no column line (truncated?)");
    }
    const std::vector<const RecordColumn*> file_columns = columns_of(format);
    const std::string want = column_line(format);
    if (lines[i] != want) {
        fail(name, i + 1,
             "the columns are '" + std::string(lines[i].substr(0, 200)) + "', a recording has '" +
                 want + "'");
    }
    const std::size_t columns = file_columns.size() + 1;
    for (++i; i < lines.size(); ++i) {
        const bool last = i + 1 == lines.size();
        if (last && !ends_cleanly) {
            fail(name, i + 1, "the file ends in the middle of a row (truncated)");
        }
        const auto cells = split(lines[i], ',');
        if (cells.size() != columns) {
            fail(name, i + 1,
                 "the row has " + std::to_string(cells.size()) + " cells, expected " +
                     std::to_string(columns));
        }
        {
            std::size_t index = 0;
            const char* end = cells[0].data() + cells[0].size();
            const auto res = std::from_chars(cells[0].data(), end, index);
            if (cells[0].empty() || res.ec != std::errc() || res.ptr != end) {
                fail(name, i + 1,
                     "column 'frame': '" + std::string(cells[0]) + "' is not a frame number");
            }
        }
        FrameRecord f;
        for (std::size_t c = 1; c < columns; ++c) {
            const RecordColumn& col = *file_columns[c - 1];
            double v = 0;
            const char* end = cells[c].data() + cells[c].size();
            const auto res = std::from_chars(cells[c].data(), end, v);
            if (cells[c].empty() || res.ec != std::errc() || res.ptr != end) {
                fail(name, i + 1,
                     "column '" + std::string(col.name) + "': '" + std::string(cells[c]) +
                         "' is not a number");
            }
            f.*col.field = v;
        }
        r.frames.push_back(f);
    }
    if (r.frames.size() != expected) {
        fail(name, lines.size(),
             "the header says " + std::to_string(expected) + " frames but the file has " +
                 std::to_string(r.frames.size()) +
                 (r.frames.size() < expected ? " (truncated)" : ""));
    }
    return r;
}

}  // namespace plab::app
