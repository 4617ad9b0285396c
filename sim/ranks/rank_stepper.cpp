#include "sim/ranks/rank_stepper.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"

namespace plab::sim {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

float rank_halo(const Params& params) {
    const float range = interaction_range(params);
    return params.model == Model::Sph ? 2.f * range : range;
}

void require_rank_steppable(const Params& params, const SlabDecomposition& slabs) {
    const float halo = rank_halo(params);
    PLAB_REQUIRE(slabs.halo >= halo,
                 "a halo of " + format_numbers("%g", slabs.halo) + " m is narrower than the " +
                     format_numbers("%g", halo) + " m " +
                     (params.model == Model::Sph
                          ? "SPH needs (twice the interaction range: the densities of the "
                            "neighbours' neighbours)"
                          : "interaction range") +
                     ": contacts across a cut would be missed");
}

RankStepper::RankStepper(RankTransport& transport, SlabDecomposition slabs, InitialState scene,
                         const Params& params, std::unique_ptr<Simulator> simulator)
    : transport_(transport),
      slabs_(std::move(slabs)),
      scene_(std::move(scene)),
      simulator_(std::move(simulator)) {
    PLAB_REQUIRE(slabs_.ranks() == transport_.size(),
                 "the decomposition has " + std::to_string(slabs_.ranks()) + " slabs for " +
                     std::to_string(transport_.size()) + " ranks");
    PLAB_REQUIRE(simulator_ != nullptr, "a rank needs a simulator");
    require_rank_steppable(params, slabs_);
    frictional_ = runs_frictional_law(params);
    scene_.pos.clear();
    scene_.vel.clear();
    scene_.order.clear();
    scene_.pos_hi.clear();
    scene_.vel_hi.clear();
    scene_.friction = {};
}

void RankStepper::reset(const std::vector<Float4>& pos, const std::vector<Float4>& vel,
                        const FrictionRecord& friction) {
    own_ = own_share(slabs_, transport_.rank(), pos, vel, frictional_, friction);
    last_ = {};
}

void RankStepper::step(const Params& params) {
    Params one = params;
    one.substeps = 1;
    RankStepStats total;
    for (int s = 0; s < std::max(params.substeps, 1); ++s) {
        substep(one);
        total.halo += last_.halo;
        total.migrated += last_.migrated;
        total.exchange_ms += last_.exchange_ms;
        total.compute_ms += last_.compute_ms;
    }
    last_ = total;
}

void RankStepper::substep(const Params& one) {
    // The halo from the state before the step, as every rank's own particles stand.
    auto t0 = Clock::now();
    const Parcel halo = transport_.exchange(halo_parcels(slabs_, own_));
    last_.exchange_ms = ms_since(t0);
    last_.halo = halo.size();
    t0 = Clock::now();
    step_with_halo(*simulator_, scene_, one, own_, halo);
    last_.compute_ms = ms_since(t0);
    t0 = Clock::now();
    const std::vector<Parcel> out = take_migrants(slabs_, transport_.rank(), own_);
    last_.migrated = 0;
    for (const Parcel& p : out) last_.migrated += p.size();
    own_.append(transport_.exchange(out));
    last_.exchange_ms += ms_since(t0);
}

double RankStepper::imbalance() {
    const std::vector<double> counts = transport_.all_gather({double(own_.size())});
    double most = 0, sum = 0;
    for (double c : counts) {
        most = std::max(most, c);
        sum += c;
    }
    return sum > 0 ? most * double(counts.size()) / sum : 1.0;
}

RankStepper::Rebalance RankStepper::rebalance() {
    Rebalance r;
    r.before = imbalance();
    // Every rank learns every particle's coordinate (in rank order, the same on all ranks),
    // so each cuts the same slabs.
    Parcel mine;
    for (std::size_t k = 0; k < own_.size(); ++k) mine.push(own_.id[k], own_.pos[k], Float4{});
    const Parcel all =
        transport_.exchange(std::vector<Parcel>(static_cast<std::size_t>(transport_.size()), mine));
    slabs_ = balanced_slabs(scene_.domain, transport_.size(), slabs_.halo,
                            coordinates_along(slabs_, all.pos));
    const std::vector<Parcel> out = take_migrants(slabs_, transport_.rank(), own_);
    for (const Parcel& p : out) r.moved += p.size();
    own_.append(transport_.exchange(out));
    r.after = imbalance();
    return r;
}

Snapshot RankStepper::gather(FrictionRecord* friction) {
    const Parcel all = transport_.gather(own_);
    if (transport_.rank() != 0) return {};
    if (friction != nullptr) *friction = friction_in_id_order(all);
    return in_id_order(all);
}

}  // namespace plab::sim
