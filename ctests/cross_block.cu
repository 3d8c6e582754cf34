// Blocks that wait on each other through global memory: a threadfence reduction (the
// last block to finish sums every block's partial) and a decoupled look-back scan (each
// block spins until its predecessor publishes an inclusive prefix). Both rely on blocks
// starting in order and on atomics and fences working across the threads that run them.
#define CTEST_NAME "cross_block"
#include "ctest.h"

#include <vector>

__device__ unsigned int finished_blocks = 0;

__global__ void threadfence_sum(const int *in, long long *partials, long long *total, int n) {
  __shared__ long long s[256];
  int t = threadIdx.x;
  long long acc = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) acc += in[i];
  s[t] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  __shared__ bool last;
  if (t == 0) {
    partials[blockIdx.x] = s[0];
    __threadfence();
    unsigned int done = atomicInc(&finished_blocks, gridDim.x - 1);  // wraps to 0 for the next launch
    last = (done == gridDim.x - 1);
  }
  __syncthreads();
  if (last && t == 0) {
    long long sum = 0;
    for (int b = 0; b < gridDim.x; b++) sum += ((volatile long long *)partials)[b];
    *total = sum;
  }
}

// flags[b]: 0 = nothing yet, 1 = aggregate of block b available, 2 = inclusive prefix.
__global__ void lookback_scan(const int *in, long long *out, long long *aggregates, long long *prefixes,
                              int *flags, int n) {
  __shared__ long long s[256];
  __shared__ long long exclusive;
  int t = threadIdx.x, b = blockIdx.x, i = b * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    long long v = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (t == 0) {
    long long agg = s[blockDim.x - 1];
    if (b == 0) {
      prefixes[0] = agg;
      __threadfence();
      atomicExch(&flags[0], 2);
      exclusive = 0;
    } else {
      aggregates[b] = agg;
      __threadfence();
      atomicExch(&flags[b], 1);
      long long excl = 0;
      int p = b - 1;
      while (true) {
        int f = atomicAdd(&flags[p], 0);
        if (f == 0) continue;  // spin until the predecessor publishes something
        __threadfence();
        if (f == 2) {
          excl += ((volatile long long *)prefixes)[p];
          break;
        }
        excl += ((volatile long long *)aggregates)[p];
        p--;
      }
      prefixes[b] = excl + agg;
      __threadfence();
      atomicExch(&flags[b], 2);
      exclusive = excl;
    }
  }
  __syncthreads();
  if (i < n) out[i] = exclusive + s[t];
}

int main() {
  const int n = 1 << 20, block = 256;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++) in[i] = (int)((i * 2654435761u) >> 20) - 2048;
  int *din;
  long long *dpartials, *dtotal, *dout, *dagg, *dpre;
  int *dflags;
  int blocks = (n + block - 1) / block;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dpartials, 64 * sizeof(long long)));
  CHECK(cudaMalloc(&dtotal, sizeof(long long)));
  CHECK(cudaMalloc(&dout, n * sizeof(long long)));
  CHECK(cudaMalloc(&dagg, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&dpre, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&dflags, blocks * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  long long want_total = 0;
  for (int v : in) want_total += v;
  for (int rep = 0; rep < 3; rep++) {
    CHECK(cudaMemset(dtotal, 0, sizeof(long long)));
    threadfence_sum<<<64, block>>>(din, dpartials, dtotal, n);
    CHECK_LAUNCH();
    long long total = 0;
    CHECK(cudaMemcpy(&total, dtotal, sizeof(long long), cudaMemcpyDeviceToHost));
    EXPECT(total == want_total, "threadfence sum rep %d: got %lld, want %lld", rep, total, want_total);
  }

  CHECK(cudaMemset(dflags, 0, blocks * sizeof(int)));
  lookback_scan<<<blocks, block>>>(din, dout, dagg, dpre, dflags, n);
  CHECK_LAUNCH();
  std::vector<long long> out(n);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(long long), cudaMemcpyDeviceToHost));
  long long run = 0;
  for (int i = 0; i < n; i++) {
    run += in[i];
    EXPECT(out[i] == run, "scan[%d]: got %lld, want %lld", i, out[i], run);
  }
  return ctest_finish();
}
