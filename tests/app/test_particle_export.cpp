// The particle export: the VTK legacy binary file read back value by value, the CSV, the
// ParaView series list, frame numbering in a folder, the export plan's rules, `bench --export`
// end to end on the CPU backend, and the errors for folders and files that cannot be written.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "app/lab/bench.h"
#include "app/lab/export_run.h"
#include "app/lab/export_series.h"
#include "app/lab/output_file.h"
#include "app/lab/particle_export.h"
#include "sim/core/error.h"
#include "sim/model/presets.h"
#include "sim/physics/sph_kernel.h"
#include "support/csv.h"
#include "support/file_text.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;
using test::csv_cells;
using test::lines_of;
using test::read_text;
using test::TempDir;

// Three SPH particles with distinct values in every field (density around the rest density,
// one below it so its pressure is clamped to 0).
sim::Snapshot three_particles() {
    sim::Snapshot s;
    s.pos = {{0.1f, 0.2f, 0.3f, 0}, {-1.5f, 2.25f, 1e-3f, 0}, {0.f, 0.5f, 0.125f, 0}};
    s.vel = {{1.f, 2.f, 2.f, 1003.f}, {0.f, -3.f, 4.f, 998.f}, {-0.5f, 0.f, 0.f, 1010.5f}};
    return s;
}

// Reads a VTK legacy binary file section by section: text lines, then binary arrays whose
// size the preceding line gives, in big-endian byte order.
class VtkReader {
  public:
    explicit VtkReader(std::string bytes) : b_(std::move(bytes)) {}

    std::string line() {
        const std::size_t end = b_.find('\n', at_);
        EXPECT_NE(end, std::string::npos) << "no line at byte " << at_;
        std::string l = b_.substr(at_, end - at_);
        at_ = end + 1;
        return l;
    }
    std::uint32_t be32() {
        EXPECT_LE(at_ + 4, b_.size());
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(b_[at_++]);
        return v;
    }
    float be_float() { return std::bit_cast<float>(be32()); }
    double be_double() {
        const std::uint64_t hi = be32();
        return std::bit_cast<double>((hi << 32) | be32());
    }
    std::vector<float> floats(std::size_t n) {
        std::vector<float> v(n);
        for (float& x : v) x = be_float();
        EXPECT_EQ(line(), "") << "binary block not closed by a newline";
        return v;
    }
    bool done() const { return at_ == b_.size(); }

  private:
    std::string b_;
    std::size_t at_ = 0;
};

TEST(ParticleExport, VtkReadsBackValueByValue) {
    const sim::Params water = sim::preset_params(sim::Preset::Water);
    const sim::Snapshot snap = three_particles();
    const ExportFrame frame = make_export_frame(snap, water, 0.125);
    ASSERT_EQ(frame.count(), 3u);

    TempDir dir;
    const fs::path path = dir.path() / "f.vtk";
    write_vtk(path, frame);
    const std::string bytes = read_text(path);
    EXPECT_EQ(bytes, vtk_bytes(frame));

    VtkReader r(bytes);
    EXPECT_EQ(r.line(), "# vtk DataFile Version 3.0");
    EXPECT_EQ(r.line(), "particle-lab t=0.125 model=sph");
    EXPECT_EQ(r.line(), "BINARY");
    EXPECT_EQ(r.line(), "DATASET POLYDATA");
    EXPECT_EQ(r.line(), "FIELD FieldData 1");
    EXPECT_EQ(r.line(), "TimeValue 1 1 double");
    EXPECT_EQ(r.be_double(), 0.125);
    EXPECT_EQ(r.line(), "");

    EXPECT_EQ(r.line(), "POINTS 3 float");
    const std::vector<float> pts = r.floats(9);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(pts[3 * i + 0], snap.pos[i].x);
        EXPECT_EQ(pts[3 * i + 1], snap.pos[i].y);
        EXPECT_EQ(pts[3 * i + 2], snap.pos[i].z);
    }
    EXPECT_EQ(r.line(), "VERTICES 3 6");
    for (std::uint32_t i = 0; i < 3; ++i) {
        EXPECT_EQ(r.be32(), 1u) << "each cell is one point";
        EXPECT_EQ(r.be32(), i);
    }
    EXPECT_EQ(r.line(), "");

    EXPECT_EQ(r.line(), "POINT_DATA 3");
    EXPECT_EQ(r.line(), "VECTORS velocity float");
    const std::vector<float> vel = r.floats(9);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(vel[3 * i + 0], snap.vel[i].x);
        EXPECT_EQ(vel[3 * i + 1], snap.vel[i].y);
        EXPECT_EQ(vel[3 * i + 2], snap.vel[i].z);
    }
    EXPECT_EQ(r.line(), "SCALARS speed float 1");
    EXPECT_EQ(r.line(), "LOOKUP_TABLE default");
    const std::vector<float> speed = r.floats(3);
    EXPECT_FLOAT_EQ(speed[0], 3.f);  // |(1, 2, 2)|
    EXPECT_FLOAT_EQ(speed[1], 5.f);  // |(0, -3, 4)|
    EXPECT_FLOAT_EQ(speed[2], 0.5f);
    EXPECT_EQ(r.line(), "FIELD FieldData 2");
    EXPECT_EQ(r.line(), "density 1 3 float");
    const std::vector<float> density = r.floats(3);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(density[i], snap.vel[i].w);
    EXPECT_EQ(r.line(), "pressure 1 3 float");
    const std::vector<float> pressure = r.floats(3);
    const sim::SphConstants c = sim::sph_constants(water);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(pressure[i], sim::sph_pressure(snap.vel[i].w, c));
    EXPECT_GT(pressure[0], 0.f) << "compressed above the rest density";
    EXPECT_EQ(pressure[1], 0.f) << "below the rest density the pressure is clamped to 0";
    EXPECT_TRUE(r.done()) << "bytes after the last array";
}

