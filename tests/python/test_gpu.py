"""Zero-copy CUDA views (skipped without a CUDA device): what __cuda_array_interface__ and
__dlpack__ point at reads back (through the CUDA driver, no third-party library) equal to the
host copies, follows the steps, and is refused once stale."""
import ctypes

import numpy as np
import pytest

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def cuda(pl):
    if not pl.cuda_available():
        pytest.skip("no usable CUDA device: " + pl.cuda_unavailable_reason())
    return ctypes.CDLL("libcuda.so.1")


def read_device(cuda, ptr, nbytes):
    """nbytes of device memory at ptr, copied by the driver in the primary context."""
    ctx = ctypes.c_void_p()
    assert cuda.cuInit(0) == 0
    assert cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0) == 0
    assert cuda.cuCtxPushCurrent_v2(ctx) == 0
    out = np.empty(nbytes, np.uint8)
    try:
        rc = cuda.cuMemcpyDtoH_v2(out.ctypes.data_as(ctypes.c_void_p), ctypes.c_uint64(ptr),
                                  ctypes.c_size_t(nbytes))
        assert rc == 0, f"cuMemcpyDtoH failed: {rc}"
    finally:
        cuda.cuCtxPopCurrent_v2(ctypes.byref(ctypes.c_void_p()))
        cuda.cuDevicePrimaryCtxRelease_v2(0)
    return out


def read_view(cuda, view):
    """The array a __cuda_array_interface__ describes, copied to the host."""
    cai = view.__cuda_array_interface__
    assert cai["version"] == 3 and cai["stream"] is None
    dtype = np.dtype(cai["typestr"])
    shape, strides = cai["shape"], cai["strides"]
    span = sum((n - 1) * s for n, s in zip(shape, strides)) + dtype.itemsize
    raw = read_device(cuda, cai["data"][0], span)
    return np.ndarray(shape, dtype, buffer=raw, strides=strides).copy()


def by_id(rows, ids):
    out = np.empty_like(rows)
    out[ids] = rows
    return out


def same_bits(a, b):
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


@pytest.mark.parametrize("preset", ["classic", "water"])
def test_views_read_back_equal_to_the_copies(pl, cuda, preset):
    sim = pl.Simulation(preset=preset, particles=20000, backend="cuda")
    sim.step(30)
    ids = read_view(cuda, sim.device_ids())
    assert ids.dtype == np.uint32 and sorted(ids) == list(range(sim.particles))
    pos, vel = sim.device_positions(), sim.device_velocities()
    assert pos.shape == (sim.particles, 3) and pos.dtype == "float32" and len(pos) == sim.particles
    assert same_bits(by_id(read_view(cuda, pos), ids), sim.positions())
    assert same_bits(by_id(read_view(cuda, vel), ids), sim.velocities())
    if preset == "water":
        assert same_bits(by_id(read_view(cuda, sim.device_density()), ids), sim.density())
    # The same view follows the next steps.
    sim.step(5)
    ids = read_view(cuda, sim.device_ids())
    assert same_bits(by_id(read_view(cuda, pos), ids), sim.positions())


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


def dlpack_tensor(capsule):
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return DLManagedTensor.from_address(get(capsule, b"dltensor")).dl_tensor


def test_dlpack_describes_the_same_memory(pl, cuda):
    sim = pl.Simulation(preset="water", particles=20000, backend="cuda")
    sim.step(10)
    for view, width in ((sim.device_positions(), 3), (sim.device_density(), 1)):
        assert view.__dlpack_device__() == (2, 0)  # kDLCUDA, device 0
        capsule = view.__dlpack__()
        t = dlpack_tensor(capsule)
        cai = view.__cuda_array_interface__
        assert t.device.device_type == 2 and t.ndim == len(cai["shape"])
        assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (2, 32, 1)
        assert [t.shape[i] for i in range(t.ndim)] == list(cai["shape"])
        assert [t.strides[i] * 4 for i in range(t.ndim)] == list(cai["strides"])
        assert t.data + t.byte_offset == cai["data"][0]
        del capsule  # not consumed: its destructor frees the tensor


def test_consumers_read_without_a_copy(pl, cuda):
    """CuPy and PyTorch, where installed, see the same values without a copy."""
    sim = pl.Simulation(preset="classic", particles=20000, backend="cuda")
    sim.step(10)
    expected = by_id(read_view(cuda, sim.device_positions()), read_view(cuda, sim.device_ids()))
    tried = False
    try:
        import cupy

        x, ids = cupy.asarray(sim.device_positions()), cupy.asarray(sim.device_ids())
        assert x.data.ptr == sim.device_positions().ptr
        assert same_bits(by_id(cupy.asnumpy(x), cupy.asnumpy(ids)), expected)
        tried = True
    except ImportError:
        pass
    try:
        import torch

        x = torch.from_dlpack(sim.device_positions())
        ids = torch.from_dlpack(sim.device_ids()).cpu().numpy()
        assert x.data_ptr() == sim.device_positions().ptr
        assert same_bits(by_id(x.cpu().numpy(), ids), expected)
        tried = True
    except ImportError:
        pass
    if not tried:
        pytest.skip("neither CuPy nor PyTorch is installed")


def test_a_view_is_refused_after_reset(pl, cuda):
    sim = pl.Simulation(preset="classic", particles=5000, backend="cuda")
    view = sim.device_positions()
    sim.reset()
    with pytest.raises(pl.Error, match="stale"):
        view.__cuda_array_interface__
    with pytest.raises(pl.Error, match="stale"):
        view.__dlpack__()
