#pragma once
// Checkpoints (`.plab`): the whole state of a run in one versioned binary file, so a run can
// stop and continue later, bit for bit as if it had not stopped (on the CPU backend, and on
// CUDA with the deterministic variant), the frictional contact law's rotations and contact
// memory included. Written
// atomically (sim/io/output_file.h); a reader refuses anything it cannot trust with a plab::Error
// naming the file and what is wrong, before anything of a running session changes.
//
// Layout, version 4 (little-endian; str = u32 byte length ≤ 4096, then the bytes). Version 3
// is the same without the sources section (flag bit 3 unknown there), version 2 without the
// geometry section too (flag bit 2 unknown), version 1 without the frictional section (flag
// bit 1 unknown); all four are read, and a file is written as the lowest version that holds
// it (a run without emitters or sinks as 3 or, without bodies, 2).
//   char[8]  magic "PLABCKPT"
//   u32      format version (2)
//   u32      flags: bit 0 = the double-precision state follows the float arrays,
//                   bit 1 = the frictional section follows (the law had run),
//                   bit 2 = the geometry section follows (the scene has bodies),
//                   bit 3 = the sources section follows (the scene has emitters or sinks)
//   str      model (dem, sph)
//   str      preset (its name), str scene file (as given, "" for a preset run), str label
//   u32      parameter count (≤ 1024), then each: str name, f64 value (by name, from the
//            parameter table, so a later version reads older files: a missing parameter
//            keeps the preset's value, an unknown one is skipped with a note)
//   u32      variant count (≤ 1024), then each: str name, str value (the requested variants)
//   f32 × 6  domain min xyz, max xyz (m); the grid is rebuilt from it and the parameters
//   u64      steps run, f64 simulated time (s)
//   u64      particle count n (≤ kMaxParticles)
//   f32×4×n  positions (m, memory order), f32×4×n velocities (m/s; w: SPH density)
//   u32×n    memory order: the particle id at each slot
//   f64×4×n  positions, f64×4×n velocities in double (only with flag bit 0)
//   geometry section (only with flag bit 2): the bodies as placed when the scene started, so a
//            checkpoint continues without the scene's STL files. u32 body count (1 to 256),
//            then each: str name, f32×3 surface velocity (m/s), f32×3 spin centre (m), f32×3
//            spin (rad/s), f32 friction (−1: wall_friction); u32 triangle count (1 to 2^24),
//            then each: f32×9 corners (m), u32×3 scene-wide vertex ids, u32 body index.
//            Refused: non-finite values, a triangle of no area or of a body past the count.
//   frictional section (only with flag bit 1): u32 array count (≤ 64), then each array:
//            str name, u64 byte length, the bytes. By particle id (sim/physics/friction_record.h,
//            for_each_friction_array): omega (f32×4 per particle, rad/s), contacts (12 slots
//            of 16 B: f32×3 stretch in m, u32 partner id or 0xffffffff when free), rolling
//            (12 × f32×4: each slot's rolling torque, N·m), wall_xi (f32×4 × 3: stretch and
//            rolling torque, wall_memory), collider_xi, plate_xi (f32×4, m), contact_info
//            (u32), mesh_xi (4 × f32×4: the geometry bodies' contacts, mesh_friction.h). A
//            known array must hold exactly n particles' entries; an unknown one is
//            skipped with a note, a missing one is restored as its default (zero, free
//            slots); omega is required.
//   sources section (only with flag bit 3): u32 emitter count (≤ 256), then each: u64 particles
//            owed so far, u64 the face point it fills next; u64 sunk, u64 blocked, u64 capped,
//            f64 the time (s) the sources apply next (sim/engine/emission.h, SourceProgress).
//   u64      FNV-1a 64 of every byte before it
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/emission.h"
#include "sim/engine/simulator.h"
#include "sim/model/params.h"
#include "sim/model/scene.h"
#include "sim/model/variants.h"

namespace plab::sim {

inline constexpr std::uint32_t kCheckpointVersion = 4;  // reads 1 to 4
inline constexpr std::string_view kCheckpointMagic = "PLABCKPT";

// How the run was asked for and how far it got: enough to say what it is and to restart it.
struct RunDescription {
    std::string preset = "classic";  // preset name (a scene file's preset)
    std::string scene;               // scene file as given; "" for a preset run
    std::string label;               // RunRecipe::label
    SimulatorOptions options;        // the requested step variants
    std::uint64_t steps = 0;         // steps run since the scene started
    double time = 0;                 // s, simulated time since the scene started
    // How far the scene's emitters and sinks had got (format version 4; absent without them,
    // or in an older file): a continued run applies them at the same times with the same
    // counts, so it goes on as if it had not stopped.
    std::optional<SourceProgress> sources;
    double next_sources = 0;  // s: when they apply next
};

struct Checkpoint {
    RunDescription run;
    Params params;       // the model included
    InitialState state;  // captured (Simulator::capture_state): memory order, double state
    // What the reader skipped: parameters or variants this build does not know.
    std::vector<std::string> notes;

    std::size_t particle_count() const { return state.pos.size(); }
};

// The file's bytes. Throws plab::Error when the state is inconsistent (array sizes).
std::string encode_checkpoint(const Checkpoint& checkpoint);

// Parses and checks a checkpoint held in memory; `name` (the file) starts every message.
// Refuses a wrong magic, an unknown version or flag, a truncated or over-long file, a
// checksum mismatch, an unknown model or preset, parameters or variants out of range, a
// domain its grid cannot cover, a memory order that is not a permutation and a frictional
// section that is cut short, repeats an array, sizes one for another particle count or
// remembers a partner that is not a particle id. Keeps no state
// between calls (the fuzz target feeds it arbitrary bytes).
Checkpoint read_checkpoint(std::span<const std::byte> bytes, std::string_view name);

// The checksum a file ends with: FNV-1a 64 of every byte before it (the fuzz target appends it
// to mutated bytes so they get past the check).
std::uint64_t checkpoint_checksum(std::span<const std::byte> bytes);

// Reads `path` (a regular file of at most kMaxCheckpointBytes) and read_checkpoint's it.
Checkpoint load_checkpoint(const std::filesystem::path& path);

// Writes `checkpoint` to `path` atomically (complete or not at all).
void write_checkpoint(const std::filesystem::path& path, const Checkpoint& checkpoint);

// Captures `simulator`'s state with `params` and `run` and writes it to `path`.
void save_checkpoint(const std::filesystem::path& path, Simulator& simulator, const Params& params,
                     const RunDescription& run);

// Resets `simulator` with the checkpoint's state and parameters. Throws (leaving the simulator
// as it was) when it cannot hold them. The variants stay the caller's choice: the checkpoint's
// are in run.options (set_options them first to continue exactly as the run went).
void restore_checkpoint(Simulator& simulator, const Checkpoint& checkpoint);

// "step_000001200.plab": the name --save-every gives the checkpoint after `steps` steps.
std::string checkpoint_file_name(std::uint64_t steps);

}  // namespace plab::sim
