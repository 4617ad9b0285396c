#include "app/lab/export_series.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string_view>
#include <system_error>

#include "app/lab/output_file.h"
#include "sim/core/error.h"

namespace plab::app {
namespace {

// The index of a "frame_<digits>.vtk" or ".csv" name, if it is one.
std::optional<std::size_t> frame_index(std::string_view name) {
    constexpr std::string_view prefix = "frame_";
    if (!name.starts_with(prefix)) return std::nullopt;
    name.remove_prefix(prefix.size());
    if (!name.ends_with(".vtk") && !name.ends_with(".csv")) return std::nullopt;
    name.remove_suffix(4);
    if (name.empty() || name.size() > 12) return std::nullopt;
    std::size_t index = 0;
    for (char c : name) {
        if (c < '0' || c > '9') return std::nullopt;
        index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    return index;
}

// One past the highest frame index among the folder's files and the list's entries: an
// export never overwrites a frame already there, listed or not.
std::size_t first_free_index(const std::filesystem::path& folder,
                             const std::vector<SeriesEntry>& entries) {
    std::size_t next = 0;
    const auto see = [&](std::string_view name) {
        if (auto i = frame_index(name)) next = std::max(next, *i + 1);
    };
    for (const SeriesEntry& e : entries) see(e.file);
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end;
         it.increment(ec))
        see(it->path().filename().string());
    if (ec) throw Error("cannot list the folder '" + folder.string() + "': " + ec.message());
    return next;
}

}  // namespace

std::string frame_file_name(std::size_t index, const char* extension) {
    char name[64];
    std::snprintf(name, sizeof name, "frame_%06zu.%s", index, extension);
    return name;
}

ExportSeries::ExportSeries(std::filesystem::path folder, Mode mode) : folder_(std::move(folder)) {
    make_folder(folder_);
    // A folder that takes no files fails here, before any step runs.
    require_writable(series_path());
    if (mode == Mode::Append) {
        std::error_code ec;
        if (std::filesystem::exists(series_path(), ec)) entries_ = read_series(series_path());
        next_index_ = first_free_index(folder_, entries_);
        listed_ = entries_.size();
    }
}

std::filesystem::path ExportSeries::write(sim::Snapshot snapshot, const sim::Params& params,
                                          double time) {
    const ExportFrame frame = make_export_frame(std::move(snapshot), params, time);
    const std::string vtk_name = frame_file_name(next_index_, "vtk");
    const std::filesystem::path vtk_path = folder_ / vtk_name;
    write_vtk(vtk_path, frame);
    write_csv(folder_ / frame_file_name(next_index_, "csv"), frame);
    // Counted only once both files are written: a failed frame is retried under the same index.
    entries_.push_back({vtk_name, time});
    ++next_index_;
    // Due when the unlisted frames reach an eighth of the listed ones (every frame at first):
    // the list's total bytes stay within about nine times its final size.
    const std::size_t unlisted = entries_.size() - listed_;
    if (unlisted >= std::max<std::size_t>(1, listed_ / 8)) write_list();
    return vtk_path;
}

void ExportSeries::finish() {
    if (listed_ < entries_.size()) write_list();
}

void ExportSeries::write_list() {
    const std::string json = series_json(entries_);
    write_whole_file(series_path(), json);
    listed_ = entries_.size();
    list_bytes_ += json.size();
}

}  // namespace plab::app
