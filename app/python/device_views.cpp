#include "app/python/device_views.h"

#include <memory>

#include "app/python/dlpack.h"
#include "sim/core/error.h"

namespace plab::app::py {

namespace pyb = pybind11;

void DeviceView::require_current() const {
    PLAB_REQUIRE(owner_generation && *owner_generation == generation,
                 "this device view is stale: the simulation was reset or loaded since it was "
                 "made; take a new one");
}

pyb::dict DeviceView::cuda_array_interface() const {
    require_current();
    pyb::tuple shape_t(shape.size()), strides_t(strides.size());
    for (std::size_t i = 0; i < shape.size(); ++i) {
        shape_t[i] = shape[i];
        strides_t[i] = strides[i];
    }
    pyb::dict d;
    d["shape"] = shape_t;
    d["typestr"] = std::string("<") + kind + std::to_string(bits / 8);
    d["data"] = pyb::make_tuple(data, false);  // writable: writes go into the running state
    d["strides"] = strides_t;
    d["version"] = 3;
    // Simulation.step waits for the device before it returns: nothing to synchronise with.
    d["stream"] = pyb::none();
    return d;
}

namespace {

// What a DLPack consumer holds until it calls the deleter: the tensor, its shape and strides,
// and a reference to the Simulation that owns the memory.
struct DlpackContext {
    DLManagedTensor tensor{};
    std::vector<std::int64_t> shape, strides;
    PyObject* owner = nullptr;
};

void delete_context(DLManagedTensor* t) {
    auto* ctx = static_cast<DlpackContext*>(t->manager_ctx);
    // Consumers may call this from any thread, with or without the GIL.
    if (Py_IsInitialized()) {
        const PyGILState_STATE gil = PyGILState_Ensure();
        Py_XDECREF(ctx->owner);
        PyGILState_Release(gil);
    }
    delete ctx;
}

// A capsule a consumer did not take (still named "dltensor") frees its tensor.
void capsule_destructor(PyObject* capsule) {
    if (!PyCapsule_IsValid(capsule, "dltensor")) return;  // consumed: renamed used_dltensor
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (t && t->deleter) t->deleter(t);
}

}  // namespace

pyb::capsule DeviceView::dlpack() const {
    require_current();
    auto ctx = std::make_unique<DlpackContext>();
    ctx->shape = shape;
    for (std::int64_t s : strides) ctx->strides.push_back(s / (bits / 8));  // elements
    DLTensor& t = ctx->tensor.dl_tensor;
    t.data = reinterpret_cast<void*>(base);
    t.byte_offset = byte_offset;
    t.device = {kDLCUDA, device};
    t.ndim = static_cast<std::int32_t>(shape.size());
    t.dtype = {kind == 'f' ? std::uint8_t{kDLFloat} : std::uint8_t{kDLUInt},
               static_cast<std::uint8_t>(bits), 1};
    t.shape = ctx->shape.data();
    t.strides = ctx->strides.data();
    ctx->tensor.manager_ctx = ctx.get();
    ctx->tensor.deleter = delete_context;
    ctx->owner = owner.inc_ref().ptr();
    PyObject* cap = PyCapsule_New(&ctx->tensor, "dltensor", capsule_destructor);
    if (!cap) {
        Py_XDECREF(ctx->owner);
        throw pyb::error_already_set();
    }
    ctx.release();
    return pyb::reinterpret_steal<pyb::capsule>(cap);
}

void bind_device_views(pyb::module_& m) {
    pyb::class_<DeviceView>(m, "DeviceArray", R"(A zero-copy view of a CUDA simulation's state.

Exposes __cuda_array_interface__ (v3) and __dlpack__ / __dlpack_device__: cupy.asarray(v),
numba.cuda.as_cuda_array(v) and torch.from_dlpack(v) read the simulator's device memory without
a copy. Rows are in the simulator's memory order (Simulation.device_ids() gives the particle of
each row). The values follow every step; after reset() or load() the view is stale and raises.)")
        .def_property_readonly("__cuda_array_interface__", &DeviceView::cuda_array_interface)
        .def(
            "__dlpack__",
            [](const DeviceView& v, const pyb::object& /*stream*/, const pyb::kwargs&) {
                // The simulator's stream is idle whenever Python runs (step() waits for it), so
                // any consumer stream may read at once.
                return v.dlpack();
            },
            pyb::arg("stream") = pyb::none())
        .def("__dlpack_device__",
             [](const DeviceView& v) { return pyb::make_tuple(int{kDLCUDA}, v.device); })
        .def_property_readonly("shape",
                               [](const DeviceView& v) {
                                   pyb::tuple t(v.shape.size());
                                   for (std::size_t i = 0; i < v.shape.size(); ++i)
                                       t[i] = v.shape[i];
                                   return t;
                               })
        .def_property_readonly("dtype",
                               [](const DeviceView& v) {
                                   return std::string(v.kind == 'f' ? "float" : "uint") +
                                          std::to_string(v.bits);
                               })
        .def_property_readonly("ptr", [](const DeviceView& v) { return v.data; })
        .def("__len__", [](const DeviceView& v) { return v.shape.empty() ? 0 : v.shape[0]; });
}

}  // namespace plab::app::py
