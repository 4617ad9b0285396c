// The parameter groups and which rows a run reads: every row grouped once, the classic law's,
// the frictional law's and the liquid's own shown as used only where they are read.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "sim/model/param_groups.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"

namespace plab::sim {
namespace {

bool used_in(const std::vector<ParamGroupRows>& groups, std::string_view name) {
    for (const ParamGroupRows& g : groups)
        for (const ParamInfo* info : g.used)
            if (info->name == name) return true;
    return false;
}

std::string unused_reason(const std::vector<ParamGroupRows>& groups, std::string_view name) {
    for (const ParamGroupRows& g : groups)
        for (const UnusedParam& u : g.unused)
            if (u.info->name == name) return u.reason;
    return "";
}

TEST(ParamGroups, EveryRowIsInExactlyOneGroupWhateverTheRun) {
    for (const auto& row : preset_names()) {
        const Params p = preset_params(row.value);
        const std::vector<ParamGroupRows> groups = grouped_params(p);
        ASSERT_EQ(groups.size(), param_group_names().size());
        std::multiset<std::string_view> seen;
        for (const ParamGroupRows& g : groups) {
            for (const ParamInfo* info : g.used) seen.insert(info->name);
            for (const UnusedParam& u : g.unused) {
                seen.insert(u.info->name);
                EXPECT_FALSE(u.reason.empty()) << u.info->name;
            }
        }
        EXPECT_EQ(seen.size(), param_table().size()) << row.name;
        for (const ParamInfo& info : param_table())
            EXPECT_EQ(seen.count(info.name), 1u) << info.name << " in " << row.name;
    }
}

TEST(ParamGroups, GroupsFollowTheQuantity) {
    EXPECT_EQ(param_group(*find_param("dt")), ParamGroup::Time);
    EXPECT_EQ(param_group(*find_param("friction")), ParamGroup::Contact);
    EXPECT_EQ(param_group(*find_param("sound_speed")), ParamGroup::Liquid);
    EXPECT_EQ(param_group(*find_param("gravity_y")), ParamGroup::Gravity);
    EXPECT_EQ(param_group(*find_param("collider_radius")), ParamGroup::Geometry);
    EXPECT_EQ(param_group(*find_param("radius")), ParamGroup::Material);
    // Each group has a heading and at least one row.
    for (const auto& g : param_group_names()) {
        EXPECT_NE(param_group_title(g.value), "?");
        EXPECT_TRUE(std::any_of(param_table().begin(), param_table().end(),
                                [&](const ParamInfo& i) { return param_group(i) == g.value; }))
            << g.name;
    }
}

TEST(ParamGroups, TheClassicLawShowsItsOwnTermsAndSetsTheFrictionalOnesApart) {
    const Params p = preset_params(Preset::Classic);
    ASSERT_FALSE(runs_frictional_law(p));
    const auto groups = grouped_params(p);
    for (const char* name : {"spring", "damping", "shear", "attraction", "boundary_damping",
                             "contact", "dt", "gravity_y", "collider_radius"})
        EXPECT_TRUE(used_in(groups, name)) << name;
    for (const char* name : {"friction", "wall_friction", "rolling_friction",
                             "tangential_stiffness", "radius_spread", "silo_floor", "orifice"}) {
        EXPECT_FALSE(used_in(groups, name)) << name;
        EXPECT_NE(unused_reason(groups, name).find("frictional"), std::string::npos) << name;
    }
    EXPECT_NE(unused_reason(groups, "sound_speed").find("SPH"), std::string::npos);
}

TEST(ParamGroups, TheFrictionalLawShowsFrictionAndSetsTheClassicTermsApart) {
    Params p = preset_params(Preset::GlassBeads);
    ASSERT_TRUE(runs_frictional_law(p));
    const auto groups = grouped_params(p);
    for (const char* name : {"friction", "wall_friction", "rolling_friction",
                             "tangential_stiffness", "radius_spread", "spring", "damping"})
        EXPECT_TRUE(used_in(groups, name)) << name;
    for (const char* name : {"shear", "attraction", "boundary_damping"}) {
        EXPECT_FALSE(used_in(groups, name)) << name;
        EXPECT_FALSE(unused_reason(groups, name).empty()) << name;
    }
    // Switching the law back moves the rows with it.
    p.contact = static_cast<int>(ContactLaw::Classic);
    EXPECT_TRUE(used_in(grouped_params(p), "shear"));
    EXPECT_FALSE(used_in(grouped_params(p), "friction"));
}

TEST(ParamGroups, TheLiquidShowsItsOwnAndNoContactLaw) {
    const Params p = preset_params(Preset::Water);
    ASSERT_EQ(p.model, Model::Sph);
    const auto groups = grouped_params(p);
    for (const char* name : {"rest_density", "sound_speed", "smoothing", "viscosity", "xsph",
                             "boundary_damping", "global_damping", "dt", "collider_radius"})
        EXPECT_TRUE(used_in(groups, name)) << name;
    for (const char* name : {"spring", "contact", "friction", "shear", "mass"}) {
        EXPECT_FALSE(used_in(groups, name)) << name;
        EXPECT_NE(unused_reason(groups, name).find("DEM"), std::string::npos) << name;
    }
}

}  // namespace
}  // namespace plab::sim
