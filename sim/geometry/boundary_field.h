#pragma once
// The scene's bodies as SPH meets them: a signed-distance field sampled once, at reset, on a
// lattice over the domain (FieldView in geometry_view.h says what a node holds). The SPH walls
// lend density and push from tables of the distance to a plane (sph_kernel.h); a body lends
// the same at the distance the field gives, along its direction, so a flat face of a mesh
// acts exactly as a domain wall and a curved one as its tangent plane. The idea is Koschier &
// Bender's density maps (2017): precompute what the boundary contributes as a function of
// position once, instead of sampling it with boundary particles every step. Bodies do not
// move their shape (body.h), so the field never changes during a run.
//
// Built from the triangles alone (liquid_side.h says how their side is known):
//   1. every node within `band` of some triangle takes the nearest point over all triangles
//      (nearest_on_triangle), found by visiting each triangle's box grown by the band;
//   2. a node's sign comes from its nearest body: for a closed body, inside or outside by the
//      parity of the body's crossings along the node's row of the lattice (a ray along x),
//      which needs no consistent normals at edges and corners; for a flat body, by the side
//      its triangles face;
//   3. nodes farther than the band from every surface hold (0, band): liquid, untouched;
//   4. a node in the liquid (or inside a body within a spacing of its surface) also keeps,
//      where it lies in a crease, the planes of up to three faces whose nearest points lie in
//      directions more than 45° apart: a tank's edge (two) or corner (three), a narrow gap.
//      A particle there meets each as the domain box's walls at its edges and corners (exact
//      planes, not the interpolated distance, which rounds the crease off); a convex edge has
//      one nearest point for both its faces and keeps none.
// Where two faces of a crease meet at other than a right angle, their mirror layers overlap
// uncorrected: a little extra density in the crease (sph_body_walls.h).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/vec.h"
#include "sim/geometry/geometry_view.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/model/grid.h"

namespace plab::sim {

// Nodes a field may hold (64 bytes each, the nearest face and three crease planes: 1 GiB).
inline constexpr std::uint64_t kMaxFieldNodes = std::uint64_t{1} << 24;

struct BoundaryField {
    std::vector<Float4> nodes;   // (n, d) as FieldView::nodes says
    std::vector<Float4> crease;  // kCreaseSlots a node, as FieldView::crease says
    Vec3 origin;
    float spacing = 0.f;  // m
    float band = 0.f;     // m: distances are exact within it
    uint32_t nx = 0, ny = 0, nz = 0;

    bool empty() const { return nodes.empty(); }
    // A view of the copies the step reads (these vectors' data on the CPU).
    FieldView view(const Float4* device_nodes, const Float4* device_crease) const;
    std::size_t bytes() const { return (nodes.size() + crease.size()) * sizeof(Float4); }
};

// The lattice a field over `domain` at `spacing` takes: nodes from domain.min to at least
// domain.max on each axis. Throws plab::Error past kMaxFieldNodes, saying how many and why.
struct FieldLattice {
    uint32_t nx = 0, ny = 0, nz = 0;
    std::uint64_t nodes() const { return std::uint64_t{nx} * ny * nz; }
};
FieldLattice field_lattice(const Domain& domain, float spacing);

// Why SPH cannot meet these bodies ("" when it can): an open body that is not flat has no
// liquid side. Names the body.
std::string sph_sides_unsupported(const SceneGeometry& geometry);

// The field of `geometry` over `domain`, `spacing` apart, exact within `band` of a surface.
// Throws plab::Error for bodies SPH cannot meet (sph_sides_unsupported) or a lattice too large.
BoundaryField boundary_field(const SceneGeometry& geometry, const Domain& domain, float spacing,
                             float band);

}  // namespace plab::sim
