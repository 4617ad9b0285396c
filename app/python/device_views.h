#pragma once
// Zero-copy views of a CUDA simulation's state for Python: objects with
// __cuda_array_interface__ (version 3) and __dlpack__ / __dlpack_device__, so CuPy, Numba and
// PyTorch read (and may write) the simulator's device memory without a copy. A view keeps its
// Simulation alive; it refuses to be read once the simulation was reset or loaded (the memory
// may have moved). Rows are in the simulator's memory order: device_ids() says which particle
// each row holds.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace plab::app::py {

struct DeviceView {
    std::uintptr_t data = 0;            // address of element 0 (with byte_offset added)
    std::uint64_t byte_offset = 0;      // from `base` to element 0 (DLPack keeps it apart)
    std::uintptr_t base = 0;            // the allocation's start, for DLPack
    std::vector<std::int64_t> shape;    // rows (, columns)
    std::vector<std::int64_t> strides;  // bytes
    char kind = 'f';                    // 'f' float, 'u' unsigned integer
    int bits = 32;
    int device = 0;                                   // CUDA device ordinal
    std::uint64_t generation = 0;                     // the simulation's, when the view was made
    pybind11::object owner;                           // the Simulation, kept alive by the view
    const std::uint64_t* owner_generation = nullptr;  // the simulation's, now

    // Throws plab::Error when the simulation was reset or loaded since the view was made.
    void require_current() const;
    pybind11::dict cuda_array_interface() const;
    pybind11::capsule dlpack() const;
};

void bind_device_views(pybind11::module_& m);

}  // namespace plab::app::py
