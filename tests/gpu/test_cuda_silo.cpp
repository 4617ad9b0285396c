// The silo's floor plate on the CUDA backend against the CPU reference: the same settled fill
// drains through the same orifice on both (the flow is chaotic, so the discharged mass is
// compared, not the beads' paths), and the closed plate holds the fill on CUDA. Needs a CUDA
// device; where there is none every test is reported as skipped (CTest label `gpu`).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim/cpu/cpu_simulator.h"
#include "sim/run/make_simulator.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#endif
#include "sim/engine/simulator.h"
#include "sim/validation/silo_validation.h"
#include "support/cuda_skip.h"

namespace plab::sim {
namespace {

class CudaSilo : public test::CudaTest {};

#if PLAB_HAS_CUDA

TEST_F(CudaSilo, DischargeMatchesTheCpuAndTheClosedPlateHolds) {
    const SiloCase c = silo_case(12, 10);
    CpuSimulator cpu;
    const SiloFill fill = settle_silo(cpu, c);
    ASSERT_EQ(fill.non_finite, 0u);
    ASSERT_GT(fill.bulk_density, 0.0);
    cuda::CudaSimulator gpu;

    const SiloResult held = discharge_silo(gpu, c, fill, 0, 0.6);
    EXPECT_EQ(held.discharged, 0u);
    EXPECT_EQ(held.non_finite, 0u);

    const SiloResult on_cpu = discharge_silo(cpu, c, fill, 6, 0.8);
    const SiloResult on_gpu = discharge_silo(gpu, c, fill, 6, 0.8);
    EXPECT_EQ(on_gpu.non_finite, 0u);
    EXPECT_FALSE(on_gpu.stalled);
    ASSERT_GT(on_cpu.discharged, 200u);
    // The same law and plate on both: the mass through the orifice agrees within 15%, and the
    // fitted flows within 15%.
    const double ratio = double(on_gpu.discharged) / double(on_cpu.discharged);
    EXPECT_NEAR(ratio, 1.0, 0.15) << on_gpu.discharged << " on CUDA, " << on_cpu.discharged
                                  << " on the CPU";
    EXPECT_NEAR(on_gpu.fit.flow / on_cpu.fit.flow, 1.0, 0.15)
        << on_gpu.fit.flow << " kg/s on CUDA, " << on_cpu.fit.flow << " kg/s on the CPU";
}

#else

TEST_F(CudaSilo, DischargeMatchesTheCpuAndTheClosedPlateHolds) {}

#endif

}  // namespace
}  // namespace plab::sim
