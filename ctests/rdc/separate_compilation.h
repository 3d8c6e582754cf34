// What rdc/separate_compilation_lib.cu exports to separate_compilation.cu.
#pragma once

extern __device__ int g_bias;   // set by the host through cudaMemcpyToSymbol
extern __device__ int g_calls;  // counted by the main unit's kernel
__device__ int lib_scale(int x);
__device__ int lib_neighbour(unsigned t, unsigned threads);
__global__ void lib_kernel(int *out, int n);
