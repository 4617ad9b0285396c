// `particle-lab validate` on the CPU backend: what it prints and writes, and its errors
// (given before any simulation runs). The full validations are tests/sim/test_sph_validation.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "app/lab/validate.h"
#include "sim/core/error.h"
#include "support/error_of.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

std::string error_of(const ValidateConfig& c) {
    std::ostringstream out;
    return test::error_of([&] { run_validation(c, out, nullptr); });
}

// Each test writes into a temporary folder of its own.
class Validate : public ::testing::Test {
  protected:
    ValidateConfig config(const std::string& which) const {
        ValidateConfig c;
        c.which = which;
        c.backend = sim::Backend::Cpu;
        c.out = dir_ / which;
        return c;
    }

    const test::TempDir dir_;
};

TEST_F(Validate, BadInputIsRefusedWithTheOptionsName) {
    ValidateConfig c = config("dam-break");
    c.resolution = 3;
    EXPECT_NE(error_of(c).find("--resolution must be in [4, 400]"), std::string::npos);
    c = config("dam-break");
    c.depth = 0;
    EXPECT_NE(error_of(c).find("--depth"), std::string::npos);
    for (double settle : {-1.0, 61.0, std::numeric_limits<double>::quiet_NaN()}) {
        c = config("hydrostatic");
        c.settle = settle;
        EXPECT_NE(error_of(c).find("--settle must be in [0, 60] s"), std::string::npos)
            << "settle " << settle;
    }
    c = config("hydrostatic");
    c.resolution = 9;
    EXPECT_NE(error_of(c).find("--resolution must be in [10, 400]"), std::string::npos);
    c = config("sloshing");
    const std::string unknown = error_of(c);
    EXPECT_NE(unknown.find("unknown validation case 'sloshing'"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("dam-break, hydrostatic"), std::string::npos) << unknown;
}

TEST_F(Validate, HydrostaticPrintsTheSurfaceAndWritesEveryLayer) {
    ValidateConfig c = config("hydrostatic");
    c.resolution = 10;
    c.settle = 0.05;  // too short to settle: this checks the report, not the physics
    std::ostringstream out;
    run_validation(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want : {"backend cpu", "2000 particles", "the pressure vanishes at H =",
                             "against the placed height instead", "threshold 5%",
                             "below the placed height", "hydrostatic.csv", "wall time"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    std::ifstream csv(c.out / "hydrostatic.csv");
    ASSERT_TRUE(csv) << "no CSV in " << c.out;
    std::string meta, header, line;
    std::getline(csv, meta);
    std::getline(csv, header);
    EXPECT_NE(meta.find("# case=hydrostatic H_m=0.2 particles=2000 backend=cpu"), std::string::npos)
        << meta;
    EXPECT_NE(meta.find("surface_m="), std::string::npos) << meta;
    EXPECT_EQ(header, "y_m,pressure_pa,expected_pa,expected_placed_pa,density,checked");
    int rows = 0, checked = 0;
    while (std::getline(csv, line)) {
        ++rows;
        checked += line.size() > 2 && line.substr(line.size() - 2) == ",1";
    }
    // 20 layers of liquid; checked: from 3 spacings above the floor to 5 below the top.
    EXPECT_GE(rows, 20);
    EXPECT_EQ(checked, 12);
}

TEST_F(Validate, GranularCasesRefuseBadOptionsByName) {
    ValidateConfig c = config("column-collapse");
    c.resolution = 1;
    EXPECT_NE(error_of(c).find("--resolution must be in [2, 200] for column-collapse"),
              std::string::npos);
    c = config("column-collapse");
    c.channel = 0;
    EXPECT_NE(error_of(c).find("--channel must be in [1, 200]"), std::string::npos);
    c = config("column-collapse");
    c.aspects = {1, 60};
    EXPECT_NE(error_of(c).find("--aspect 60 must be in [0.1, 50]"), std::string::npos);
    c.aspects = {};
    EXPECT_NE(error_of(c).find("--aspect needs at least one"), std::string::npos);
    c = config("angle-of-repose");
    c.preset = "water";
    EXPECT_NE(error_of(c).find("--preset must be glass-beads or sand-like"), std::string::npos);
    c = config("angle-of-repose");
    c.resolution = 201;
    EXPECT_NE(error_of(c).find("--resolution must be in [2, 200] for angle-of-repose"),
              std::string::npos);
}

TEST_F(Validate, ColumnCollapseWritesARowPerAspectRatio) {
    // Three beads across: a check of the report, not of the physics (tests/sim/
    // test_granular_validation runs the physics).
    ValidateConfig c = config("column-collapse");
    c.resolution = 3;
    c.channel = 2;
    c.aspects = {0.5, 2};
    std::ostringstream out;
    run_validation(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want : {"backend cpu", "Lajeunesse", "glass-beads preset", "threshold 15%",
                             "column_collapse.csv", "step: neighbour lists off", "wall time"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    std::ifstream csv(c.out / "column_collapse.csv");
    ASSERT_TRUE(csv) << "no CSV in " << c.out;
    std::string meta, header, line;
    std::getline(csv, meta);
    std::getline(csv, header);
    EXPECT_NE(meta.find("# case=column_collapse resolution=3 channel=2 preset=glass-beads "
                        "backend=cpu"),
              std::string::npos)
        << meta;
    EXPECT_EQ(header,
              "a_placed,a,particles,l0_m,h0_m,front_m,runout,reference,error,t_stop_s,"
              "at_rest");
    int rows = 0;
    while (std::getline(csv, line)) rows += !line.empty();
    EXPECT_EQ(rows, 2);
}

TEST_F(Validate, AngleOfReposeWritesTheProfileAndTheFit) {
    ValidateConfig c = config("angle-of-repose");
    c.resolution = 3;
    std::ostringstream out;
    run_validation(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want :
         {"backend cpu", "repose angle 25.2 +- 0.8 deg", "mu_s = 0.16 (walls 0.45), mu_r = 0.09",
          "flank fitted over", "threshold 2 deg", "angle_of_repose.csv", "wall time"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    std::ifstream csv(c.out / "angle_of_repose.csv");
    ASSERT_TRUE(csv) << "no CSV in " << c.out;
    std::string meta, header;
    std::getline(csv, meta);
    std::getline(csv, header);
    EXPECT_NE(meta.find("# case=angle_of_repose resolution=3"), std::string::npos) << meta;
    EXPECT_NE(meta.find("angle_deg="), std::string::npos) << meta;
    EXPECT_EQ(header, "r_m,h_m,fitted");
}

TEST_F(Validate, SeveralPilesAreRunAndTheirMeanAngleIsJudged) {
    ValidateConfig c = config("angle-of-repose");
    c.resolution = 3;
    c.piles = 0;
    EXPECT_NE(error_of(c).find("--piles must be in [1, 100]"), std::string::npos);
    c.piles = 2;
    std::ostringstream out;
    run_validation(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want :
         {"pile 1 of 2: pile", "pile 2 of 2: pile", "mean over 2 piles:", "threshold 2 deg"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    std::ifstream csv(c.out / "angle_of_repose.csv");
    ASSERT_TRUE(csv) << "no CSV in " << c.out;
    std::string meta;
    std::getline(csv, meta);
    EXPECT_NE(meta.find(" piles=2 angles_deg="), std::string::npos) << meta;
    const auto list = meta.find("angles_deg=");
    EXPECT_NE(meta.find(';', list), std::string::npos) << "two angles in " << meta;
    EXPECT_NE(meta.find(" mean_deg="), std::string::npos) << meta;
}

TEST_F(Validate, TheSandLikePileIsMeasuredButNotJudgedAgainstGlassBeads) {
    ValidateConfig c = config("angle-of-repose");
    c.resolution = 3;
    c.preset = "sand-like";
    std::ostringstream out;
    EXPECT_TRUE(run_validation(c, out, nullptr));
    const std::string s = out.str();
    EXPECT_NE(s.find("flank fitted over"), std::string::npos) << s;
    EXPECT_NE(s.find("no reference for the sand-like preset's coefficients: not judged"),
              std::string::npos)
        << s;
    EXPECT_EQ(s.find("threshold 2 deg"), std::string::npos) << s;
    EXPECT_EQ(s.find("PASS"), std::string::npos) << s;
}

TEST_F(Validate, TheHeapIsTheReferencesOwnPilingTest) {
    ValidateConfig c = config("angle-of-repose");
    c.heap = true;
    c.resolution = 2;
    EXPECT_NE(error_of(c).find("--resolution must be in [3, 200] for angle-of-repose --heap"),
              std::string::npos);
    c.resolution = 3;
    c.pour = true;
    EXPECT_NE(error_of(c).find("--heap and --pour are two ways to form the pile"),
              std::string::npos);
    c.pour = false;
    c.rest_time = 0.1;
    EXPECT_NE(error_of(c).find("--rest-time must be in [0.2, 600] seconds"), std::string::npos);
    c.rest_time = 6;
    std::ostringstream out;
    run_validation(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want :
         {"the reference's piling test, 227 beads poured through a slot 2.17 beads wide, 9.33 "
          "above the floor, into a channel 29.5 beads wide and 3 deep",
          "mu_s = 0.16 (walls 0.45), mu_r = 0.09", "(left, ", "(right, ", "threshold 2 deg",
          "angle_of_repose.csv"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    std::ifstream csv(c.out / "angle_of_repose.csv");
    ASSERT_TRUE(csv) << "no CSV in " << c.out;
    std::string meta, header, line;
    std::getline(csv, meta);
    std::getline(csv, header);
    EXPECT_NE(meta.find("# case=angle_of_repose resolution=3"), std::string::npos) << meta;
    EXPECT_NE(meta.find(" formed=heap "), std::string::npos) << meta;
    EXPECT_NE(meta.find(" left_deg="), std::string::npos) << meta;
    EXPECT_NE(meta.find(" relaxation_s_deg=0.00:"), std::string::npos) << meta;
    EXPECT_EQ(header, "r_m,h_m,fitted");
    // Both flanks: the left one at negative distances.
    int left = 0, right = 0;
    while (std::getline(csv, line))
        if (!line.empty()) (line[0] == '-' ? left : right) += 1;
    EXPECT_GT(left, 0);
    EXPECT_EQ(left, right);
}

TEST_F(Validate, SiloRefusesBadOptionsByName) {
    ValidateConfig c = config("silo");
    c.resolution = 5;
    EXPECT_NE(error_of(c).find("--resolution must be in [6, 1000] for silo"), std::string::npos);
    c = config("silo");
    c.orifices = {5, 11};
    EXPECT_NE(error_of(c).find("--orifice 11 must be in [2, 10] bead diameters"),
              std::string::npos);
    c.orifices = {};
    EXPECT_NE(error_of(c).find("--orifice needs at least one"), std::string::npos);
    c = config("silo");
    c.fill = 3;
    EXPECT_NE(error_of(c).find("--fill must be in [4, 2000]"), std::string::npos);
    c = config("silo");
    c.open_time = 0;
    EXPECT_NE(error_of(c).find("--open-time must be in (0, 600] s"), std::string::npos);
    c = config("silo");
    c.preset = "granular";
    EXPECT_NE(error_of(c).find("--preset must be glass-beads or sand-like for the silo case"),
              std::string::npos);
}

TEST_F(Validate, SiloWritesARowPerOrificeAndTheDischargeSeries) {
    // Seven beads wide, four high, open for 0.05 s: a check of the report, not of the physics
    // (tests/sim/test_silo_validation runs the physics).
    ValidateConfig c = config("silo");
    c.resolution = 7;
    c.fill = 4;
    c.orifices = {2, 3};
    c.open_time = 0.05;
    std::ostringstream out;
    run_validation(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want :
         {"backend cpu", "Beverloo, Leniger & van de Velde", "glass-beads preset", "bulk density",
          "threshold 0.5-0.65", "threshold 10%", "Beverloo fitted over the orifices",
          "C and k both fitted", "worst orifice off that law", "silo.csv", "silo_series.csv",
          "wall time"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    std::ifstream csv(c.out / "silo.csv");
    ASSERT_TRUE(csv) << "no CSV in " << c.out;
    std::string meta, header, line;
    std::getline(csv, meta);
    std::getline(csv, header);
    EXPECT_NE(meta.find("# case=silo width=7 fill=4 preset=glass-beads backend=cpu"),
              std::string::npos)
        << meta;
    for (const char* key : {"bulk_density=", "fitted_c=", "law_worst=", "free_c=", "free_k="})
        EXPECT_NE(meta.find(key), std::string::npos) << meta;
    EXPECT_EQ(header,
              "orifice_d,orifice_m,flow_kg_s,coefficient,beverloo_kg_s,spread,w1_kg_s,w2_kg_s,"
              "w3_kg_s,fill_hi_m,fill_lo_m,discharged,open_s,stalled");
    int rows = 0;
    while (std::getline(csv, line)) rows += !line.empty();
    EXPECT_EQ(rows, 2);
    std::ifstream series(c.out / "silo_series.csv");
    ASSERT_TRUE(series);
    std::getline(series, header);
    EXPECT_EQ(header, "orifice_d,t_s,discharged_kg,fill_m");
    int samples = 0;
    while (std::getline(series, line)) samples += !line.empty();
    // A sample at the opening and one every 0.01 s of the 0.05 s, for each orifice.
    EXPECT_EQ(samples, 2 * 6);
}

TEST_F(Validate, DrumRefusesBadOptionsByName) {
    ValidateConfig c = config("drum");
    c.resolution = 15;
    EXPECT_NE(error_of(c).find("--resolution must be in [16, 400] for drum"), std::string::npos);
    for (double t : {-1.0, 601.0, std::numeric_limits<double>::quiet_NaN()}) {
        c = config("drum");
        c.spin_up = t;
        EXPECT_NE(error_of(c).find("--spin-up must be in [0, 600] s"), std::string::npos) << t;
        c = config("drum");
        c.measure = t;
        EXPECT_NE(error_of(c).find("--measure must be in [0.1, 600] s"), std::string::npos) << t;
    }
    c = config("drum");
    c.preset = "water";
    EXPECT_NE(error_of(c).find("--preset must be glass-beads or sand-like for the drum case"),
              std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(c.out / "drum.csv"));
    // --set takes only the dimensionless contact coefficients, each in its range.
    c = config("drum");
    c.assignments = {"spring=10"};
    EXPECT_NE(error_of(c).find("--set spring=10: the drum case sets only friction, "
                               "rolling_friction, wall_friction and tangential_stiffness"),
              std::string::npos)
        << error_of(c);
    c.assignments = {"friction=-1"};
    EXPECT_NE(error_of(c).find("--set friction=-1: "), std::string::npos) << error_of(c);
    c.assignments = {"friction"};
    EXPECT_NE(error_of(c).find("--set friction: "), std::string::npos) << error_of(c);
    EXPECT_FALSE(std::filesystem::exists(c.out / "drum.csv"));
}

TEST_F(Validate, DrumOverridesReachTheRunAndAreReported) {
    ValidateConfig c = config("drum");
    c.resolution = 16;
    c.spin_up = 0;
    c.measure = 0.1;
    c.assignments = {"friction=0.55", "rolling_friction=0.05"};
    std::ostringstream out;
    run_validation(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want :
         {"mu_s = 0.55 (walls 0.4), mu_r = 0.05", "(set: friction=0.55 rolling_friction=0.05)",
          "(with friction=0.55 rolling_friction=0.05, not the preset's"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    std::ifstream csv(c.out / "drum.csv");
    std::string meta;
    std::getline(csv, meta);
    EXPECT_NE(meta.find(" set=friction=0.55 rolling_friction=0.05"), std::string::npos) << meta;
}

TEST_F(Validate, DrumWritesTheAngleSeriesAndTheLastSurface) {
    // Sixteen beads across, 0.1 s turning and one sample: a check of the report, not of the
    // physics (tests/sim/test_drum_validation runs the physics).
    ValidateConfig c = config("drum");
    c.resolution = 16;
    c.spin_up = 0.1;
    c.measure = 0.1;
    std::ostringstream out;
    run_validation(c, out, nullptr);
    const std::string s = out.str();
    for (const char* want :
         {"backend cpu", "Alizadeh, Dube, Bertrand & Chaouki", "0.24 m across and 0.36 m long",
          "1809 beads, 11.6 rev/min", "glass-beads preset scaled to d = 15 mm", "1 samples: angle",
          "reference 27, threshold +-3", "beads out of the drum", "drum.csv", "drum_surface.csv",
          "wall time"})
        EXPECT_NE(s.find(want), std::string::npos) << "missing '" << want << "' in\n" << s;
    std::ifstream csv(c.out / "drum.csv");
    ASSERT_TRUE(csv) << "no CSV in " << c.out;
    std::string meta, header, line;
    std::getline(csv, meta);
    std::getline(csv, header);
    EXPECT_NE(meta.find("# case=drum resolution=16 preset=glass-beads backend=cpu particles=1809"),
              std::string::npos)
        << meta;
    EXPECT_EQ(header, "t_s,angle_deg");
    int rows = 0;
    while (std::getline(csv, line)) rows += !line.empty();
    EXPECT_EQ(rows, 1);
    std::ifstream surface(c.out / "drum_surface.csv");
    ASSERT_TRUE(surface);
    std::getline(surface, header);
    EXPECT_EQ(header, "x_m,surface_m");
}

}  // namespace
}  // namespace plab::app
