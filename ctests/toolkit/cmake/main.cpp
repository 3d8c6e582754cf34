// Host code built by the host compiler, linked with device code built by nvcc (CMake).
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "kernels.h"

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
    std::printf("FAIL no device\n");
    return 1;
  }
  const std::size_t n = 10000;
  std::vector<float> in(n), out(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = 0.25f * (float)(i % 97) - 3.0f;
  if (int rc = square_scale(in.data(), out.data(), n, 1.5f, 0.5f)) {
    std::printf("FAIL square_scale returned %d\n", rc);
    return 1;
  }
  for (std::size_t i = 0; i < n; ++i) {
    float want = 1.5f * in[i] * in[i] + 0.5f;
    if (out[i] != want) {
      std::printf("FAIL out[%zu] = %g, want %g\n", i, out[i], want);
      return 1;
    }
  }
  std::vector<int> values(123457);
  long long want_sum = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = (int)((i * 2654435761u) % 2001) - 1000;
    want_sum += values[i];
  }
  long long sum = 0;
  if (int rc = device_sum(values.data(), values.size(), &sum)) {
    std::printf("FAIL device_sum returned %d\n", rc);
    return 1;
  }
  if (sum != want_sum) {
    std::printf("FAIL sum %lld, want %lld\n", sum, want_sum);
    return 1;
  }
  int block = suggested_block_size();
  if (block <= 0 || block > 1024 || block % 32 != 0) {
    std::printf("FAIL suggested block size %d\n", block);
    return 1;
  }
  std::printf("PASS toolkit_cmake\n");
  return 0;
}
