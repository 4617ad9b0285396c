#pragma once
// The particle export formats: one frame of particles (positions, velocities and, for SPH,
// density and pressure, with the simulated time) as a VTK legacy binary POLYDATA file that
// ParaView opens, as CSV for scripts, and the ParaView file-series list that gives the frames
// their times. Formats in docs/export.md. No GL, no window: the bench and the panel share it.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/model/params.h"

namespace plab::app {

// One frame in particle-id order, with the values derived from the snapshot.
struct ExportFrame {
    double time = 0;  // s of simulated time (steps run × dt)
    sim::Model model = sim::Model::Dem;
    sim::Snapshot particles;      // pos xyz in m, vel xyz in m/s
    std::vector<float> speed;     // m/s, |vel|
    std::vector<float> density;   // kg/m³ (SPH: vel.w; empty for DEM)
    std::vector<float> pressure;  // Pa (SPH: the Tait pressure of the density; empty for DEM)

    std::size_t count() const { return particles.pos.size(); }
    bool has_liquid() const { return model == sim::Model::Sph; }
};

// Takes over `snapshot` and derives speed, density and pressure with `params` (the model and
// the SPH constants). Throws plab::Error when positions and velocities differ in count or the
// time is not finite.
ExportFrame make_export_frame(sim::Snapshot snapshot, const sim::Params& params, double time);

// The file contents. VTK: "# vtk DataFile Version 3.0", the title
// "particle-lab t=<seconds> model=<dem|sph>", BINARY, DATASET POLYDATA with a TimeValue field,
// POINTS (float), one VERTICES cell per particle, then POINT_DATA: velocity (VECTORS), speed
// (SCALARS) and, for SPH, density and pressure (a FIELD of two float arrays). Binary data is
// big-endian, as the legacy format requires. Throws when the count does not fit the format's 32-bit
// cell indices.
std::string vtk_bytes(const ExportFrame& frame);
// CSV: "# time=<s> model=<m> particles=<n>", a units comment, then
// id,x,y,z,vx,vy,vz,density,pressure. Density and pressure are empty for DEM, and for an SPH
// particle whose density is 0 (none computed; simulators compute it at reset); an empty cell
// is also what a NaN or infinite value becomes. Values are the shortest
// text that reads back as the same float; times (here, in the VTK title and in the series
// list) have 12 significant digits.
std::string csv_text(const ExportFrame& frame);

// One frame of a series: its file name (relative to the series file's folder) and time.
struct SeriesEntry {
    std::string file;
    double time = 0;  // s
};
// ParaView's JSON file-series list ({"file-series-version": "1.0", "files": [...]}), which a
// file named <anything>.vtk.series must hold to open the legacy files as one time series.
std::string series_json(const std::vector<SeriesEntry>& entries);
// Reads a series list back (the panel adds to one). Throws naming the file when it cannot be
// read or is not such a list.
std::vector<SeriesEntry> read_series(const std::filesystem::path& path);

// Whole files or nothing (output_file.h); throw plab::Error naming the path.
void write_vtk(const std::filesystem::path& path, const ExportFrame& frame);
void write_csv(const std::filesystem::path& path, const ExportFrame& frame);

}  // namespace plab::app
