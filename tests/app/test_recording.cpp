// Recording files: write → read gives the same values and configuration; truncated, foreign
// and damaged files are refused with the file, the line and what is wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/lab/recording.h"
#include "sim/core/error.h"
#include "sim/model/presets.h"
#include "support/error_of.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

Recording sample() {
    ConfigSource src;
    src.params = sim::preset_params(sim::Preset::Granular);
    src.backend = "cpu";
    src.device = "Test CPU, 2 threads (x=1)";  // commas and '=' survive
    src.feed = "host";
    src.particles = 4096;
    src.preset = "granular";
    src.vsync = false;
    src.options.block_size = 128;
    Recording r;
    r.config = describe_configuration(src);
    for (int i = 0; i < 7; ++i) {
        FrameRecord f;
        f.frame_ms = 16.0 + i * 0.1;
        f.step_ms = 1.0 / 3.0 + i;  // not exactly representable in short decimal
        f.grid_ms = 0.25 * i;
        f.reorder_ms = 1e-7 * i;
        f.forces_ms = 12345.678901234;
        f.integrate_ms = 0;
        f.export_ms = 0.5;
        f.feed_ms = 0.75;
        f.draw_ms = 2.0 / 7.0;
        f.fps = 1000.0 / f.frame_ms;
        r.frames.push_back(f);
    }
    return r;
}

std::string error_of(std::string_view text) {
    return test::error_of([&] { parse_recording(text, "run.csv"); });
}

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

TEST(Recording, ConfigurationHasEveryParameterAndSwitch) {
    const Recording r = sample();
    for (const auto& p : sim::param_table())
        EXPECT_NE(r.find("param." + std::string(p.name)), nullptr) << p.name;
    for (const char* key :
         {"backend", "device", "preset", "particles", "feed", "vsync", "variant.block_size",
          "variant.graph", "variant.threads_per_particle", "variant.fuse_integrate",
          "variant.contact_list", "variant.scatter_forces", "variant.persistent_kernel",
          "variant.sorted_memory", "variant.double_state", "model", "version", "build_type",
          "commit"})
        EXPECT_NE(r.find(key), nullptr) << key;
    EXPECT_EQ(*r.find("variant.persistent_kernel"), "off");
    EXPECT_EQ(*r.find("variant.sorted_memory"), "on");
    EXPECT_EQ(*r.find("variant.double_state"), "off");
    EXPECT_EQ(*r.find("model"), "dem");
    EXPECT_EQ(*r.find("variant.block_size"), "128");
    EXPECT_EQ(*r.find("particles"), "4096");
    EXPECT_EQ(*r.find("vsync"), "off");
    EXPECT_EQ(*r.find("variant.fuse_integrate"), "on");
    EXPECT_FALSE(r.find("commit")->empty());
    // Float parameters print as the float, not the double nearest to it.
    sim::Params p = sim::preset_params(sim::Preset::Classic);
    ConfigSource src;
    src.params = p;
    const Recording c{describe_configuration(src), {}};
    EXPECT_EQ(*c.find("param.damping"), "0.02");
    EXPECT_EQ(*c.find("param.substeps"), "1");
}

TEST(Recording, WriteThenReadGivesIdenticalValues) {
    const Recording r = sample();
    const test::TempDir dir;
    const fs::path path = dir / "roundtrip.csv";
    write_recording(r, path);
    const Recording back = read_recording(path);
    EXPECT_EQ(back.config, r.config);
    ASSERT_EQ(back.frames.size(), r.frames.size());
    for (std::size_t i = 0; i < r.frames.size(); ++i)
        for (const auto& c : record_columns())
            EXPECT_EQ(back.frames[i].*c.field, r.frames[i].*c.field) << c.name << " row " << i;
    fs::remove(path);
}

TEST(Recording, FileStartsWithMagicThenHeaderThenColumns) {
    const std::string text = recording_to_csv(sample());
    EXPECT_TRUE(text.starts_with("# particle-lab recording\n# format=2\n# frames=7\n"));
    EXPECT_TRUE(contains(text, "\n# backend=cpu\n"));
    EXPECT_TRUE(contains(text,
                         "\nframe,frame_ms,step_ms,grid_ms,reorder_ms,forces_ms,"
                         "integrate_ms,export_ms,feed_ms,draw_ms,edit_ms,fps\n0,16,"));
}

