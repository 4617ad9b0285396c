#pragma once
// What the CUDA backend's exports for drawing own (cuda_readback.cu): the device staging of
// exports to host memory, the page-locked host_staging, the events that time an export and
// hand a device export to its reader's stream, and the asynchronous export's stream and
// buffers. Private to sim/cuda.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "sim/core/vec.h"
#include "sim/cuda/async_export.h"
#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/device_buffer.h"
#include "sim/cuda/pinned_buffer.h"

namespace plab::sim::cuda {

struct ExportBuffers {
    DeviceBuffer<Float4> staging;  // export through the host: positions then colours
    PinnedBuffer<Float4> pinned;   // host_staging: page-locked positions then colours
    Event start = make_event(), end = make_event();
    // A device export's handshake with its reader's stream (RenderTarget::reader_stream).
    Event reader_done = make_event(), ready = make_event();
    bool recorded = false;  // start and end have been recorded at least once
    // export_render_async's stream, events and double-buffered page-locked memory. After
    // `staging`, so it is destroyed first: its destructor waits for a copy still reading it.
    AsyncExport async;

    // The device staging for `n` positions, then `n` colours, claimed for an export on the
    // simulator's `stream` (export_buffers.cpp says how it waits for an asynchronous copy).
    Float4* claim_staging(std::size_t n, cudaStream_t stream);
    // Page-locked host memory for 2 × `n` Float4. The caller has waited for any export still
    // copying into the old block.
    Float4* host_staging(std::size_t n) {
        pinned.resize(2 * n);
        return pinned.data();
    }
    // Device time of the last export, ms (0 before any); waits for it.
    double last_ms() const;
};

}  // namespace plab::sim::cuda
