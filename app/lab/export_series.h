#pragma once
// A folder of exported frames: frame_NNNNNN.vtk and frame_NNNNNN.csv per frame, and
// particles.vtk.series listing every frame with its simulated time (open that in ParaView for
// the time slider). Every file is written whole or not at all (output_file.h), so a frame or
// list under its name is never cut off. The list is rewritten when the frames it lacks reach
// an eighth of those it has, and by finish(): a run killed outright leaves a list that opens
// and names only frames that are there, and the rewriting stays linear in the frame count
// (each rewrite is at least an eighth longer than the one before).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/lab/particle_export.h"
#include "sim/engine/simulator.h"
#include "sim/model/params.h"

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
    // Creates `folder` (and parents) and checks that files can be written in it. Throws
    // plab::Error naming it when it cannot, or, in Append mode, when an existing list cannot
    // be read.
    ExportSeries(std::filesystem::path folder, Mode mode);

    // Writes the next frame (VTK and CSV) from `snapshot` at simulated time `time` (s), and
    // the list when it is due. Returns the VTK file's path. Throws plab::Error naming the file
    // that could not be written; the frame is then not counted (retried under its index).
    std::filesystem::path write(sim::Snapshot snapshot, const sim::Params& params, double time);
    // Writes the list when it lacks frames. Call it when the run ends, however it ends.
    void finish();

    const std::filesystem::path& folder() const { return folder_; }
    std::filesystem::path series_path() const { return folder_ / kSeriesFileName; }
    const std::vector<SeriesEntry>& entries() const { return entries_; }
    std::size_t next_index() const { return next_index_; }
    std::size_t listed() const { return listed_; }  // entries in the list on disk
    std::uintmax_t list_bytes_written() const { return list_bytes_; }  // by this object

  private:
    void write_list();

    std::filesystem::path folder_;
    std::vector<SeriesEntry> entries_;
    std::size_t next_index_ = 0;
    std::size_t listed_ = 0;
    std::uintmax_t list_bytes_ = 0;
};

}  // namespace plab::app
