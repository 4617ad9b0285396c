// The variant table and the one resolver: every row round-trips through its text, and the
// resolver decides per backend and model which requested variants run, with a reason for each
// one that does not.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"
#include "sim/model/variants.h"

namespace plab::sim {
namespace {

DeviceCaps cpu() { return DeviceCaps{Backend::Cpu}; }

DeviceCaps cuda(int sph_limit = 1024, std::string persistent_refusal = "") {
    DeviceCaps d;
    d.backend = Backend::Cuda;
    d.sph_block_limit = sph_limit;
    d.persistent_unavailable = [persistent_refusal](const SimulatorOptions&) {
        return persistent_refusal;
    };
    return d;
}

// Every value a row offers: on and off for a switch, its choices for a number.
std::vector<std::string> values_of(const VariantInfo& v) { return v.value_texts(); }

TEST(VariantTable, NamesAreUniqueAndEveryValueRoundTrips) {
    std::set<std::string_view> names;
    for (const VariantInfo& v : variant_table()) {
        EXPECT_TRUE(names.insert(v.name).second) << v.name;
        EXPECT_EQ(find_variant(v.name), &v);
        EXPECT_FALSE(v.help.empty()) << v.name;
        EXPECT_FALSE(v.label.empty()) << v.name;
        EXPECT_NE(v.is_switch(), v.int_field != nullptr) << v.name;
        EXPECT_TRUE(v.accepts(v.get(SimulatorOptions{}))) << v.name << ": the default";
        for (const std::string& value : values_of(v)) {
            SimulatorOptions o;
            v.set(o, value);
            EXPECT_EQ(v.text(o), value) << v.name;
            // Only this row moved.
            for (const VariantInfo& other : variant_table()) {
                if (&other != &v) {
                    EXPECT_EQ(other.get(o), other.get(SimulatorOptions{})) << other.name;
                }
            }
        }
    }
    EXPECT_EQ(find_variant("use_graph"), nullptr);
}

TEST(VariantTable, BadValuesNameTheVariantAndWhatItTakes) {
    SimulatorOptions o;
    auto error = [&](std::string_view name, std::string_view value) {
        try {
            find_variant(name)->set(o, value);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(error("graph", "yes").find("graph: 'yes' must be on or off"), std::string::npos);
    EXPECT_NE(error("block_size", "100").find("multiple of 32"), std::string::npos);
    EXPECT_NE(error("block_size", "2048").find("block_size"), std::string::npos);
    EXPECT_NE(error("threads_per_particle", "3").find("0 (automatic), 1, 2, 4 or 8"),
              std::string::npos);
    EXPECT_NE(error("block_size", "").find("block_size"), std::string::npos);
    EXPECT_EQ(o, SimulatorOptions{});          // nothing changed by a refused value
    find_variant("block_size")->set(o, "96");  // any multiple of 32, not only the panel's
    EXPECT_EQ(o.block_size, 96);
    o.block_size = 100;
    EXPECT_THROW(validate(o), Error);
    EXPECT_THROW(resolve_options(o, Model::Dem, cpu()), Error);
}

TEST(ResolveOptions, DefaultsRunAsTheyAreEverywhere) {
    for (const DeviceCaps& d : {cpu(), cuda()})
        for (Model m : {Model::Dem, Model::Sph}) {
            const ResolvedOptions r = resolve_options({}, m, d);
            EXPECT_EQ(r.text(), "");
            for (const OptionNote& n : r.notes) EXPECT_FALSE(n.asked) << n.reason;
        }
    // On CUDA the default DEM step scatters its forces (auto), so its integrate is a kernel
    // of its own; nothing else differs from the defaults (the auto rows settle on or off).
    SimulatorOptions runs;
    runs.scatter_forces = kOn;
    runs.fuse_integrate = false;
    runs.neighbour_list = kOff;
    runs.cluster_pairs = kOff;
    EXPECT_EQ(resolve_options({}, Model::Dem, cuda()).effective, runs);
}

TEST(ResolveOptions, AutoScatterRunsForDemOnCudaAndGivesWayToWhatNeedsTheGather) {
    const SimulatorOptions defaults;
    EXPECT_EQ(defaults.scatter_forces, kAuto);
    ResolvedOptions r = resolve_options(defaults, Model::Dem, cuda());
    EXPECT_EQ(r.effective.scatter_forces, kOn);
    ASSERT_NE(r.note("scatter_forces"), nullptr);
    EXPECT_FALSE(r.note("scatter_forces")->asked);  // what auto means, not a warning
    EXPECT_NE(r.note("scatter_forces")->reason.find("auto"), std::string::npos);
    // The CPU and the SPH model gather.
    for (const DeviceCaps& d : {cpu(), cuda()})
        EXPECT_EQ(resolve_options(defaults, Model::Sph, d).effective.scatter_forces, kOff);
    r = resolve_options(defaults, Model::Dem, cpu());
    EXPECT_EQ(r.effective.scatter_forces, kOff);
    EXPECT_NE(r.note("scatter_forces")->reason.find("CPU"), std::string::npos);
    // A variant that needs gathered forces runs as asked, without a warning, and auto gathers.
    for (int gather = 0; gather < 4; ++gather) {
        SimulatorOptions o;
        if (gather == 0) o.deterministic = true;
        if (gather == 1) o.persistent_kernel = true;
        if (gather == 2) o.neighbour_list = kOn;
        if (gather == 3) o.double_state = true;
        r = resolve_options(o, Model::Dem, cuda());
        EXPECT_TRUE(o.deterministic == r.effective.deterministic &&
                    o.persistent_kernel == r.effective.persistent_kernel &&
                    r.effective.neighbour_list == (gather == 2 ? kOn : kOff) &&
                    o.double_state == r.effective.double_state)
            << r.text();
        EXPECT_EQ(r.effective.scatter_forces, kOff);
        EXPECT_EQ(r.text(), "");
        ASSERT_NE(r.note("scatter_forces"), nullptr);
        EXPECT_FALSE(r.note("scatter_forces")->asked);
    }
    // Asked for by name, the scatter still wins over the lists, as it did before auto.
    SimulatorOptions o;
    o.scatter_forces = kOn;
    o.neighbour_list = true;
    r = resolve_options(o, Model::Dem, cuda());
    EXPECT_EQ(r.effective.scatter_forces, kOn);
    EXPECT_FALSE(r.effective.neighbour_list);
    EXPECT_NE(r.text().find("neighbour lists not used"), std::string::npos);
    // Explicitly off gathers.
    o = {};
    o.scatter_forces = kOff;
    r = resolve_options(o, Model::Dem, cuda());
    EXPECT_EQ(r.effective.scatter_forces, kOff);
    EXPECT_TRUE(r.effective.fuse_integrate);
    EXPECT_EQ(r.note("scatter_forces"), nullptr);
}

// Auto lists where they run on CUDA (`model` with the contact law `law`): on by default, as what
// auto means, with `why` in its note; deterministic mode scans the grid (a continued run would
// rebuild its lists at its first step) unless they are asked for; asked off, they stay off.
void expect_auto_lists_on_cuda(Model model, ContactLaw law, std::string_view why) {
    const SimulatorOptions defaults;
    EXPECT_EQ(defaults.neighbour_list, kAuto);
    ResolvedOptions r = resolve_options(defaults, model, cuda(), law);
    EXPECT_EQ(r.effective.neighbour_list, kOn);
    ASSERT_NE(r.note("neighbour_list"), nullptr);
    EXPECT_FALSE(r.note("neighbour_list")->asked);
    EXPECT_NE(r.note("neighbour_list")->reason.find(why), std::string::npos);
    EXPECT_EQ(r.text(), "");
    SimulatorOptions o;
    o.deterministic = true;
    r = resolve_options(o, model, cuda(), law);
    EXPECT_EQ(r.effective.neighbour_list, kOff);
    EXPECT_NE(r.note("neighbour_list")->reason.find("deterministic"), std::string::npos);
    EXPECT_EQ(r.text(), "");
    o.neighbour_list = kOn;
    EXPECT_EQ(resolve_options(o, model, cuda(), law).effective.neighbour_list, kOn);
    o = SimulatorOptions{};
    o.neighbour_list = kOff;
    r = resolve_options(o, model, cuda(), law);
    EXPECT_EQ(r.effective.neighbour_list, kOff);
    EXPECT_EQ(r.note("neighbour_list"), nullptr);
}

TEST(ResolveOptions, AutoListsRunForSphOnCudaOnly) {
    expect_auto_lists_on_cuda(Model::Sph, ContactLaw::Classic, "SPH");
    const SimulatorOptions defaults;
    for (const auto& [model, device] :
         {std::pair{Model::Sph, cpu()}, {Model::Dem, cpu()}, {Model::Dem, cuda()}}) {
        const ResolvedOptions r = resolve_options(defaults, model, device);
        EXPECT_EQ(r.effective.neighbour_list, kOff);
        EXPECT_EQ(r.text(), "");
    }
}

TEST(ResolveOptions, AutoListsFollowTheFrictionalLawOnCuda) {
    expect_auto_lists_on_cuda(Model::Dem, ContactLaw::Frictional, "frictional");
    const SimulatorOptions defaults;
    // The lists are read by the gather.
    EXPECT_EQ(resolve_options(defaults, Model::Dem, cuda(), ContactLaw::Frictional)
                  .effective.scatter_forces,
              kOff);
    // The classic law on CUDA and either law on the CPU scan the grid.
    EXPECT_EQ(
        resolve_options(defaults, Model::Dem, cuda(), ContactLaw::Classic).effective.neighbour_list,
        kOff);
    EXPECT_EQ(resolve_options(defaults, Model::Dem, cpu(), ContactLaw::Frictional)
                  .effective.neighbour_list,
              kOff);
}

TEST(VariantTable, TheScatterRowTakesAutoOffAndOnAndReadsTheOldSwitchValues) {
    const VariantInfo& row = *find_variant("scatter_forces");
    EXPECT_TRUE(row.has_on());
    SimulatorOptions o;
    EXPECT_EQ(row.text(o), "auto");
    row.set(o, "off");
    EXPECT_EQ(o.scatter_forces, kOff);
    row.set(o, "on");  // what recordings and checkpoints of the switch hold
    EXPECT_EQ(o.scatter_forces, kOn);
    EXPECT_EQ(row.text(o), "on");
    EXPECT_THROW(row.set(o, "yes"), Error);
    EXPECT_EQ(o.scatter_forces, kOn);  // kept what it had
}

TEST(ResolveOptions, CudaOnlyVariantsOnTheCpuSayWhyAndRunTheirDefault) {
    SimulatorOptions o;
    o.graph = true;
    o.block_size = 128;
    o.persistent_kernel = true;
    o.scatter_forces = true;  // both backends have it
    const ResolvedOptions r = resolve_options(o, Model::Dem, cpu());
    EXPECT_FALSE(r.effective.graph);
    EXPECT_EQ(r.effective.block_size, 256);
    EXPECT_FALSE(r.effective.persistent_kernel);
    EXPECT_TRUE(r.effective.scatter_forces);
    for (const char* name : {"graph", "block_size", "persistent_kernel"}) {
        ASSERT_NE(r.note(name), nullptr) << name;
        EXPECT_TRUE(r.note(name)->asked);
        EXPECT_NE(r.note(name)->reason.find("CUDA backend only"), std::string::npos);
    }
    EXPECT_EQ(r.note("scatter_forces"), nullptr);
}

TEST(ResolveOptions, DemOnlyVariantsOnSphSayWhy) {
    SimulatorOptions o;
    o.sorted_memory = false;
    o.scatter_forces = true;
    o.double_state = true;
    for (const DeviceCaps& d : {cpu(), cuda()}) {
        const ResolvedOptions r = resolve_options(o, Model::Sph, d);
        EXPECT_TRUE(r.effective.sorted_memory);
        EXPECT_FALSE(r.effective.scatter_forces);
        EXPECT_FALSE(r.effective.double_state);
        EXPECT_NE(r.text().find("DEM model only"), std::string::npos) << r.text();
        EXPECT_NE(r.text().find("double state"), std::string::npos) << r.text();
    }
}

TEST(ResolveOptions, PersistentKernelRules) {
    SimulatorOptions o;
    o.persistent_kernel = true;
    o.graph = true;
    // Runs, and the graph is what gives way.
    ResolvedOptions r = resolve_options(o, Model::Dem, cuda());
    EXPECT_TRUE(r.effective.persistent_kernel);
    EXPECT_FALSE(r.effective.graph);
    EXPECT_NE(r.text().find("CUDA graph not used"), std::string::npos);
    // Scatter forces and a device that cannot run it refuse it; the graph then runs.
    o.scatter_forces = true;
    r = resolve_options(o, Model::Dem, cuda());
    EXPECT_FALSE(r.effective.persistent_kernel);
    EXPECT_TRUE(r.effective.graph);
    EXPECT_NE(r.note("persistent_kernel")->reason.find("scatter"), std::string::npos);
    o.scatter_forces = false;
    r = resolve_options(o, Model::Dem, cuda(1024, "no cooperative launch"));
    EXPECT_FALSE(r.effective.persistent_kernel);
    EXPECT_NE(r.text().find("no cooperative launch"), std::string::npos);
}

TEST(ResolveOptions, FusedIntegrateAndDoubleStateNeedSortedGatheredForces) {
    SimulatorOptions o;
    o.sorted_memory = false;
    ResolvedOptions r = resolve_options(o, Model::Dem, cuda());
    EXPECT_FALSE(r.effective.fuse_integrate);
    // The default's meaning on this layout, not something the user asked for.
    EXPECT_FALSE(r.note("fuse_integrate")->asked);
    EXPECT_EQ(r.text(), "");

    o.double_state = true;
    for (const DeviceCaps& d : {cpu(), cuda()}) {
        r = resolve_options(o, Model::Dem, d);
        EXPECT_FALSE(r.effective.double_state);
        EXPECT_NE(r.text().find("double state not used"), std::string::npos);
    }
    o.sorted_memory = true;
    o.fuse_integrate = false;
    EXPECT_FALSE(resolve_options(o, Model::Dem, cuda()).effective.double_state);
    // On the CPU there is no separate integrate kernel to ask for: double runs.
    EXPECT_TRUE(resolve_options(o, Model::Dem, cpu()).effective.double_state);
}

TEST(ResolveOptions, SphBlockCapIsSaidButTheGridKernelsKeepTheBlock) {
    SimulatorOptions o;
    o.block_size = 1024;
    const ResolvedOptions r = resolve_options(o, Model::Sph, cuda(640));
    EXPECT_EQ(r.effective.block_size, 1024);
    EXPECT_NE(r.text().find("SPH kernels run 640 threads"), std::string::npos) << r.text();
}

TEST(ResolveOptions, TheCpuBackendReportsWhatItRuns) {
    CpuSimulator sim;
    SimulatorOptions o;
    o.sorted_memory = false;
    o.graph = true;
    sim.set_options(o);
    EXPECT_FALSE(sim.effective_options().effective.sorted_memory);
    EXPECT_FALSE(sim.effective_options().effective.graph);
    EXPECT_EQ(sim.effective_options().requested, o);
    // A reset onto the SPH model re-decides: the SPH passes read the sorted copy.
    const Params water = preset_params(Preset::Water);
    sim.reset(build_initial_state(preset_scene(Preset::Water, 200, water), water, 200), water);
    EXPECT_TRUE(sim.effective_options().effective.sorted_memory);
    EXPECT_NE(sim.option_notes().find("DEM model only"), std::string::npos);
    o.block_size = 33;
    EXPECT_THROW(sim.set_options(o), Error);
    EXPECT_TRUE(sim.effective_options().requested.graph);  // kept what it had
}

TEST(VariantTable, TheRendererRowTakesNamesOnly) {
    const VariantInfo& row = *find_variant("renderer");
    SimulatorOptions o;
    EXPECT_EQ(row.text(o), "gl");  // the GL sprites are the default
    row.set(o, "cuda");
    EXPECT_EQ(o.renderer, kRendererCuda);
    EXPECT_EQ(row.text(o), "cuda");
    for (const char* bad : {"1", "vulkan", "", "CUDA"}) {
        try {
            row.set(o, bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("renderer: '" + std::string(bad) +
                                                 "' must be gl or cuda"),
                      std::string::npos)
                << e.what();
        }
    }
    EXPECT_EQ(o.renderer, kRendererCuda);  // unchanged by the refusals
    o.renderer = 7;
    EXPECT_THROW(validate(o), Error);
}

TEST(ResolveOptions, TheCudaRendererNeedsTheCudaBackend) {
    SimulatorOptions asked;
    asked.renderer = kRendererCuda;
    const ResolvedOptions on_cpu = resolve_options(asked, Model::Dem, cpu());
    EXPECT_EQ(on_cpu.effective.renderer, kRendererGl);
    ASSERT_NE(on_cpu.note("renderer"), nullptr);
    EXPECT_TRUE(on_cpu.note("renderer")->asked);
    EXPECT_NE(on_cpu.text().find("CUDA backend only"), std::string::npos) << on_cpu.text();
    for (const Model model : {Model::Dem, Model::Sph})
        EXPECT_EQ(resolve_options(asked, model, cuda()).effective.renderer, kRendererCuda);
}

TEST(ResolveOptions, DeterministicModeGathersAndLeavesThePersistentKernel) {
    SimulatorOptions o;
    o.deterministic = true;
    o.scatter_forces = true;
    o.persistent_kernel = true;
    for (const DeviceCaps& d : {cpu(), cuda()}) {
        const ResolvedOptions r = resolve_options(o, Model::Dem, d);
        EXPECT_TRUE(r.effective.deterministic);
        EXPECT_FALSE(r.effective.scatter_forces);
        EXPECT_FALSE(r.effective.persistent_kernel);
        ASSERT_NE(r.note("scatter_forces"), nullptr);
        EXPECT_TRUE(r.note("scatter_forces")->asked);
        EXPECT_NE(r.note("scatter_forces")->reason.find("deterministic"), std::string::npos);
    }
    // On CUDA the persistent kernel gives way to deterministic mode and says so.
    const ResolvedOptions r = resolve_options(o, Model::Dem, cuda());
    ASSERT_NE(r.note("persistent_kernel"), nullptr);
    EXPECT_NE(r.note("persistent_kernel")->reason.find("deterministic"), std::string::npos);
    // Without it both run as asked.
    o.deterministic = false;
    o.persistent_kernel = false;
    EXPECT_TRUE(resolve_options(o, Model::Dem, cuda()).effective.scatter_forces);
}

}  // namespace
}  // namespace plab::sim
