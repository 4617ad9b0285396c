// scripts/plot_validation.py draws the shipped validation data (docs/validation) into PNG
// files, fits the same start delay as sim::fit_start_delay, and refuses folders without data.
// Needs matplotlib for /usr/bin/python3 (Debian python3-matplotlib); skipped without it.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/plot_script.h"
#include "sim/validation/sph_validation.h"
#include "support/file_text.h"
#include "support/shell.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

namespace fs = std::filesystem;

const fs::path kData = PLAB_VALIDATION_DIR;

using plab::test::read_text;
using plab::test::run_command;
using plab::testing::kPython;

class PlotValidation : public ::testing::Test {
  protected:
    void SetUp() override {
        if (const std::string why = plab::testing::why_plots_cannot_run(); !why.empty())
            GTEST_SKIP() << why;
    }

    int plot(const std::string& folders) {
        const int rc =
            run_command(std::string(kPython) + " " + PLAB_PLOT_SCRIPT + " --out " +
                        (dir_ / "png").string() + " " + folders + " >" +
                        (dir_ / "out.txt").string() + " 2>" + (dir_ / "err.txt").string());
        out_ = read_text(dir_ / "out.txt");
        err_ = read_text(dir_ / "err.txt");
        return rc;
    }

    const test::TempDir dir_;
    std::string out_, err_;
};

bool is_png(const fs::path& p) { return read_text(p).rfind("\x89PNG\r\n\x1a\n", 0) == 0; }

// The shipped CI-resolution front, as `particle-lab validate` wrote it.
std::vector<FrontSample> shipped_front() {
    std::ifstream f(kData / "dam_break_20" / "dam_break.csv");
    std::vector<FrontSample> front;
    std::string line;
    while (std::getline(f, line)) {
        FrontSample s{};
        if (std::sscanf(line.c_str(), "%lf,%lf", &s.t, &s.z) == 2) front.push_back(s);
    }
    return front;
}

TEST_F(PlotValidation, DrawsTheShippedDataAndFitsTheSameDelayAsValidate) {
    ASSERT_EQ(plot((kData / "dam_break_20").string() + " " + (kData / "hydrostatic_10").string()),
              0)
        << err_;
    EXPECT_TRUE(is_png(dir_ / "png" / "dam_break.png"));
    EXPECT_TRUE(is_png(dir_ / "png" / "hydrostatic.png"));
    const auto front = shipped_front();
    ASSERT_GT(front.size(), 100u);
    const DelayFit fit = fit_start_delay(front, 3.0, 0.5);
    char want[128];
    std::snprintf(want, sizeof want, "start delayed by %.2f, worst error %.2f%%", fit.delay,
                  100 * fit.worst);
    EXPECT_NE(out_.find(want), std::string::npos) << "expected '" << want << "' in\n" << out_;
}

TEST_F(PlotValidation, DrawsTheShippedHeapBesideACone) {
    // The heap's CSV holds both flanks (the left one at negative distances) and the mean of
    // six heaps; the cone's one flank.
    ASSERT_EQ(plot((kData / "angle_of_repose_heap18_cuda").string() + " " +
                   (kData / "angle_of_repose_30_cuda_poured").string()),
              0)
        << err_;
    EXPECT_TRUE(is_png(dir_ / "png" / "angle_of_repose.png"));
}

TEST_F(PlotValidation, RefusesAFolderWithoutData) {
    fs::create_directories(dir_ / "empty");
    EXPECT_EQ(plot((dir_ / "empty").string()), 2);
    EXPECT_NE(err_.find("holds neither dam_break.csv nor hydrostatic.csv"), std::string::npos)
        << err_;
}

}  // namespace
}  // namespace plab::sim
