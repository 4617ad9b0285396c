#pragma once
// CUDA events at the stage boundaries of recent steps, read back without stalling the GPU:
// each step takes the next set from a ring, and its timings are read once its last event
// has completed. Only when the ring is full does the host wait, and then for a step that
// is `capacity` steps old.
#include <array>
#include <cstddef>
#include <vector>

#include "sim/cuda/cuda_handles.h"
#include "sim/engine/simulator.h"

namespace plab::sim::cuda {

class StageEventRing {
  public:
    static constexpr int kMarks = 5;  // start, after grid, after reorder, after forces, end

    explicit StageEventRing(std::size_t capacity = 256);

    // The events of the next step. With stages == false only marks 0 and 4 are recorded.
    std::array<cudaEvent_t, kMarks> begin_step(bool stages, bool integrate_fused = false);

    // Appends the timings of completed steps to `out`, oldest first; never waits.
    void collect(std::vector<StageTimings>& out);
    void clear() { pending_ = 0; }

  private:
    struct Entry {
        std::array<Event, kMarks> marks;
        bool stages = true;
        bool fused = false;
    };
    StageTimings read(const Entry& e) const;

    std::vector<Entry> entries_;
    std::size_t next_ = 0;                // entry the next step uses
    std::size_t pending_ = 0;             // steps recorded but not yet read
    std::vector<StageTimings> overflow_;  // read early because the ring was full
};

}  // namespace plab::sim::cuda
