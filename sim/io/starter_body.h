#pragma once
// The bodies the window's Add buttons put into a scene: each sized and placed from the domain
// so it reaches into it and leaves room around it, for a person to move, turn and scale from
// there.
#include <filesystem>

#include "sim/geometry/body.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/model/sources.h"

namespace plab::sim {

// A box a quarter of the domain wide in its lower middle, a cylinder standing in its middle
// (radius a tenth of the narrowest side, half the height), or a plane through its centre
// tilted 30° about z (a ramp).
Body starter_body(BodyShape shape, const Domain& domain);

// A mesh body from an STL or OBJ file, moved so the middle of its bounds is the domain's
// centre, at the file's size, or scaled down evenly (Body::scale) to nine tenths of the domain
// when it would not fit in it; `file` is kept absolute, so a scene saved anywhere finds it.
// Throws plab::Error naming the file when it cannot be read.
Body mesh_body(const std::filesystem::path& file, const Domain& domain);

// A disc a fifth of the narrowest side across, a tenth of the height below the top, pouring
// down at the speed of a fall through that tenth (a full face each spacing travelled), from
// `now` (s) until it has laid `room` particles, so it needs no sink.
Emitter starter_emitter(const Domain& domain, const Params& params, double now, std::size_t room);
// A drain in the middle of the floor, under the starter emitter: a fifth of the width and the
// depth across and a tenth of the height, so what the emitter pours and nothing stops runs out.
Sink starter_sink(const Domain& domain);
// Room for the sources: twice the count and at least 20,000 more, within kMaxParticles.
std::size_t starter_max_particles(std::size_t count);

}  // namespace plab::sim
