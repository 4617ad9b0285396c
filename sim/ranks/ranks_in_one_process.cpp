#include "sim/ranks/ranks_in_one_process.h"

#include <algorithm>
#include <string>
#include <utility>

#include "sim/core/error.h"
#include "sim/engine/initial_state.h"
#include "sim/ranks/rank_stepper.h"

namespace plab::sim {

RanksInOneProcess::RanksInOneProcess(SlabDecomposition slabs, Domain domain, GridSpec grid,
                                     const Params& params, MakeSimulator make)
    : slabs_(std::move(slabs)) {
    scene_.domain = domain;
    scene_.grid = grid;
    require_rank_steppable(params, slabs_);
    frictional_ = runs_frictional_law(params);
    ranks_.resize(static_cast<std::size_t>(slabs_.ranks()));
    for (Rank& r : ranks_) r.simulator = make();
}

void RanksInOneProcess::reset(std::span<const Float4> pos, std::span<const Float4> vel) {
    const std::vector<Float4> p(pos.begin(), pos.end()), v(vel.begin(), vel.end());
    for (std::size_t r = 0; r < ranks_.size(); ++r)
        ranks_[r].own = own_share(slabs_, static_cast<int>(r), p, v, frictional_);
    moved_ = halo_ = 0;
}

void RanksInOneProcess::step(const Params& params) {
    Params one = params;
    one.substeps = 1;
    for (int s = 0; s < std::max(params.substeps, 1); ++s) substep(one);
}

void RanksInOneProcess::substep(const Params& one) {
    // Each rank's halo: its neighbours' particles whose halo ranks name it, copied from the
    // state before the step (what a transport sends before the force pass).
    std::vector<Parcel> halo(ranks_.size());
    halo_ = 0;
    for (const Rank& from : ranks_) {
        const std::vector<Parcel> out = halo_parcels(slabs_, from.own);
        for (std::size_t to = 0; to < out.size(); ++to) {
            halo[to].append(out[to]);
            halo_ += out[to].size();
        }
    }
    for (std::size_t r = 0; r < ranks_.size(); ++r)
        step_with_halo(*ranks_[r].simulator, scene_, one, ranks_[r].own, halo[r]);
    migrate();
}

void RanksInOneProcess::migrate() {
    moved_ = 0;
    std::vector<Parcel> incoming(ranks_.size());
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
        const std::vector<Parcel> out = take_migrants(slabs_, static_cast<int>(r), ranks_[r].own);
        for (std::size_t to = 0; to < out.size(); ++to) {
            incoming[to].append(out[to]);
            moved_ += out[to].size();
        }
    }
    for (std::size_t r = 0; r < ranks_.size(); ++r) ranks_[r].own.append(incoming[r]);
}

Snapshot RanksInOneProcess::gather() const {
    Parcel all;
    for (const Rank& r : ranks_) all.append(r.own);
    return in_id_order(all);
}

std::vector<std::size_t> RanksInOneProcess::counts() const {
    std::vector<std::size_t> out;
    for (const Rank& r : ranks_) out.push_back(r.own.size());
    return out;
}

}  // namespace plab::sim
