// No heap allocation per kernel launch in steady state (issue 4), seen from an unmodified
// CUDA program: this program replaces malloc and friends for the whole process (the
// executable's definitions come first in symbol lookup, for libcudart.so and our
// libcuda.so.1 too) and counts the calls. After a warm-up (module load, JIT, stream
// threads, first-use scratch), a pass of launches through the runtime (synchronous, on a
// created stream, with a 1 KiB parameter block, with events) must allocate nothing in
// cudart or the driver; the results are checked against host sums.
#define CTEST_NAME "launch_allocations"
#include "ctest.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <cerrno>
#include <cstdlib>

static std::atomic<long> allocations{0};

// Host compilation only: CUDA declares malloc/free __host__ __device__, and device code
// keeps the device heap's.
#ifndef __CUDA_ARCH__
extern "C" {
void *__libc_malloc(size_t) noexcept;
void *__libc_calloc(size_t, size_t) noexcept;
void *__libc_realloc(void *, size_t) noexcept;
void *__libc_memalign(size_t, size_t) noexcept;
}

extern "C" void *malloc(size_t n) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
extern "C" void *calloc(size_t a, size_t b) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(a, b);
}
extern "C" void *realloc(void *p, size_t n) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, n);
}
extern "C" void *memalign(size_t align, size_t n) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(align, n);
}
extern "C" void *aligned_alloc(size_t align, size_t n) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(align, n);
}
extern "C" int posix_memalign(void **out, size_t align, size_t n) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  *out = __libc_memalign(align, n);
  return *out ? 0 : ENOMEM;
}
#endif

struct Blob {
  int w[250];
};

constexpr int kThreads = 256, kBlocks = 4, kN = kThreads * kBlocks;

__global__ void add(int *p, int v) { p[blockIdx.x * blockDim.x + threadIdx.x] += v; }

__global__ void add_blob(int *p, Blob b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] += b.w[i % 250];
}

// Reverses each block's values through shared memory (a kernel with a barrier).
__global__ void add_reversed(int *p, int v) {
  __shared__ int s[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = v + i;
  __syncthreads();
  p[i] += s[blockDim.x - 1 - threadIdx.x];
}

// One iteration: `expected` follows what the kernels add.
static void iteration(int *d, cudaStream_t s, cudaEvent_t ev[2], Blob &b, int round, long *expected) {
  add<<<kBlocks, kThreads>>>(d, round);
  CHECK(cudaDeviceSynchronize());
  for (int j = 0; j < 250; j++) b.w[j] = round * 3 + j;
  CHECK(cudaEventRecord(ev[0], s));
  add_blob<<<kBlocks, kThreads, 0, s>>>(d, b);
  add_reversed<<<kBlocks, kThreads, 0, s>>>(d, round);
  CHECK(cudaEventRecord(ev[1], s));
  CHECK(cudaStreamSynchronize(s));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
  EXPECT(ms >= 0, "elapsed time %f", ms);
  for (int i = 0; i < kN; i++) {
    int block = i / kThreads, t = i % kThreads;
    long mirrored = (long)block * kThreads + (kThreads - 1 - t);
    expected[i] += round + (round * 3 + i % 250) + (round + mirrored);
  }
}

int main() {
  // The CPU device compiles a block-shape variant of a kernel once its generic launches
  // have taken long enough (a one-time compile at a launch that depends on timing); with
  // `always` the variants compile at the first launches, inside the warm-up, so what is
  // measured is the steady state with them. Other drivers ignore the variable.
  setenv("CUDA_CPU_SPECIALIZE", "always", 1);
  int *d;
  CHECK(cudaMalloc(&d, kN * sizeof(int)));
  CHECK(cudaMemset(d, 0, kN * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaEvent_t ev[2];
  CHECK(cudaEventCreate(&ev[0]));
  CHECK(cudaEventCreate(&ev[1]));
  static long expected[kN];
  Blob b = {};
  const int kWarmup = 50, kMeasured = 1000;
  for (int r = 0; r < kWarmup; r++) iteration(d, s, ev, b, r, expected);
  // Threads the warm-up started (stream workers) allocate while they start up, which on
  // a loaded machine can be well after they were created.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  long before = allocations.load();
  for (int r = kWarmup; r < kWarmup + kMeasured; r++) iteration(d, s, ev, b, r, expected);
  long during = allocations.load() - before;
  EXPECT(during == 0, "%ld heap allocations during %d steady-state launches", during, 3 * kMeasured);
  static int got[kN];
  CHECK(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; i++) EXPECT(got[i] == (int)expected[i], "element %d: %d, expected %d", i, got[i], (int)expected[i]);
  return ctest_finish();
}
