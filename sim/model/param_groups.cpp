#include "sim/model/param_groups.h"

#include <cstddef>

namespace plab::sim {
namespace {

// Which DEM contact law reads a parameter (SPH reads none of the law-specific ones).
enum LawMask : unsigned { kClassicLaw = 1u, kFrictionalLaw = 2u, kBothLaws = 3u };

struct GroupRow {
    std::string_view name;
    ParamGroup group;
    unsigned laws = kBothLaws;
};

constexpr EnumName<ParamGroup> kGroupNames[] = {
    {ParamGroup::Time, "time"},       {ParamGroup::Material, "material"},
    {ParamGroup::Contact, "contact"}, {ParamGroup::Liquid, "liquid"},
    {ParamGroup::Gravity, "gravity"}, {ParamGroup::Geometry, "geometry"},
};

// One row per parameter of param_table() (a test checks that none is missing), grouped in the
// order of ParamGroup and, within a group, in the panel's order. The laws
// column follows the step code: the classic law's shear and attraction are its own force
// terms (sim/physics/dem_contact.h), boundary_damping is the hard walls' restitution, which
// the frictional law replaces by soft wall contacts with friction (dem_frictional_step.h).
constexpr GroupRow kGroups[] = {
    {"dt", ParamGroup::Time},
    {"substeps", ParamGroup::Time},
    {"skin", ParamGroup::Time},
    {"radius", ParamGroup::Material},
    {"mass", ParamGroup::Material},
    {"radius_spread", ParamGroup::Material, kFrictionalLaw},
    {"contact", ParamGroup::Contact},
    {"spring", ParamGroup::Contact},
    {"damping", ParamGroup::Contact},
    {"shear", ParamGroup::Contact, kClassicLaw},
    {"attraction", ParamGroup::Contact, kClassicLaw},
    {"friction", ParamGroup::Contact, kFrictionalLaw},
    {"wall_friction", ParamGroup::Contact, kFrictionalLaw},
    {"rolling_friction", ParamGroup::Contact, kFrictionalLaw},
    {"tangential_stiffness", ParamGroup::Contact, kFrictionalLaw},
    {"rest_density", ParamGroup::Liquid},
    {"sound_speed", ParamGroup::Liquid},
    {"smoothing", ParamGroup::Liquid},
    {"viscosity", ParamGroup::Liquid},
    {"xsph", ParamGroup::Liquid},
    {"gravity_x", ParamGroup::Gravity},
    {"gravity_y", ParamGroup::Gravity},
    {"gravity_z", ParamGroup::Gravity},
    {"global_damping", ParamGroup::Gravity},
    {"boundary_damping", ParamGroup::Geometry, kClassicLaw},
    {"collider_radius", ParamGroup::Geometry},
    {"collider_x", ParamGroup::Geometry},
    {"collider_y", ParamGroup::Geometry},
    {"collider_z", ParamGroup::Geometry},
    {"silo_floor", ParamGroup::Geometry, kFrictionalLaw},
    {"glued_below", ParamGroup::Geometry, kFrictionalLaw},
    {"orifice", ParamGroup::Geometry, kFrictionalLaw},
};

const GroupRow* find_row(std::string_view name) {
    for (const GroupRow& row : kGroups)
        if (row.name == name) return &row;
    return nullptr;
}

}  // namespace

std::span<const EnumName<ParamGroup>> param_group_names() { return kGroupNames; }

std::string_view param_group_title(ParamGroup group) {
    switch (group) {
        case ParamGroup::Time:
            return "Time and neighbours";
        case ParamGroup::Material:
            return "Material";
        case ParamGroup::Contact:
            return "Contact";
        case ParamGroup::Liquid:
            return "Liquid";
        case ParamGroup::Gravity:
            return "Gravity and damping";
        case ParamGroup::Geometry:
            return "Walls, collider and silo";
    }
    return "?";
}

ParamGroup param_group(const ParamInfo& info) {
    const GroupRow* row = find_row(info.name);
    return row ? row->group : ParamGroup::Geometry;
}

std::string param_unused_reason(const ParamInfo& info, const Params& p) {
    if (!applies_to(info.models, p.model)) {
        return p.model == Model::Sph ? "a DEM parameter: this run is an SPH liquid"
                                     : "an SPH parameter: this run is DEM grains";
    }
    const GroupRow* row = find_row(info.name);
    // SPH reads no law-specific row (those with one law): boundary_damping is read by SPH's
    // walls as by the classic law's.
    if (!row || row->laws == kBothLaws || p.model == Model::Sph) return "";
    const bool frictional = runs_frictional_law(p);
    if (row->laws == kFrictionalLaw && !frictional)
        return "only the frictional contact law reads it (contact = frictional); this run's "
               "law is classic";
    if (row->laws == kClassicLaw && frictional) {
        if (info.name == "boundary_damping")
            return "the frictional law's walls are soft contacts (spring, damping and "
                   "wall_friction); this restitution is the classic law's and SPH's";
        return "only the classic contact law reads it; this run's law is frictional";
    }
    return "";
}

std::vector<ParamGroupRows> grouped_params(const Params& p) {
    std::vector<ParamGroupRows> groups;
    for (const auto& g : kGroupNames) groups.push_back({g.value, {}, {}});
    // In the group table's order (the contact law's choice first in its group).
    for (const GroupRow& row : kGroups) {
        const ParamInfo* info = find_param(row.name);
        if (!info) continue;
        ParamGroupRows& g = groups[static_cast<std::size_t>(row.group)];
        std::string why = param_unused_reason(*info, p);
        if (why.empty()) {
            g.used.push_back(info);
        } else {
            g.unused.push_back({info, std::move(why)});
        }
    }
    return groups;
}

}  // namespace plab::sim
