// CUDA dynamic parallelism (CUDA C++ Programming Guide, "CUDA Dynamic Parallelism", CDP2):
// kernels launching kernels. A child grid completes before its parent counts as complete,
// so the host sees every descendant's writes after one synchronize; tail launches run
// after the launching grid and all its other work; launch errors are reported per thread
// by the device-side cudaGetLastError.
#define CTEST_NAME "dynamic_parallelism"
#include "ctest.h"

#include <algorithm>
#include <vector>

// 1. Every thread of the parent launches its own child grid, which fills a slice.
__global__ void fill_child(int *out, int tag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tag * 1000 + i;
}
__global__ void fill_parent(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  fill_child<<<2, 16>>>(out + t * 32, t);
}

// 2. Nesting: each level records itself and launches the next, to depth `last`.
__global__ void nest(int *levels, int level, int last) {
  levels[level] = level * 11 + 1;
  if (level < last) nest<<<1, 1>>>(levels, level + 1, last);
  levels[16 + level] = cudaGetLastError();
}

// 3. Parameters of several types and sizes.
struct Mixed {
  int a;
  double b;
  char c;
};
__global__ void params_child(char c, short s, int i, long long ll, float f, double d, Mixed m, int *p, double *out) {
  out[0] = c;
  out[1] = s;
  out[2] = i;
  out[3] = (double)ll;
  out[4] = f;
  out[5] = d;
  out[6] = m.a;
  out[7] = m.b;
  out[8] = m.c;
  out[9] = *p;
}
__global__ void params_parent(int *p, double *out) {
  Mixed m = {-7, 2.5, 'z'};
  params_child<<<1, 1>>>('A', (short)-300, 123456, -9876543210LL, 1.25f, 3.0e100, m, p, out);
}