TEST(ParticleExport, DemVtkHasSpeedButNoLiquidArrays) {
    const sim::Params granular = sim::preset_params(sim::Preset::Granular);
    sim::Snapshot snap = three_particles();
    for (auto& v : snap.vel) v.w = 0;
    const std::string bytes = vtk_bytes(make_export_frame(snap, granular, 2.5));
    EXPECT_NE(bytes.find("particle-lab t=2.5 model=dem\n"), std::string::npos);
    EXPECT_NE(bytes.find("SCALARS speed float 1"), std::string::npos);
    EXPECT_EQ(bytes.find("density"), std::string::npos);
    EXPECT_EQ(bytes.find("pressure"), std::string::npos);
}

TEST(ParticleExport, CsvHasTheHeaderAndEveryValueExactly) {
    const sim::Params water = sim::preset_params(sim::Preset::Water);
    const sim::Snapshot snap = three_particles();
    const ExportFrame frame = make_export_frame(snap, water, 0.0375);
    TempDir dir;
    write_csv(dir.path() / "f.csv", frame);
    const std::vector<std::string> lines = lines_of(read_text(dir.path() / "f.csv"));
    ASSERT_EQ(lines.size(), 3u + 3u);
    EXPECT_EQ(lines[0], "# time=0.0375 model=sph particles=3");
    EXPECT_EQ(lines[1].rfind("# units:", 0), 0u) << lines[1];
    EXPECT_EQ(lines[2], "id,x,y,z,vx,vy,vz,density,pressure");
    for (std::size_t i = 0; i < 3; ++i) {
        const std::vector<std::string> c = csv_cells(lines[3 + i]);
        ASSERT_EQ(c.size(), 9u) << lines[3 + i];
        EXPECT_EQ(c[0], std::to_string(i));
        // Shortest round-trip text: every float reads back bit for bit.
        const sim::Float4 &p = snap.pos[i], &v = snap.vel[i];
        const float want[8] = {p.x, p.y, p.z, v.x, v.y, v.z, v.w, frame.pressure[i]};
        for (int k = 0; k < 8; ++k)
            EXPECT_EQ(std::strtof(c[1 + k].c_str(), nullptr), want[k]) << lines[3 + i];
    }
}

TEST(ParticleExport, CsvLeavesLiquidColumnsAndNonFiniteValuesEmpty) {
    const sim::Params granular = sim::preset_params(sim::Preset::Granular);
    sim::Snapshot snap = three_particles();
    snap.vel[1].y = std::numeric_limits<float>::quiet_NaN();
    const std::vector<std::string> lines = lines_of(csv_text(make_export_frame(snap, granular, 0)));
    ASSERT_EQ(lines.size(), 6u);
    EXPECT_EQ(lines[0], "# time=0 model=dem particles=3");
    EXPECT_EQ(csv_cells(lines[3])[7], "");
    EXPECT_EQ(csv_cells(lines[3])[8], "");
    EXPECT_EQ(csv_cells(lines[4])[5], "") << "NaN becomes an empty cell: " << lines[4];
}

