// scripts/plot_bench.py draws a sweep.csv into PNG files and refuses files that are not one.
// Needs matplotlib for /usr/bin/python3 (Debian python3-matplotlib); skipped without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/plot_script.h"
#include "support/file_text.h"
#include "support/shell.h"
#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;

using plab::test::read_text;
using plab::test::run_command;
using plab::testing::kPython;

class PlotBench : public testing::Test {
  protected:
    void SetUp() override {
        if (const std::string why = plab::testing::why_plots_cannot_run(); !why.empty())
            GTEST_SKIP() << why;
    }

    // Runs the script on `csv` (written to a file) and returns its exit code; stderr goes to
    // err_.
    int plot(const std::string& csv) {
        const fs::path in = dir_ / "sweep.csv";
        std::ofstream(in) << csv;
        const int rc = run_command(std::string(kPython) + " " + PLAB_PLOT_SCRIPT + " " +
                                   in.string() + " --out " + (dir_ / "png").string() +
                                   " >/dev/null 2>" + (dir_ / "err.txt").string());
        err_ = read_text(dir_ / "err.txt");
        return rc;
    }

    const plab::test::TempDir dir_;
    std::string err_;
};

// The layout bench --sweep writes: configuration columns, then median/p10/p90 per stage.
const char* kHeader =
    "backend,device,preset,particles,block,graph,threads_per_particle,fuse_integrate,"
    "contact_list,step_ms_median,step_ms_p10,step_ms_p90,grid_ms_median,grid_ms_p10,"
    "grid_ms_p90,reorder_ms_median,reorder_ms_p10,reorder_ms_p90,forces_ms_median,"
    "forces_ms_p10,forces_ms_p90,integrate_ms_median,integrate_ms_p10,integrate_ms_p90,"
    "steps_per_s\n";

std::string row(const char* backend, int particles, double step) {
    std::ostringstream r;
    r << backend << ",\"Device, 2 threads\",classic," << particles << ",256,off,0,on,on," << step
      << "," << step * 0.9 << "," << step * 1.1;
    for (int s = 0; s < 4; ++s) r << "," << step / 4 << "," << step / 5 << "," << step / 3;
    r << "," << 1000 / step << "\n";
    return r.str();
}

bool is_png(const fs::path& p) {
    const std::string bytes = read_text(p);
    return bytes.size() > 1000 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

TEST_F(PlotBench, WritesStepAndStageCharts) {
    std::string csv = kHeader;
    for (int n : {1000, 4000, 16000}) {
        csv += row("cpu", n, n * 1e-3);
        csv += row("cuda", n, n * 1e-5);
    }
    ASSERT_EQ(plot(csv), 0) << err_;
    EXPECT_TRUE(is_png(dir_ / "png" / "step_ms.png"));
    EXPECT_TRUE(is_png(dir_ / "png" / "stages.png"));
}

TEST_F(PlotBench, DivergedPointsAreLeftOut) {
    // The valid and invalid_reason columns as bench --sweep writes them; a diverged point has
    // empty timing cells.
    std::string csv = kHeader;
    csv.replace(csv.find(",step_ms_median"), 0, ",valid,invalid_reason");
    auto with_validity = [](std::string r, const char* validity) {
        const std::size_t at = r.find(",on,on,") + 6;
        return r.insert(at, validity);
    };
    csv += with_validity(row("cpu", 1000, 1.0), ",yes,");
    csv += with_validity(row("cpu", 4000, 4.0), ",yes,");
    csv += "cpu,dev,classic,16000,256,off,0,on,on,no,\"a particle moves 2 m per step\"" +
           std::string(16, ',') + "\n";
    ASSERT_EQ(plot(csv), 0) << err_;
    EXPECT_NE(err_.find("line 4: left out, the run diverged (a particle moves 2 m per step)"),
              std::string::npos)
        << err_;
    EXPECT_TRUE(is_png(dir_ / "png" / "step_ms.png"));

    // Nothing valid: nothing to draw, said as an error.
    std::string none = csv.substr(0, csv.find('\n') + 1) + csv.substr(csv.rfind("cpu,dev"));
    EXPECT_EQ(plot(none), 1);
    EXPECT_NE(err_.find("no valid configurations"), std::string::npos) << err_;
}

TEST_F(PlotBench, MalformedCsvIsAClearError) {
    EXPECT_EQ(plot("time,value\n1,2\n"), 1);
    EXPECT_NE(err_.find("line 1: no 'particles' column"), std::string::npos) << err_;

    std::string bad = std::string(kHeader) + row("cpu", 1000, 1.0) + row("cpu", 2000, 2.0);
    bad.replace(bad.find("2000,256,off,0,on,on,2") + 21, 1, "x");
    EXPECT_EQ(plot(bad), 1);
    EXPECT_NE(err_.find("line 3: column 'step_ms_median': 'x' is not a number"), std::string::npos)
        << err_;

    EXPECT_EQ(plot(std::string(kHeader) + "cpu,dev,classic,1000\n"), 1);
    EXPECT_NE(err_.find("line 2: 4 cells, the header has 25"), std::string::npos) << err_;
    EXPECT_FALSE(fs::exists(dir_ / "png" / "step_ms.png"));

    const int rc =
        run_command(std::string(kPython) + " " + PLAB_PLOT_SCRIPT + " " +
                    (dir_ / "missing.csv").string() + " 2>" + (dir_ / "err.txt").string());
    EXPECT_EQ(rc, 1);
    EXPECT_NE(read_text(dir_ / "err.txt").find("cannot read"), std::string::npos);
}

}  // namespace
