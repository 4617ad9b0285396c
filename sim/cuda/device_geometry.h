#pragma once
// The CUDA backend's copy of the scene's bodies: their triangles and surface motions and the
// triangles' bins in the scene's grid (sim/geometry/triangle_bins.h) for DEM, or their distance
// field (sim/geometry/boundary_field.h) for SPH, uploaded at reset and read by the passes
// through GeometryView. Private to sim/cuda.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/cuda/device_buffer.h"
#include "sim/geometry/boundary_field.h"
#include "sim/geometry/geometry_view.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/geometry/triangle_bins.h"

namespace plab::sim::cuda {

class DeviceGeometry {
  public:
    // Bins `geometry` (null: none) in `grid` for beads up to `reach` in radius, or, when
    // `field` holds nodes (SPH), takes the field instead of bins; checks the device has the
    // memory, then uploads; throws plab::Error before changing anything.
    void upload(std::shared_ptr<const SceneGeometry> geometry, const GridSpec& grid, float reach,
                BoundaryField field, cudaStream_t stream);
    // New surface motions for the uploaded bodies (`geometry`: the same triangles, checked by
    // the caller): only the bodies' entries are copied, into the same buffer, so a captured
    // step graph reads them at its next replay.
    void set_bodies(std::shared_ptr<const SceneGeometry> geometry, cudaStream_t stream);
    // The bodies a capture hands on (null: none).
    const std::shared_ptr<const SceneGeometry>& scene() const { return scene_; }
    // Inactive when the scene has no bodies.
    GeometryView view() const { return view_; }
    // The cells of the grid whose bins hold triangles (DEM; none for SPH), in cell order, for
    // the pass that meets beads and triangles a warp per cell (sim/cuda/mesh_kernels.cuh).
    const uint32_t* binned_cells() const { return binned_cells_.data(); }
    uint32_t binned_cell_count() const { return static_cast<uint32_t>(binned_.size()); }

  private:
    std::shared_ptr<const SceneGeometry> scene_;
    TriangleBins bins_;             // kept until the upload is done (the copies are asynchronous)
    std::vector<uint32_t> binned_;  // likewise: the cells binned_cells_ lists
    BoundaryField field_;           // likewise
    DeviceBuffer<GeoTriangle> triangles_;
    DeviceBuffer<GeoBody> bodies_;
    DeviceBuffer<uint32_t> bin_start_, bin_items_, binned_cells_;
    DeviceBuffer<Float4> field_nodes_, field_crease_;
    GeometryView view_;
};

}  // namespace plab::sim::cuda
