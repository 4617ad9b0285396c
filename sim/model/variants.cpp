#include "sim/model/variants.h"

#include <charconv>

#include "sim/core/error.h"

namespace plab::sim {
namespace {

constexpr int kBlockChoices[] = {64, 128, 256, 512};
constexpr int kThreadChoices[] = {0, 1, 2, 4, 8};
constexpr int kRendererChoices[] = {kRendererGl, kRendererCuda};
constexpr std::string_view kRendererNames[] = {"gl", "cuda"};
constexpr int kAutoChoices[] = {kAuto, kOff, kOn};
constexpr std::string_view kAutoNames[] = {"auto", "off", "on"};
constexpr int kStrayChoices[] = {-1, 0, 16, 64, 256, 1024, 4096};
constexpr std::string_view kStrayNames[] = {"auto", "0", "16", "64", "256", "1024", "4096"};

using O = SimulatorOptions;

// Panel, column and header order (that of the columns of earlier releases).
constexpr VariantInfo kVariants[] = {
    {"block_size", "block size", "CUDA threads per block of every kernel.", nullptr, &O::block_size,
     kBlockChoices, "a multiple of 32 from 32 to 1024", kOnCuda, kAllModels},
    {"graph",
     "CUDA graph",
     "Replay each step as one captured graph: fewer launches, no stage times.",
     &O::graph,
     nullptr,
     {},
     {},
     kOnCuda,
     kAllModels},
    {"threads_per_particle", "threads / particle",
     "Force-kernel threads that share one particle's neighbour loop (0: chosen by the particle "
     "count).",
     nullptr, &O::threads_per_particle, kThreadChoices, "0 (automatic), 1, 2, 4 or 8", kOnCuda,
     kDemOnly},
    {"fuse_integrate",
     "fused integrate",
     "Drift inside the force kernel instead of a kernel of its own (sorted memory, gathered "
     "forces).",
     &O::fuse_integrate,
     nullptr,
     {},
     {},
     kOnCuda,
     kDemOnly},
    {"contact_list",
     "contact list",
     "Find the touching neighbours first, then apply the contact law to those only.",
     &O::contact_list,
     nullptr,
     {},
     {},
     kOnCuda,
     kDemOnly},
    {"scatter_forces", "scatter forces (atomics)",
     "Each touching pair once, the neighbour's share added with atomic adds, instead of every "
     "particle gathering from all its neighbours. auto: on for DEM on CUDA (measured 11-25% "
     "faster than the gather from 65,536 to 10M particles), off on the CPU and wherever a "
     "variant that needs gathered forces is on (deterministic, persistent kernel, neighbour "
     "lists, double state).",
     nullptr, &O::scatter_forces, kAutoChoices, "auto, off or on", kOnBoth, kDemOnly, kAutoNames},
    {"persistent_kernel",
     "persistent kernel",
     "The whole step as one cooperative kernel that stays on the GPU and syncs the grid between "
     "stages: no launch per stage, so no stage times.",
     &O::persistent_kernel,
     nullptr,
     {},
     {},
     kOnCuda,
     kDemOnly},
    {"sorted_memory",
     "sorted memory",
     "Copy the particles into cell order every step, so neighbours lie together in memory. "
     "Off: only their indices are sorted and the force pass reads each neighbour through its "
     "index, wherever it lies.",
     &O::sorted_memory,
     nullptr,
     {},
     {},
     kOnBoth,
     kDemOnly},
    {"double_state",
     "double-precision state",
     "Keep positions and velocities in double and integrate them in double (forces stay "
     "float). DEM with sorted memory, gathered forces and the fused integrate; switching it on "
     "starts from the current float state.",
     &O::double_state,
     nullptr,
     {},
     {},
     kOnBoth,
     kDemOnly},
    {"neighbour_list", "neighbour lists (skin)",
     "List each particle's candidates within the interaction range plus the skin, and rebuild "
     "the grid, the sort and the lists only once a particle has moved half the skin; between "
     "builds the force passes loop over the lists. Sorted memory, gathered forces, the float "
     "state, without the persistent kernel. auto: on CUDA, on for SPH (measured 1.8x faster "
     "than the grid over the dam break's flow) and for the frictional contact law (1.3x on "
     "the glass-bead and sand-like piles) unless deterministic; off for the classic DEM law "
     "(the classic pile moves enough to rebuild them every step) and on the CPU.",
     nullptr, &O::neighbour_list, kAutoChoices, "auto, off or on", kOnBoth, kAllModels, kAutoNames},
    {"list_strays", "list strays",
     "With the neighbour lists: how many particles past half the skin a step keeps the lists "
     "for (their contacts found from the grid of the last build: the classic law repairs them "
     "after its pass, the frictional law finds them in it) before the lists rebuild; auto: one "
     "in 1,024 particles, from 32 to 1,024; 0: rebuild at the first. DEM; SPH rebuilds at the "
     "first. Measured no faster than rebuilding on the GPU (docs/benchmarks.md).",
     nullptr, &O::list_strays, kStrayChoices, "auto, 0, 16, 64, 256, 1024 or 4096", kOnBoth,
     kDemOnly, kStrayNames},
    {"cluster_pairs", "cluster pairs",
     "With the neighbour lists and the classic DEM law: take the cell-ordered particles eight "
     "at a time as clusters, list for each cluster the clusters its members listed, and test "
     "every member against every particle of those (on CUDA a warp per cluster: each "
     "neighbour cluster read once for all eight members). More pair tests, fewer and wider "
     "loads. on brings the neighbour lists with it; auto: off (measured 2.8x slower than the "
     "lists and 5x slower than the default on the settled classic pile).",
     nullptr, &O::cluster_pairs, kAutoChoices, "auto, off or on", kOnBoth, kDemOnly, kAutoNames},
    {"renderer", "particle renderer",
     "Who draws the particles: gl, point sprites shaded as spheres by the GL pipeline (the "
     "reference), or cuda, sphere splats into a depth+colour target with 64-bit atomic min and "
     "a resolve pass, composited through CUDA-GL interop. cuda needs interop.",
     nullptr, &O::renderer, kRendererChoices, "gl or cuda", kOnCuda, kAllModels, kRendererNames},
    {"deterministic",
     "deterministic",
     "Bit-identical runs: put each cell's particles in id order after the counting sort (its "
     "atomics rank them in whatever order the threads arrive), so every force sum runs in one "
     "order; gathered forces, without the persistent kernel.",
     &O::deterministic,
     nullptr,
     {},
     {},
     kOnBoth,
     kAllModels},
};

std::string spaced(std::string_view name) {
    std::string s(name);
    for (char& c : s)
        if (c == '_') c = ' ';
    return s;
}

// Why a DEM-only variant does not run with the SPH model.
std::string sph_reason(std::string_view name) {
    if (name == "sorted_memory")
        return "unsorted memory applies to the DEM model only; the SPH passes read the "
               "cell-ordered copy, so particles are sorted";
    if (name == "double_state")
        return "double state applies to the DEM model only; the float state runs";
    return spaced(name) + " applies to the DEM model only; the SPH step has one form of it";
}

class Resolver {
  public:
    Resolver(const SimulatorOptions& requested) { r_.requested = r_.effective = requested; }

