#include "sim/model/particle_pull.h"

#include <cmath>
#include <string>

#include "sim/core/error.h"

namespace plab::sim {

namespace {
bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
}  // namespace

void check_pull(const ParticlePull& pull) {
    PLAB_REQUIRE(pull.ids.size() <= kMaxPulledParticles,
                 "a grab holds at most " + std::to_string(kMaxPulledParticles) +
                     " particles, not " + std::to_string(pull.ids.size()));
    PLAB_REQUIRE(pull.offsets.size() == pull.ids.size(),
                 "a grab needs one offset per particle (" + std::to_string(pull.ids.size()) +
                     " ids, " + std::to_string(pull.offsets.size()) + " offsets)");
    for (std::size_t k = 1; k < pull.ids.size(); ++k)
        PLAB_REQUIRE(pull.ids[k - 1] < pull.ids[k],
                     "a grab's ids must ascend without repeats (id " + std::to_string(pull.ids[k]) +
                         " at " + std::to_string(k) + ")");
    PLAB_REQUIRE(finite(pull.target), "a grab's target must be finite");
    for (std::size_t k = 0; k < pull.offsets.size(); ++k)
        PLAB_REQUIRE(finite(pull.offsets[k]),
                     "a grab's offset " + std::to_string(k) + " must be finite");
    PLAB_REQUIRE(std::isfinite(pull.stiffness) && pull.stiffness >= 0.f,
                 "a grab's stiffness must be finite and not negative");
    PLAB_REQUIRE(std::isfinite(pull.damping) && pull.damping >= 0.f,
                 "a grab's damping must be finite and not negative");
}

}  // namespace plab::sim
