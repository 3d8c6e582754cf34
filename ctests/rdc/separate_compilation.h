// What the other units (rdc/separate_compilation_lib.cu, rdc/separate_compilation_static.cu)
// export to separate_compilation.cu.
#pragma once

#include <cuda_runtime.h>

extern __device__ int g_bias;   // set by the host through cudaMemcpyToSymbol
extern __device__ int g_calls;  // counted by the main unit's kernel
__device__ int lib_scale(int x);
__device__ int lib_neighbour(unsigned t, unsigned threads);
__global__ void lib_kernel(int *out, int n);
cudaError_t launch_unit3(int *out, int n);  // launches a static kernel of its unit
