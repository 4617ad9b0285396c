// Hostile scene files: every one fails fast with the file, the position or the key, and what
// is wrong; nothing narrows, wraps or overflows on the way into the scene.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/error.h"
#include "sim/io/scene_file.h"
#include "sim/run/run_recipe.h"
#include "sim/scene_file_errors.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

// The old walk over every lattice point took minutes; the rows take about 0.1 s, several times
// that under the sanitizers.
#if defined(__SANITIZE_ADDRESS__)
constexpr auto kQuick = std::chrono::seconds(10);
#else
constexpr auto kQuick = std::chrono::seconds(1);
#endif

namespace fs = std::filesystem;

using testing::error_of;
using testing::expect_error;

const std::string kBox = R"("domain": {"min": [0, 0, 0], "max": [1, 1, 1]})";

std::string with_block(const std::string& block, const std::string& more = "") {
    return R"({"preset": "classic", )" + kBox + more + R"(, "blocks": [)" + block + "]}";
}

TEST(SceneFileInputs, JsonSyntaxErrorsKeepTheParsersReasonAndPosition) {
    expect_error("{\"preset\": \"classic\", \"particles\": 10, \"name\": \"two\n}",
                 {"test.json:1:", "name: invalid JSON at byte",
                  "invalid string: control character U+000A (LF) must be escaped"});
    expect_error("{\n  \"preset\": \"classic\",\n  \"particles\": 10,,\n}",
                 {"test.json:3:19:", "invalid JSON at byte 43",
                  "syntax error while parsing object key - unexpected ','"});
    expect_error("", {"test.json:1:1:", "unexpected end of input"});
    expect_error("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
                 {"nest deeper than 64 levels"});
}

TEST(SceneFileInputs, NumbersPastADoubleNameTheFileAndTheKey) {
    expect_error(R"({"preset": "classic", "particles": 1e999})",
                 {"test.json:1:", "particles: invalid JSON", "number overflow parsing '1e999'"});
    expect_error(with_block(R"({"min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.1,
                               "velocity": [0, -1e400, 0]})"),
                 {"blocks[0].velocity[1]: invalid JSON", "'-1e400'"});
}

TEST(SceneFileInputs, NumbersPastAFloatAreRefused) {
    expect_error(with_block(R"({"min": [0, 0, 0], "max": [0.5, 0.5, 0.5], "spacing": 0.05,
                               "velocity": [3.5e38, 0, 0]})"),
                 {"test.json: blocks[0].velocity[0]: 3.5e+38 is beyond the range of float"});
    expect_error(with_block(R"({"min": [0, 0, 0], "max": [1, 1, 1], "spacing": 1e39})"),
                 {"blocks[0].spacing", "beyond the range of float"});
    expect_error(R"({"preset": "classic", "domain": {"min": [0, 0, -4e38], "max": [1, 1, 1]},
                     "blocks": [{"min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.5}]})",
                 {"domain.min[2]", "beyond the range of float"});
}

TEST(SceneFileInputs, CountsAreWholeAndWithinTheLimit) {
    expect_error(R"({"preset": "classic", "particles": 3000000000})",
                 {"particles: 3000000000 is more than the limit of 2147483647"});
    expect_error(R"({"preset": "classic", "particles": 18446744073709551615})",
                 {"particles", "more than the limit of 2147483647"});
    expect_error(R"({"preset": "classic", "particles": -9223372036854775807})",
                 {"particles", "whole number"});
    expect_error(R"({"preset": "classic", "particles": 1.5})", {"particles", "whole number"});
}

TEST(SceneFileInputs, SceneProblemsNameTheFile) {
    expect_error(with_block(R"({"min": [0, 0, 0], "max": [2, 1, 1], "spacing": 0.1})"),
                 {"test.json: blocks[0]: [0, 0, 0] to [2, 1, 1] m lies outside the domain "
                  "[0, 0, 0] to [1, 1, 1] m"});
    // 1000 m of domain at the classic radius: 32000³ cells.
    expect_error(R"({"preset": "classic", "domain": {"min": [0, 0, 0], "max": [1000, 1000, 1000]},
                     "blocks": [{"min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.5}]})",
                 {"test.json: ", "grid of 32000x32000x32000 cells", "is too large"});
    expect_error(with_block(R"({"min": [0, 0, 0], "max": [1, 1, 1], "spacing": 1e-9})"),
                 {"blocks[0].spacing", "more than 16777216 lattice points"});
    // Counted fast, and the message says what to do.
    const auto start = std::chrono::steady_clock::now();
    expect_error(
        with_block(R"({"shape": "sphere", "min": [0, 0, 0], "max": [1, 1, 1],
                               "spacing": 0.0002})"),
        {"blocks: they place more than the limit of 2147483647 particles", "give 'particles'"});
    const SceneFile few = parse_scene_file(
        with_block(R"({"shape": "sphere", "min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.0002})",
                   R"(, "particles": 100)"),
        "test.json");
    EXPECT_EQ(few.particles, 100u);
    EXPECT_LT(std::chrono::steady_clock::now() - start, kQuick);
}

TEST(SceneFileInputs, AssignmentsThatBreakTheSceneNameTheFile) {
    RunRequest r;
    r.scene_file = parse_scene_file(
        with_block(R"({"min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.5})"), "box.json");
    r.scene_source = "scenes/box.json";
    r.assignments = {"radius=1e-5"};  // fine on its own, a grid of 50000³ cells here
    try {
        resolve_run(r, 0);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind("scenes/box.json: ", 0), 0u) << msg;
        EXPECT_NE(msg.find("is too large"), std::string::npos) << msg;
    }
}

TEST(SceneFileInputs, DirectoriesDevicesAndHugeFilesAreRefusedByName) {
    const test::TempDir tmp;
    const fs::path& dir = tmp.path();
    auto load_error = [](const fs::path& p) { return test::error_of([&] { load_scene_file(p); }); };
    EXPECT_NE(load_error(dir).find(dir.string() + ": is a directory, not a file (scene file)"),
              std::string::npos);
    EXPECT_NE(load_error("/dev/zero").find("/dev/zero: is not a regular file"), std::string::npos);
    const fs::path huge = dir / "huge.json";
    {
        std::ofstream out(huge);
        out << std::string(kMaxSceneFileBytes + 1, ' ');
    }
    EXPECT_NE(load_error(huge).find("huge.json: is 16777217 bytes, more than the 16777216 bytes"),
              std::string::npos)
        << load_error(huge);
}

TEST(SceneFileInputs, TheParamsAFileSetsAreRecorded) {
    const SceneFile f = parse_scene_file(
        R"({"preset": "water", "particles": 10, "params": {"viscosity": 0.1, "spring": 3}})",
        "test.json");
    EXPECT_EQ(f.param_keys, (std::vector<std::string>{"spring", "viscosity"}));
}

}  // namespace
}  // namespace plab::sim
