#pragma once
// The checks every run passes before its first step, shared by the window, bench, export and
// validate. What cannot run at all is refused by check_scene and build_initial_state
// (sim/model/scene.h: a block outside the domain, a count past the limit, a grid too large, a
// particle starting outside the domain or at a non-finite position). What runs but is almost
// surely not what was meant is a warning, returned here for each surface to print or show:
//   - blocks that overlap (their particles start on top of each other and fly apart), and a
//     block spacing below one diameter (DEM) or other than 2 radius (SPH: the liquid starts
//     compressed or stretched);
//   - dt above the stable limit: the SPH CFL and body-force limit (sph_max_dt at the fastest
//     start speed), or the DEM contact limit (dem_max_dt), with the advice to lower dt and raise
//     substeps to keep the pace;
//   - a block starting too fast for the model (DEM: more than two diameters per step; SPH: at
//     or above the speed of sound);
//   - a parameter set by --set, a sweep or a scene file that the model does not use (a DEM
//     spring on an SPH run and the reverse).
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/params.h"
#include "sim/model/scene.h"

namespace plab::sim {

struct RunWarning {
    std::string text;  // what is wrong, where, and what to change
};

// A parameter the run was asked to set, and where it was asked ("--set spring=4",
// "assets/scenes/x.json: params.spring").
struct AssignedParam {
    std::string name;
    std::string origin;
};

// Throws plab::Error (before any warning) when the run asks for what its model cannot do: a
// silo floor plate (silo_floor > 0) or glued beads (glued_below > 0) without the frictional
// DEM law (require_plate_support).
std::vector<RunWarning> check_run(const Scene& scene, const Params& params,
                                  const std::vector<AssignedParam>& assigned = {});

// Throws plab::Error naming silo_floor (or glued_below) when `p` places a silo's floor plate
// (or glues beads) but does not run the frictional DEM contact law (the classic law and SPH
// have neither).
void require_plate_support(const Params& p);

// The DEM contact limit of `p` (dem_theory.h dem_max_dt), s.
double dem_dt_limit(const Params& p);

// One line per warning, each starting with `prefix`; "" when there are none.
std::string warning_lines(const std::vector<RunWarning>& warnings, std::string_view prefix);

}  // namespace plab::sim
