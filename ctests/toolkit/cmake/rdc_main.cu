// A kernel calling a device function of a static library, linked by CMake's separable
// compilation (nvcc -dc, then nvcc -dlink over the objects and the archive).
#include <cstdio>

extern __device__ int scaled(int x, int k);

__global__ void apply(int *out, int k) { out[threadIdx.x] = scaled((int)threadIdx.x, k); }

int main() {
  int *out = nullptr;
  if (cudaMallocManaged(&out, 64 * sizeof(int)) != cudaSuccess) return 1;
  apply<<<1, 64>>>(out, 3);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  for (int i = 0; i < 64; ++i) {
    if (out[i] != 3 * i + 1) {
      std::printf("FAIL out[%d] = %d, want %d\n", i, out[i], 3 * i + 1);
      return 1;
    }
  }
  std::printf("PASS toolkit_cmake_rdc\n");
  return 0;
}
