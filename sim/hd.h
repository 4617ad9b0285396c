#pragma once
// PLAB_HD marks functions shared by the CPU and CUDA backends: the physics is written once,
// in headers, and each backend only decides how to loop over particles.
#if defined(__CUDACC__)
#define PLAB_HD __host__ __device__
#else
#define PLAB_HD
#endif
