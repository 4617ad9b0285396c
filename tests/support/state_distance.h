#pragma once
// How far apart two states of the same particles are (matched by index: two downloads, a
// download and its initial state). Two measures, both over xyz only (w is the radius or the
// density): the Euclidean distance of each particle, and its largest single-axis difference.
// A value that is not finite, or arrays of different lengths, give +infinity, so any bound
// on the result fails instead of ignoring the particle.
#include <span>
#include <vector>

#include "sim/core/vec.h"
#include "sim/engine/simulator.h"

namespace plab::test {

// |a - b| over xyz, in double.
double distance3(sim::Float4 a, sim::Float4 b);

// Each particle's |a[i] - b[i]| (m or m/s), for medians and quantiles.
std::vector<double> distances(std::span<const sim::Float4> a, std::span<const sim::Float4> b);

// The largest |a[i] - b[i]|; 0 for empty arrays.
double max_distance(std::span<const sim::Float4> a, std::span<const sim::Float4> b);

// The largest |Δx|, |Δy| or |Δz| of any particle; 0 for empty arrays.
double max_axis_difference(std::span<const sim::Float4> a, std::span<const sim::Float4> b);

// Largest per-particle position distance (m) between two downloads.
inline double max_position_distance(const sim::Snapshot& a, const sim::Snapshot& b) {
    return max_distance(a.pos, b.pos);
}

// Largest per-particle velocity distance (m/s) between two downloads.
inline double max_velocity_distance(const sim::Snapshot& a, const sim::Snapshot& b) {
    return max_distance(a.vel, b.vel);
}

// Largest single-axis position difference (m) between two downloads.
inline double max_position_axis_difference(const sim::Snapshot& a, const sim::Snapshot& b) {
    return max_axis_difference(a.pos, b.pos);
}

}  // namespace plab::test
