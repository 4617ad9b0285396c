#pragma once
// The neighbour lists' control word on the device (cuda_list_step.cu): whether this step
// rebuilds, decided on the device so that no step waits for the host, and what the builds
// found, copied back now and then for the host to read without stalling the GPU.
#include <cstdint>

namespace plab::sim::cuda {

struct ListControl {
    unsigned int rebuild;      // this step rebuilds the grid, the sort and the lists (0 or 1)
    unsigned int request;      // non-zero: the next step rebuilds (the host asked)
    unsigned int blocks_done;  // blocks of the displacement check that finished
    unsigned int most_found;   // the most candidates one particle had at a build
    unsigned int moved;        // particles past half the skin, counted by the check
    unsigned int strays;   // this step's strays to repair (0 on a build; sim/physics/list_strays.h)
    unsigned int repairs;  // particles queued for repair this step
    unsigned int cluster_most_found;  // the most neighbour clusters one cluster had at a build
    unsigned long long steps;         // steps since the reset
    unsigned long long builds;
    unsigned long long overflowed;   // particles whose candidates did not fit, summed over builds
    unsigned long long moved_total;  // `moved` summed over steps
    unsigned long long stray_total;  // strays repaired, summed over steps
    unsigned long long repaired_total;      // particles redone by those repairs
    unsigned long long cluster_overflowed;  // clusters whose neighbours did not fit, summed
    unsigned long long cluster_entries;     // neighbour clusters the last build listed
};

}  // namespace plab::sim::cuda
