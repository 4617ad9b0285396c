// Every step variant reaches every surface from its one table row: the command line (bench and
// window flags), sweep keys and columns, and recording keys. Walks sim::variant_table(), so a
// new row is checked here without a new line.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "app/lab/recording.h"
#include "app/lab/sweep.h"
#include "app/lab/variant_flags.h"
#include "sim/core/error.h"
#include "sim/model/variants.h"
#include "support/csv.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

std::vector<std::string> values_of(const sim::VariantInfo& v) { return v.value_texts(); }

// Parses `args` (after the program name) with the variant flags; returns the options.
sim::SimulatorOptions parse(std::vector<std::string> args, std::ostream* notes = nullptr) {
    CLI::App cli;
    VariantFlags flags(cli);
    args.insert(args.begin(), "particle-lab");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    cli.parse(static_cast<int>(argv.size()), argv.data());
    sim::SimulatorOptions o;
    flags.apply(o, notes);
    return o;
}

TEST(VariantSurfaces, EveryRowIsAFlagTakingEachOfItsValues) {
    for (const sim::VariantInfo& v : sim::variant_table()) {
        const std::string flag = variant_flag(v.name);
        for (const std::string& value : values_of(v)) {
            const auto o = v.has_on() ? parse({flag + "=" + value}) : parse({flag, value});
            EXPECT_EQ(v.text(o), value) << flag;
        }
        // The bare flag of a switch or an auto/off/on row means on.
        if (v.has_on()) {
            EXPECT_EQ(v.text(parse({flag})), "on") << flag;
        }
        if (v.has_on() && !v.is_switch()) {
            EXPECT_THROW(parse({flag + "=-3"}), Error) << flag;
        }
        if (!v.has_on()) {
            EXPECT_THROW(parse({flag, "-3"}), Error) << flag;
        }
    }
    EXPECT_EQ(parse({}), sim::SimulatorOptions{});
}

TEST(VariantSurfaces, EarlierSpellingsStillWorkAndSayTheirNewName) {
    std::ostringstream notes;
    const auto o = parse({"--block", "64", "--unsorted", "--separate-integrate",
                          "--single-pass-forces", "--persistent", "--double"},
                         &notes);
    EXPECT_EQ(o.block_size, 64);
    EXPECT_FALSE(o.sorted_memory);
    EXPECT_FALSE(o.fuse_integrate);
    EXPECT_FALSE(o.contact_list);
    EXPECT_TRUE(o.persistent_kernel);
    EXPECT_TRUE(o.double_state);
    for (const char* said :
         {"--block is now --block-size N", "--unsorted is now --sorted-memory=off",
          "--double is now --double-state=on"})
        EXPECT_NE(notes.str().find(said), std::string::npos) << notes.str();
}

TEST(VariantSurfaces, EveryRowIsASweepKeyWithOrWithoutItsRecordingPrefix) {
    for (const sim::VariantInfo& v : sim::variant_table()) {
        const std::vector<std::string> values = values_of(v);
        std::string list;
        for (const auto& value : values) list += (list.empty() ? "" : ",") + value;
        for (const std::string& key : {std::string(v.name), "variant." + std::string(v.name)}) {
            const SweepAxis axis = parse_sweep_axis(key + "=" + list);
            EXPECT_EQ(axis.key, v.name);
            const auto points = expand_sweep(BenchConfig{}, {axis});
            ASSERT_EQ(points.size(), values.size());
            for (std::size_t i = 0; i < values.size(); ++i)
                EXPECT_EQ(v.text(points[i].config.options), values[i]) << key;
        }
    }
}

TEST(VariantSurfaces, EveryRowIsASweepColumn) {
    const test::TempDir dir;
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.particles = 200;
    c.steps = 1;
    c.warmup = 0;
    c.window = "start";
    c.options.sorted_memory = false;
    std::ostringstream out, progress;
    run_sweep(c, {"scatter_forces=on"}, dir.path(), out, progress, nullptr);
    const std::vector<std::vector<std::string>> csv = test::read_csv(dir / "sweep.csv");
    ASSERT_GE(csv.size(), 2u);
    const std::vector<std::string>&names = csv[0], &values = csv[1];
    // Each variant's column holds the value that point asked for.
    for (const sim::VariantInfo& v : sim::variant_table()) {
        const auto at = std::find(names.begin(), names.end(), v.name);
        ASSERT_NE(at, names.end()) << v.name;
        const std::size_t i = static_cast<std::size_t>(at - names.begin());
        ASSERT_LT(i, values.size());
        sim::SimulatorOptions asked = c.options;
        asked.scatter_forces = true;
        EXPECT_EQ(values[i], v.text(asked)) << v.name;
    }
}

TEST(VariantSurfaces, EveryRowIsARecordingKeyWithTheRequestedValue) {
    for (const sim::VariantInfo& v : sim::variant_table())
        for (const std::string& value : values_of(v)) {
            ConfigSource s;
            v.set(s.options, value);
            const auto entries = describe_configuration(s);
            const std::string key = "variant." + std::string(v.name);
            bool found = false;
            for (const auto& [k, val] : entries)
                if (k == key) {
                    found = true;
                    EXPECT_EQ(val, value) << key;
                }
            EXPECT_TRUE(found) << key;
        }
}

}  // namespace
}  // namespace plab::app
