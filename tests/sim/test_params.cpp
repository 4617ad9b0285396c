// The parameter table: presets are valid, bad values give errors that name the parameter.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "sim/core/error.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "support/error_of.h"

namespace plab::sim {
namespace {

using test::error_of;

TEST(Params, PresetsAreValid) {
    EXPECT_TRUE(param_errors(preset_params(Preset::Classic)).empty());
    EXPECT_TRUE(param_errors(preset_params(Preset::Granular)).empty());
}

TEST(Params, TableNamesAreUniqueAndDefaultsInsideTheirRanges) {
    std::set<std::string_view> names;
    const Params defaults;
    for (const ParamInfo& info : param_table()) {
        EXPECT_TRUE(names.insert(info.name).second) << info.name;
        EXPECT_FALSE(info.help.empty()) << info.name;
        EXPECT_LE(info.min, info.get(defaults)) << info.name;
        EXPECT_GE(info.max, info.get(defaults)) << info.name;
        EXPECT_EQ(find_param(info.name), &info);
    }
    EXPECT_EQ(find_param("no_such_thing"), nullptr);
}

TEST(Params, ClassicMatchesTheCudaParticlesSample) {
    const Params p = preset_params(Preset::Classic);
    EXPECT_FLOAT_EQ(p.radius, 1.f / 64.f);
    EXPECT_FLOAT_EQ(p.spring, 0.5f);
    EXPECT_FLOAT_EQ(p.damping, 0.02f);
    EXPECT_FLOAT_EQ(p.shear, 0.1f);
    EXPECT_FLOAT_EQ(p.attraction, 0.f);
    EXPECT_FLOAT_EQ(p.gravity_y, -0.0003f);
    EXPECT_FLOAT_EQ(p.global_damping, 1.f);
    EXPECT_FLOAT_EQ(p.boundary_damping, -0.5f);
    EXPECT_FLOAT_EQ(p.dt, 0.5f);
    EXPECT_FLOAT_EQ(p.collider_radius, 0.2f);
    EXPECT_FLOAT_EQ(p.mass, p.dt);  // Δv = F·dt/m = F, as the sample integrates
}

TEST(Params, NegativeOrNanDtIsRejectedByName) {
    Params p;
    p.dt = -0.1f;
    EXPECT_NE(error_of([&] { validate(p); }).find("dt = -0.1"), std::string::npos);
    p.dt = std::nanf("");
    EXPECT_NE(error_of([&] { validate(p); }).find("dt = nan"), std::string::npos);
}

TEST(Params, ZeroRadiusIsRejected) {
    Params p;
    p.radius = 0.f;
    const std::string msg = error_of([&] { validate(p); });
    EXPECT_NE(msg.find("radius = 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("allowed range"), std::string::npos) << msg;
}

TEST(Params, EveryBrokenRuleIsListed) {
    Params p;
    p.dt = 0.f;
    p.spring = -1.f;
    EXPECT_EQ(param_errors(p).size(), 2u);
}

TEST(Params, SetParamParsesAndChecks) {
    Params p;
    set_param(p, "spring", "0.25");
    EXPECT_FLOAT_EQ(p.spring, 0.25f);
    apply_assignment(p, "substeps=4");
    EXPECT_EQ(p.substeps, 4);

    const Params before = p;
    EXPECT_NE(error_of([&] { set_param(p, "sprng", "1"); }).find("unknown parameter 'sprng'"),
              std::string::npos);
    EXPECT_NE(error_of([&] { set_param(p, "spring", "abc"); }).find("not a number"),
              std::string::npos);
    EXPECT_NE(error_of([&] { set_param(p, "spring", "1e99"); }).find("allowed range"),
              std::string::npos);
    EXPECT_NE(error_of([&] { set_param(p, "substeps", "2.5"); }).find("whole number"),
              std::string::npos);
    EXPECT_NE(error_of([&] { set_param(p, "dt", "nan"); }).find("allowed range"),
              std::string::npos);
    EXPECT_NE(error_of([&] { apply_assignment(p, "spring"); }).find("name=value"),
              std::string::npos);
    EXPECT_NE(error_of([&] { apply_assignment(p, "=3"); }).find("name=value"), std::string::npos);
    EXPECT_TRUE(p == before) << "a rejected value must leave the parameters unchanged";
}

// Control characters in a refused value or name are shown escaped: the message is whole (not
// cut at a NUL, not split over lines).
TEST(Params, ARefusedValueShowsItsControlCharactersEscaped) {
    Params p;
    using namespace std::string_literals;
    const std::string value = error_of([&] { set_param(p, "spring", "1\0x\n"s); });
    EXPECT_NE(value.find("'1\\x00x\\x0a' is not a number"), std::string::npos) << value;
    const std::string name = error_of([&] { set_param(p, "spr\x1bing", "1"); });
    EXPECT_NE(name.find("unknown parameter 'spr\\x1bing'"), std::string::npos) << name;
    EXPECT_EQ(name.find('\x1b'), std::string::npos) << name;
}

TEST(Params, AChoiceTakesItsNameOrItsNumber) {
    Params p;
    EXPECT_EQ(p.contact, static_cast<int>(ContactLaw::Classic));
    set_param(p, "contact", "frictional");
    EXPECT_EQ(p.contact, static_cast<int>(ContactLaw::Frictional));
    set_param(p, "contact", "0");
    EXPECT_EQ(p.contact, static_cast<int>(ContactLaw::Classic));
    const Params before = p;
    const std::string msg = error_of([&] { set_param(p, "contact", "sticky"); });
    EXPECT_NE(msg.find("'sticky' is not one of classic, frictional"), std::string::npos) << msg;
    EXPECT_NE(error_of([&] { set_param(p, "contact", "2"); }).find("allowed range"),
              std::string::npos);
    EXPECT_TRUE(p == before);
    // A number-only parameter still says it wants a number.
    EXPECT_NE(error_of([&] { set_param(p, "friction", "frictional"); }).find("is not a number"),
              std::string::npos);
}

TEST(Params, UnknownPresetNamesTheKnownOnes) {
    const std::string msg = error_of([] { parse_preset("sand"); });
    EXPECT_NE(msg.find("unknown preset 'sand'"), std::string::npos);
    EXPECT_NE(msg.find("classic"), std::string::npos);
    EXPECT_EQ(parse_preset("granular"), Preset::Granular);
}

}  // namespace
}  // namespace plab::sim
