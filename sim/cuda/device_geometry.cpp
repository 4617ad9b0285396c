#include "sim/cuda/device_geometry.h"

#include <utility>
#include <vector>

namespace plab::sim::cuda {

void DeviceGeometry::upload(std::shared_ptr<const SceneGeometry> geometry, const GridSpec& grid,
                            float reach, BoundaryField field, cudaStream_t stream) {
    if (!geometry || geometry->empty()) {
        scene_.reset();
        view_ = {};
        binned_.clear();
        return;
    }
    TriangleBins bins;
    if (field.empty()) bins = bin_triangles(geometry->triangles, grid, reach);
    std::vector<uint32_t> binned;  // the cells whose bins hold triangles, in cell order
    for (std::size_t c = 0; c + 1 < bins.start.size(); ++c)
        if (bins.start[c + 1] > bins.start[c]) binned.push_back(static_cast<uint32_t>(c));
    const std::size_t bytes =
        triangles_.growth_bytes(geometry->triangles.size()) +
        bodies_.growth_bytes(geometry->bodies.size()) + bin_start_.growth_bytes(bins.start.size()) +
        bin_items_.growth_bytes(bins.items.size()) + field_nodes_.growth_bytes(field.nodes.size()) +
        field_crease_.growth_bytes(field.crease.size()) + binned_cells_.growth_bytes(binned.size());
    require_free_device_memory(bytes, field.empty()
                                          ? "the scene's geometry (triangles and their grid bins)"
                                          : "the scene's geometry (triangles and their distance "
                                            "field for SPH)");
    // The copies below read host memory asynchronously: wait for any earlier ones.
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    bins_ = std::move(bins);
    binned_ = std::move(binned);
    field_ = std::move(field);
    scene_ = std::move(geometry);
    triangles_.resize(scene_->triangles.size());
    bodies_.resize(scene_->bodies.size());
    bin_start_.resize(bins_.start.size());
    bin_items_.resize(bins_.items.size());
    triangles_.upload(std::span<const GeoTriangle>(scene_->triangles), stream);
    bodies_.upload(std::span<const GeoBody>(scene_->bodies), stream);
    bin_start_.upload(std::span<const uint32_t>(bins_.start), stream);
    bin_items_.upload(std::span<const uint32_t>(bins_.items), stream);
    binned_cells_.resize(binned_.size());
    binned_cells_.upload(std::span<const uint32_t>(binned_), stream);
    field_nodes_.resize(field_.nodes.size());
    field_nodes_.upload(std::span<const Float4>(field_.nodes), stream);
    field_crease_.resize(field_.crease.size());
    field_crease_.upload(std::span<const Float4>(field_.crease), stream);
    view_.triangles = triangles_.data();
    view_.bodies = bodies_.data();
    view_.bin_start = bin_start_.data();
    view_.bin_items = bin_items_.data();
    view_.triangle_count = static_cast<uint32_t>(scene_->triangles.size());
    view_.grid = grid;
    view_.field = field_.view(field_nodes_.data(), field_crease_.data());
}

void DeviceGeometry::set_bodies(std::shared_ptr<const SceneGeometry> geometry,
                                cudaStream_t stream) {
    // The last copy may still read the old bodies' host memory.
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    scene_ = std::move(geometry);
    bodies_.upload(std::span<const GeoBody>(scene_->bodies), stream);
}

}  // namespace plab::sim::cuda
