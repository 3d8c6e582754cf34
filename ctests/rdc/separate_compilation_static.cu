// Third translation unit of the separate_compilation ctest: nothing here is visible
// to other units' device code (a static kernel and a static variable), but the host
// side of this unit launches the kernel, so the driver must still link this unit.
#include "separate_compilation.h"

static __device__ int tu3_value = 42;

static __global__ void tu3_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tu3_value - i;
}

cudaError_t launch_unit3(int *out, int n) {
  tu3_kernel<<<(n + 127) / 128, 128>>>(out, n);
  return cudaGetLastError();
}
