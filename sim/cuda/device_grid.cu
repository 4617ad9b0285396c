// The device grid's memory and the scan of its counts (CUB's exclusive sum).
#include "sim/cuda/device_grid.h"

#include <cub/device/device_scan.cuh>

namespace plab::sim::cuda {
namespace {

std::size_t scan_temp_bytes(uint32_t items) {
    std::size_t bytes = 0;
    PLAB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<uint32_t*>(nullptr),
                                                  static_cast<uint32_t*>(nullptr), items));
    return bytes;
}

}  // namespace

std::size_t DeviceGrid::growth_bytes(std::size_t n, std::size_t cells) const {
    const std::size_t temp = scan_temp_bytes(static_cast<uint32_t>(cells));
    return cell.growth_bytes(n) + slot.growth_bytes(n) + cell_count.growth_bytes(cells) +
           cell_start.growth_bytes(cells) + scan_temp.growth_bytes(temp);
}

void DeviceGrid::resize(std::size_t n, std::size_t cells) {
    for (auto* buf : {&cell, &slot}) buf->resize(n);
    cell_count.resize(cells);
    cell_start.resize(cells);
    scan_temp.resize(scan_temp_bytes(static_cast<uint32_t>(cells)));
}

void DeviceGrid::enqueue_scan(uint32_t cells, cudaStream_t stream) {
    std::size_t temp_bytes = scan_temp.size();
    PLAB_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp.data(), temp_bytes, cell_count.data(),
                                                  cell_start.data(), cells, stream));
}

}  // namespace plab::sim::cuda
