#include "sim/cuda/stage_event_ring.h"

namespace plab::sim::cuda {
namespace {

double elapsed_ms(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0.f;
    PLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

}  // namespace

StageEventRing::StageEventRing(std::size_t capacity) : entries_(capacity) {
    for (auto& e : entries_)
        for (auto& m : e.marks) m = make_event();
}

StageTimings StageEventRing::read(const Entry& e) const {
    StageTimings t;
    t.has_stages = e.stages;
    t.integrate_fused = e.fused;
    t.total_ms = elapsed_ms(e.marks[0].get(), e.marks[4].get());
    if (e.stages) {
        t.grid_ms = elapsed_ms(e.marks[0].get(), e.marks[1].get());
        t.reorder_ms = elapsed_ms(e.marks[1].get(), e.marks[2].get());
        // Fused: the force kernel also drifts, so its stage runs to the last mark.
        t.forces_ms = elapsed_ms(e.marks[2].get(), e.marks[e.fused ? 4 : 3].get());
        t.integrate_ms = e.fused ? 0.0 : elapsed_ms(e.marks[3].get(), e.marks[4].get());
    }
    return t;
}

std::array<cudaEvent_t, StageEventRing::kMarks> StageEventRing::begin_step(bool stages,
                                                                           bool integrate_fused) {
    if (pending_ == entries_.size()) {
        // Full: the oldest step is long queued; wait for it and keep its numbers.
        const Entry& oldest = entries_[next_];
        PLAB_CUDA_CHECK(cudaEventSynchronize(oldest.marks[4].get()));
        overflow_.push_back(read(oldest));
        --pending_;
    }
    Entry& e = entries_[next_];
    e.stages = stages;
    e.fused = integrate_fused;
    next_ = (next_ + 1) % entries_.size();
    ++pending_;
    std::array<cudaEvent_t, kMarks> out{};
    for (int i = 0; i < kMarks; ++i) out[i] = e.marks[i].get();
    return out;
}

void StageEventRing::collect(std::vector<StageTimings>& out) {
    out.insert(out.end(), overflow_.begin(), overflow_.end());
    overflow_.clear();
    while (pending_ > 0) {
        const std::size_t oldest = (next_ + entries_.size() - pending_) % entries_.size();
        const Entry& e = entries_[oldest];
        const cudaError_t status = cudaEventQuery(e.marks[4].get());
        if (status == cudaErrorNotReady) break;
        PLAB_CUDA_CHECK(status);
        out.push_back(read(e));
        --pending_;
    }
}

}  // namespace plab::sim::cuda
