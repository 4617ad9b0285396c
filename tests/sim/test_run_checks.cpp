// The start-up checks every run passes (sim/model/run_checks.h): warnings for overlapping blocks, a
// dt above the stable limit, too fast a start and parameters of the other model; refusals for
// particles that would start outside the domain or at a non-finite position. The presets and
// the shipped scenes pass without a word.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sim/core/error.h"
#include "sim/io/scene_file.h"
#include "sim/model/presets.h"
#include "sim/model/run_checks.h"
#include "sim/physics/sph_kernel.h"
#include "sim/run/run_recipe.h"
#include "sim/validation/sph_validation.h"

namespace plab::sim {
namespace {

std::string all_text(const std::vector<RunWarning>& warnings) {
    return warning_lines(warnings, "| ");
}

void expect_has(const std::string& text, std::initializer_list<const char*> parts) {
    ASSERT_FALSE(text.empty()) << "expected a warning";
    for (const char* part : parts) EXPECT_NE(text.find(part), std::string::npos) << text;
}

ParticleBlock box(Vec3 min, Vec3 max, float spacing) {
    ParticleBlock b;
    b.min = min;
    b.max = max;
    b.spacing = spacing;
    return b;
}

RunRecipe resolve(const std::string& preset, std::size_t n, std::vector<std::string> set) {
    RunRequest r;
    r.preset = preset;
    r.particles = n;
    r.assignments = std::move(set);
    return resolve_run(r, n);
}

TEST(RunChecks, PresetsAndTheValidationCasesPassSilently) {
    for (const char* preset : {"classic", "granular", "water"})
        for (const std::size_t n : {1000, 65536})
            EXPECT_EQ(all_text(resolve(preset, n, {}).warnings), "") << preset << " " << n;
    const SphCase dam = dam_break_case(20, 4), tank = hydrostatic_case(10, 20);
    EXPECT_EQ(all_text(check_run(dam.scene, dam.params)), "");
    EXPECT_EQ(all_text(check_run(tank.scene, tank.params)), "");
}

TEST(RunChecks, EveryShippedSceneStartsWithoutWarnings) {
    for (const auto& entry : std::filesystem::directory_iterator(PLAB_SCENES_DIR)) {
        RunRequest r;
        r.scene_file = load_scene_file(entry.path());
        r.scene_source = entry.path().string();
        EXPECT_EQ(all_text(resolve_run(r, 1000).warnings), "") << entry.path();
    }
}

TEST(RunChecks, OverlappingBlocksAreNamedAndNeighboursAreNot) {
    const Params p = preset_params(Preset::Classic);
    const float s = 2.f * p.radius;
    Scene scene;
    scene.domain = {{-1.f, -1.f, -1.f}, {1.f, 1.f, 1.f}};
    scene.blocks = {box({-1.f, -1.f, -1.f}, {0.f, 0.f, 0.f}, s),
                    box({-0.5f, -0.5f, -0.5f}, {0.5f, 0.5f, 0.5f}, s)};
    expect_has(all_text(check_run(scene, p)),
               {"blocks[0] and blocks[1] overlap", "on top of each other", "Move or shrink"});
    // Side by side, sharing a face: a whole spacing apart, as inside one block.
    scene.blocks[1] = box({0.f, -1.f, -1.f}, {1.f, 0.f, 0.f}, s);
    EXPECT_EQ(all_text(check_run(scene, p)), "");
    // A sphere dropped into a box, and one sunk into it.
    ParticleBlock ball = box({-0.25f, 0.5f, -0.25f}, {0.25f, 1.f, 0.25f}, s);
    ball.shape = BlockShape::Sphere;
    scene.blocks = {box({-1.f, -1.f, -1.f}, {1.f, 0.f, 1.f}, s), ball};
    EXPECT_EQ(all_text(check_run(scene, p)), "");
    scene.blocks[1].min.y = -0.2f;
    scene.blocks[1].max.y = 0.3f;
    expect_has(all_text(check_run(scene, p)), {"blocks[0] and blocks[1] overlap"});
}

TEST(RunChecks, WaterAtTenTimesItsDtWarnsWithTheCflLimitAndTheAdvice) {
    const Params water = preset_params(Preset::Water);
    const RunRecipe r = resolve("water", 5000, {"dt=" + std::to_string(10 * water.dt)});
    expect_has(all_text(r.warnings), {"above the SPH stability limit", "CFL number is 2.",
                                      "above 0.25", "Lower dt to", "raise substeps (now 20)"});
}

TEST(RunChecks, DemDtAboveTheContactLimitWarns) {
    const Params granular = preset_params(Preset::Granular);
    const double limit = dem_dt_limit(granular);
    EXPECT_GT(limit, granular.dt);  // t_c/20 is well inside
    const RunRecipe r = resolve("granular", 2000, {"dt=" + std::to_string(2 * limit)});
    expect_has(all_text(r.warnings), {"above the DEM contact limit", "Lower dt to"});
    // The classic sample runs dt = 0.5 against a limit of sqrt(0.25 / 0.5) = 0.71 s.
    EXPECT_NEAR(dem_dt_limit(preset_params(Preset::Classic)), std::sqrt(0.5), 1e-6);
}

TEST(RunChecks, ParametersOfTheOtherModelAreReported) {
    expect_has(all_text(resolve("water", 1000, {"spring=4"}).warnings),
               {"parameter spring (spring=4) applies to dem only; this run is sph"});
    expect_has(
        all_text(resolve("classic", 1000, {"sound_speed=30", "viscosity=0.1"}).warnings),
        {"parameter sound_speed (sound_speed=30) applies to sph only", "parameter viscosity"});
    EXPECT_EQ(all_text(resolve("water", 1000, {"viscosity=0.1", "gravity_y=-5"}).warnings), "");

    // A scene file's params too, named by the file and key.
    RunRequest request;
    request.scene_file = parse_scene_file(
        R"({"preset": "water", "particles": 1000, "params": {"damping": 0.3}})", "pool.json");
    request.scene_source = "pool.json";
    expect_has(all_text(resolve_run(request, 1000).warnings),
               {"parameter damping (pool.json: params.damping) applies to dem only"});
}

TEST(RunChecks, StartsTooFastOrPressedTogetherWarn) {
    const Params p = preset_params(Preset::Classic);
    Scene scene;
    scene.domain = {{-1.f, -1.f, -1.f}, {1.f, 1.f, 1.f}};
    scene.blocks = {box({-1.f, -1.f, -1.f}, {0.f, 0.f, 0.f}, 2.f * p.radius)};
    scene.blocks[0].velocity = {1.f, 0.f, 0.f};  // 0.5 m a step, 8 diameters
    expect_has(all_text(check_run(scene, p)), {"blocks[0] starts at 1 m/s", "two diameters"});
    scene.blocks[0].velocity = {};
    scene.blocks[0].spacing = p.radius;  // half a diameter apart
    expect_has(all_text(check_run(scene, p)), {"less than a particle diameter"});

    const Params water = preset_params(Preset::Water);
    scene.blocks = {box({-1.f, -1.f, -1.f}, {0.f, 0.f, 0.f}, 3.f * water.radius)};
    expect_has(all_text(check_run(scene, water)), {"not the particle spacing", "collapses"});
    scene.blocks[0].spacing = 2.f * water.radius;
    scene.blocks[0].velocity = {0.f, -100.f, 0.f};
    expect_has(all_text(check_run(scene, water)), {"at or above the speed of sound"});
}

TEST(RunChecks, ParticlesOutsideTheDomainAreRefused) {
    Params p = preset_params(Preset::Classic);
    Scene scene;
    scene.name = "shaky";
    scene.domain = {{0.f, 0.f, 0.f}, {1.f, 1.f, 1.f}};
    scene.blocks = {box({0.f, 0.f, 0.f}, {0.5f, 0.5f, 0.5f}, 0.05f)};
    p.radius = 0.025f;
    scene.blocks[0].jitter = 0.04f;  // more than half the spacing, at the walls
    try {
        build_initial_state(scene, p, scene_capacity(scene));
        FAIL() << "expected an error";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("scene 'shaky', block 0:"), std::string::npos) << msg;
        EXPECT_NE(msg.find("particles start outside the domain"), std::string::npos) << msg;
        EXPECT_NE(msg.find("keep it below half the spacing"), std::string::npos) << msg;
    }
    scene.blocks[0].jitter = 0.02f;
    EXPECT_NO_THROW(build_initial_state(scene, p, scene_capacity(scene)));
    scene.blocks[0].velocity = {INFINITY, 0.f, 0.f};
    EXPECT_THROW(check_scene(scene, p, 1), Error);
}

TEST(RunChecks, ASiloFloorWithoutTheFrictionalLawIsRefused) {
    const auto refusal = [](const std::string& preset, std::vector<std::string> set) {
        try {
            resolve(preset, 1000, std::move(set));
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    for (const char* preset : {"classic", "granular", "water"}) {
        const std::string msg = refusal(preset, {"silo_floor=0.1", "orifice=0.05"});
        EXPECT_NE(msg.find("silo_floor = 0.1 m"), std::string::npos) << preset << ": " << msg;
        EXPECT_NE(msg.find("only the frictional DEM contact law has"), std::string::npos) << msg;
        EXPECT_NE(msg.find(std::string(preset) == "water" ? "this run is SPH"
                                                          : "DEM with the classic contact law"),
                  std::string::npos)
            << msg;
    }
    // The frictional law has the plate, and no plate needs no law.
    EXPECT_EQ(refusal("glass-beads", {"silo_floor=0.1", "orifice=0.05"}), "");
    EXPECT_EQ(refusal("granular", {"contact=frictional", "silo_floor=0.1"}), "");
    EXPECT_EQ(refusal("classic", {"orifice=0.05"}), "");
    Params water = preset_params(Preset::Water);
    water.silo_floor = 0.2f;
    EXPECT_THROW(check_run(Scene{}, water), Error);
}

}  // namespace
}  // namespace plab::sim
