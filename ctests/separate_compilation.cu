// Separate compilation (nvcc -rdc=true): this file, rdc/separate_compilation_lib.cu
// and rdc/separate_compilation_static.cu are three translation units. Device code here
// calls a device function, reads and writes device variables, shares dynamic shared
// memory with, and launches a kernel defined in the second unit; both have a file-local
// helper of the same name. The third unit has only a static kernel and variable.
// cudart registers each unit's relocatable fatbin; the driver links their PTX.
#define CTEST_NAME "separate_compilation"
#include "ctest.h"

#include <vector>

#include "rdc/separate_compilation.h"

// Same name as the library's own file-local helper: each unit must call its own.
static __device__ __noinline__ int local_helper(int x) { return x + 1000; }

__global__ void main_kernel(int *out, int n) {
  extern __shared__ int window[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  window[threadIdx.x] = i * 3;
  __syncthreads();
  if (i >= n) return;
  // lib_scale and g_bias come from the other unit; lib_neighbour reads this block's
  // dynamic shared memory through the other unit's extern __shared__ declaration.
  out[i] = lib_scale(i) + g_bias + local_helper(i) + lib_neighbour(threadIdx.x, blockDim.x);
  atomicAdd(&g_calls, 1);
}

int main() {
  const int n = 1000, threads = 128, blocks = ceil_div(n, threads);
  int bias = 11;
  CHECK(cudaMemcpyToSymbol(g_bias, &bias, sizeof bias));
  int *d_out = nullptr;
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  main_kernel<<<blocks, threads, threads * sizeof(int)>>>(d_out, n);
  CHECK_LAUNCH();
  std::vector<int> out(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int t = i % threads, block_base = i - t;
    int neighbour = 3 * (block_base + (t + 1) % threads);
    int want = (5 * i - 2) + bias + (i + 1000) + neighbour;
    EXPECT(out[i] == want, "main_kernel out[%d] = %d, want %d", i, out[i], want);
  }
  int calls = 0;
  CHECK(cudaMemcpyFromSymbol(&calls, g_calls, sizeof calls));
  EXPECT(calls == n, "g_calls = %d, want %d", calls, n);

  // A kernel defined in the other unit, launched from this one.
  lib_kernel<<<blocks, threads>>>(d_out, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int want = (5 * i - 2) + (i * 7 - 3);
    EXPECT(out[i] == want, "lib_kernel out[%d] = %d, want %d", i, out[i], want);
  }

  // The third unit's static kernel, launched by its own host code.
  CHECK(launch_unit3(d_out, n));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    EXPECT(out[i] == 42 - i, "unit 3 out[%d] = %d, want %d", i, out[i], 42 - i);
  }

  // The PTX version is the architecture the units were compiled for (compute_80), not
  // the device's: CUB and Thrust pick their tuning policy by it.
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, main_kernel));
  EXPECT(attr.ptxVersion == 80, "main_kernel ptxVersion = %d, want 80", attr.ptxVersion);
  CHECK(cudaFree(d_out));
  return ctest_finish();
}
