#pragma once
// A silo's floor: a horizontal plate at height y_f with a circular orifice of radius R_h
// around a vertical axis (the set {y = y_f, distance from the axis ≥ R_h}), for both backends.
// The frictional law treats it as a body of infinite mass at rest (dem_frictional_step.h).
// The plate point nearest a bead's centre is the centre's projection onto the plane when the
// centre lies outside the hole's radius, else the rim point in the centre's direction: beads
// over the plate rest on it, beads at the rim touch the rim, beads over the hole fall through,
// and beads below the plate touch its underside.
#include "sim/core/hd.h"
#include "sim/core/vec.h"

namespace plab::sim {

// How a bead touches the plate: `n` the unit normal from its centre towards the nearest plate
// point, `delta` the overlap radius − distance (m; ≤ 0: no contact, `n` then undefined).
struct PlateContact {
    Vec3 n;
    float delta = 0;
};

// The plate at height `y_f` with a hole of radius `hole_radius` (m, 0 = closed) around the
// vertical axis through (`axis_x`, `axis_z`), against a bead of radius `radius` at `c`.
PLAB_HD inline PlateContact orifice_plate_contact(Vec3 c, float radius, float y_f, float axis_x,
                                                  float axis_z, float hole_radius) {
    PlateContact r;
    const float dx = c.x - axis_x, dz = c.z - axis_z;
    const float rho2 = dx * dx + dz * dz;
    Vec3 to;  // from the centre to the nearest plate point
    if (rho2 >= hole_radius * hole_radius) {
        to = {0.f, y_f - c.y, 0.f};
    } else {
        // On the axis every rim point is as near: take the one along +x.
        const float rho = sqrtf(rho2);
        const float ux = rho > 0.f ? dx / rho : 1.f, uz = rho > 0.f ? dz / rho : 0.f;
        to = {axis_x + hole_radius * ux - c.x, y_f - c.y, axis_z + hole_radius * uz - c.z};
    }
    const float dist2 = length_squared(to);
    if (dist2 >= radius * radius) return r;  // delta stays 0: no contact
    const float dist = sqrtf(dist2);
    r.delta = radius - dist;
    // A centre exactly on the plate has no direction: push it up (the fill side).
    r.n = dist > 0.f ? to * (1.f / dist) : Vec3{0.f, -1.f, 0.f};
    return r;
}

}  // namespace plab::sim
