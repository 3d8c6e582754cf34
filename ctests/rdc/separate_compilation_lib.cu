// The second translation unit of the separate_compilation ctest (nvcc -rdc=true).
#include "separate_compilation.h"

__device__ int g_bias = 1;
__device__ int g_calls = 0;

// Same name as the main unit's file-local helper, different result.
static __device__ __noinline__ int local_helper(int x) { return x * 7 - 3; }

__device__ __noinline__ int lib_scale(int x) { return 5 * x - 2; }

// Reads the next thread's slot of the launching kernel's dynamic shared memory.
__device__ __noinline__ int lib_neighbour(unsigned t, unsigned threads) {
  extern __shared__ int lib_window[];
  return lib_window[(t + 1) % threads];
}

__global__ void lib_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Device-side cudaGetLastError comes from the device runtime library (cudadevrt);
  // nothing here launches from the device, so it is cudaSuccess (0).
  if (i < n) out[i] = lib_scale(i) + local_helper(i) + (int)cudaGetLastError();
}
