#pragma once
// GPU time of a span of GL commands (GL_TIME_ELAPSED), read back without stalling: a small
// ring of query objects, each read only once the driver says its result is available, so
// the value shown lags a few frames behind the frame being drawn.
#include <array>
#include <optional>

#include "render/gl_handles.h"

namespace plab::render {

class GpuTimer {
  public:
    GpuTimer();  // needs a current GL context

    // Brackets the commands to time. Only one GL_TIME_ELAPSED query may be active at a time,
    // so timers must not nest. When every query of the ring is still in flight the span is
    // not timed (begin/end then do nothing) rather than waiting.
    void begin();
    void end();

    // Collects every finished result; returns the newest one seen so far (ms), if any.
    std::optional<double> poll();
    std::optional<double> latest_ms() const { return latest_ms_; }

  private:
    static constexpr int kRing = 4;
    std::array<Query, kRing> queries_;
    std::array<bool, kRing> in_flight_{};
    int next_ = 0;         // the slot begin() uses next
    int oldest_ = 0;       // the oldest slot possibly in flight
    bool active_ = false;  // between begin() and end() of a timed span
    std::optional<double> latest_ms_;
};

}  // namespace plab::render
