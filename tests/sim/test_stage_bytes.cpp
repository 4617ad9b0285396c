// The roofline's model (sim/engine/stage_bytes.h): the least bytes each stage moves, by model
// and variant, and how a stage's time reads against its floor.
#include <gtest/gtest.h>

#include <string>

#include "sim/engine/stage_bytes.h"
#include "sim/model/presets.h"

namespace plab::sim {
namespace {

TEST(StageBytes, CountsWhatEachStageMustReadAndWriteOnce) {
    const Params classic = preset_params(Preset::Classic);
    SimulatorOptions o;
    const std::size_t n = 1000, cells = 500;
    const StageBytes fused = stage_bytes(classic, o, n, cells, true);
    EXPECT_DOUBLE_EQ(fused.grid, 1000.0 * 8 + 500.0 * 12);
    EXPECT_DOUBLE_EQ(fused.reorder, 1000.0 * 80);
    EXPECT_DOUBLE_EQ(fused.forces, 1000.0 * (32 + 32));  // the drift writes the state
    EXPECT_DOUBLE_EQ(fused.integrate, 0.0);
    const StageBytes apart = stage_bytes(classic, o, n, cells, false);
    EXPECT_DOUBLE_EQ(apart.forces, 1000.0 * 48);
    EXPECT_DOUBLE_EQ(apart.integrate, 1000.0 * 80);
    EXPECT_DOUBLE_EQ(apart.step(), apart.grid + apart.reorder + apart.forces + apart.integrate);

    // The double state travels with the reorder and the drift; the frictional law's spin with
    // the force pass.
    SimulatorOptions hi = o;
    hi.double_state = true;
    EXPECT_DOUBLE_EQ(stage_bytes(classic, hi, n, cells, false).reorder, 1000.0 * (80 + 128));
    EXPECT_DOUBLE_EQ(stage_bytes(classic, hi, n, cells, false).integrate, 1000.0 * (80 + 128));
    const Params glass = preset_params(Preset::GlassBeads);
    ASSERT_TRUE(runs_frictional_law(glass));
    EXPECT_DOUBLE_EQ(stage_bytes(glass, o, n, cells, false).reorder, 1000.0 * 80);
    EXPECT_DOUBLE_EQ(stage_bytes(glass, o, n, cells, false).forces, 1000.0 * (64 + 16));

    // SPH: the density pass and the force pass; unsorted memory reorders only the index.
    const Params water = preset_params(Preset::Water);
    EXPECT_DOUBLE_EQ(stage_bytes(water, o, n, cells, false).forces, 1000.0 * (20 + 36 + 16));
    SimulatorOptions unsorted = o;
    unsorted.sorted_memory = false;
    EXPECT_DOUBLE_EQ(stage_bytes(classic, unsorted, n, cells, true).reorder, 1000.0 * 12);
}

TEST(StageBytes, AStageReadsAgainstItsFloorAtTheCopyRate) {
    MemoryRates rates;
    rates.copy_bytes_per_s = 2e12;
    // 1 GB in 1 ms: 1 TB/s, and the floor (1 GB at 2 TB/s) is 0.5 ms.
    const std::string row = roofline_cells(1.0, 1e9, rates);
    EXPECT_NE(row.find("1.0000 ms"), std::string::npos) << row;
    EXPECT_NE(row.find("1000.0 MB"), std::string::npos) << row;
    EXPECT_NE(row.find("1.00 TB/s"), std::string::npos) << row;
    EXPECT_NE(row.find("2.0x its floor"), std::string::npos) << row;
    // Nothing to say without a time, bytes or a rate (a stage that did not run).
    EXPECT_EQ(roofline_cells(0.0, 1e9, rates), "");
    EXPECT_EQ(roofline_cells(1.0, 0.0, rates), "");
    EXPECT_EQ(roofline_cells(1.0, 1e9, MemoryRates{}), "");
}

}  // namespace
}  // namespace plab::sim
