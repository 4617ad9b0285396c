#include "render/gpu_timer.h"

#include "render/gl_check.h"

namespace plab::render {

GpuTimer::GpuTimer() {
    for (Query& q : queries_) q = make_query(GL_TIME_ELAPSED);
}

void GpuTimer::begin() {
    PLAB_REQUIRE(!active_, "GpuTimer::begin called twice without end");
    poll();
    if (in_flight_[next_]) return;  // the ring is full: skip rather than stall
    PLAB_GL_CHECK(glBeginQuery(GL_TIME_ELAPSED, queries_[next_].get()));
    active_ = true;
}

void GpuTimer::end() {
    if (!active_) return;
    PLAB_GL_CHECK(glEndQuery(GL_TIME_ELAPSED));
    active_ = false;
    in_flight_[next_] = true;
    next_ = (next_ + 1) % kRing;
}

std::optional<double> GpuTimer::poll() {
    // Results arrive in submission order, so stop at the first one not yet available.
    for (int i = 0; i < kRing && in_flight_[oldest_]; ++i) {
        const GLuint q = queries_[oldest_].get();
        GLint available = 0;
        PLAB_GL_CHECK(glGetQueryObjectiv(q, GL_QUERY_RESULT_AVAILABLE, &available));
        if (!available) break;
        GLuint64 ns = 0;
        PLAB_GL_CHECK(glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns));
        latest_ms_ = static_cast<double>(ns) * 1e-6;
        in_flight_[oldest_] = false;
        oldest_ = (oldest_ + 1) % kRing;
    }
    return latest_ms_;
}

}  // namespace plab::render
