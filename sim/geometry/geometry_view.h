#pragma once
// The scene's bodies as the step reads them, on either backend: world-space triangles, each
// body's surface motion, and the triangles binned into the cells of the particles' grid
// (sim/geometry/triangle_bins.h), so that a particle tests only the triangles of its own cell.
// Plain views of memory the simulator owns (host vectors on the CPU, device buffers on CUDA).
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/model/grid.h"

namespace plab::sim {

// One triangle in world space, with the scene-wide indices of its corners (welded, so that two
// triangles sharing an edge name the same two vertices: nearest_on_triangle reports the
// feature it found by them) and the body it belongs to.
struct GeoTriangle {
    Vec3 a, b, c;         // m
    uint32_t va, vb, vc;  // vertex indices, unique over the whole scene
    uint32_t body;        // index into GeometryView::bodies
};

// How a body's surface moves (rigidly): the velocity of its point x is
// velocity + omega × (x − spin_center). Its shape stays where it is (see body.h).
struct GeoBody {
    Vec3 velocity;          // m/s
    Vec3 spin_center;       // m
    Vec3 omega;             // rad/s, along the spin axis
    float friction = -1.f;  // μ_s against beads (the frictional law); < 0: wall_friction
};

PLAB_HD inline Vec3 surface_velocity(const GeoBody& body, Vec3 x) {
    return body.velocity + cross(body.omega, x - body.spin_center);
}

// The bodies' signed-distance field for SPH (boundary_field.h), as the step reads it: nodes
// `1 / inv_spacing` apart from `origin`, x fastest; node (n, d) holds d, the distance (m) to the
// nearest body surface, negative inside a body's material, and n, the unit direction in which
// d grows (into the liquid). Nodes farther than the field's band from every surface hold
// d = band, n = 0. `crease[kCreaseSlots node + s]` = (n, o), s = 0, 1, 2: where the node lies
// in a crease (boundary_field.h), the planes of its faces, each of unit normal n (into the
// liquid) at distance dot(n, x) − o from x; n = 0 for none (slot 1 empty: in no crease). Read
// from the node nearest a particle. Null nodes: no field (DEM, or no bodies).
inline constexpr uint32_t kCreaseSlots = 3;

struct FieldView {
    const Float4* nodes = nullptr;
    const Float4* crease = nullptr;
    Vec3 origin;
    float inv_spacing = 0.f;
    uint32_t nx = 0, ny = 0, nz = 0;  // ≥ 2 each when nodes is set

    PLAB_HD bool active() const { return nodes != nullptr; }
};

struct GeometryView {
    const GeoTriangle* triangles = nullptr;
    const GeoBody* bodies = nullptr;
    // Cell c of `grid` lists triangles bin_items[bin_start[c] .. bin_start[c + 1]): every
    // triangle that comes within the contact reach of some point of the cell.
    const uint32_t* bin_start = nullptr;  // grid.num_cells() + 1 entries
    const uint32_t* bin_items = nullptr;
    uint32_t triangle_count = 0;
    GridSpec grid;
    FieldView field;  // SPH only

    // Whether the DEM passes have triangles to meet.
    PLAB_HD bool active() const { return triangle_count > 0; }
};

}  // namespace plab::sim