TEST(ParticleExport, MismatchedSnapshotIsRefused) {
    sim::Snapshot snap = three_particles();
    snap.vel.pop_back();
    EXPECT_THROW(make_export_frame(snap, sim::preset_params(sim::Preset::Water), 0), Error);
}

TEST(ExportSeries, ListsEveryFrameWithItsTimeAndAppendsAfterExistingOnes) {
    const sim::Params water = sim::preset_params(sim::Preset::Water);
    TempDir dir;
    const fs::path folder = dir.path() / "run" / "a";  // parents are created
    {
        ExportSeries series(folder, ExportSeries::Mode::Fresh);
        for (double t : {0.0, 0.01, 0.02}) series.write(three_particles(), water, t);
        EXPECT_EQ(series.next_index(), 3u);
    }
    const std::vector<SeriesEntry> listed = read_series(folder / kSeriesFileName);
    ASSERT_EQ(listed.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(listed[k].file, frame_file_name(k, "vtk"));
        EXPECT_DOUBLE_EQ(listed[k].time, 0.01 * static_cast<double>(k));
        EXPECT_TRUE(fs::exists(folder / frame_file_name(k, "vtk")));
        EXPECT_TRUE(fs::exists(folder / frame_file_name(k, "csv")));
    }
    EXPECT_EQ(frame_file_name(42, "csv"), "frame_000042.csv");
    const std::string json = read_text(folder / kSeriesFileName);
    EXPECT_NE(json.find("\"file-series-version\": \"1.0\""), std::string::npos) << json;
    EXPECT_NE(json.find("{\"name\": \"frame_000001.vtk\", \"time\": 0.01}"), std::string::npos)
        << json;

    // The panel's button: the next frame goes after the ones there, which stay listed.
    ExportSeries more(folder, ExportSeries::Mode::Append);
    EXPECT_EQ(more.next_index(), 3u);
    EXPECT_EQ(more.write(three_particles(), water, 7.5), folder / "frame_000003.vtk");
    const std::vector<SeriesEntry> all = read_series(folder / kSeriesFileName);
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[3].file, "frame_000003.vtk");
    EXPECT_EQ(all[3].time, 7.5);

    // A fresh series starts over at frame 0 with only its own frames listed.
    ExportSeries fresh(folder, ExportSeries::Mode::Fresh);
    fresh.write(three_particles(), water, 1.0);
    EXPECT_EQ(read_series(folder / kSeriesFileName).size(), 1u);
}

TEST(ExportSeries, AppendNeverOverwritesUnlistedFramesAndRejectsAForeignList) {
    TempDir dir;
    write_whole_file(dir.path() / "frame_000009.csv", "");
    EXPECT_EQ(ExportSeries(dir.path(), ExportSeries::Mode::Append).next_index(), 10u);

    write_whole_file(dir.path() / kSeriesFileName, "{\"files\": 3}");
    try {
        ExportSeries s(dir.path(), ExportSeries::Mode::Append);
        FAIL() << "a list that is not a series was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(kSeriesFileName), std::string::npos) << e.what();
    }
}

// Ten DEM particles: the smallest frames, so that the list is most of what is written.
sim::Snapshot ten_particles() {
    sim::Snapshot s;
    for (int i = 0; i < 10; ++i) {
        s.pos.push_back({0.1f * static_cast<float>(i), 0.5f, 0.5f, 0.f});
        s.vel.push_back({0.f, -1.f, 0.f, 0.f});
    }
    return s;
}

TEST(ExportSeries, TheListIsValidAfterEveryFrameAndCompleteAfterFinish) {
    const sim::Params dem = sim::preset_params(sim::Preset::Classic);
    TempDir dir;
    ExportSeries series(dir.path(), ExportSeries::Mode::Fresh);
    for (std::size_t k = 0; k < 300; ++k) {
        series.write(ten_particles(), dem, 0.01 * static_cast<double>(k));
        // Whatever moment a kill comes: a list that opens, never empty, naming only frames
        // that are there, in order, and at most an eighth behind.
        const std::vector<SeriesEntry> listed = read_series(dir.path() / kSeriesFileName);
        ASSERT_FALSE(listed.empty()) << "after frame " << k;
        ASSERT_EQ(listed.size(), series.listed());
        ASSERT_LE(listed.size(), k + 1);
        ASSERT_GE(9 * listed.size(), 8 * (k + 1)) << "after frame " << k;
        for (std::size_t i = 0; i < listed.size(); ++i) {
            ASSERT_EQ(listed[i].file, frame_file_name(i, "vtk"));
            ASSERT_TRUE(fs::exists(dir.path() / listed[i].file)) << listed[i].file;
        }
    }
    series.finish();
    EXPECT_EQ(read_series(dir.path() / kSeriesFileName).size(), 300u);
    for (const auto& e : fs::directory_iterator(dir.path()))
        EXPECT_FALSE(e.path().filename().string().ends_with(".part")) << e.path();
}

