#pragma once
// GPU tests skip (reported as skipped by CTest, never as passed) where no CUDA device can be
// used: a CPU-only build, no driver, no device.
#include <gtest/gtest.h>

#include <string>

#include "sim/run/make_simulator.h"

// In a test body or a fixture's SetUp: skips the test, with the reason, without CUDA.
#define PLAB_SKIP_WITHOUT_CUDA()                                                                \
    do {                                                                                        \
        const std::string plab_no_cuda_ = ::plab::sim::cuda_unavailable_reason();               \
        if (!plab_no_cuda_.empty()) GTEST_SKIP() << "no usable CUDA device: " << plab_no_cuda_; \
    } while (false)

namespace plab::test {

// A fixture whose tests all need a CUDA device.
class CudaTest : public ::testing::Test {
  protected:
    void SetUp() override { PLAB_SKIP_WITHOUT_CUDA(); }
};

}  // namespace plab::test
