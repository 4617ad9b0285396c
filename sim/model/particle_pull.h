#pragma once
// The window's grab tool: particles picked by id, each pulled by a spring toward the cursor's
// point plus its own offset from where it was grabbed, so the handful moves as one piece. The
// spring acts on accelerations (no mass), so it drags beads and liquid alike; it is applied
// between steps, outside the step's kernels and graphs (Simulator::pull).
#include <cstdint>
#include <vector>

#include "sim/core/vec.h"

namespace plab::sim {

struct ParticlePull {
    std::vector<uint32_t> ids;  // ascending, no repeats
    std::vector<Vec3> offsets;  // m: the goal of ids[k] is target + offsets[k]
    Vec3 target;                // m
    // 1/s²: the spring's angular frequency squared. 2,500 (50 rad/s) lets gravity sag a held
    // particle by g/2500 ≈ 4 mm and follows the cursor within a few hundredths of a second.
    float stiffness = 2500.f;
    float damping = 100.f;  // 1/s: drag on the particle's velocity (2√stiffness: critical)
};

// The most particles one grab holds: the device looks each particle's id up in the list.
inline constexpr std::size_t kMaxPulledParticles = 65536;

// Throws plab::Error naming what is wrong: ids not ascending or repeated, more than
// kMaxPulledParticles, offsets not one per id, a non-finite number, a negative stiffness or
// damping.
void check_pull(const ParticlePull& pull);

}  // namespace plab::sim
