// Shared-memory tree reduction with __syncthreads: each block sums its slice
// of ints (1024 threads per block, and a 128-thread instantiation), the host
// checks every per-block sum and the grand total.
#define CTEST_NAME "block_reduce"
#include "ctest.h"

#include <vector>

template <int BLOCK>
__global__ void block_sum(const int *in, long long *block_sums, int n) {
  __shared__ long long partial[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  partial[tid] = (i < n) ? in[i] : 0;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = partial[0];
}

template <int BLOCK>
static void run(const std::vector<int> &in) {
  int n = (int)in.size();
  int blocks = ceil_div(n, BLOCK);
  int *din;
  long long *dsums;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dsums, blocks * sizeof(long long)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  block_sum<BLOCK><<<blocks, BLOCK>>>(din, dsums, n);
  CHECK_LAUNCH();
  std::vector<long long> sums(blocks);
  CHECK(cudaMemcpy(sums.data(), dsums, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dsums));

  long long total = 0, want_total = 0;
  for (int b = 0; b < blocks; b++) {
    long long want = 0;
    for (int i = b * BLOCK; i < n && i < (b + 1) * BLOCK; i++) want += in[i];
    EXPECT(sums[b] == want, "block %d of %d (BLOCK=%d): sum %lld, want %lld", b, blocks, BLOCK,
           sums[b], want);
    total += sums[b];
  }
  for (int v : in) want_total += v;
  EXPECT(total == want_total, "BLOCK=%d total %lld, want %lld", BLOCK, total, want_total);
  printf("block_reduce: BLOCK=%d n=%d blocks=%d total=%lld\n", BLOCK, n, blocks, total);
}

int main() {
  const int n = (1 << 20) + 12345;
  std::vector<int> in(n);
  CtestRng rng(7);
  for (int i = 0; i < n; i++) in[i] = (int)(rng.next32() >> 1) - (1 << 30);  // large, both signs
  run<1024>(in);
  std::vector<int> small(10000);
  for (int i = 0; i < (int)small.size(); i++) small[i] = (i * 7) % 1001 - 500;
  run<128>(small);
  return ctest_finish();
}