TEST(ExportSeries, SixteenThousandFramesWriteTheListInLinearBytes) {
    const sim::Params dem = sim::preset_params(sim::Preset::Classic);
    TempDir dir;
    ExportSeries series(dir.path(), ExportSeries::Mode::Fresh);
    constexpr std::size_t kFrames = 16000;
    for (std::size_t k = 0; k < kFrames; ++k)
        series.write(ten_particles(), dem, 0.001 * static_cast<double>(k));
    series.finish();
    const auto final_bytes = fs::file_size(dir.path() / kSeriesFileName);
    const std::uintmax_t written = series.list_bytes_written();
    std::printf("particles.vtk.series: %ju bytes at the end, %ju written over %zu frames\n",
                final_bytes, written, kFrames);
    RecordProperty("series_bytes_written", std::to_string(written));
    EXPECT_EQ(read_series(dir.path() / kSeriesFileName).size(), kFrames);
    // Rewritten after every frame this was 6.4 GB; rewrites that grow by an eighth each time
    // add up to about nine times the final list.
    EXPECT_LE(written, 10 * final_bytes);
    EXPECT_LT(written, std::uintmax_t{20} << 20);
}

TEST(ExportErrors, AFolderUnderARegularFileNamesThePath) {
    TempDir dir;
    const fs::path file = dir.path() / "plain_file";
    write_whole_file(file, "x");
    for (const fs::path& folder : {file, file / "exports"}) {
        try {
            ExportSeries s(folder, ExportSeries::Mode::Fresh);
            FAIL() << "exported into " << folder;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(folder.string()), std::string::npos) << e.what();
        }
    }
}

TEST(ExportErrors, AFullDiskIsAWriteErrorNamingTheFile) {
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
    // /dev/full takes the open and fails every write with ENOSPC, as a full disk does.
    try {
        write_whole_file("/dev/full", std::string(1 << 16, 'x'));
        FAIL() << "a write to a full device succeeded";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("/dev/full"), std::string::npos) << what;
        EXPECT_NE(what.find("No space left"), std::string::npos) << what;
    }
}

TEST(ExportErrors, AFileThatCannotBeOpenedNamesIt) {
    TempDir dir;
    const fs::path missing = dir.path() / "no_such_folder" / "f.vtk";
    try {
        write_whole_file(missing, "x");
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
    }
}

TEST(ExportPlan, FramesAtTheNearestStepOfEachMultiple) {
    const ExportPlan p = plan_export(0.01, 0.05, 0.00014);
    ASSERT_EQ(p.frames(), 6u);
    for (std::size_t k = 0; k < p.frames(); ++k) {
        EXPECT_EQ(p.steps[k], std::llround(static_cast<double>(k) * 0.01 / 0.00014));
        EXPECT_LE(std::abs(p.time(k) - 0.01 * static_cast<double>(k)), 0.00007 + 1e-12);
    }
    EXPECT_EQ(p.steps[0], 0);
    EXPECT_EQ(plan_export(0.1, 0.3, 0.01).frames(), 4u) << "0.3 / 0.1 is three intervals";
    EXPECT_EQ(plan_export(0.3, 1.0, 0.1).frames(), 4u) << "the last frame is at 0.9 s";
    EXPECT_EQ(plan_export(0.5, 0.5, 0.5).steps, (std::vector<long long>{0, 1}));
}

