#pragma once
// Every tunable parameter of the simulation, declared once. `Params` is a plain struct that
// kernels take by value; `param_table()` describes each field (unit, default range, help,
// whether a change needs a reset) and is what the panel, the CLI (`--set name=value`), scene
// files and recordings are built from. Adding a parameter is one field plus one table row.
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/core/enum_names.h"
#include "sim/core/hd.h"

namespace plab::sim {

// Which physics the particles follow: DEM grains (spring–dashpot contacts) or an SPH liquid
// (weakly compressible, sim/physics/sph_kernel.h). Fixed per scene; changing it needs a reset.
enum class Model { Dem, Sph };

// dem, sph.
std::span<const EnumName<Model>> model_names();
// Throws plab::Error naming the known models.
Model parse_model(std::string_view name);
std::string_view model_name(Model model);

struct Params {
    Model model = Model::Dem;

    // Time stepping.
    float dt = 0.5f;   // s (sample time units in the classic preset)
    int substeps = 1;  // simulation steps per call of Simulator::step

    // Particles. The grid cell is one interaction range (interaction_range below), so radius
    // is fixed at reset. In SPH the radius is half the particle spacing.
    float radius = 1.f / 64.f;  // m
    float mass = 0.5f;          // kg per particle (DEM; SPH derives it, sph_kernel.h)

    // DEM contact (spring–dashpot with shear, optional attraction).
    float spring = 0.5f;     // N/m, normal stiffness
    float damping = 0.02f;   // N·s/m, dashpot on the relative velocity
    float shear = 0.1f;      // N·s/m, tangential (shear) coefficient
    float attraction = 0.f;  // N/m, pull towards the other particle while in contact

    // Body forces and walls.
    float gravity_x = 0.f, gravity_y = -0.0003f, gravity_z = 0.f;  // m/s²
    float global_damping = 1.f;      // velocity factor applied once per step
    float boundary_damping = -0.5f;  // wall-normal velocity factor at a wall (−restitution)

    // One spherical collider the user can move.
    float collider_radius = 0.2f;                                     // m; 0 disables it
    float collider_x = -1.2f, collider_y = -0.8f, collider_z = 0.8f;  // m

    // A silo's floor (frictional DEM only, sim/geometry/orifice_plate.h): a horizontal plate this
    // high above the domain's floor with a circular orifice centred in the domain's x-z middle.
    float silo_floor = 0.f;  // m above the domain's y minimum; 0 = no plate
    // Frictional DEM: beads whose centre lies less than this above the domain's y minimum are
    // glued where they are (a rough floor of beads); 0 = none.
    float glued_below = 0.f;  // m
    float orifice = 0.f;      // m, the orifice's diameter; 0 = closed

    // SPH liquid (weakly compressible, Tait equation of state, Wendland C2 kernel).
    float rest_density = 1000.f;  // kg/m³
    float sound_speed = 20.f;  // m/s, numerical: ≥ 10 × the fastest flow keeps |Δρ/ρ₀| ≤ 1%
    float smoothing = 1.2f;    // smoothing length h in particle spacings (kernel reach 2h)
    float viscosity = 0.02f;  // Monaghan artificial viscosity α (dimensionless)
    float xsph = 0.f;         // XSPH velocity smoothing ε (0 = off)

    // Neighbour lists (SimulatorOptions::neighbour_list): candidates are listed within
    // range × (1 + skin) and the lists are rebuilt once a particle has moved skin / 2 ranges.
    float skin = 0.1f;  // fraction of the interaction range

    // DEM contact law: the classic sample's viscous shear, or Coulomb friction with contact
    // memory and rolling resistance (dem_friction.h; particles then spin).
    int contact = 0;                 // ContactLaw
    float friction = 0.5f;           // μ_s, sliding friction coefficient
    float rolling_friction = 0.05f;  // μ_r, rolling resistance (torque limit μ_r·R·F_n)
    float wall_friction = 0.5f;      // μ_s against the walls, the collider and the silo's plate
    float tangential_stiffness = 2.f / 7.f;  // k_t / k_n (and γ_t / γ_n)
    // Frictional DEM: beads of different sizes, each radius uniform in radius × [1 − s, 1 + s]
    // (sim/model/bead_size.h: a particle's position w holds its deviation); 0 = all alike.
    float radius_spread = 0.f;

    bool operator==(const Params&) const = default;
};

enum class ParamKind { Float, Int };

// Params::contact.
enum class ContactLaw : int { Classic = 0, Frictional = 1 };

// Which models a parameter applies to (the panel hides the others).
enum ModelMask : unsigned { kDemOnly = 1u, kSphOnly = 2u, kAllModels = 3u };

inline bool applies_to(unsigned mask, Model model) {
    return (mask & (model == Model::Dem ? kDemOnly : kSphOnly)) != 0;
}

struct ParamInfo {
    std::string_view name;
    std::string_view unit;
    std::string_view help;
    double min = 0, max = 0;  // allowed range, inclusive
    bool needs_reset = false;
    std::variant<float Params::*, int Params::*> field;
    unsigned models = kAllModels;
    // An int parameter that picks one of several things: the names of its values 0, 1, ...
    // (set_param takes a name or the number; the panel shows a list).
    std::span<const std::string_view> names = {};

    double get(const Params& p) const;
    void set(Params& p, double value) const;  // no range check: use set_param
    ParamKind kind() const;
};

// The table, in panel order.
std::span<const ParamInfo> param_table();

// nullptr when no parameter has this name.
const ParamInfo* find_param(std::string_view name);

// Every rule `p` breaks, one readable message each (empty when valid).
std::vector<std::string> param_errors(const Params& p);

// Throws plab::Error listing every broken rule.
void validate(const Params& p);

// Sets one parameter from text ("spring=0.4" style tools call this with the two halves).
// Throws plab::Error naming the parameter, the value and the allowed range; `p` is unchanged
// on error.
void set_param(Params& p, std::string_view name, std::string_view value);

// Distance up to which two particles interact, which is also the grid's cell size: one
// diameter for DEM (the largest bead's with a radius spread), the kernel reach 2h = 2 ·
// smoothing · spacing for SPH.
PLAB_HD inline float interaction_range(const Params& p) {
    return p.model == Model::Sph ? 4.f * p.smoothing * p.radius
                                 : 2.f * p.radius * (1.f + p.radius_spread);
}

// Whether a step with `p` runs the frictional contact law (sim/physics/dem_friction.h).
PLAB_HD inline bool runs_frictional_law(const Params& p) {
    return p.model == Model::Dem && p.contact == int(ContactLaw::Frictional);
}

// The contact law a step with `p` runs (the classic one for SPH, which has none).
PLAB_HD inline ContactLaw contact_law_of(const Params& p) {
    return runs_frictional_law(p) ? ContactLaw::Frictional : ContactLaw::Classic;
}

// Copies from `at_reset` what only a reset may change: the model and every needs_reset
// parameter (the grid was built for them).
void keep_reset_params(Params& p, const Params& at_reset);

// Parses "name=value" and calls set_param.
void apply_assignment(Params& p, std::string_view assignment);

}  // namespace plab::sim
