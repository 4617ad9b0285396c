#pragma once
// The limits every input is checked against, in one place, and the checked conversions from
// what a person typed (command-line text, JSON numbers, files) to what the simulation stores.
// Each check happens on the value as given, before any narrowing (text to unsigned, double to
// float, double to integer), so nothing wraps, rounds into range or overflows unnoticed.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace plab::sim {

// Particles in one run: 2^31 − 1, the largest int (the panel's count field) and below the
// 32-bit particle ids. A grid or the device memory usually refuses much less (grid.h).
inline constexpr std::uint64_t kMaxParticles = 2147483647;

// Measured or warm-up steps of one bench run: each measured step keeps its timings.
inline constexpr std::uint64_t kMaxBenchSteps = 1000000;

// A scene file is read whole; real ones are a few kB.
inline constexpr std::uintmax_t kMaxSceneFileBytes = 16u << 20;

// A checkpoint (sim/io/checkpoint.h) is read whole: 36 bytes a particle (100 with the double
// state), so 10M particles are 360 MB; the cap leaves room for runs far past that.
inline constexpr std::uintmax_t kMaxCheckpointBytes = std::uintmax_t{64} << 30;

// Triangles in one mesh (STL): 16.7M triangles are 800 MB of binary STL, far past the
// hundred-thousand-triangle meshes scenes use; the bins and distance fields grow with them.
inline constexpr std::uint64_t kMaxMeshTriangles = 1u << 24;
// A mesh file is read whole: a binary STL of kMaxMeshTriangles, or an ASCII one of about a
// tenth of that (each ASCII triangle takes ~250 bytes).
inline constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t{1} << 30;
// m: a vertex farther than this from the origin is an error of units or of the file.
inline constexpr double kMaxMeshCoordinate = 1e6;

// Geometry bodies in one scene.
inline constexpr std::size_t kMaxBodies = 256;
// rev/min a body may spin at: a 1 m drum's wall then moves at 5 km/s, far past anything a
// granular step resolves; beyond it the number is a typo.
inline constexpr float kMaxSpinRpm = 1e5f;

// Blocks in one scene: the start-up checks compare every pair.
inline constexpr std::size_t kMaxBlocks = 4096;

// Lattice points of a block along one axis: past 2^24 neighbouring float coordinates no longer
// differ by one spacing, so the lattice would put particles on top of each other.
inline constexpr std::uint64_t kMaxLatticeAxis = 1u << 24;

// `text` as a whole number in [lo, hi]. Read as signed text first, so "-5" is a negative
// number and not 2^64 − 5, and "18446744073709551615" is too large instead of wrapping.
// Throws plab::Error "<what>: '<text>' is not a whole number in [lo, hi]" (without "<what>: "
// when `what` is empty).
std::uint64_t parse_count(std::string_view text, std::string_view what, std::uint64_t lo,
                          std::uint64_t hi);

// True when `value` is finite and inside the range of float (no overflow to infinity).
bool fits_float(double value);

// Throws plab::Error "<path>: <problem> (<what>)" when `path` exists but is not a regular file
// (a directory, a device such as /dev/zero, a FIFO, a socket) or is larger than `max_bytes`;
// a missing file is left to the caller's open, which names it. Opens nothing.
void require_regular_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                          std::string_view what);

// The contents of `path`, which must be a regular file of at most `max_bytes`. Directories,
// devices (/dev/zero) and FIFOs are refused before anything is read, and a file that grows
// past the cap while it is read is refused too. `what` names the kind of file in messages:
// "<path>: <problem> (<what>)".
std::string read_input_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                            std::string_view what);

}  // namespace plab::sim
