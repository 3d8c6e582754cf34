#pragma clang system_header
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
struct __tid_t { __declspec(property(get = gx)) unsigned x; static __device__ __attribute__((always_inline)) unsigned gx() { return __nvvm_read_ptx_sreg_tid_x(); } };
extern const __device__ __tid_t threadIdx;
extern "C" __device__ int printf(const char*, ...);
