#include "kernels.h"

#include <cuda_runtime.h>

__constant__ float c_offset;
__device__ unsigned long long d_blocks_done;

template <typename T>
__global__ void square_scale_kernel(const T *in, T *out, size_t n, T scale) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale * in[i] * in[i] + c_offset;
}

__global__ void sum_kernel(const int *in, size_t n, long long *sum) {
  extern __shared__ long long partial[];
  long long v = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) v += in[i];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd((unsigned long long *)sum, (unsigned long long)partial[0]);
    atomicAdd(&d_blocks_done, 1ull);
  }
}

int square_scale(const float *in, float *out, size_t n, float scale, float offset) {
  float *d_in = nullptr, *d_out = nullptr;
  if (cudaMalloc(&d_in, n * sizeof(float)) != cudaSuccess || cudaMalloc(&d_out, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_offset, &offset, sizeof(offset));
  unsigned blocks = (unsigned)((n + 127) / 128);
  square_scale_kernel<float><<<blocks, 128>>>(d_in, d_out, n, scale);
  if (cudaGetLastError() != cudaSuccess) return 2;
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 3;
}

int device_sum(const int *in, size_t n, long long *sum) {
  int *d_in = nullptr;
  long long *d_sum = nullptr;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_sum, sizeof(long long));
  cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_sum, 0, sizeof(long long));
  unsigned long long zero = 0, blocks_done = 0;
  cudaMemcpyToSymbol(d_blocks_done, &zero, sizeof(zero));
  const unsigned threads = 256, blocks = 8;
  sum_kernel<<<blocks, threads, threads * sizeof(long long)>>>(d_in, n, d_sum);
  cudaMemcpy(sum, d_sum, sizeof(long long), cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&blocks_done, d_blocks_done, sizeof(blocks_done));
  cudaFree(d_in);
  cudaFree(d_sum);
  return blocks_done == blocks ? 0 : 4;
}

int suggested_block_size() {
  int min_grid = 0, block = 0;
  if (cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, sum_kernel, 0, 0) != cudaSuccess) return -1;
  return block;
}
