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
#include "app/lab/rank_run.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/io/checkpoint.h"

namespace plab::app {
namespace {

using sim::format_numbers;
using Clock = std::chrono::steady_clock;

// The cuts move to the particles' quantiles when a rank holds this much more than the mean,
// checked every kRebalanceCheck steps (between the timed steps; counted and timed apart).
constexpr int kRebalanceCheck = 50;
constexpr double kRebalanceAbove = 1.1;

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
    RankRun ranks(config, transport);
    const sim::Params& params = ranks.params();
    int rebalances = 0;
    double rebalance_ms = 0, last_before = 0, last_after = 0;
    const auto balance = [&](int step) {
        if (step == 0 || step % kRebalanceCheck != 0) return;
        const auto t0 = Clock::now();
        sim::RankStepper& stepper = ranks.stepper();
        if (stepper.imbalance() > kRebalanceAbove) {
            const sim::RankStepper::Rebalance r = stepper.rebalance();
            ++rebalances;
            last_before = r.before;
            last_after = r.after;
        }
        rebalance_ms += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    };
    for (int s = 0; s < config.warmup; ++s) {
        balance(s);
        ranks.step();
    }
    std::vector<double> halo_n, compute, exchange, wall;
    double crossed = 0;
    for (int s = 0; s < config.steps; ++s) {
        balance(config.warmup + s);
        const auto t0 = Clock::now();
        ranks.step();
        wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        const sim::RankStepStats& last = ranks.stepper().last();
        halo_n.push_back(double(last.halo));
        compute.push_back(last.compute_ms);
        exchange.push_back(last.exchange_ms);
        crossed += double(last.migrated);
    }
    const std::vector<double> table =
        transport.all_gather({double(ranks.stepper().own().size()), median(halo_n), crossed,
                              median(compute), median(exchange), median(wall)});
    if (!ranks.gather()) return true;
    // The divergence guard on the gathered state.
    const std::string invalid = ranks.invalid("after the measured steps");

    out << "Particle Lab bench over " << transport.size() << " ranks (" << transport.name()
        << ")\n";
    ranks.describe(out);
    out << "  steps        " << config.steps << " measured after " << config.warmup
        << " warm-up, dt " << params.dt
        << " s, substeps forced to 1; each rank's simulator restarts from its particles every "
           "step (exact, not fast)\n";
    print_table(out, table, transport.size());
    out << "  cuts         "
        << (rebalances == 0
                ? format_numbers("kept (no rank over %.2f times the mean at a check every ",
                                 kRebalanceAbove) +
                      std::to_string(kRebalanceCheck) + " steps)"
                : std::to_string(rebalances) +
                      format_numbers(" rebalance(s), the last from %.2f to %.2f times the mean, "
                                     "%.3f ms in all (rank 0, not in the step times)",
                                     last_before, last_after, rebalance_ms))
        << "\n";
    if (!invalid.empty()) {
        out << "  INVALID      " << invalid << ": these timings are not a result\n";
        return false;
    }
    out << format_numbers("  step         %.4f ms (median, rank 0's host clock), %.1f steps/s\n",
                          table[kStep], table[kStep] > 0 ? 1000.0 / table[kStep] : 0.0);
    if (!config.save.empty()) {
        BenchRun& run = ranks.bench();  // its simulator holds the gathered state
        sim::RunDescription done = run.run().description();
        const auto steps = static_cast<std::uint64_t>(config.warmup + config.steps);
        done.steps += steps;
        done.time += double(steps) * sim::step_seconds(params.dt);
        sim::save_checkpoint(config.save, run.simulator(), params, done);
        std::cerr << "saved " << config.save
                  << format_numbers(" (step %.0f, t = %.6g s, gathered from %.0f ranks)\n",
                                    double(done.steps), done.time, double(transport.size()));
    }
    return true;
}

}  // namespace plab::app
