#pragma once
// The frictional law with neighbour lists against the per-step grid from the same whole state:
// every few steps a reference simulator starts from the listed run's capture (positions,
// rotations and contact memory) and both take one step. With every contact found, forces,
// rotations and contact counts differ only by the order of their float sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/list_compare.h"
#include "sim/model/scene.h"
#include "sim/physics/friction_stats.h"

namespace plab::sim::testing {

struct FrictionalListComparison {
    // Largest difference after one step, as a share of the largest change that step made.
    double velocity = 0, rotation = 0;
    int compared = 0;
    long contacts = 0;         // contacts counted on the reference's side, summed over comparisons
    long contact_gaps = 0;     // particles whose contact count differs between the two
    NeighbourListStats stats;  // of the listed run at the end
};

// `listed` is reset here to `init`; `reference` to the listed run's state at each comparison.
// Simulators: CpuSimulator or cuda::CudaSimulator (friction_snapshot is theirs).
template <typename Listed, typename Reference>
FrictionalListComparison compare_frictional_list_with_grid(Listed& listed, Reference& reference,
                                                           const InitialState& init,
                                                           const Params& p, int steps, int every) {
    FrictionalListComparison out;
    listed.reset(init, p);
    for (int s = 0; s < steps; ++s) {
        if (s % every != every - 1) {
            listed.step(p);
            continue;
        }
        const InitialState now = listed.capture_state();
        const Snapshot before = listed.download();
        // A pair at the contact distance can touch on one side and not on the other (the
        // dashpot switches on with the contact), without any contact being missed.
        const std::vector<char> threshold = at_contact_threshold(before.pos, p);
        reference.reset(now, p);
        listed.step(p);
        reference.step(p);
        const Snapshot a = listed.download(), b = reference.download();
        const FrictionSnapshot fa = listed.friction_snapshot(), fb = reference.friction_snapshot();
        const std::size_t n = a.pos.size();
        if (fa.omega.size() != n || fb.omega.size() != n || now.friction.omega.size() != n)
            return out;  // compared stays short of what the caller expects
        double dv = 0, kick = 0, dw = 0, spin = 0;
        for (std::size_t i = 0; i < n; ++i) {
            kick = std::max(kick, test::distance3(b.vel[i], before.vel[i]));
            spin = std::max(spin, test::distance3(fb.omega[i], now.friction.omega[i]));
            if (threshold[i]) continue;
            dv = std::max(dv, test::distance3(a.vel[i], b.vel[i]));
            dw = std::max(dw, test::distance3(fa.omega[i], fb.omega[i]));
            out.contacts += word_contacts(fb.contact_info[i]);
            out.contact_gaps +=
                word_contacts(fa.contact_info[i]) != word_contacts(fb.contact_info[i]) ? 1 : 0;
        }
        out.velocity = std::max(out.velocity, kick > 0 ? dv / kick : dv);
        out.rotation = std::max(out.rotation, spin > 0 ? dw / spin : dw);
        ++out.compared;
    }
    out.stats = listed.list_stats();
    return out;
}

// What a run of block_with_thrown_beads (friction_scene.h) with lists and strays must show
// against the grid: `compared` comparisons, every contact on both sides, differences within
// `order_only` of the step's change (summation order), and lists that lasted through strays.
inline void expect_strays_found_every_contact(const FrictionalListComparison& c, int compared,
                                              std::size_t particles, double order_only) {
    std::printf(
        "  %d comparisons, largest differences %.2g (velocity) %.2g (rotation), %ld contacts; "
        "%llu builds, %llu strays in %llu steps\n",
        c.compared, c.velocity, c.rotation, c.contacts,
        static_cast<unsigned long long>(c.stats.builds),
        static_cast<unsigned long long>(c.stats.strays),
        static_cast<unsigned long long>(c.stats.steps));
    EXPECT_EQ(c.compared, compared);
    EXPECT_GT(c.contacts, long(particles) * compared) << "the block rests on its contacts";
    EXPECT_EQ(c.contact_gaps, 0) << "a contact found on one side only";
    EXPECT_LT(c.velocity, order_only) << "velocities differ beyond summation order";
    EXPECT_LT(c.rotation, order_only) << "rotations differ beyond summation order";
    // The thrown beads passed half the skin a few at a time and the lists stayed.
    EXPECT_GT(c.stats.strays, 10u * c.stats.steps);
    EXPECT_LT(c.stats.builds * 20, c.stats.steps);
}

}  // namespace plab::sim::testing
