#include "app/lab/rank_bench.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "app/lab/bench.h"
#include "app/lab/bench_run.h"
#include "app/lab/percentile.h"
#include "sim/core/enum_names.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/io/checkpoint.h"
#include "sim/ranks/rank_stepper.h"
#include "sim/run/make_simulator.h"

namespace plab::app {
namespace {

using sim::format_numbers;
using Clock = std::chrono::steady_clock;

// What each rank reports for the table, in this order.
enum Column { kOwned, kHalo, kCrossed, kCompute, kExchange, kStep, kColumns };

void require_rank_config(const BenchConfig& c) {
    PLAB_REQUIRE(c.render == "off" && c.screenshot.empty(),
                 "--render and --screenshot draw on one device: not over several ranks");
    PLAB_REQUIRE(c.save_every == 0, "--save-every is not written over several ranks yet");
    PLAB_REQUIRE(c.window == "auto" || c.window == "start",
                 "over several ranks the bench measures right after the warm-up (--window "
                 "start), not --window " +
                     c.window);
}

std::string cut_list(const sim::SlabDecomposition& s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.cuts.size(); ++i)
        out += (i ? ", " : "") + format_numbers("%.4g", s.cuts[i]);
    return out + "]";
}

void print_table(std::ostream& out, const std::vector<double>& all, int ranks) {
    out << "  rank  particles  halo/step  crossed  compute ms  exchange ms  step ms\n";
    double owned = 0, halo = 0, crossed = 0;
    for (int r = 0; r < ranks; ++r) {
        const double* v = &all[static_cast<std::size_t>(r) * kColumns];
        owned += v[kOwned];
        halo += v[kHalo];
        crossed += v[kCrossed];
        out << format_numbers("  %4.0f  %9.0f  %9.0f  %7.0f  %10.4f  %11.4f  %7.4f\n", double(r),
                              v[kOwned], v[kHalo], v[kCrossed], v[kCompute], v[kExchange],
                              v[kStep]);
    }
    out << format_numbers("  total %9.0f  %9.0f  %7.0f", owned, halo, crossed)
        << "  (times: medians over the measured steps, host clock; crossed: over them all)\n";
}

}  // namespace

bool run_rank_bench(const BenchConfig& config, sim::RankTransport& transport, std::ostream& out) {
    require_rank_config(config);
    BenchRun run(config);
    const sim::Params& params = run.params();
    PLAB_REQUIRE(!run.run().description().sources,
                 "emitters and sinks change the particle count: not over several ranks yet");
    const bool root = transport.rank() == 0;
    const sim::Snapshot all = run.simulator().download();
    const sim::InitialState scene = run.simulator().capture_state();
    const float halo = sim::rank_halo(params);
    const sim::SlabDecomposition slabs = sim::balanced_slabs(
        scene.domain, transport.size(), halo,
        sim::coordinates_along(sim::even_slabs(scene.domain, transport.size(), halo), all.pos));
    auto simulator = sim::make_simulator(run.run().backend());
    simulator->set_options(run.run().options());
    sim::RankStepper rank(transport, slabs, scene, params, std::move(simulator));
    rank.reset(all.pos, all.vel, scene.friction);

    for (int s = 0; s < config.warmup; ++s) rank.step(params);
    std::vector<double> halo_n, compute, exchange, wall;
    double crossed = 0;
    for (int s = 0; s < config.steps; ++s) {
        const auto t0 = Clock::now();
        rank.step(params);
        wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        halo_n.push_back(double(rank.last().halo));
        compute.push_back(rank.last().compute_ms);
        exchange.push_back(rank.last().exchange_ms);
        crossed += double(rank.last().migrated);
    }
    const std::vector<double> table =
        transport.all_gather({double(rank.own().size()), median(halo_n), crossed, median(compute),
                              median(exchange), median(wall)});
    sim::FrictionRecord final_friction;
    const sim::Snapshot final_state = rank.gather(&final_friction);
    if (!root) return true;

    // The divergence guard on the gathered state, in the bench's own simulator.
    sim::InitialState gathered = scene;
    gathered.pos = final_state.pos;
    gathered.vel = final_state.vel;
    gathered.order.clear();
    gathered.pos_hi.clear();
    gathered.vel_hi.clear();
    gathered.friction = std::move(final_friction);
    run.simulator().reset(gathered, params);
    const std::string invalid = invalid_state(run.simulator(), params, "after the measured steps");

    out << "Particle Lab bench over " << transport.size() << " ranks (" << transport.name()
        << ")\n";
    out << "  backend      " << sim::backend_name(run.simulator().backend()) << ": "
        << run.simulator().device_name() << ", one simulator a rank\n";
    out << "  model        " << sim::model_name(params.model) << ", " << run.label() << "\n";
    out << "  particles    " << all.pos.size() << "\n";
    out << "  slabs        along "
        << "xyz"[slabs.axis] << " at " << cut_list(slabs)
        << format_numbers(" m, halo %.4g m (", slabs.halo)
        << (params.model == sim::Model::Sph ? "twice the interaction range"
                                            : "the interaction range")
        << ")\n";
    out << "  steps        " << config.steps << " measured after " << config.warmup
        << " warm-up, dt " << params.dt
        << " s, substeps forced to 1; each rank's simulator restarts from its particles every "
           "step (exact, not fast)\n";
    print_table(out, table, transport.size());
    if (!invalid.empty()) {
        out << "  INVALID      " << invalid << ": these timings are not a result\n";
        return false;
    }
    out << format_numbers("  step         %.4f ms (median, rank 0's host clock), %.1f steps/s\n",
                          table[kStep], table[kStep] > 0 ? 1000.0 / table[kStep] : 0.0);
    if (!config.save.empty()) {
        sim::Checkpoint ck;
        ck.run = run.run().description();
        const auto done = static_cast<std::uint64_t>(config.warmup + config.steps);
        ck.run.steps += done;
        ck.run.time += double(done) * sim::step_seconds(params.dt);
        ck.params = params;
        ck.state = run.simulator().capture_state();
        sim::write_checkpoint(config.save, ck);
        std::cerr << "saved " << config.save
                  << format_numbers(" (step %.0f, t = %.6g s, gathered from %.0f ranks)\n",
                                    double(ck.run.steps), ck.run.time, double(transport.size()));
    }
    return true;
}

}  // namespace plab::app
