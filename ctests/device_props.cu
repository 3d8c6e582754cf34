// cudaGetDeviceCount / cudaGetDeviceProperties report a sane CUDA device,
// and the limits they report are usable: a launch at maxThreadsPerBlock works.
// (Not built for the cu12 variants: cudaDeviceProp's layout differs between
// the CUDA 13 headers and CUDA 12's libcudart.so.12.)
#define CTEST_NAME "device_props"
#include "ctest.h"

#include <vector>

__global__ void count_threads(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  EXPECT(count >= 1, "cudaGetDeviceCount = %d", count);
  cudaDeviceProp p;
  memset(&p, 0, sizeof(p));
  CHECK(cudaGetDeviceProperties(&p, 0));
  printf("device_props: \"%s\" sm_%d%d, %d SMs, %zu MiB, %zu bytes shared/block, %d threads/block\n",
         p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem >> 20, p.sharedMemPerBlock,
         p.maxThreadsPerBlock);
  EXPECT(p.name[0] != '\0', "empty device name");
  EXPECT(p.major >= 5, "compute capability %d.%d", p.major, p.minor);
  EXPECT(p.warpSize == 32, "warpSize = %d", p.warpSize);
  EXPECT(p.maxThreadsPerBlock == 1024, "maxThreadsPerBlock = %d", p.maxThreadsPerBlock);
  EXPECT(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[1] == 1024 && p.maxThreadsDim[2] == 64,
         "maxThreadsDim = %d %d %d", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  EXPECT(p.maxGridSize[0] == 2147483647 && p.maxGridSize[1] == 65535 && p.maxGridSize[2] == 65535,
         "maxGridSize = %d %d %d", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  EXPECT(p.sharedMemPerBlock >= 48 * 1024, "sharedMemPerBlock = %zu", p.sharedMemPerBlock);
  EXPECT(p.totalGlobalMem >= ((size_t)1 << 30), "totalGlobalMem = %zu", p.totalGlobalMem);
  EXPECT(p.multiProcessorCount >= 1, "multiProcessorCount = %d", p.multiProcessorCount);
  EXPECT(p.regsPerBlock > 0, "regsPerBlock = %d", p.regsPerBlock);
  EXPECT(p.totalConstMem >= 64 * 1024, "totalConstMem = %zu", p.totalConstMem);

  int bs = p.maxThreadsPerBlock > 0 && p.maxThreadsPerBlock <= 1024 ? p.maxThreadsPerBlock : 1024;
  int *d;
  CHECK(cudaMalloc(&d, 2 * bs * sizeof(int)));
  count_threads<<<2, bs>>>(d);
  CHECK_LAUNCH();
  std::vector<int> h(2 * bs);
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  for (int i = 0; i < 2 * bs; i++) EXPECT(h[i] == i % bs, "out[%d] = %d", i, h[i]);
  return ctest_finish();
}
