#pragma once
// PLAB_HD marks functions shared by the CPU and CUDA backends: the physics is written once,
// in headers, and each backend only decides how to loop over particles.
#if defined(__CUDACC__)
#define PLAB_HD __host__ __device__
#else
#define PLAB_HD
#endif

// Unrolls a loop of constant trip count on the device, so that a small array it indexes stays
// in registers instead of local memory (the host compiler decides for itself).
#if defined(__CUDA_ARCH__)
#define PLAB_UNROLL _Pragma("unroll")
#else
#define PLAB_UNROLL
#endif

namespace plab::sim {

// a / b where a few ulps do not matter: the device's fast division (one reciprocal and one
// multiply, ~2 ulp) instead of the correctly rounded one, which costs a dozen instructions.
// The host divides exactly.
PLAB_HD inline float fast_divide(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fdividef(a, b);
#else
    return a / b;
#endif
}

}  // namespace plab::sim
