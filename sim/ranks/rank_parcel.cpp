#include "sim/ranks/rank_parcel.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "sim/core/error.h"

namespace plab::sim {

void Parcel::append(const Parcel& other) {
    id.insert(id.end(), other.id.begin(), other.id.end());
    pos.insert(pos.end(), other.pos.begin(), other.pos.end());
    vel.insert(vel.end(), other.vel.begin(), other.vel.end());
}

void Parcel::clear() {
    id.clear();
    pos.clear();
    vel.clear();
}

std::vector<Parcel> halo_parcels(const SlabDecomposition& slabs, const Parcel& own) {
    std::vector<Parcel> out(static_cast<std::size_t>(slabs.ranks()));
    for (std::size_t k = 0; k < own.size(); ++k) {
        const SlabDecomposition::HaloRanks h = slabs.halo_ranks(slabs.along(xyz(own.pos[k])));
        for (int t = 0; t < h.count; ++t)
            out[static_cast<std::size_t>(h.rank[t])].push(own.id[k], own.pos[k], own.vel[k]);
    }
    return out;
}

std::vector<Parcel> take_migrants(const SlabDecomposition& slabs, int me, Parcel& own) {
    std::vector<Parcel> out(static_cast<std::size_t>(slabs.ranks()));
    std::size_t kept = 0;
    for (std::size_t k = 0; k < own.size(); ++k) {
        const int owner = slabs.owner(xyz(own.pos[k]));
        if (owner != me) {
            out[static_cast<std::size_t>(owner)].push(own.id[k], own.pos[k], own.vel[k]);
            continue;
        }
        own.id[kept] = own.id[k];
        own.pos[kept] = own.pos[k];
        own.vel[kept] = own.vel[k];
        ++kept;
    }
    own.id.resize(kept);
    own.pos.resize(kept);
    own.vel.resize(kept);
    return out;
}

void step_with_halo(Simulator& simulator, const InitialState& scene, const Params& one, Parcel& own,
                    const Parcel& halo) {
    if (own.size() == 0) return;
    // Slots 0..own-1 are the rank's own particles, the rest its halo; stepped in id order.
    const std::size_t n = own.size() + halo.size();
    std::vector<uint32_t> slot(n);
    std::iota(slot.begin(), slot.end(), 0u);
    const auto id_of = [&](uint32_t s) {
        return s < own.size() ? own.id[s] : halo.id[s - own.size()];
    };
    std::sort(slot.begin(), slot.end(),
              [&](uint32_t a, uint32_t b) { return id_of(a) < id_of(b); });
    InitialState local;
    local.domain = scene.domain;
    local.grid = scene.grid;
    local.geometry = scene.geometry;
    local.pos.resize(n);
    local.vel.resize(n);
    std::vector<uint32_t> where(own.size());  // the memory index of each own particle
    for (std::size_t m = 0; m < n; ++m) {
        const uint32_t s = slot[m];
        PLAB_REQUIRE(
            m == 0 || id_of(slot[m - 1]) != id_of(s),
            "particle " + std::to_string(id_of(s)) + " is both a rank's own and in its halo");
        if (s < own.size()) {
            local.pos[m] = own.pos[s];
            local.vel[m] = own.vel[s];
            where[s] = static_cast<uint32_t>(m);
        } else {
            local.pos[m] = halo.pos[s - own.size()];
            local.vel[m] = halo.vel[s - own.size()];
        }
    }
    simulator.reset(local, one);
    simulator.step(one);
    const Snapshot after = simulator.download();
    for (std::size_t k = 0; k < own.size(); ++k) {
        own.pos[k] = after.pos[where[k]];
        own.vel[k] = after.vel[where[k]];
    }
}

Parcel own_share(const SlabDecomposition& slabs, int me, const std::vector<Float4>& pos,
                 const std::vector<Float4>& vel) {
    PLAB_REQUIRE(pos.size() == vel.size(), "positions and velocities differ in count");
    Parcel out;
    for (std::size_t i = 0; i < pos.size(); ++i)
        if (slabs.owner(xyz(pos[i])) == me) out.push(static_cast<uint32_t>(i), pos[i], vel[i]);
    return out;
}

Snapshot in_id_order(const Parcel& parts) {
    const std::size_t n = parts.size();
    Snapshot out;
    out.pos.resize(n);
    out.vel.resize(n);
    std::vector<char> seen(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
        const uint32_t id = parts.id[k];
        PLAB_REQUIRE(id < n && !seen[id],
                     "particle " + std::to_string(id) + " is held by more than one rank or lost");
        seen[id] = 1;
        out.pos[id] = parts.pos[k];
        out.vel[id] = parts.vel[k];
    }
    return out;
}

}  // namespace plab::sim
