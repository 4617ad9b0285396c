#include "sim/cuda/device_geometry.h"

#include <utility>

namespace plab::sim::cuda {

void DeviceGeometry::upload(std::shared_ptr<const SceneGeometry> geometry, const GridSpec& grid,
                            float reach, cudaStream_t stream) {
    if (!geometry || geometry->empty()) {
        scene_.reset();
        view_ = {};
        return;
    }
    TriangleBins bins = bin_triangles(geometry->triangles, grid, reach);
    const std::size_t bytes = triangles_.growth_bytes(geometry->triangles.size()) +
                              bodies_.growth_bytes(geometry->bodies.size()) +
                              bin_start_.growth_bytes(bins.start.size()) +
                              bin_items_.growth_bytes(bins.items.size());
    require_free_device_memory(bytes, "the scene's geometry (triangles and their grid bins)");
    // The copies below read host memory asynchronously: wait for any earlier ones.
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    bins_ = std::move(bins);
    scene_ = std::move(geometry);
    triangles_.resize(scene_->triangles.size());
    bodies_.resize(scene_->bodies.size());
    bin_start_.resize(bins_.start.size());
    bin_items_.resize(bins_.items.size());
    triangles_.upload(std::span<const GeoTriangle>(scene_->triangles), stream);
    bodies_.upload(std::span<const GeoBody>(scene_->bodies), stream);
    bin_start_.upload(std::span<const uint32_t>(bins_.start), stream);
    bin_items_.upload(std::span<const uint32_t>(bins_.items), stream);
    view_.triangles = triangles_.data();
    view_.bodies = bodies_.data();
    view_.bin_start = bin_start_.data();
    view_.bin_items = bin_items_.data();
    view_.triangle_count = static_cast<uint32_t>(scene_->triangles.size());
    view_.grid = grid;
}

void DeviceGeometry::set_bodies(std::shared_ptr<const SceneGeometry> geometry,
                                cudaStream_t stream) {
    // The last copy may still read the old bodies' host memory.
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    scene_ = std::move(geometry);
    bodies_.upload(std::span<const GeoBody>(scene_->bodies), stream);
}

}  // namespace plab::sim::cuda
