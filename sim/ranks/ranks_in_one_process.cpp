#include "sim/ranks/ranks_in_one_process.h"

#include <algorithm>
#include <string>
#include <utility>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/engine/initial_state.h"

namespace plab::sim {

RanksInOneProcess::RanksInOneProcess(SlabDecomposition slabs, Domain domain, GridSpec grid,
                                     const Params& params, MakeSimulator make)
    : slabs_(std::move(slabs)), domain_(domain), grid_(grid) {
    PLAB_REQUIRE(params.model == Model::Dem && params.contact == int(ContactLaw::Classic),
                 "ranks in one process step the classic DEM law so far");
    const float range = interaction_range(params);
    PLAB_REQUIRE(slabs_.halo >= range, "a halo of " + format_numbers("%g", slabs_.halo) +
                                           " m is narrower than the interaction range of " +
                                           format_numbers("%g", range) +
                                           " m: contacts across a cut would be missed");
    ranks_.resize(static_cast<std::size_t>(slabs_.ranks()));
    for (Rank& r : ranks_) r.simulator = make();
}

void RanksInOneProcess::reset(std::span<const Float4> pos, std::span<const Float4> vel) {
    PLAB_REQUIRE(pos.size() == vel.size(), "positions and velocities differ in count");
    for (Rank& r : ranks_) {
        r.id.clear();
        r.pos.clear();
        r.vel.clear();
    }
    for (std::size_t i = 0; i < pos.size(); ++i) {
        Rank& r = ranks_[static_cast<std::size_t>(slabs_.owner(xyz(pos[i])))];
        r.id.push_back(static_cast<uint32_t>(i));
        r.pos.push_back(pos[i]);
        r.vel.push_back(vel[i]);
    }
    moved_ = halo_ = 0;
}

void RanksInOneProcess::step(const Params& params) {
    Params one = params;
    one.substeps = 1;
    for (int s = 0; s < std::max(params.substeps, 1); ++s) substep(one);
}

void RanksInOneProcess::substep(const Params& one) {
    // Each rank's halo: its neighbours' particles whose halo ranks name it, copied from the
    // state before the step (what a transport would send before the force pass).
    std::vector<InitialState> local(ranks_.size());
    halo_ = 0;
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
        local[r].domain = domain_;
        local[r].grid = grid_;
        local[r].pos = ranks_[r].pos;
        local[r].vel = ranks_[r].vel;
    }
    for (std::size_t from = 0; from < ranks_.size(); ++from) {
        const Rank& src = ranks_[from];
        for (std::size_t k = 0; k < src.pos.size(); ++k) {
            const SlabDecomposition::HaloRanks h = slabs_.halo_ranks(slabs_.along(xyz(src.pos[k])));
            for (int t = 0; t < h.count; ++t) {
                InitialState& to = local[static_cast<std::size_t>(h.rank[t])];
                to.pos.push_back(src.pos[k]);
                to.vel.push_back(src.vel[k]);
                ++halo_;
            }
        }
    }
    // Each rank steps its particles and the halo, and keeps its own (the first ones: the
    // simulators number particles in the order given, and download in that order).
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
        Rank& rank = ranks_[r];
        if (rank.pos.empty()) continue;
        rank.simulator->reset(local[r], one);
        rank.simulator->step(one);
        const Snapshot after = rank.simulator->download();
        std::copy_n(after.pos.begin(), rank.pos.size(), rank.pos.begin());
        std::copy_n(after.vel.begin(), rank.vel.size(), rank.vel.begin());
    }
    migrate();
}

void RanksInOneProcess::migrate() {
    moved_ = 0;
    std::vector<Rank> incoming(ranks_.size());
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
        Rank& rank = ranks_[r];
        std::size_t kept = 0;
        for (std::size_t k = 0; k < rank.pos.size(); ++k) {
            const auto owner = static_cast<std::size_t>(slabs_.owner(xyz(rank.pos[k])));
            if (owner == r) {
                rank.id[kept] = rank.id[k];
                rank.pos[kept] = rank.pos[k];
                rank.vel[kept] = rank.vel[k];
                ++kept;
                continue;
            }
            incoming[owner].id.push_back(rank.id[k]);
            incoming[owner].pos.push_back(rank.pos[k]);
            incoming[owner].vel.push_back(rank.vel[k]);
            ++moved_;
        }
        rank.id.resize(kept);
        rank.pos.resize(kept);
        rank.vel.resize(kept);
    }
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
        Rank& rank = ranks_[r];
        rank.id.insert(rank.id.end(), incoming[r].id.begin(), incoming[r].id.end());
        rank.pos.insert(rank.pos.end(), incoming[r].pos.begin(), incoming[r].pos.end());
        rank.vel.insert(rank.vel.end(), incoming[r].vel.begin(), incoming[r].vel.end());
    }
}

Snapshot RanksInOneProcess::gather() const {
    std::size_t n = 0;
    for (const Rank& r : ranks_) n += r.id.size();
    Snapshot out;
    out.pos.resize(n);
    out.vel.resize(n);
    std::vector<char> seen(n, 0);
    for (const Rank& r : ranks_)
        for (std::size_t k = 0; k < r.id.size(); ++k) {
            const uint32_t id = r.id[k];
            PLAB_REQUIRE(id < n && !seen[id], "particle " + std::to_string(id) +
                                                  " is held by more than one rank or lost");
            seen[id] = 1;
            out.pos[id] = r.pos[k];
            out.vel[id] = r.vel[k];
        }
    return out;
}

std::vector<std::size_t> RanksInOneProcess::counts() const {
    std::vector<std::size_t> out;
    for (const Rank& r : ranks_) out.push_back(r.id.size());
    return out;
}

}  // namespace plab::sim
