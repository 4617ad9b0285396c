#include "sim/physics/neighbour_list.h"

#include <cmath>

namespace plab::sim {
namespace {

uint32_t round_up_8(double n) { return (static_cast<uint32_t>(std::ceil(n)) + 7u) / 8u * 8u; }

}  // namespace

ListGeometry list_geometry(const Params& p) {
    const float range = interaction_range(p);
    const float cutoff = range * (1.f + p.skin);
    const float half_skin = 0.5f * p.skin * range;
    // A hair under skin / 2 so that rounding in the distances can never let a contact in that
    // the build did not list.
    const float rebuild = half_skin * (1.f - 1e-4f);
    return {cutoff * cutoff, rebuild * rebuild};
}

GridSpec list_grid(const Domain& domain, const GridSpec& scene_grid, const Params& p) {
    GridSpec g = make_grid(
        domain, interaction_range(p) * (1.f + p.skin) / static_cast<float>(scene_grid.reach));
    g.reach = scene_grid.reach;
    return g;
}

uint32_t initial_list_slots(const Params& p) {
    const double grow = std::pow(1.0 + p.skin, 3.0);
    if (p.model == Model::Sph) {
        // A cubic lattice of spacing 2r: (4/3) π (cutoff / spacing)³ neighbours.
        const double reach = 2.0 * p.smoothing;
        return round_up_8(1.5 * 4.18879 * reach * reach * reach * grow);
    }
    // A dense pile: about 14 contacts (soft grains overlap) growing with the listed volume.
    return round_up_8(1.5 * 14.0 * grow);
}

uint32_t grown_list_slots(uint32_t found) { return round_up_8(1.25 * found); }

}  // namespace plab::sim
