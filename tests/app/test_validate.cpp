// `particle-lab validate` on the CPU backend: what it prints and writes, and its errors
// (given before any simulation runs). The full validations are tests/sim/test_sph_validation.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include <unistd.h>

#include "app/lab/validate.h"
#include "sim/error.h"

namespace plab::app {
namespace {

ValidateConfig config(const std::string& which) {
    ValidateConfig c;
    c.which = which;
    c.backend = sim::Backend::Cpu;
    c.out = std::filesystem::temp_directory_path() /
            ("plab-validate-" + which + "-" + std::to_string(::getpid()));
    return c;
}

std::string error_of(const ValidateConfig& c) {
    std::ostringstream out;
    try {
        run_validation(c, out, nullptr);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(Validate, BadInputIsRefusedWithTheOptionsName) {
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

TEST(Validate, HydrostaticPrintsTheSurfaceAndWritesEveryLayer) {
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
    std::filesystem::remove_all(c.out);
}

}  // namespace
}  // namespace plab::app
