#pragma once
// A roofline for the step's stages: the least bytes each stage must move between memory and
// the chip, and the rates the memory allows, so that a stage's time reads as "how far from its
// floor" (the time those bytes take at the measured copy rate).
//
// The bytes are a model, not a counter: what a stage has to read and write at least once, with
// every neighbour's read served by the cache (bytes per particle, float state):
//   grid build    the cell read and the slot written (8: the hash that reads the position may
//                 run in the last step's drift); per cell the count zeroed and the scan's
//                 read and write (12);
//   sort/reorder  position, velocity and id read and written (2 × 36) and the cell and slot
//                 read (8); the double state (2 × 64) too;
//                 without sorted memory only the index (8 read, 4 written);
//   forces        DEM: position and velocity read (32), the force written (16), the spin too
//                 under the frictional law (16 read, 16 written); SPH: the density pass (16
//                 read, 4 written) and the force pass (36 read, 16 written). Drift fused in:
//                 position and velocity written (32) instead of the force;
//   integrate     position, velocity and force read (48), position and velocity written (32),
//                 the double state's (2 × 64) too.
// Not counted: the frictional law's contact memory, neighbour lists, the bodies' triangles.
// Real stages move more (a neighbour read that misses the cache, atomics). A stage can still
// beat its floor where its data stayed in the L2 cache since the last stage (a million
// particles' positions, velocities and ids take 36 MB, and an H100 has 50 MB of L2): a ratio
// under 1 says so.
#include <cstddef>
#include <string>

#include "sim/model/params.h"
#include "sim/model/variants.h"

namespace plab::sim {

struct StageBytes {
    double grid = 0, reorder = 0, forces = 0, integrate = 0;  // bytes a step
    double step() const { return grid + reorder + forces + integrate; }
};

// The floor bytes of one step of `particles` particles in `cells` grid cells, run with the
// effective `variants` (integrate_fused: the drift runs in the force pass).
StageBytes stage_bytes(const Params& p, const SimulatorOptions& variants, std::size_t particles,
                       std::size_t cells, bool integrate_fused);

// What the memory of a backend's device sustains, measured (make_simulator.h
// measure_memory_rates): a large copy (bytes read plus bytes written a second), and for a GPU
// repeated reads of a buffer that fits its L2 cache (0 where not measured).
struct MemoryRates {
    double copy_bytes_per_s = 0;
    double l2_bytes_per_s = 0;
    std::string how;  // how they were measured, for the output
};

// A rate as "0.47 TB/s", or "51.2 GB/s" below 0.1 TB/s.
std::string rate_text(double bytes_per_s);

// How many times its floor (`bytes` at the copy rate) a stage of `ms` took; 0 without a
// time, bytes or a rate.
double floor_ratio(double ms, double bytes, const MemoryRates& rates);

// A stage's place under its roof: "0.1170 ms   54.5 MB  0.47 TB/s  2.9x its floor" (the
// floor: `bytes` at the copy rate). Empty without a time or a rate.
std::string roofline_cells(double ms, double bytes, const MemoryRates& rates);

}  // namespace plab::sim
