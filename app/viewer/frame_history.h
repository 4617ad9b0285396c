#pragma once
// Rolling per-frame series for the panel's plots: a fixed ring of the last kLength values of
// each measured quantity, oldest first when read through values()/offset().
#include <array>
#include <cstddef>

namespace plab::app {

class Series {
  public:
    static constexpr int kLength = 240;  // frames, ~4 s at 60 FPS

    void push(float v) {
        values_[static_cast<std::size_t>(next_)] = v;
        next_ = (next_ + 1) % kLength;
        if (count_ < kLength) ++count_;
        last_ = v;
    }
    // For ImGui::PlotLines(values(), kLength, offset()).
    const float* values() const { return values_.data(); }
    int offset() const { return next_; }
    float last() const { return last_; }
    float mean() const {
        if (count_ == 0) return 0.f;
        float sum = 0.f;
        for (int i = 0; i < count_; ++i) sum += values_[static_cast<std::size_t>(i)];
        return sum / static_cast<float>(count_);
    }
    float max() const {
        float m = 0.f;
        for (int i = 0; i < count_; ++i)
            m = values_[static_cast<std::size_t>(i)] > m ? values_[static_cast<std::size_t>(i)] : m;
        return m;
    }

  private:
    std::array<float, kLength> values_{};
    int next_ = 0;
    int count_ = 0;
    float last_ = 0.f;
};

// Everything the Timing tab shows.
struct FrameHistory {
    Series frame_ms;   // wall time between frame starts
    Series sim_ms;     // simulation, device time of the steps finished this frame
    Series render_ms;  // GL timer query around the scene draw
    Series panel_ms;   // GL timer query around the ImGui draw
    Series feed_ms;    // export into the vertex buffers (+ upload or map/unmap), host wall
    Series edit_ms;    // applying the frame's edits and requests (App::sync), host wall
    // The latest step's stages (summed over the steps finished in one frame).
    double grid_ms = 0, reorder_ms = 0, forces_ms = 0, integrate_ms = 0;
    bool has_stages = true, integrate_fused = false;
    double map_ms = 0, export_ms = 0, upload_ms = 0, unmap_ms = 0;
    bool feed_interop = false;
    // The CUDA renderer's passes, device time of its newest finished frame (CUDA events).
    bool cuda_renderer = false;
    double splat_clear_ms = 0, splat_ms = 0, splat_resolve_ms = 0;
    double splat_filter_ms = 0;  // the material look's depth and filter passes
};

}  // namespace plab::app
