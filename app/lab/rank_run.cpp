#include "app/lab/rank_run.h"

#include <ostream>
#include <utility>

#include "sim/core/enum_names.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/run/make_simulator.h"

namespace plab::app {
namespace {

using sim::format_numbers;

// The scene as the bench started it; refused with emitters or sinks.
sim::InitialState scene_without_sources(BenchRun& run) {
    PLAB_REQUIRE(!run.run().description().sources,
                 "emitters and sinks change the particle count: not over several ranks yet");
    return run.simulator().capture_state();
}

sim::SlabDecomposition slabs_for(const sim::InitialState& scene, const sim::Snapshot& all,
                                 const sim::Params& params, int ranks) {
    const float halo = sim::rank_halo(params);
    return sim::slabs_at_quantiles(scene.domain, ranks, halo, all.pos);
}

std::unique_ptr<sim::Simulator> rank_simulator(BenchRun& run) {
    auto s = sim::make_simulator(run.run().backend());
    s->set_options(run.run().options());
    return s;
}

}  // namespace

RankRun::RankRun(const BenchConfig& config, sim::RankTransport& transport)
    : transport_(transport),
      run_(config),
      scene_(scene_without_sources(run_)),
      particles_(scene_.pos.size()),
      stepper_(transport,
               slabs_for(scene_, run_.simulator().download(), run_.params(), transport.size()),
               scene_, run_.params(), rank_simulator(run_)) {
    const sim::Snapshot all = run_.simulator().download();
    stepper_.reset(all.pos, all.vel, scene_.friction);
}

bool RankRun::gather() {
    sim::FrictionRecord friction;
    const sim::Snapshot all = stepper_.gather(&friction);
    if (!root()) return false;
    sim::InitialState state = scene_;
    state.pos = all.pos;
    state.vel = all.vel;
    state.order.clear();
    state.pos_hi.clear();
    state.vel_hi.clear();
    state.friction = std::move(friction);
    run_.simulator().reset(state, run_.params());
    return true;
}

std::string RankRun::invalid(const char* when) {
    return invalid_state(run_.simulator(), run_.params(), when);
}

void RankRun::describe(std::ostream& out) {
    const sim::Params& params = run_.params();
    const sim::SlabDecomposition& slabs = stepper_.slabs();
    std::string cuts = "[";
    for (std::size_t i = 0; i < slabs.cuts.size(); ++i)
        cuts += (i ? ", " : "") + format_numbers("%.4g", slabs.cuts[i]);
    out << "  backend      " << sim::backend_name(run_.simulator().backend()) << ": "
        << run_.simulator().device_name() << ", one simulator a rank\n";
    out << "  model        " << sim::model_name(params.model) << ", " << run_.label() << "\n";
    out << "  particles    " << particles_ << "\n";
    out << "  slabs        along "
        << "xyz"[slabs.axis] << " at " << cuts << "]"
        << format_numbers(" m, halo %.4g m (", slabs.halo)
        << (params.model == sim::Model::Sph ? "twice the interaction range"
                                            : "the interaction range")
        << ")\n";
}

}  // namespace plab::app