    // Sets `name` to `value` in the effective options; a note when that differs from the
    // request.
    void force(std::string_view name, int value, std::string reason) {
        const VariantInfo& row = *find_variant(name);
        SimulatorOptions& e = r_.effective;
        if (row.is_switch()) {
            e.*row.bool_field = value != 0;
        } else {
            e.*row.int_field = value;
        }
        const int asked = row.get(r_.requested);
        if (asked != value)
            r_.notes.push_back({row.name, std::move(reason), asked != row.get(SimulatorOptions{})});
    }
    // Sets `name` to `value` in the effective options without a note.
    void settle(std::string_view name, int value) {
        const VariantInfo& row = *find_variant(name);
        r_.effective.*row.int_field = value;
    }
    void note(std::string_view name, std::string reason) {
        r_.notes.push_back({find_variant(name)->name, std::move(reason), true});
    }
    const SimulatorOptions& effective() const { return r_.effective; }
    ResolvedOptions take() { return std::move(r_); }

  private:
    ResolvedOptions r_;
};

}  // namespace

std::string VariantInfo::text(const SimulatorOptions& o) const {
    if (is_switch()) return o.*bool_field ? "on" : "off";
    const int value = o.*int_field;
    for (std::size_t i = 0; i < choice_names.size() && i < choices.size(); ++i)
        if (choices[i] == value) return std::string(choice_names[i]);
    return std::to_string(value);
}

std::vector<std::string> VariantInfo::value_texts() const {
    if (is_switch()) return {"on", "off"};
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < choices.size(); ++i)
        texts.push_back(i < choice_names.size() ? std::string(choice_names[i])
                                                : std::to_string(choices[i]));
    return texts;
}

bool VariantInfo::accepts(int value) const {
    if (is_switch()) return value == 0 || value == 1;
    if (name == "block_size") return value >= 32 && value <= 1024 && value % 32 == 0;
    for (int c : choices)
        if (c == value) return true;
    return false;
}

