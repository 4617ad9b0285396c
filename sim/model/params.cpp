#include "sim/model/params.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/shown_text.h"

namespace plab::sim {
namespace {

constexpr std::string_view kContactNames[] = {"classic", "frictional"};

// Ranges are wide enough for both presets (classic sample units and SI granular) and narrow
// enough that every value inside them keeps the step finite.
const ParamInfo kTable[] = {
    {"dt", "s", "Time step. Larger is faster but a stiff spring needs a small step to stay stable.",
     1e-7, 10, false, &Params::dt},
    {"substeps", "", "Simulation steps per frame.", 1, 1000, false, &Params::substeps},
    {"radius", "m", "Particle radius; the grid cell is one diameter, so it applies on Reset.", 1e-5,
     1, true, &Params::radius},
    {"mass", "kg", "Mass of one particle.", 1e-9, 1e6, false, &Params::mass, kDemOnly},
    {"spring", "N/m", "Normal contact stiffness: how hard particles push apart when they overlap.",
     0, 1e8, false, &Params::spring, kDemOnly},
    {"damping", "N·s/m", "Dashpot on the relative velocity of two touching particles.", 0, 1e6,
     false, &Params::damping, kDemOnly},
    {"shear", "N·s/m", "Tangential friction-like coefficient on the sliding velocity.", 0, 1e6,
     false, &Params::shear, kDemOnly},
    {"attraction", "N/m", "Cohesion: pull towards a touching neighbour.", 0, 1e8, false,
     &Params::attraction, kDemOnly},
    {"rest_density", "kg/m³", "Density of the liquid at rest (water: 1000).", 1, 1e5, false,
     &Params::rest_density, kSphOnly},
    {"sound_speed", "m/s",
     "Numerical speed of sound. Higher keeps the liquid less compressible but needs a smaller "
     "dt (CFL limit); 10x the fastest flow keeps density within 1%.",
     0.01, 1e5, false, &Params::sound_speed, kSphOnly},
    {"smoothing", "spacings",
     "Smoothing length h in particle spacings; the kernel reaches 2h. Larger is smoother and "
     "slower.",
     1, 2, true, &Params::smoothing, kSphOnly},
    {"viscosity", "", "Artificial viscosity alpha: damps noise; too high makes the water syrup.", 0,
     10, false, &Params::viscosity, kSphOnly},
    {"xsph", "", "XSPH: particles move with a blend of their neighbours' velocity (0 = off).", 0, 1,
     false, &Params::xsph, kSphOnly},
    {"skin", "× range",
     "Neighbour lists: candidates are listed within the interaction range times (1 + skin), and "
     "the lists, grid and sort are rebuilt once a particle has moved half the skin. Larger "
     "rebuilds less often but lists more candidates; applies on Reset.",
     0.01, 1, true, &Params::skin},
    {"contact", "",
     "DEM contact law: classic (the sample's viscous shear: no static friction, piles creep "
     "flat) or frictional (Coulomb friction with a tangential spring remembered per contact, "
     "rolling resistance, particles spin).",
     0, 1, false, &Params::contact, kDemOnly, kContactNames},
    {"friction", "", "Frictional contacts: sliding friction coefficient mu_s (Coulomb limit).", 0,
     10, false, &Params::friction, kDemOnly},
    {"wall_friction", "",
     "Frictional contacts: sliding friction coefficient against the walls, the collider and the "
     "silo's plate (a bead on glass, steel or a rough floor differs from bead on bead).",
     0, 10, false, &Params::wall_friction, kDemOnly},
    {"rolling_friction", "",
     "Frictional contacts: rolling resistance mu_r, a torque of at most mu_r R F_n (between "
     "particles a rolling spring remembered per contact); a sphere on a slope steeper than "
     "atan(mu_r) rolls.",
     0, 1, false, &Params::rolling_friction, kDemOnly},
    {"tangential_stiffness", "x spring",
     "Frictional contacts: tangential spring (and dashpot) as a fraction of the normal one.", 0.01,
     1, false, &Params::tangential_stiffness, kDemOnly},
    {"radius_spread", "x radius",
     "Frictional contacts: beads of different sizes, each radius drawn uniformly within radius "
     "x (1 +- spread) when a scene is made (0 = all alike; the grid's cells grow to the largest "
     "bead); applies on Reset.",
     0, 0.5, true, &Params::radius_spread, kDemOnly},
    {"gravity_x", "m/s²", "Gravity, x component.", -1000, 1000, false, &Params::gravity_x},
    {"gravity_y", "m/s²", "Gravity, y component (up is +y).", -1000, 1000, false,
     &Params::gravity_y},
    {"gravity_z", "m/s²", "Gravity, z component.", -1000, 1000, false, &Params::gravity_z},
    {"global_damping", "", "Velocity factor applied every step (1 = no damping).", 0, 1, false,
     &Params::global_damping},
    {"boundary_damping", "", "Wall-normal velocity factor on hitting a wall (-1 = elastic).", -1, 0,
     false, &Params::boundary_damping},
    {"collider_radius", "m", "Radius of the movable sphere (0 = none).", 0, 100, false,
     &Params::collider_radius},
    {"collider_x", "m", "Collider centre, x.", -1e4, 1e4, false, &Params::collider_x},
    {"collider_y", "m", "Collider centre, y.", -1e4, 1e4, false, &Params::collider_y},
    {"collider_z", "m", "Collider centre, z.", -1e4, 1e4, false, &Params::collider_z},
    {"silo_floor", "m",
     "Frictional contacts: height of a silo's floor plate above the domain's floor (0 = no "
     "plate); beads that pass its orifice land in the catch basin below.",
     0, 1e4, false, &Params::silo_floor, kDemOnly},
    {"glued_below", "m",
     "Frictional contacts: beads whose centre lies less than this above the domain's floor are "
     "glued where they are: a layer of them is a rough floor (0 = none).",
     0, 1e4, false, &Params::glued_below, kDemOnly},
    {"orifice", "m",
     "Frictional contacts: diameter of the circular orifice in the silo's floor, centred in the "
     "domain's x-z middle (0 = closed).",
     0, 1e4, false, &Params::orifice, kDemOnly},
};

std::string format_value(double v) { return format_numbers("%g", v); }

std::string range_text(const ParamInfo& info) {
    std::string s = "[" + format_value(info.min) + ", " + format_value(info.max) + "]";
    if (!info.unit.empty()) s += " " + std::string(info.unit);
    return s;
}

constexpr EnumName<Model> kModelNames[] = {{Model::Dem, "dem"}, {Model::Sph, "sph"}};

}  // namespace

double ParamInfo::get(const Params& p) const {
    return std::visit([&](auto member) { return static_cast<double>(p.*member); }, field);
}

void ParamInfo::set(Params& p, double value) const {
    std::visit(
        [&](auto member) {
            using T = std::remove_reference_t<decltype(p.*member)>;
            p.*member = static_cast<T>(value);
        },
        field);
}

ParamKind ParamInfo::kind() const {
    return std::holds_alternative<int Params::*>(field) ? ParamKind::Int : ParamKind::Float;
}

std::span<const ParamInfo> param_table() { return kTable; }

std::span<const EnumName<Model>> model_names() { return kModelNames; }

Model parse_model(std::string_view name) {
    if (const std::optional<Model> model = find_enum(model_names(), name)) return *model;
    throw Error("unknown model '" + std::string(name) +
                "'; available: " + enum_choices(model_names(), ", "));
}

std::string_view model_name(Model model) { return enum_name(model_names(), model); }

const ParamInfo* find_param(std::string_view name) {
    for (const ParamInfo& info : kTable)
        if (info.name == name) return &info;
    return nullptr;
}

std::vector<std::string> param_errors(const Params& p) {
    std::vector<std::string> errors;
    for (const ParamInfo& info : kTable) {
        const double v = info.get(p);
        // A float field holds its bounds rounded to float: radius = 1e-5 is stored as
        // 9.99999975e-06, which set_param accepted as given. Written so that NaN fails too.
        const bool is_float = info.kind() == ParamKind::Float;
        const double lo = is_float ? static_cast<float>(info.min) : info.min;
        const double hi = is_float ? static_cast<float>(info.max) : info.max;
        if (!(v >= lo && v <= hi))
            errors.push_back(std::string(info.name) + " = " + format_value(v) +
                             " is outside the allowed range " + range_text(info));
    }
    // Only the frictional law reads each bead's own radius (sim/model/bead_size.h).
    if (p.radius_spread > 0.f && !runs_frictional_law(p))
        errors.push_back("radius_spread = " + format_value(p.radius_spread) +
                         " needs the frictional contact law (contact=frictional); the classic "
                         "law and SPH treat every particle as the same size");
    return errors;
}

void validate(const Params& p) {
    const auto errors = param_errors(p);
    if (errors.empty()) return;
    std::string msg = "invalid parameters:";
    for (const auto& e : errors) msg += "\n  " + e;
    throw Error(msg);
}

void set_param(Params& p, std::string_view name, std::string_view text) {
    const ParamInfo* info = find_param(name);
    if (!info) {
        std::string msg = "unknown parameter '" + shown_text(name) + "'; known:";
        for (const ParamInfo& i : kTable) msg += " " + std::string(i.name);
        throw Error(msg);
    }
    double value = 0;
    // A named value ("contact=frictional") stands for its number.
    for (std::size_t k = 0; k < info->names.size(); ++k)
        if (text == info->names[k]) return info->set(p, static_cast<double>(k));
    const char* first = text.data();
    const char* last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(first, last, value);
    if (ec == std::errc::result_out_of_range && end == last)
        throw Error("parameter " + std::string(name) + ": '" + shown_text(text) +
                    "' is beyond the range of a double; the allowed range is " + range_text(*info));
    if (ec != std::errc() || end != last || text.empty()) {
        std::string names;
        for (std::string_view n : info->names)
            names += (names.empty() ? "" : ", ") + std::string(n);
        throw Error("parameter " + std::string(name) + ": '" + shown_text(text) + "' is not " +
                    (names.empty() ? "a number" : "one of " + names + " (or its number)"));
    }
    if (info->kind() == ParamKind::Int && value != std::floor(value))
        throw Error("parameter " + std::string(name) + " takes a whole number, not " +
                    std::string(text));
    // Checked as given, before the value is rounded to the field's type.
    if (!(value >= info->min && value <= info->max))
        throw Error("parameter " + std::string(name) + " = " + std::string(text) +
                    " is outside the allowed range " + range_text(*info));
    info->set(p, value);
}

void keep_reset_params(Params& p, const Params& at_reset) {
    p.model = at_reset.model;
    for (const ParamInfo& info : kTable)
        if (info.needs_reset) info.set(p, info.get(at_reset));
}

void apply_assignment(Params& p, std::string_view assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw Error("expected name=value, got '" + std::string(assignment) + "'");
    set_param(p, assignment.substr(0, eq), assignment.substr(eq + 1));
}

}  // namespace plab::sim
