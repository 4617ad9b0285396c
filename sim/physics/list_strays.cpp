#include "sim/physics/list_strays.h"

#include <algorithm>

namespace plab::sim {

uint32_t stray_limit(int requested, std::size_t count, const Params& p) {
    if (p.model != Model::Dem) return 0;
    if (requested >= 0) return static_cast<uint32_t>(requested);
    // Measured on the settled classic pile (docs/benchmarks.md): a repair costs a few grid
    // scans per stray, a build about a whole step.
    return static_cast<uint32_t>(std::clamp<std::size_t>(count / 1024, 32, 1024));
}

}  // namespace plab::sim
