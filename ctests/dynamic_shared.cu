// extern __shared__ memory sized at launch time: per-block reversal with
// several block sizes, and one dynamic buffer split into arrays of different
// types (ints, then 8-byte aligned doubles) to compute a per-block weighted
// sum.
#define CTEST_NAME "dynamic_shared"
#include "ctest.h"

#include <vector>

// Reverse each block-sized segment of `data` in place (last segment partial).
__global__ void reverse_segments(int *data, int n) {
  extern __shared__ int buf[];
  int base = blockIdx.x * blockDim.x;
  int len = min((int)blockDim.x, n - base);
  int t = threadIdx.x;
  if (t < len) buf[t] = data[base + t];
  __syncthreads();
  if (t < len) data[base + t] = buf[len - 1 - t];
}

// Shared layout: int keys[blockDim.x], then (8-aligned) double vals[blockDim.x].
__global__ void weighted_sums(const int *keys, const double *vals, double *out, int n) {
  extern __shared__ unsigned char raw[];
  int *skeys = reinterpret_cast<int *>(raw);
  size_t off = ((blockDim.x * sizeof(int)) + 7) & ~(size_t)7;
  double *svals = reinterpret_cast<double *>(raw + off);
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  skeys[t] = i < n ? keys[i] : 0;
  svals[t] = i < n ? vals[i] : 0.0;
  __syncthreads();
  if (t == 0) {
    double s = 0;
    for (unsigned k = 0; k < blockDim.x; k++) s += (double)skeys[k] * svals[k];
    out[blockIdx.x] = s;
  }
}

int main() {
  const int n = 100003;
  std::vector<int> data(n);
  for (int i = 0; i < n; i++) data[i] = i * 7 - 12345;
  int *dd;
  CHECK(cudaMalloc(&dd, n * sizeof(int)));
  const int sizes[] = {64, 200, 1000, 1024, 33};
  for (int bs : sizes) {
    CHECK(cudaMemcpy(dd, data.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    reverse_segments<<<ceil_div(n, bs), bs, bs * sizeof(int)>>>(dd, n);
    CHECK_LAUNCH();
    std::vector<int> got(n);
    CHECK(cudaMemcpy(got.data(), dd, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int base = 0; base < n; base += bs) {
      int len = n - base < bs ? n - base : bs;
      for (int t = 0; t < len; t++)
        EXPECT(got[base + t] == data[base + len - 1 - t], "block size %d: data[%d] = %d, want %d", bs,
               base + t, got[base + t], data[base + len - 1 - t]);
    }
  }
  CHECK(cudaFree(dd));

  const int m = 30001;
  std::vector<int> keys(m);
  std::vector<double> vals(m);
  for (int i = 0; i < m; i++) {
    keys[i] = (i * 31) % 17 - 8;
    vals[i] = 0.25 * (i % 1000) - 3.0;
  }
  int *dk;
  double *dv, *dout;
  CHECK(cudaMalloc(&dk, m * sizeof(int)));
  CHECK(cudaMalloc(&dv, m * sizeof(double)));
  CHECK(cudaMemcpy(dk, keys.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, vals.data(), m * sizeof(double), cudaMemcpyHostToDevice));
  const int bss[] = {96, 257, 512};
  for (int bs : bss) {
    int blocks = ceil_div(m, bs);
    size_t shmem = ((bs * sizeof(int) + 7) & ~(size_t)7) + bs * sizeof(double);
    CHECK(cudaMalloc(&dout, blocks * sizeof(double)));
    weighted_sums<<<blocks, bs, shmem>>>(dk, dv, dout, m);
    CHECK_LAUNCH();
    std::vector<double> got(blocks);
    CHECK(cudaMemcpy(got.data(), dout, blocks * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dout));
    for (int b = 0; b < blocks; b++) {
      // All terms are multiples of 0.25 well below 2^50: the sum is exact in any order.
      double want = 0;
      for (int i = b * bs; i < m && i < (b + 1) * bs; i++) want += (double)keys[i] * vals[i];
      EXPECT(got[b] == want, "block size %d: weighted sum of block %d = %.17g, want %.17g", bs, b,
             got[b], want);
    }
  }
  CHECK(cudaFree(dk));
  CHECK(cudaFree(dv));
  return ctest_finish();
}
