// The staging of the CUDA backend's exports to host memory, and their timing.
#include "sim/cuda/export_buffers.h"

#include "sim/cuda/cuda_check.h"

namespace plab::sim::cuda {

// The device staging of exports to host memory: n positions, then n colours. The copy of an
// asynchronous export may still be reading it on the second stream, so the simulator's stream
// waits for that copy before anything writes the staging again (a no-op on the device when
// the copy is done): the next export kernel can never overwrite particles the copy has not
// taken yet. Growing frees the old block, so then the host waits for the copy first.
Float4* ExportBuffers::claim_staging(std::size_t n, cudaStream_t stream) {
    require_free_device_memory(staging.growth_bytes(2 * n), "the host-copy export",
                               2 * sizeof(Float4));
    if (async.copy_enqueued) {
        if (staging.growth_bytes(2 * n) > 0)
            PLAB_CUDA_CHECK(cudaEventSynchronize(async.copied.get()));
        PLAB_CUDA_CHECK(cudaStreamWaitEvent(stream, async.copied.get(), 0));
    }
    staging.resize(2 * n);
    return staging.data();
}

double ExportBuffers::last_ms() const {
    if (!recorded) return 0;
    PLAB_CUDA_CHECK(cudaEventSynchronize(end.get()));
    float ms = 0;
    PLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), end.get()));
    return ms;
}

}  // namespace plab::sim::cuda