TEST(ExportPlan, BadValuesAreErrorsNamingTheFlag) {
    const auto message = [](double every, double duration, double dt) {
        try {
            plan_export(every, duration, dt);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_NE(message(0, 1, 1e-3).find("--export-every"), std::string::npos);
    EXPECT_NE(message(-0.1, 1, 1e-3).find("--export-every"), std::string::npos);
    EXPECT_NE(message(std::nan(""), 1, 1e-3).find("--export-every"), std::string::npos);
    EXPECT_NE(message(0.1, 0, 1e-3).find("--duration"), std::string::npos);
    EXPECT_NE(message(0.1, INFINITY, 1e-3).find("--duration"), std::string::npos);
    EXPECT_NE(message(1e-4, 1, 1e-3).find("shorter than one step"), std::string::npos);
    EXPECT_NE(message(2, 1, 1e-3).find("longer than --duration"), std::string::npos);
    EXPECT_NE(message(1e-3, 1e4, 1e-3).find("at most"), std::string::npos);
}

BenchConfig small_tank() {
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.scene = std::string(PLAB_SCENES_DIR) + "/hydrostatic_tank.json";
    c.particles = 300;
    c.particles_given = true;
    return c;
}

TEST(BenchExport, HydrostaticTankWritesEveryFrameWithIncreasingTime) {
    TempDir dir;
    ExportConfig e;
    e.folder = (dir.path() / "tank").string();
    e.every = 0.01;
    e.duration = 0.05;
    std::ostringstream out, progress;
    run_export(small_tank(), e, out, progress);

    const std::vector<SeriesEntry> listed = read_series(dir.path() / "tank" / kSeriesFileName);
    ASSERT_EQ(listed.size(), 6u) << out.str();
    EXPECT_EQ(listed[0].time, 0.0);
    for (std::size_t k = 1; k < listed.size(); ++k) {
        EXPECT_GT(listed[k].time, listed[k - 1].time);
        EXPECT_NEAR(listed[k].time, 0.01 * static_cast<double>(k), 0.5 * 0.00014 + 1e-12);
    }
    for (std::size_t k = 0; k < listed.size(); ++k) {
        const fs::path vtk = dir.path() / "tank" / frame_file_name(k, "vtk");
        const fs::path csv = dir.path() / "tank" / frame_file_name(k, "csv");
        ASSERT_TRUE(fs::exists(vtk) && fs::exists(csv)) << vtk;
        const std::vector<std::string> lines = lines_of(read_text(csv));
        ASSERT_EQ(lines.size(), 3u + 300u);
        // "# time=<t> model=sph particles=300", the time exactly as listed.
        ASSERT_EQ(lines[0].rfind("# time=", 0), 0u) << lines[0];
        char* rest = nullptr;
        EXPECT_EQ(std::strtod(lines[0].c_str() + 7, &rest), listed[k].time) << lines[0];
        EXPECT_STREQ(rest, " model=sph particles=300");
        // Liquid in a tank: every particle has a summation density near the rest density
        // (lower at the free surface: 300 particles are a partial layer), from frame 0 on
        // (the reset computes it).
        double sum = 0;
        for (std::size_t i = 3; i < lines.size(); ++i) {
            const std::vector<std::string> cells = csv_cells(lines[i]);
            ASSERT_EQ(cells.size(), 9u) << lines[i];
            const double rho = std::strtod(cells[7].c_str(), nullptr);
            EXPECT_GT(rho, 500.0) << lines[i];
            EXPECT_GE(std::strtod(cells[8].c_str(), nullptr), 0.0) << lines[i];
            sum += rho;
        }
        // A quarter-empty single layer is all free surface: ~20% below the rest density.
        EXPECT_NEAR(sum / 300.0, 1000.0, 250.0);
        EXPECT_EQ(read_text(vtk).rfind("# vtk DataFile Version 3.0\nparticle-lab t=", 0), 0u);
    }
    EXPECT_NE(progress.str().find("frame 6/6"), std::string::npos) << progress.str();
    EXPECT_NE(out.str().find("wrote        6 frames"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find((dir.path() / "tank").string()), std::string::npos) << out.str();
}

TEST(BenchExport, UnwritableFolderFailsBeforeRunningAndNamesIt) {
    TempDir dir;
    const fs::path file = dir.path() / "a_file";
    write_whole_file(file, "");
    ExportConfig e;
    e.folder = (file / "out").string();
    e.every = 0.01;
    e.duration = 0.02;
    std::ostringstream out, progress;
    try {
        run_export(small_tank(), e, out, progress);
        FAIL() << "exported under a regular file";
    } catch (const Error& err) {
        EXPECT_NE(std::string(err.what()).find(e.folder), std::string::npos) << err.what();
    }
    EXPECT_EQ(progress.str(), "") << "no step ran";
}

TEST(BenchExport, IntervalBelowOneStepIsRefused) {
    TempDir dir;
    ExportConfig e;
    e.folder = dir.path().string();
    e.every = 1e-5;  // the tank's dt is ~1.4e-4 s
    std::ostringstream out, progress;
    EXPECT_THROW(run_export(small_tank(), e, out, progress), Error);
    EXPECT_FALSE(fs::exists(dir.path() / kSeriesFileName));
}

}  // namespace
}  // namespace plab::app
