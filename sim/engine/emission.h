#pragma once
// Emitters and sinks (sim/model/sources.h) applied to a captured state between steps: the
// particles inside a sink leave, and each emitter lays what it owes by now on its face. Run
// (sim/run/run.h) captures the state every source_interval() of simulated time, applies
// them and resets the simulator with the result, so both backends take them alike.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/vec.h"
#include "sim/engine/initial_state.h"
#include "sim/model/params.h"
#include "sim/model/sources.h"

namespace plab::sim {

// The spacing new particles are laid at: the liquid's rest spacing (2 radius), or (DEM) the
// largest bead's diameter with 5% room, so that no two new beads start in contact.
float emission_spacing(const Params& params);

// A face's two in-plane axes for its unit normal `n` (unit, orthogonal to `n` and to each
// other): the first is n × z, or n × x when n lies near z.
void face_axes(Vec3 n, Vec3& a, Vec3& b);

// An emitter's face as lattice points `spacing` apart (world coordinates): rows along the
// face's two axes, centred on it, every point within the disc or the rectangle.
std::vector<Vec3> emitter_face(const Emitter& e, float spacing);

// A full face each spacing / speed: the most particles a second `e` lays without laying them
// on the last face's.
double face_rate(const Emitter& e, float spacing, std::size_t face_points);

// Particles a second `e` emits with particles `spacing` apart and `face_points` on its face:
// its rate, else its flow over spacing³, else face_rate.
double emitter_rate(const Emitter& e, float spacing, std::size_t face_points);

// Whole particles `e` owes by time `t` (s) at `rate`: rate × the time since its start, up to
// its stop; 0 before its start.
double emitter_owed(const Emitter& e, double rate, double t);

// The longest simulated time between two applications, so that a sink's catch leaves soon
// enough and a new particle is laid at most this late.
inline constexpr double kMaxSourceInterval = 0.01;

// Simulated time between two applications: for each emitter the time it takes to owe a whole
// face of particles, but never less than its particles take to move a spacing out of the face
// (the next application's points are then clear), the least of these over the emitters and
// kMaxSourceInterval. An emitter of a full face a spacing's travel (face_rate: SPH inflows)
// is applied every spacing / speed; a sparse one (beads poured at a few thousand a second
// from a face of hundreds of points) lays its few particles less often, and each application
// (a capture and a reset of the device state) is paid less often.
double source_interval(const Sources& sources, float spacing);

// How far the sources have got; the run keeps it from its start.
struct SourceProgress {
    std::vector<std::uint64_t> emitted;  // per emitter, since the start
    std::vector<std::size_t> next;       // per emitter: the face point to fill next
    std::uint64_t sunk = 0;              // particles taken by the sinks since the start
    std::uint64_t blocked = 0;           // face points skipped: a particle still sat there
    std::uint64_t capped = 0;            // particles not laid: the run held max_particles
};

struct SourceStep {
    std::size_t emitted = 0, sunk = 0;
};

// Applies `sources` at time `t` (s) to `state` (captured: memory order, double state and
// frictional record as Simulator::capture_state gives them): removes the particles whose centre
// lies inside a sink, then lays, for each emitter, what it owes by t (its rate × the time since
// its start, up to its stop) on its face points in turn, skipping a point within 0.9 spacings
// of a particle, moving at its speed along its normal, up to max_particles. Ids stay a
// permutation of 0 .. n−1: the survivors keep their order (ids shift down past the removed),
// new particles follow. A removed particle's frictional record goes and its partners forget it;
// new particles start with none. SPH particles start at the rest density.
SourceStep apply_sources(InitialState& state, const Sources& sources, const Params& params,
                         double t, SourceProgress& progress);

}  // namespace plab::sim
