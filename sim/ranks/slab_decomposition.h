#pragma once
// The domain cut into slabs along its longest axis, one slab per rank, for runs over several
// processes or GPUs. A rank steps the particles whose centres lie in its slab, plus a halo:
// copies of its neighbours' particles within `halo` (the interaction range plus the lists'
// skin) of the cut they share, which it reads and does not move. Slabs at least `halo` wide keep
// every halo inside the next slab, so a rank exchanges with its two neighbours only. Geometry
// only: the transports move what this decides.
#include <span>
#include <vector>

#include "sim/core/vec.h"
#include "sim/model/grid.h"

namespace plab::sim {

struct SlabDecomposition {
    int axis = 0;             // 0: x, 1: y, 2: z
    std::vector<float> cuts;  // ranks + 1 ascending coordinates along the axis, m: the domain's
                              // ends first and last, slab r is [cuts[r], cuts[r + 1])
    float halo = 0;           // m

    int ranks() const { return static_cast<int>(cuts.size()) - 1; }
    // The coordinate of `p` along the axis.
    float along(Vec3 p) const { return axis == 0 ? p.x : axis == 1 ? p.y : p.z; }
    // The rank whose slab holds coordinate x (past the domain's ends: the end slab, as the walls
    // put such a particle back).
    int owner(float x) const;
    int owner(Vec3 p) const { return owner(along(p)); }

    // The ranks besides the owner whose halos hold coordinate x: the lower neighbour when x lies
    // within the halo above their cut, the upper one when within the halo below it.
    struct HaloRanks {
        int rank[2] = {-1, -1};
        int count = 0;
    };
    HaloRanks halo_ranks(float x) const;
};

// 0, 1 or 2: the axis along which `d` is longest (the first of equals).
int longest_axis(const Domain& d);

// `ranks` slabs of equal width along the longest axis. Throws plab::Error when a slab would be
// narrower than the halo, naming the most ranks the domain takes.
SlabDecomposition even_slabs(const Domain& d, int ranks, float halo);

// `ranks` slabs along the longest axis holding about as many of the particles at coordinates
// `along` each (a cut halfway between the particles at its quantile), each still at least one
// halo wide (a crowded slab keeps that width and its neighbours give it up). Throws as
// even_slabs.
SlabDecomposition balanced_slabs(const Domain& d, int ranks, float halo,
                                 std::span<const float> along);

// balanced_slabs at the coordinates of the particles at `pos` along the longest axis.
SlabDecomposition slabs_at_quantiles(const Domain& d, int ranks, float halo,
                                     std::span<const Float4> pos);

// The particles' coordinates along the decomposition's axis.
std::vector<float> coordinates_along(const SlabDecomposition& s, std::span<const Float4> pos);

// The most particles a slab holds over the mean (1: even); 0 without particles.
double slab_imbalance(const SlabDecomposition& s, std::span<const float> along);

}  // namespace plab::sim
