#pragma once
// `particle-lab bench --render interop|host`: whole frames without a window. Each frame is a
// simulation step, the export into the particle vertex buffers (CUDA-GL interop or the host
// round trip) and the draw into an offscreen target, in a headless EGL context.
#include <iosfwd>

#include "app/bench.h"

namespace plab::app {

void run_frame_bench(const BenchConfig& config, std::ostream& out, std::ostream* progress);

}  // namespace plab::app
