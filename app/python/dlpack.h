#pragma once
// The DLPack tensor ABI (dmlc/dlpack, version 0.8: the unversioned DLManagedTensor that every
// consumer accepts through __dlpack__), declared here because Debian ships no dlpack header.
// Only what the module's device views fill in.
#include <cstdint>

namespace plab::app::py {

enum DLDeviceType : std::int32_t { kDLCPU = 1, kDLCUDA = 2 };
enum DLDataTypeCode : std::uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2 };

struct DLDevice {
    std::int32_t device_type;  // DLDeviceType
    std::int32_t device_id;
};

struct DLDataType {
    std::uint8_t code;  // DLDataTypeCode
    std::uint8_t bits;
    std::uint16_t lanes;
};

struct DLTensor {
    void* data;
    DLDevice device;
    std::int32_t ndim;
    DLDataType dtype;
    std::int64_t* shape;
    std::int64_t* strides;  // in elements, not bytes
    std::uint64_t byte_offset;
};

struct DLManagedTensor {
    DLTensor dl_tensor;
    void* manager_ctx;
    void (*deleter)(DLManagedTensor* self);
};

}  // namespace plab::app::py
