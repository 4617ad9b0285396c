// CpuSimulator::export_render_async: the synchronous fallback of the asynchronous export. The
// CPU has no second engine to copy while the next step runs, so the export happens at once;
// what it keeps is the interface's promise that the previous result stays valid, by writing
// the two host buffers in turn.
#include "sim/cpu/cpu_simulator.h"

namespace plab::sim {

void CpuSimulator::export_render_async(const RenderStyle& style) {
    const std::size_t n = particle_count();
    std::vector<Float4>& buffer = async_staging_[async_next_];
    // May reallocate: only the result of the export before last lived there.
    buffer.resize(2 * n);
    export_render({buffer.data(), buffer.data() + n, n, false}, style);
    async_frame_ = {buffer.data(), buffer.data() + n, n};
    async_next_ ^= 1;
}

}  // namespace plab::sim