void VariantInfo::set(SimulatorOptions& o, std::string_view value) const {
    if (is_switch()) {
        if (value == "on" || value == "true" || value == "1") {
            o.*bool_field = true;
        } else if (value == "off" || value == "false" || value == "0") {
            o.*bool_field = false;
        } else {
            throw Error(std::string(name) + ": '" + std::string(value) + "' must be on or off");
        }
        return;
    }
    if (!choice_names.empty()) {
        for (std::size_t i = 0; i < choice_names.size() && i < choices.size(); ++i) {
            if (choice_names[i] == value) {
                o.*int_field = choices[i];
                return;
            }
        }
        throw Error(std::string(name) + ": '" + std::string(value) + "' must be " +
                    std::string(choice_rule));
    }
    int n = 0;
    const auto r = std::from_chars(value.data(), value.data() + value.size(), n);
    PLAB_REQUIRE(
        !value.empty() && r.ec == std::errc() && r.ptr == value.data() + value.size() && accepts(n),
        std::string(name) + ": '" + std::string(value) + "' must be " + std::string(choice_rule));
    o.*int_field = n;
}

std::span<const VariantInfo> variant_table() { return kVariants; }

const VariantInfo* find_variant(std::string_view name) {
    for (const VariantInfo& v : kVariants)
        if (v.name == name) return &v;
    return nullptr;
}

void validate(const SimulatorOptions& o) {
    std::string errors;
    for (const VariantInfo& v : kVariants) {
        if (v.accepts(v.get(o))) continue;
        errors += std::string(errors.empty() ? "" : "; ") + std::string(v.name) + " " + v.text(o) +
                  " must be " + std::string(v.choice_rule);
    }
    PLAB_REQUIRE(errors.empty(), errors);
}

std::string ResolvedOptions::text() const {
    std::string s;
    for (const OptionNote& n : notes)
        if (n.asked) s += (s.empty() ? "" : " ") + n.reason + ".";
    return s;
}

const OptionNote* ResolvedOptions::note(std::string_view variant) const {
    for (const OptionNote& n : notes)
        if (n.variant == variant) return &n;
    return nullptr;
}