// 4. Children with static and dynamic shared memory: block sums of a segment.
__global__ void sum_child(const int *in, int *sums) {
  extern __shared__ int buf[];
  __shared__ int total;
  if (threadIdx.x == 0) total = 0;
  buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  atomicAdd(&total, buf[blockDim.x - 1 - threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}
__global__ void sum_parent(const int *in, int *sums, int blocks, int threads) {
  sum_child<<<blocks, threads, threads * sizeof(int)>>>(in, sums);
}

// 5. Fire-and-forget, tail launch, device streams, device malloc/memcpy/memset.
__global__ void store(int *p, int v) { *p = v; }
__global__ void tail_reader(int *x) { x[2] = x[0] * 100 + x[1]; }
__global__ void streams_parent(int *x, int *codes) {
  tail_reader<<<1, 1, 0, cudaStreamTailLaunch>>>(x);
  store<<<1, 1, 0, cudaStreamFireAndForget>>>(x, 42);
  cudaStream_t s;
  codes[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int *tmp = nullptr;
  codes[1] = cudaMalloc((void **)&tmp, 4 * sizeof(int));
  codes[2] = cudaMemsetAsync(tmp, 0, 4 * sizeof(int), s);
  store<<<1, 1, 0, s>>>(tmp + 1, 77);
  codes[3] = cudaMemcpyAsync(x + 3, tmp, 4 * sizeof(int), cudaMemcpyDeviceToDevice, s);
  codes[4] = cudaStreamDestroy(s);
  x[1] = 5;  // the tail launch sees this: it runs after its parent completes
  int dev = -1, max_threads = 0;
  codes[5] = cudaGetDevice(&dev);
  codes[6] = cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, dev);
  codes[7] = dev;
  codes[8] = max_threads;
}

// 6. A bad configuration fails the launch; the thread's error is read and reset. The
//    codes are those an H100 gave (driver 580).
__global__ void nothing() {}
__global__ void bad_launch(int *codes) {
  codes[0] = cudaGetLastError();
  nothing<<<1, 2048>>>();
  codes[1] = cudaPeekAtLastError();
  codes[2] = cudaGetLastError();
  codes[3] = cudaGetLastError();
  nothing<<<1, 32>>>();
  codes[4] = cudaGetLastError();
  nothing<<<dim3(1, 70000), 1>>>();
  codes[5] = cudaGetLastError();
  nothing<<<1, 32, 1 << 20>>>();
  codes[6] = cudaGetLastError();
  nothing<<<0, 32>>>();
  codes[7] = cudaGetLastError();
  cudaStream_t s;
  codes[8] = cudaStreamCreateWithFlags(&s, 0);
  codes[9] = cudaStreamDestroy(s);
}

// 7. Recursive quicksort (Lomuto partition per level, selection sort below a size or at
//    the depth limit).
__device__ void selection_sort(unsigned *a, int lo, int hi) {
  for (int i = lo; i <= hi; i++) {
    int m = i;
    for (int j = i + 1; j <= hi; j++)
      if (a[j] < a[m]) m = j;
    unsigned t = a[i];
    a[i] = a[m];
    a[m] = t;
  }
}
__global__ void quicksort(unsigned *a, int lo, int hi, int depth) {
  if (hi - lo < 16 || depth >= 20) {
    selection_sort(a, lo, hi);
    return;
  }
  unsigned pivot = a[hi];
  int store_at = lo;
  for (int i = lo; i < hi; i++) {
    if (a[i] < pivot) {
      unsigned t = a[i];
      a[i] = a[store_at];
      a[store_at] = t;
      store_at++;
    }
  }
  a[hi] = a[store_at];
  a[store_at] = pivot;
  cudaStream_t l, r;
  cudaStreamCreateWithFlags(&l, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&r, cudaStreamNonBlocking);
  if (lo < store_at - 1) quicksort<<<1, 1, 0, l>>>(a, lo, store_at - 1, depth + 1);
  if (store_at + 1 < hi) quicksort<<<1, 1, 0, r>>>(a, store_at + 1, hi, depth + 1);
  cudaStreamDestroy(l);
  cudaStreamDestroy(r);
}

// 8. The pending-launch limit: launches beyond it fail with
//    cudaErrorLaunchPendingCountExceeded; those that succeed run. How many fail depends on
//    how soon children complete (on a GPU, while the parent runs).
__global__ void count_child(unsigned *n) { atomicAdd(n, 1u); }
__global__ void flood(unsigned *n, int *codes, size_t *limit) {
  count_child<<<1, 1>>>(n);
  codes[threadIdx.x] = cudaGetLastError();
  if (threadIdx.x == 0) cudaDeviceGetLimit(limit, cudaLimitDevRuntimePendingLaunchCount);
}

// 9. An endless chain of launches: nesting is bounded by the pending-launch limit (an
//    H100's level 2048 failed, with the default 2048; CDP2 has no depth limit of 24).
__global__ void chain(int *failed, int level) {
  chain<<<1, 1>>>(failed, level + 1);
  int e = cudaGetLastError();
  if (e != cudaSuccess) {
    failed[0] = level;
    failed[1] = e;
  }
}

__device__ int copy_sink[16];
// Device-side copies from an address in the first page are refused when issued; an
// unmapped address elsewhere fails the launch (NVIDIA's H100: 1, then 700).
__global__ void bad_copy(const void *src, int *codes) {
  codes[0] = cudaMemcpyAsync(copy_sink, src, 64, cudaMemcpyDeviceToDevice, 0);
  codes[1] = cudaGetLastError();
  codes[2] = cudaMemsetAsync((void *)src, 1, 64, 0);
  codes[3] = cudaMemcpyAsync(copy_sink, src, 0, cudaMemcpyDeviceToDevice, 0);
}
__global__ void unmapped_copy(const void *src) { cudaMemcpyAsync(copy_sink, src, 64, cudaMemcpyDeviceToDevice, 0); }

int main() {
  // 1.
  const int kParents = 4 * 32, kFill = kParents * 32;
  int *fill;
  CHECK(cudaMalloc(&fill, kFill * sizeof(int)));
  CHECK(cudaMemset(fill, 0xff, kFill * sizeof(int)));
  fill_parent<<<4, 32>>>(fill);
  CHECK_LAUNCH();
  std::vector<int> h_fill(kFill);
  CHECK(cudaMemcpy(h_fill.data(), fill, kFill * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kFill; i++)
    EXPECT(h_fill[i] == (i / 32) * 1000 + i % 32, "fill[%d] = %d, want %d", i, h_fill[i], (i / 32) * 1000 + i % 32);

  // 2.
  const int kLast = 5;
  int *levels, h_levels[32];
  CHECK(cudaMalloc(&levels, sizeof(h_levels)));
  CHECK(cudaMemset(levels, 0xff, sizeof(h_levels)));
  nest<<<1, 1>>>(levels, 0, kLast);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_levels, levels, sizeof(h_levels), cudaMemcpyDeviceToHost));
  for (int l = 0; l <= kLast; l++) {
    EXPECT(h_levels[l] == l * 11 + 1, "level %d wrote %d, want %d", l, h_levels[l], l * 11 + 1);
    EXPECT(h_levels[16 + l] == cudaSuccess, "level %d: cudaGetLastError %d", l, h_levels[16 + l]);
  }
  EXPECT(h_levels[kLast + 1] == -1, "level %d ran", kLast + 1);

  // 3.
  int *pint;
  double *pout, h_pout[10];
  const int kPointee = 31337;
  CHECK(cudaMalloc(&pint, sizeof(int)));
  CHECK(cudaMalloc(&pout, sizeof(h_pout)));
  CHECK(cudaMemcpy(pint, &kPointee, sizeof(int), cudaMemcpyHostToDevice));
  params_parent<<<1, 1>>>(pint, pout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_pout, pout, sizeof(h_pout), cudaMemcpyDeviceToHost));
  const double want_params[10] = {'A', -300, 123456, -9876543210.0, 1.25, 3.0e100, -7, 2.5, 'z', kPointee};
  for (int k = 0; k < 10; k++) EXPECT(h_pout[k] == want_params[k], "parameter %d = %g, want %g", k, h_pout[k], want_params[k]);

  // 4.
  const int kBlocks = 8, kThreads = 96, kIn = kBlocks * kThreads;
  std::vector<int> h_in(kIn);
  CtestRng rng(7);
  for (int &v : h_in) v = (int)rng.range(-500, 499);
  int *in, *sums, h_sums[kBlocks];
  CHECK(cudaMalloc(&in, kIn * sizeof(int)));
  CHECK(cudaMalloc(&sums, sizeof(h_sums)));
  CHECK(cudaMemcpy(in, h_in.data(), kIn * sizeof(int), cudaMemcpyHostToDevice));
  sum_parent<<<1, 1>>>(in, sums, kBlocks, kThreads);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_sums, sums, sizeof(h_sums), cudaMemcpyDeviceToHost));
  for (int b = 0; b < kBlocks; b++) {
    int want = 0;
    for (int t = 0; t < kThreads; t++) want += h_in[b * kThreads + t];
    EXPECT(h_sums[b] == want, "block sum %d = %d, want %d", b, h_sums[b], want);
  }

  // 5.
  int *x, h_x[8], *codes, h_codes[16];
  CHECK(cudaMalloc(&x, sizeof(h_x)));
  CHECK(cudaMalloc(&codes, sizeof(h_codes)));
  CHECK(cudaMemset(x, 0, sizeof(h_x)));
  streams_parent<<<1, 1>>>(x, codes);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_x, x, sizeof(h_x), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_codes, codes, sizeof(h_codes), cudaMemcpyDeviceToHost));
  int host_max_threads = 0;
  CHECK(cudaDeviceGetAttribute(&host_max_threads, cudaDevAttrMaxThreadsPerBlock, 0));
  for (int k = 0; k < 7; k++) EXPECT(h_codes[k] == cudaSuccess, "device runtime call %d: error %d", k, h_codes[k]);
  EXPECT(h_codes[7] == 0, "device cudaGetDevice = %d, want 0", h_codes[7]);
  EXPECT(h_codes[8] == host_max_threads, "device max threads per block %d, host says %d", h_codes[8], host_max_threads);
  const int want_x[7] = {42, 5, 4205, 0, 77, 0, 0};
  for (int k = 0; k < 7; k++) EXPECT(h_x[k] == want_x[k], "x[%d] = %d, want %d", k, h_x[k], want_x[k]);

  // 6.
  CHECK(cudaMemset(codes, 0xff, sizeof(h_codes)));
  bad_launch<<<1, 1>>>(codes);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_codes, codes, sizeof(h_codes), cudaMemcpyDeviceToHost));
  const int want_codes[10] = {cudaSuccess, cudaErrorInvalidConfiguration, cudaErrorInvalidConfiguration, cudaSuccess, cudaSuccess,
                              cudaErrorInvalidConfiguration, cudaErrorInvalidConfiguration, cudaErrorInvalidConfiguration, cudaSuccess, cudaSuccess};
  for (int k = 0; k < 10; k++) EXPECT(h_codes[k] == want_codes[k], "bad launch code %d = %d, want %d", k, h_codes[k], want_codes[k]);

  // 7.
  const int kSort = 5000;
  std::vector<unsigned> h_a(kSort);
  for (unsigned &v : h_a) v = (unsigned)rng.range(0, 99999);
  unsigned *a;
  CHECK(cudaMalloc(&a, kSort * sizeof(unsigned)));
  CHECK(cudaMemcpy(a, h_a.data(), kSort * sizeof(unsigned), cudaMemcpyHostToDevice));
  quicksort<<<1, 1>>>(a, 0, kSort - 1, 0);
  CHECK_LAUNCH();
  std::vector<unsigned> sorted(kSort);
  CHECK(cudaMemcpy(sorted.data(), a, kSort * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::sort(h_a.begin(), h_a.end());
  for (int i = 0; i < kSort; i++) EXPECT(sorted[i] == h_a[i], "sorted[%d] = %u, want %u", i, sorted[i], h_a[i]);

  // 8.
  const int kFlood = 64, kLimit = 32;
  unsigned *n, h_n = 0;
  size_t *limit, h_limit = 0;
  CHECK(cudaMalloc(&n, sizeof(unsigned)));
  CHECK(cudaMalloc(&limit, sizeof(size_t)));
  CHECK(cudaMemset(n, 0, sizeof(unsigned)));
  CHECK(cudaMemset(codes, 0xff, sizeof(h_codes)));
  int *flood_codes;
  CHECK(cudaMalloc(&flood_codes, kFlood * sizeof(int)));
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, kLimit));
  flood<<<1, kFlood>>>(n, flood_codes, limit);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 2048));
  int h_flood[kFlood], ok = 0;
  CHECK(cudaMemcpy(h_flood, flood_codes, sizeof(h_flood), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h_n, n, sizeof(h_n), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h_limit, limit, sizeof(h_limit), cudaMemcpyDeviceToHost));
  for (int k = 0; k < kFlood; k++) {
    EXPECT(h_flood[k] == cudaSuccess || h_flood[k] == cudaErrorLaunchPendingCountExceeded, "flood launch %d: error %d", k, h_flood[k]);
    ok += h_flood[k] == cudaSuccess;
  }
  EXPECT(ok >= kLimit, "%d launches succeeded, want at least %d", ok, kLimit);
  EXPECT((int)h_n == ok, "%u children ran, %d launches succeeded", h_n, ok);
  EXPECT(h_limit == (size_t)kLimit, "device cudaDeviceGetLimit = %zu, want %d", h_limit, kLimit);

  // 9.
  int *failed, h_failed[2];
  CHECK(cudaMalloc(&failed, sizeof(h_failed)));
  CHECK(cudaMemset(failed, 0, sizeof(h_failed)));
  chain<<<1, 1>>>(failed, 0);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_failed, failed, sizeof(h_failed), cudaMemcpyDeviceToHost));
  EXPECT(h_failed[0] == 2048 && h_failed[1] == cudaErrorLaunchPendingCountExceeded, "chain failed at level %d with %d, want 2048 with %d",
         h_failed[0], h_failed[1], (int)cudaErrorLaunchPendingCountExceeded);

  CHECK(cudaFree(failed));
  CHECK(cudaFree(fill));
  CHECK(cudaFree(levels));
  CHECK(cudaFree(pint));
  CHECK(cudaFree(pout));
  CHECK(cudaFree(in));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(x));
  CHECK(cudaFree(codes));
  CHECK(cudaFree(a));
  CHECK(cudaFree(n));
  CHECK(cudaFree(limit));
  CHECK(cudaFree(flood_codes));

  // 10. Device-side copies from bad addresses: refused at once for the first page; an
  // unmapped address ends the launch with an illegal-address error (sticky: the last case).
  int *codes10, h_codes10[4];
  CHECK(cudaMalloc(&codes10, sizeof(h_codes10)));
  bad_copy<<<1, 1>>>((const void *)0x10, codes10);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_codes10, codes10, sizeof(h_codes10), cudaMemcpyDeviceToHost));
  const int want10[4] = {cudaErrorInvalidValue, cudaErrorInvalidValue, cudaErrorInvalidValue, cudaSuccess};
  for (int k = 0; k < 4; k++) EXPECT(h_codes10[k] == want10[k], "bad device-side copy call %d: %d, want %d", k, h_codes10[k], want10[k]);
  CHECK(cudaFree(codes10));
  unmapped_copy<<<1, 1>>>((const void *)0x700000000000ull);
  cudaError_t bad = cudaDeviceSynchronize();
  EXPECT(bad == cudaErrorIllegalAddress, "device-side copy from an unmapped address: %d (%s), want %d", (int)bad, cudaGetErrorName(bad),
         (int)cudaErrorIllegalAddress);
  return ctest_finish();
}
