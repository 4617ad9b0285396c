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

namespace plab::sim {

struct Params {
    // Time stepping.
    float dt = 0.5f;   // s (sample time units in the classic preset)
    int substeps = 1;  // simulation steps per call of Simulator::step

    // Particles. The grid cell is one particle diameter, so radius is fixed at reset.
    float radius = 1.f / 64.f;  // m
    float mass = 0.5f;          // kg per particle

    // DEM contact (spring–dashpot with shear, optional attraction).
    float spring = 0.5f;      // N/m, normal stiffness
    float damping = 0.02f;    // N·s/m, dashpot on the relative velocity
    float shear = 0.1f;       // N·s/m, tangential (shear) coefficient
    float attraction = 0.f;   // N/m, pull towards the other particle while in contact

    // Body forces and walls.
    float gravity_x = 0.f, gravity_y = -0.0003f, gravity_z = 0.f;  // m/s²
    float global_damping = 1.f;     // velocity factor applied once per step
    float boundary_damping = -0.5f;  // wall-normal velocity factor at a wall (−restitution)

    // One spherical collider the user can move.
    float collider_radius = 0.2f;  // m; 0 disables it
    float collider_x = -1.2f, collider_y = -0.8f, collider_z = 0.8f;  // m

    bool operator==(const Params&) const = default;
};

enum class ParamKind { Float, Int };

struct ParamInfo {
    std::string_view name;
    std::string_view unit;
    std::string_view help;
    double min = 0, max = 0;  // allowed range, inclusive
    bool needs_reset = false;
    std::variant<float Params::*, int Params::*> field;

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

// Parses "name=value" and calls set_param.
void apply_assignment(Params& p, std::string_view assignment);

}  // namespace plab::sim
