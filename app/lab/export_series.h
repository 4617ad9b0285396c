#pragma once
// A folder of exported frames: frame_NNNNNN.vtk and frame_NNNNNN.csv per frame, and
// particles.vtk.series listing every frame with its simulated time (open that in ParaView for
// the time slider). The list is rewritten after each frame, so a run that stops early still
// leaves a series that opens.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "app/lab/particle_export.h"
#include "sim/params.h"
#include "sim/simulator.h"

namespace plab::app {

inline constexpr const char* kSeriesFileName = "particles.vtk.series";

// "frame_000042.vtk" for (42, "vtk").
std::string frame_file_name(std::size_t index, const char* extension);

class ExportSeries {
  public:
    enum class Mode {
        Fresh,   // frames from 0, the list holds only this run's (bench: one run per folder)
        Append,  // after the frames already in the folder and its list (the panel's button)
    };
    // Creates `folder` (and parents). Throws plab::Error naming it when it cannot, or, in
    // Append mode, when an existing list cannot be read.
    ExportSeries(std::filesystem::path folder, Mode mode);

    // Writes the next frame (VTK and CSV) from `snapshot` at simulated time `time` (s) and
    // rewrites the list. Returns the VTK file's path. Throws plab::Error naming the file that
    // could not be written; the list then still describes the frames before it.
    std::filesystem::path write(sim::Snapshot snapshot, const sim::Params& params, double time);

    const std::filesystem::path& folder() const { return folder_; }
    std::filesystem::path series_path() const { return folder_ / kSeriesFileName; }
    const std::vector<SeriesEntry>& entries() const { return entries_; }
    std::size_t next_index() const { return next_index_; }

  private:
    std::filesystem::path folder_;
    std::vector<SeriesEntry> entries_;
    std::size_t next_index_ = 0;
};

}  // namespace plab::app
