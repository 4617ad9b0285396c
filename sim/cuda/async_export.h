#pragma once
// What CudaSimulator::export_render_async owns: a second stream for the device-to-host copy,
// the events that order that copy against the simulator's stream, and two page-locked host
// buffers used in turn, so the host reads one frame while the next is copied into the other.
// Private to sim/cuda.
#include <cuda_runtime_api.h>

#include "sim/cuda/cuda_check.h"
#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/pinned_buffer.h"
#include "sim/engine/simulator.h"

namespace plab::sim::cuda {

struct AsyncExport {
    AsyncExport() = default;
    // The copy may still be writing the host buffers or reading the device staging (which the
    // owner frees after this): wait for it before anything is released.
    ~AsyncExport() {
        if (copy_stream) PLAB_CUDA_LOG(cudaStreamSynchronize(copy_stream.get()));
    }
    AsyncExport(const AsyncExport&) = delete;
    AsyncExport& operator=(const AsyncExport&) = delete;

    Stream copy_stream = make_stream();
    Event exported = make_event();  // simulator's stream: the export kernel filled the staging
    Event copied = make_event();    // copy_stream: the last copy left the staging
    bool copy_enqueued = false;     // `copied` has been recorded at least once
    PinnedBuffer<Float4> host[2];   // positions then colours, written in turn
    int next = 0;                   // the buffer the next export copies into
    HostRenderFrame last;           // where the last export goes
    bool started = false;
};

}  // namespace plab::sim::cuda