ResolvedOptions resolve_options(const SimulatorOptions& requested, Model model,
                                const DeviceCaps& device, ContactLaw contact) {
    validate(requested);
    Resolver r(requested);
    const SimulatorOptions defaults;
    for (const VariantInfo& v : kVariants) {
        // What the backend has no form of runs as its default there.
        const unsigned on = device.backend == Backend::Cuda ? kOnCuda : kOnCpu;
        if ((v.backends & on) == 0) {
            r.force(v.name, v.get(defaults),
                    std::string(v.label) + " applies to the CUDA backend only");
        } else if (!applies_to(v.models, model)) {
            r.force(v.name, v.get(defaults), sph_reason(v.name));
        }
    }
    const SimulatorOptions& e = r.effective();
    // Auto lists: where they were measured faster than the grid (SPH; DEM with the frictional
    // law, whose piles come to rest). Before the scatter's auto, which gives way to them.
    // Asked-for cluster pairs are built from the lists: they bring them along.
    if (e.neighbour_list == kAuto && e.cluster_pairs == kOn && model == Model::Dem &&
        contact != ContactLaw::Frictional)
        r.force("neighbour_list", kOn, "neighbour lists on: the cluster pairs are built from them");
    if (e.neighbour_list == kAuto) {
        if (device.backend != Backend::Cuda)
            r.force("neighbour_list", kOff,
                    "neighbour lists off (auto): the CPU backend scans the grid unless they are "
                    "asked for");
        else if (model == Model::Dem && contact != ContactLaw::Frictional)
            r.force("neighbour_list", kOff,
                    "neighbour lists off (auto): the classic DEM law scans the grid unless they "
                    "are asked for");
        else if (e.deterministic)  // lists rebuild at a restored run's first step
            r.force("neighbour_list", kOff,
                    "neighbour lists off (auto): deterministic mode scans the grid, so that a "
                    "run continued from a checkpoint is bit for bit the one that did not stop");
        else if (model == Model::Sph)
            r.force("neighbour_list", kOn,
                    "neighbour lists on (auto): the SPH passes read listed neighbours, faster "
                    "than scanning the grid's cells on CUDA");
        else
            r.force("neighbour_list", kOn,
                    "neighbour lists on (auto): the frictional law's pass reads listed "
                    "neighbours, faster than scanning the grid's cells on CUDA");
    }
    // Auto: the scatter wherever it runs and was measured faster (DEM on CUDA), unless a
    // variant that needs gathered forces is on; from here on the effective value is on or off.
    if (e.scatter_forces == kAuto && model != Model::Dem) {
        // No form of it there (the loop above said so if it was asked for).
        r.settle("scatter_forces", kOff);
    } else if (e.scatter_forces == kAuto) {
        std::string gathers;
        if (device.backend != Backend::Cuda)
            gathers = "the CPU backend gathers the forces unless scatter forces is on";
        else if (e.deterministic)
            gathers = "deterministic mode gathers the forces";
        else if (e.persistent_kernel)
            gathers = "the persistent kernel gathers the forces";
        else if (e.neighbour_list)
            gathers = "the neighbour lists are read by the gather";
        else if (e.double_state)
            gathers = "the double state runs with gathered forces";
        if (gathers.empty())
            r.force("scatter_forces", kOn,
                    "scatter forces on (auto): the faster form of the DEM force pass on CUDA");
        else
            r.force("scatter_forces", kOff, "scatter forces off (auto): " + gathers);
    }
    // Float atomic adds sum in the order the threads arrive; the persistent kernel has no
    // stage for the in-cell sort.
    if (e.deterministic && e.scatter_forces)
        r.force("scatter_forces", kOff,
                "scatter forces not used: deterministic mode gathers the forces (atomic adds of "
                "floats sum in any order)");
    if (e.deterministic && e.persistent_kernel)
        r.force("persistent_kernel", 0,
                "Persistent kernel not used: deterministic mode sorts each cell by id in a stage "
                "of its own");
    if (e.persistent_kernel) {
        std::string why;
        if (e.scatter_forces) {
            why =
                "the persistent kernel computes the gather form of the forces; scatter forces "
                "use the per-stage launches";
        } else if (device.persistent_unavailable) {
            why = device.persistent_unavailable(e);
        }
        if (!why.empty()) r.force("persistent_kernel", 0, "Persistent kernel not used: " + why);
    }
    if (e.persistent_kernel && e.graph)
        r.force("graph", 0,
                "CUDA graph not used: the persistent kernel is already one launch per step");
    // The drift would overwrite state that other particles still read (unsorted), and the
    // scatter form sums every pair before any particle can move.
    if (e.fuse_integrate && (!e.sorted_memory || e.scatter_forces))
        r.force("fuse_integrate", 0,
                "fused integrate not used: it needs sorted memory and gathered forces");
    if (e.double_state && !(model == Model::Dem && e.sorted_memory && !e.scatter_forces &&
                            e.fuse_integrate && !e.persistent_kernel))
        r.force("double_state", 0,
                "double state not used: it runs with the DEM model, sorted memory, gathered "
                "forces and the fused integrate, without the persistent kernel; the float "
                "state runs");
    // The lists index the cell-ordered copy that the gather form reads; the persistent kernel
    // and the scatter form scan the grid themselves.
    if (e.neighbour_list &&
        (!e.sorted_memory || e.scatter_forces || e.persistent_kernel || e.double_state))
        r.force("neighbour_list", 0,
                "neighbour lists not used: they run with sorted memory, gathered forces and the "
                "float state, without the persistent kernel");
    if (e.cluster_pairs == kAuto)
        r.force("cluster_pairs", kOff,
                "cluster pairs off (auto): measured slower than the particle lists and the "
                "default step on the GPU");
    if (e.cluster_pairs && model == Model::Dem && contact == ContactLaw::Frictional)
        r.force("cluster_pairs", kOff,
                "cluster pairs not used: the frictional law reads its contact memory per "
                "particle; they run with the classic law");
    if (e.cluster_pairs && !e.neighbour_list)
        r.force("cluster_pairs", kOff,
                "cluster pairs not used: they are built from the neighbour lists, which do "
                "not run here");
    if (e.cluster_pairs && e.list_strays != 0)
        r.force("list_strays", 0,
                "list strays not repaired: with cluster pairs the lists rebuild at the first");
    if (!e.neighbour_list)
        r.force("list_strays", defaults.list_strays,
                "list strays not used: they are part of the neighbour lists");
    // The repair sums the strays in the order the device found them.
    if (e.neighbour_list && e.deterministic && device.backend == Backend::Cuda)
        r.force("list_strays", 0,
                "list strays not repaired: deterministic mode rebuilds the lists at the first "
                "(the CUDA backend finds strays in whatever order its threads arrive)");
    if (device.backend == Backend::Cuda && model == Model::Sph &&
        device.sph_block_limit < e.block_size)
        r.note("block_size", "The SPH kernels run " + std::to_string(device.sph_block_limit) +
                                 " threads per block: their registers do not fit " +
                                 std::to_string(e.block_size));
    return r.take();
}

}  // namespace plab::sim
