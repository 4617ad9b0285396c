#include "sim/ranks/rank_parcel.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "sim/core/error.h"
#include "sim/ranks/friction_rows.h"

namespace plab::sim {

void Parcel::push_from(const Parcel& from, std::size_t k) {
    push(from.id[k], from.pos[k], from.vel[k]);
    if (from.row_bytes == 0) return;
    row_bytes = from.row_bytes;
    rows.insert(rows.end(), from.row(k), from.row(k) + row_bytes);
}

void Parcel::append(const Parcel& other) {
    id.insert(id.end(), other.id.begin(), other.id.end());
    pos.insert(pos.end(), other.pos.begin(), other.pos.end());
    vel.insert(vel.end(), other.vel.begin(), other.vel.end());
    if (other.row_bytes != 0) row_bytes = other.row_bytes;
    rows.insert(rows.end(), other.rows.begin(), other.rows.end());
}

namespace {

// One empty parcel a rank, carrying `like`'s row size.
std::vector<Parcel> parcels_like(const SlabDecomposition& slabs, const Parcel& like) {
    std::vector<Parcel> out(static_cast<std::size_t>(slabs.ranks()));
    for (Parcel& p : out) p.row_bytes = like.row_bytes;
    return out;
}

}  // namespace

std::vector<Parcel> halo_parcels(const SlabDecomposition& slabs, const Parcel& own) {
    std::vector<Parcel> out = parcels_like(slabs, own);
    for (std::size_t k = 0; k < own.size(); ++k) {
        const SlabDecomposition::HaloRanks h = slabs.halo_ranks(slabs.along(xyz(own.pos[k])));
        for (int t = 0; t < h.count; ++t)
            out[static_cast<std::size_t>(h.rank[t])].push_from(own, k);
    }
    return out;
}

std::vector<Parcel> take_migrants(const SlabDecomposition& slabs, int me, Parcel& own) {
    std::vector<Parcel> out = parcels_like(slabs, own);
    Parcel kept;
    kept.row_bytes = own.row_bytes;
    for (std::size_t k = 0; k < own.size(); ++k) {
        const int owner = slabs.owner(xyz(own.pos[k]));
        (owner == me ? kept : out[static_cast<std::size_t>(owner)]).push_from(own, k);
    }
    own = std::move(kept);
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
    std::vector<uint32_t> global(n);          // the global id at each memory index, ascending
    std::vector<const std::byte*> rows(own.row_bytes ? n : 0);
    for (std::size_t m = 0; m < n; ++m) {
        const uint32_t s = slot[m];
        global[m] = id_of(s);
        PLAB_REQUIRE(
            m == 0 || global[m - 1] != global[m],
            "particle " + std::to_string(global[m]) + " is both a rank's own and in its halo");
        const bool mine = s < own.size();
        const Parcel& from = mine ? own : halo;
        const std::size_t k = mine ? s : s - own.size();
        local.pos[m] = from.pos[k];
        local.vel[m] = from.vel[k];
        if (own.row_bytes) rows[m] = from.row(k);
        if (mine) where[s] = static_cast<uint32_t>(m);
    }
    // The frictional state by the simulator's ids (its memory indices), partners with it.
    const auto to_local = [&](uint32_t g) {
        const auto at = std::lower_bound(global.begin(), global.end(), g);
        return at != global.end() && *at == g ? static_cast<uint32_t>(at - global.begin())
                                              : kFreeSlot;
    };
    if (own.row_bytes) local.friction = friction_record_of(rows, to_local);
    simulator.reset(local, one);
    simulator.step(one);
    const Snapshot after = simulator.download();
    for (std::size_t k = 0; k < own.size(); ++k) {
        own.pos[k] = after.pos[where[k]];
        own.vel[k] = after.vel[where[k]];
    }
    if (!own.row_bytes) return;
    FrictionRecord captured = simulator.capture_state().friction;
    PLAB_REQUIRE(!captured.empty(), "a rank's simulator did not run the frictional law");
    fill_absent_friction_arrays(captured, n);
    std::vector<std::byte> next;
    next.reserve(own.size() * own.row_bytes);
    for (std::size_t k = 0; k < own.size(); ++k)
        append_friction_row(next, captured, where[k], [&](uint32_t m) { return global[m]; });
    own.rows = std::move(next);
}

Parcel own_share(const SlabDecomposition& slabs, int me, const std::vector<Float4>& pos,
                 const std::vector<Float4>& vel, bool frictional, const FrictionRecord& friction) {
    PLAB_REQUIRE(pos.size() == vel.size(), "positions and velocities differ in count");
    PLAB_REQUIRE(friction_record_problem(friction, pos.size()).empty(),
                 "the frictional state does not fit the particles: " +
                     friction_record_problem(friction, pos.size()));
    FrictionRecord full = friction;
    if (frictional && !full.empty()) fill_absent_friction_arrays(full, pos.size());
    Parcel out;
    if (frictional) out.row_bytes = friction_row_bytes();
    for (std::size_t i = 0; i < pos.size(); ++i) {
        if (slabs.owner(xyz(pos[i])) != me) continue;
        out.push(static_cast<uint32_t>(i), pos[i], vel[i]);
        if (!frictional) continue;
        if (full.empty())
            append_resting_friction_row(out.rows);
        else
            append_friction_row(out.rows, full, i, [](uint32_t p) { return p; });
    }
    return out;
}

FrictionRecord friction_in_id_order(const Parcel& parts) {
    if (parts.row_bytes == 0) return {};
    std::vector<const std::byte*> rows(parts.size(), nullptr);
    for (std::size_t k = 0; k < parts.size(); ++k) {
        PLAB_REQUIRE(
            parts.id[k] < rows.size() && rows[parts.id[k]] == nullptr,
            "particle " + std::to_string(parts.id[k]) + " is held by more than one rank or lost");
        rows[parts.id[k]] = parts.row(k);
    }
    return friction_record_of(rows, [](uint32_t p) { return p; });
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
