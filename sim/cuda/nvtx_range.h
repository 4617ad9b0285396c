#pragma once
// A named NVTX range for the lifetime of a scope, so that an Nsight Systems timeline shows
// which stage launched each kernel. NVTX is header-only and costs next to nothing when no
// profiler is attached.
#include <nvtx3/nvToolsExt.h>

namespace plab::sim::cuda {

class NvtxRange {
  public:
    explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
    ~NvtxRange() { nvtxRangePop(); }
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace plab::sim::cuda
