// The input checks every surface shares: counts read as signed text with a stated limit,
// input files refused when they are not regular files or too large (before anything is read),
// and parameter ranges checked on the value as given.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/error.h"
#include "sim/core/input_limits.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "support/error_of.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

namespace fs = std::filesystem;
using test::error_of;

void expect_has(const std::string& msg, std::initializer_list<const char*> parts) {
    ASSERT_FALSE(msg.empty()) << "expected an error";
    for (const char* part : parts) EXPECT_NE(msg.find(part), std::string::npos) << msg;
}

TEST(InputLimits, CountsAreReadAsSignedTextWithTheLimitInTheMessage) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(parse_count("65536", "--particles", 1, kMaxParticles), 65536u);
    EXPECT_EQ(parse_count("2147483647", "--particles", 1, kMaxParticles), kMaxParticles);
    for (const char* bad : {"-5", "-1", "0", "2147483648", "18446744073709551615",
                            "99999999999999999999999", "1e3", "12abc", "", " 5", "0x10"})
        expect_has(error_of([&] { parse_count(bad, "--particles", 1, kMaxParticles); }),
                   {"--particles: '", bad, "' is not a whole number in [1, 2147483647]"});
    // Fails fast: nothing is allocated or looped over for a huge count.
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(InputLimits, PresetScenesRefuseCountsAboveTheLimitAtOnce) {
    const auto start = std::chrono::steady_clock::now();
    const Params p = preset_params(Preset::Water);
    for (const std::size_t n : {std::size_t{kMaxParticles} + 1, SIZE_MAX})
        for (const Preset preset : {Preset::Classic, Preset::Granular, Preset::Water})
            expect_has(error_of([&] { preset_scene(preset, n, preset_params(preset)); }),
                       {"more than the limit of 2147483647"});
    EXPECT_NO_THROW(preset_scene(Preset::Water, kMaxParticles, p));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(InputLimits, FloatRangeIsFiniteAndWithinFloat) {
    EXPECT_TRUE(fits_float(3.4e38));
    EXPECT_TRUE(fits_float(-3.4e38));
    EXPECT_FALSE(fits_float(3.5e38));
    EXPECT_FALSE(fits_float(-1e300));
    EXPECT_FALSE(fits_float(INFINITY));
    EXPECT_FALSE(fits_float(NAN));
}

TEST(InputLimits, DevicesDirectoriesAndFifosAreRefusedBeforeReading) {
    const test::TempDir tmp;
    const fs::path& dir = tmp.path();
    expect_has(error_of([&] { read_input_file(dir, 1000, "scene file"); }),
               {dir.string().c_str(), "is a directory", "(scene file)"});
    expect_has(error_of([] { read_input_file("/dev/zero", 1000, "scene file"); }),
               {"/dev/zero: is not a regular file"});
    // Opening a FIFO for reading would block until a writer comes: it must not be opened.
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    expect_has(error_of([&] { read_input_file(fifo, 1000, "scene file"); }),
               {"pipe: is not a regular file"});
    expect_has(error_of([&] { read_input_file(dir / "none.json", 1000, "scene file"); }),
               {"none.json: cannot open"});
}

TEST(InputLimits, FilesAboveTheCapAreRefusedAndSmallerOnesReadWhole) {
    const test::TempDir dir;
    const fs::path small = dir / "small.json", large = dir / "large.json";
    std::ofstream(small) << "{\"a\": 1}";
    std::ofstream(large) << std::string(2000, ' ');
    EXPECT_EQ(read_input_file(small, 1000, "scene file"), "{\"a\": 1}");
    expect_has(error_of([&] { read_input_file(large, 1000, "scene file"); }),
               {"large.json: is 2000 bytes, more than the 1000 bytes allowed"});
}

TEST(InputLimits, DocumentedMinimumValuesAreAccepted) {
    // Each is the lower end of its range in the table; rounded to float it lies just below the
    // double, which the range check on the stored float used to refuse.
    for (const char* a : {"radius=1e-5", "mass=1e-9", "sound_speed=0.01", "dt=1e-7"}) {
        Params p = preset_params(Preset::Classic);
        if (std::string(a).starts_with("sound")) p = preset_params(Preset::Water);
        EXPECT_NO_THROW(apply_assignment(p, a)) << a;
        EXPECT_TRUE(param_errors(p).empty()) << a << ": " << param_errors(p).front();
        EXPECT_NO_THROW(validate(p)) << a;
    }
    Params p;
    expect_has(error_of([&] { set_param(p, "radius", "9.9e-6"); }),
               {"radius = 9.9e-6", "allowed range [1e-05, 1] m"});
    expect_has(error_of([&] { set_param(p, "dt", "1e999"); }),
               {"parameter dt", "'1e999'", "beyond the range of a double", "[1e-07, 10] s"});
    expect_has(error_of([&] { set_param(p, "dt", "3.5e38"); }), {"outside the allowed range"});
}

}  // namespace
}  // namespace plab::sim