TEST(Recording, FormatOneFilesReadWithoutEditTimes) {
    // Written before the edit_ms column: the same rows, one cell fewer.
    const std::string text =
        "# particle-lab recording\n# format=1\n# frames=2\n# backend=cpu\n"
        "frame,frame_ms,step_ms,grid_ms,reorder_ms,forces_ms,integrate_ms,export_ms,feed_ms,"
        "draw_ms,fps\n0,16,2,0.5,0.5,1,0,0.1,0.2,3,62.5\n1,20,2,0.5,0.5,1,0,0.1,0.2,4,50\n";
    const Recording r = parse_recording(text, "old.csv");
    ASSERT_EQ(r.frames.size(), 2u);
    EXPECT_EQ(r.frames[1].frame_ms, 20.0);
    EXPECT_EQ(r.frames[1].draw_ms, 4.0);
    EXPECT_EQ(r.frames[1].fps, 50.0);
    EXPECT_EQ(r.frames[1].edit_ms, 0.0);
    // A format-1 file with the new column line is refused: the header says which it is.
    const std::string e = error_of(
        "# particle-lab recording\n# format=1\n# frames=0\n"
        "frame,frame_ms,step_ms,grid_ms,reorder_ms,forces_ms,integrate_ms,export_ms,feed_ms,"
        "draw_ms,edit_ms,fps\n");
    EXPECT_TRUE(contains(e, "line 4: the columns are")) << e;
}

TEST(Recording, EmptyRecordingRoundTrips) {
    Recording r;
    r.config = {{"backend", "cpu"}, {"note", ""}};
    const Recording back = parse_recording(recording_to_csv(r), "empty.csv");
    EXPECT_EQ(back.config, r.config);
    EXPECT_TRUE(back.frames.empty());
}

TEST(Recording, TruncatedFileIsAClearError) {
    const std::string text = recording_to_csv(sample());
    // Cut in the middle of the last row.
    const std::string mid_row = text.substr(0, text.size() - 5);
    const std::string e1 = error_of(mid_row);
    EXPECT_TRUE(contains(e1, "run.csv: line ")) << e1;
    EXPECT_TRUE(contains(e1, "truncated")) << e1;
    // Cut at a row boundary: fewer rows than the header announced.
    const std::size_t last_row = text.rfind('\n', text.size() - 2);
    const std::string e2 = error_of(text.substr(0, last_row + 1));
    EXPECT_TRUE(contains(e2, "header says 7 frames but the file has 6 (truncated)")) << e2;
    // Cut inside the header.
    const std::string e3 = error_of(text.substr(0, text.find("# backend")));
    EXPECT_TRUE(contains(e3, "no column line (truncated?)")) << e3;
}

TEST(Recording, ForeignCsvIsAClearError) {
    const std::string e1 = error_of("time,value\n1,2\n");
    EXPECT_TRUE(contains(e1, "run.csv: line 1: not a Particle Lab recording")) << e1;
    EXPECT_TRUE(contains(e1, "'time,value'")) << e1;
    EXPECT_TRUE(contains(error_of(""), "empty file"));
    const std::string e2 =
        error_of("# particle-lab recording\n# format=1\n# frames=1\nframe,ms\n0,1\n");
    EXPECT_TRUE(contains(e2, "run.csv: line 4: the columns are 'frame,ms'")) << e2;
    const std::string e3 = error_of("# particle-lab recording\n# format=9\n# frames=0\n");
    EXPECT_TRUE(contains(e3, "format 9 is not supported")) << e3;
    EXPECT_TRUE(contains(e3, "reads formats 1 and 2")) << e3;
    const std::string e4 = error_of("# particle-lab recording\n# format=1\n# frames=0\n#oops\n");
    EXPECT_TRUE(contains(e4, "line 4: a header line must read '# key=value'")) << e4;
}

TEST(Recording, NonNumericCellIsAClearError) {
    std::string text = recording_to_csv(sample());
    const std::size_t row = text.find("\n2,") + 1;  // line of frame 2
    const std::size_t cell = text.find(',', row) + 1;
    text.replace(cell, text.find(',', cell) - cell, "fast");
    const std::string e = error_of(text);
    EXPECT_TRUE(contains(e, "column 'frame_ms': 'fast' is not a number")) << e;
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(row), '\n');
    EXPECT_TRUE(contains(e, "run.csv: line " + std::to_string(line) + ":")) << e;
}

TEST(Recording, MissingFileNamesThePath) {
    try {
        read_recording("/nonexistent/dir/run.csv");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_TRUE(contains(e.what(), "cannot open recording '/nonexistent/dir/run.csv'"))
            << e.what();
    }
}

}  // namespace
}  // namespace plab::app
