#pragma once
// The step variants, declared once: `SimulatorOptions` is the plain struct the backends take,
// `variant_table()` describes each switch (its one name, values, help, which backends and models
// it applies to). CLI flags, sweep keys and columns, recording keys and the panel's
// Optimizations tab are built from the table, and `resolve_options` is the one place that
// decides which requested variants run on a backend and model, and why the others do not.
// Adding a variant is one field, one row and its implementation.
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/params.h"

namespace plab::sim {

enum class Backend { Auto, Cpu, Cuda };

// The values of the auto/off/on rows (`scatter_forces`, `neighbour_list`).
constexpr int kAuto = -1;
constexpr int kOff = 0;
constexpr int kOn = 1;

struct SimulatorOptions {
    int block_size = 256;          // CUDA threads per block
    bool graph = false;            // CUDA: replay each step as a captured graph
    int threads_per_particle = 0;  // CUDA force threads per particle: 1, 2, 4, 8; 0 = by N
    bool fuse_integrate = true;    // CUDA: drift in the force kernel (no separate integrate)
    bool contact_list = true;      // CUDA: find contacts first, then compute them (two passes)
    // Each touching pair once, the opposite force added to the neighbour with an atomic add
    // (instead of every particle gathering from all its neighbours): kOn, kOff or kAuto (on
    // for DEM on CUDA unless a variant that needs the gather is on). The resolver's effective
    // options hold on or off, never auto, here and in neighbour_list.
    int scatter_forces = kAuto;
    // CUDA: the whole DEM step as one persistent cooperative kernel with grid-wide syncs
    // between the stages (no launch per stage).
    bool persistent_kernel = false;
    // Copy the particles into cell order every step (neighbours adjacent in memory). Off: the
    // grid is still built, but the force pass reads each neighbour through the cell-ordered
    // index, wherever it lies in memory.
    bool sorted_memory = true;
    // Keep positions and velocities in double precision and integrate them in double; pair
    // forces are still computed in float from a rounded copy.
    bool double_state = false;
    // Lists of candidates within range + skin (Params::skin), rebuilt with the grid and the sort
    // only once a particle has moved half the skin; the force passes loop over the lists
    // (sim/physics/neighbour_list.h). kOn, kOff or kAuto (on CUDA: on for SPH and the frictional
    // DEM law, where they measured faster than the grid; off for the classic DEM law, whose pile
    // rebuilds them every step).
    int neighbour_list = kAuto;
    // With the lists (DEM, classic contact law): how many particles past half the skin a step
    // repairs before the lists rebuild (sim/physics/list_strays.h); -1: chosen by the particle
    // count, 0: rebuild at the first (the default: the repair measured slower on the GPU).
    int list_strays = 0;
    // With the lists (DEM, classic contact law): the force pass by clusters of eight cell-order
    // particles against the clusters their members listed (sim/physics/cluster_pairs.h; on
    // CUDA a warp per cluster). kOn, kOff or kAuto (off: measured slower on the GPU).
    int cluster_pairs = kAuto;
    // Runs from one state give bit-identical states: each cell's particles are put in id order
    // after the counting sort (whose atomics rank them in any order), and nothing sums floats
    // with atomics (no scatter forces). The CPU grid is built in order by one thread already.
    bool deterministic = false;
    // Who draws the particles: kRendererGl (GL sprite impostors) or kRendererCuda (CUDA sphere
    // splats, render/splat_renderer.h). Only a name here: the simulator does not draw.
    int renderer = 0;

    bool operator==(const SimulatorOptions&) const = default;
};

// The `renderer` row's values.
constexpr int kRendererGl = 0;
constexpr int kRendererCuda = 1;

enum BackendMask : unsigned { kOnCpu = 1u, kOnCuda = 2u, kOnBoth = 3u };

struct VariantInfo {
    std::string_view name;   // CLI --name (with '-' for '_'), sweep key, recording key, column
    std::string_view label;  // panel label
    std::string_view help;
    // An on/off switch (bool_field) or a number (int_field) with its allowed values.
    bool SimulatorOptions::*bool_field = nullptr;
    int SimulatorOptions::*int_field = nullptr;
    std::span<const int> choices;  // the numbers the panel offers (int rows)
    std::string_view choice_rule;  // what any accepted number must be, for messages
    unsigned backends = kOnBoth;
    unsigned models = kAllModels;
    // Int rows whose values have names (the CLI, sweeps, recordings and the panel use those):
    // choice_names[i] names choices[i].
    std::span<const std::string_view> choice_names = {};

    bool is_switch() const { return bool_field != nullptr; }
    // A switch, or a number row with a value named "on" (auto/off/on): a bare command-line
    // flag means on.
    bool has_on() const {
        if (is_switch()) return true;
        for (std::string_view n : choice_names)
            if (n == "on") return true;
        return false;
    }
    int get(const SimulatorOptions& o) const { return is_switch() ? o.*bool_field : o.*int_field; }
    // "on"/"off", or the number ("auto" never: 0 stays 0, as the CLI takes it).
    std::string text(const SimulatorOptions& o) const;
    // Sets the variant from text ("on", "off", or a number). Throws plab::Error naming the
    // variant, the value and what it accepts; `o` is unchanged on error.
    void set(SimulatorOptions& o, std::string_view value) const;
    // Whether `value` is an allowed number of an int row.
    bool accepts(int value) const;
    // The texts set() takes for the panel's values: on and off, the names, or the numbers.
    std::vector<std::string> value_texts() const;
};

// The table, in panel order.
std::span<const VariantInfo> variant_table();
// nullptr when no variant has this name.
const VariantInfo* find_variant(std::string_view name);

// Throws plab::Error listing every value no row accepts.
void validate(const SimulatorOptions& o);

// What a backend can run, as the resolver needs it. `persistent_unavailable` (CUDA) says why
// the device cannot run the persistent kernel with these (otherwise valid) options, or "".
struct DeviceCaps {
    Backend backend = Backend::Cpu;
    int sph_block_limit = 1024;  // threads per block the SPH kernels' registers allow
    std::function<std::string(const SimulatorOptions& effective)> persistent_unavailable;
};

// Why one requested variant does not run as asked.
struct OptionNote {
    std::string_view variant;
    std::string reason;
    // The request differs from the row's default (the user asked for it); only these are
    // shown as warnings, the others are what the default means on this backend and model.
    bool asked = false;
};

struct ResolvedOptions {
    SimulatorOptions requested, effective;
    std::vector<OptionNote> notes;
    // The asked-for notes as sentences ("" when every asked variant runs).
    std::string text() const;
    // The note for `variant`, or nullptr.
    const OptionNote* note(std::string_view variant) const;
};

// The one decision of which requested variants apply on `device` with `model`, and why not.
// `contact` is the DEM contact law the auto rows are chosen for (it may change between steps:
// the simulators resolve again when it does). Throws plab::Error for values no backend
// accepts (validate).
ResolvedOptions resolve_options(const SimulatorOptions& requested, Model model,
                                const DeviceCaps& device, ContactLaw contact = ContactLaw::Classic);

}  // namespace plab::sim
