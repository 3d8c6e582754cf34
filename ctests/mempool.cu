// Stream-ordered allocation and memory pools: cudaMallocAsync / cudaFreeAsync pipelines on
// several streams with no device-wide synchronization between iterations (results
// checked); a block freed on a stream is reused at once by the next allocation on that
// stream, by another stream after cudaStreamWaitEvent, and not by a stream without a
// dependency while the free is pending; pool attributes (release threshold, reserved and
// used memory with their high watermarks), cudaMemPoolTrimTo, created pools
// (cudaMallocFromPoolAsync, cudaDeviceSetMemPool, cudaMemPoolDestroy), access, and misuse
// codes as NVIDIA's driver answers them.
//
// Pending work is a "gate" kernel spinning on a flag in mapped pinned memory until the
// host sets it; a watchdog opens a gate still closed after 10 s, so a missing behaviour is
// a failed check, not a hang.
#define CTEST_NAME "mempool"
#include "ctest.h"

#include <atomic>
#include <chrono>
#include <thread>

__global__ void gate(volatile int *flag) {
  while (*flag == 0) {
  }
}

// x[i] = i * 3 + seed.
__global__ void fill(int *x, int n, int seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = i * 3 + seed;
}

// y[i] = x[i] * 2 + 1.
__global__ void twice_plus_one(const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2 + 1;
}

static void expect_code(cudaError_t got, cudaError_t want, const char *what) {
  EXPECT(got == want, "%s: got %d (%s), want %d (%s)", what, (int)got, cudaGetErrorName(got), (int)want,
         cudaGetErrorName(want));
  cudaGetLastError();
}

static unsigned long long attr64(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  unsigned long long v = 0;
  CHECK(cudaMemPoolGetAttribute(pool, attr, &v));
  return v;
}

// A gate in mapped pinned memory, opened by the host or by the watchdog after 10 s.
struct Gate {
  volatile int *flag;
  std::atomic<bool> done{false};
  std::thread watchdog;
  Gate() {
    CHECK(cudaHostAlloc((void **)&flag, sizeof(int), cudaHostAllocMapped));
    *flag = 0;
    watchdog = std::thread([this] {
      for (int i = 0; i < 1000 && !done.load(); i++) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (!done.load()) {
        printf("watchdog: opening a gate left closed\n");
        *flag = 1;
      }
    });
  }
  void close_on(cudaStream_t s) {
    int *dev = nullptr;
    CHECK(cudaHostGetDevicePointer((void **)&dev, (void *)flag, 0));
    gate<<<1, 1, 0, s>>>(dev);
    CHECK(cudaGetLastError());
  }
  void open() {
    *flag = 1;
    done.store(true);
    watchdog.join();
  }
};

// Several streams each allocate, compute, copy back and free per iteration, with no
// synchronization until the end: memory is reused in stream order.
static void pipelines() {
  printf("pipelines\n");
  const int streams = 4, iterations = 8, n = 4096;
  cudaStream_t s[streams];
  int *host;
  CHECK(cudaMallocHost((void **)&host, sizeof(int) * n * streams * iterations));
  for (int k = 0; k < streams; k++) CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
  for (int it = 0; it < iterations; it++) {
    for (int k = 0; k < streams; k++) {
      int *x, *y;
      CHECK(cudaMallocAsync((void **)&x, n * sizeof(int), s[k]));
      CHECK(cudaMallocAsync((void **)&y, n * sizeof(int), s[k]));
      fill<<<(n + 255) / 256, 256, 0, s[k]>>>(x, n, 1000 * k + it);
      twice_plus_one<<<(n + 255) / 256, 256, 0, s[k]>>>(x, y, n);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpyAsync(host + (size_t)(it * streams + k) * n, y, n * sizeof(int), cudaMemcpyDeviceToHost, s[k]));
      CHECK(cudaFreeAsync(x, s[k]));
      CHECK(cudaFreeAsync(y, s[k]));
    }
  }
  for (int k = 0; k < streams; k++) CHECK(cudaStreamSynchronize(s[k]));
  for (int it = 0; it < iterations; it++)
    for (int k = 0; k < streams; k++)
      for (int i = 0; i < n; i++) {
        int got = host[(size_t)(it * streams + k) * n + i], want = (i * 3 + 1000 * k + it) * 2 + 1;
        EXPECT(got == want, "stream %d iteration %d element %d: %d, want %d", k, it, i, got, want);
      }
  for (int k = 0; k < streams; k++) CHECK(cudaStreamDestroy(s[k]));
  CHECK(cudaFreeHost(host));
}

// Which streams may reuse a block freed while its stream is still busy (blocks of a whole
// 32 MiB chunk, internal dependencies off: the cases measured on NVIDIA's driver).
static void reuse_in_stream_order(cudaMemPool_t pool) {
  printf("reuse in stream order\n");
  const int n = 1 << 23;  // 32 MiB
  int off = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &off));
  cudaStream_t s1, s2, s3;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
  int *host;
  CHECK(cudaMallocHost((void **)&host, 2 * n * sizeof(int)));
  Gate g;
  g.close_on(s1);
  int *a, *b, *c, *d;
  CHECK(cudaMallocFromPoolAsync((void **)&a, n * sizeof(int), pool, s1));
  fill<<<(n + 255) / 256, 256, 0, s1>>>(a, n, 7);
  CHECK(cudaMemcpyAsync(host, a, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaFreeAsync(a, s1));
  // The same stream: the block is reusable before the free has run.
  CHECK(cudaMallocFromPoolAsync((void **)&b, n * sizeof(int), pool, s1));
  EXPECT(b == a, "same stream: %p, want the freed %p", (void *)b, (void *)a);
  fill<<<(n + 255) / 256, 256, 0, s1>>>(b, n, 9);
  CHECK(cudaFreeAsync(b, s1));
  // Another stream with no dependency on the free: other memory.
  CHECK(cudaMallocFromPoolAsync((void **)&c, n * sizeof(int), pool, s3));
  EXPECT(c != a, "unordered stream got the block freed on a busy stream");
  // A stream that waits for the free through an event: the same block.
  cudaEvent_t e;
  CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  CHECK(cudaEventRecord(e, s1));
  CHECK(cudaStreamWaitEvent(s2, e, 0));
  CHECK(cudaMallocFromPoolAsync((void **)&d, n * sizeof(int), pool, s2));
  EXPECT(d == a, "event-ordered stream: %p, want the freed %p", (void *)d, (void *)a);
  twice_plus_one<<<(n + 255) / 256, 256, 0, s2>>>(d, d, n);  // after s1's fill(9)
  CHECK(cudaMemcpyAsync(host + n, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
  CHECK(cudaFreeAsync(d, s2));
  CHECK(cudaFreeAsync(c, s3));
  expect_code(cudaStreamQuery(s2), cudaErrorNotReady, "s2 waits for s1's gate");
  g.open();
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaStreamSynchronize(s3));
  for (int i = 0; i < n; i++) {
    EXPECT(host[i] == i * 3 + 7, "first user: element %d = %d", i, host[i]);
    EXPECT(host[n + i] == (i * 3 + 9) * 2 + 1, "event-ordered user: element %d = %d", i, host[n + i]);
  }
  CHECK(cudaEventDestroy(e));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaStreamDestroy(s3));
  CHECK(cudaFreeHost(host));
}

static void attributes_and_trimming(cudaMemPool_t pool) {
  printf("attributes and trimming\n");
  const unsigned long long MiB = 1ull << 20;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int reuse = -1;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &reuse));
  EXPECT(reuse == 1, "follow event dependencies: %d", reuse);
  EXPECT(attr64(pool, cudaMemPoolAttrReleaseThreshold) == 0, "default release threshold");
  void *p[4];
  for (int i = 0; i < 4; i++) CHECK(cudaMallocFromPoolAsync(&p[i], 1000, pool, s));
  EXPECT(attr64(pool, cudaMemPoolAttrUsedMemCurrent) == 4000, "used: %llu", attr64(pool, cudaMemPoolAttrUsedMemCurrent));
  unsigned long long reserved = attr64(pool, cudaMemPoolAttrReservedMemCurrent);
  EXPECT(reserved >= 4000, "reserved: %llu", reserved);
  EXPECT((uintptr_t)p[1] - (uintptr_t)p[0] == 1024, "packed: %p then %p", p[0], p[1]);
  for (int i = 0; i < 4; i++) CHECK(cudaFreeAsync(p[i], s));
  EXPECT(attr64(pool, cudaMemPoolAttrUsedMemCurrent) == 0, "used after the frees");
  EXPECT(attr64(pool, cudaMemPoolAttrUsedMemHigh) == 4000, "used high: %llu", attr64(pool, cudaMemPoolAttrUsedMemHigh));
  // Threshold 0: the next synchronization gives the memory back.
  CHECK(cudaStreamSynchronize(s));
  EXPECT(attr64(pool, cudaMemPoolAttrReservedMemCurrent) == 0, "reserved after synchronizing: %llu",
         attr64(pool, cudaMemPoolAttrReservedMemCurrent));
  EXPECT(attr64(pool, cudaMemPoolAttrReservedMemHigh) == reserved, "reserved high");
  unsigned long long zero = 0, max = ~0ull, five = 5;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  EXPECT(attr64(pool, cudaMemPoolAttrUsedMemHigh) == 0, "used high after reset");
  expect_code(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &five), cudaErrorInvalidValue,
              "a non-zero high watermark");
  expect_code(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero), cudaErrorInvalidValue,
              "setting the used memory");
  // Above the threshold the memory stays until trimmed; trimming keeps what is asked.
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &max));
  void *big[4];
  for (int i = 0; i < 4; i++) CHECK(cudaMallocFromPoolAsync(&big[i], 32 * MiB, pool, s));
  for (int i = 0; i < 4; i++) CHECK(cudaFreeAsync(big[i], s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT(attr64(pool, cudaMemPoolAttrReservedMemCurrent) == 128 * MiB, "kept: %llu",
         attr64(pool, cudaMemPoolAttrReservedMemCurrent));
  CHECK(cudaMemPoolTrimTo(pool, 40 * MiB));
  EXPECT(attr64(pool, cudaMemPoolAttrReservedMemCurrent) == 64 * MiB, "trimmed to keep 40 MiB: %llu",
         attr64(pool, cudaMemPoolAttrReservedMemCurrent));
  CHECK(cudaMemPoolTrimTo(pool, 0));
  EXPECT(attr64(pool, cudaMemPoolAttrReservedMemCurrent) == 0, "trimmed to 0");
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &zero));
  CHECK(cudaStreamDestroy(s));
}

static void created_pools_and_misuse(int dev) {
  printf("created pools and misuse\n");
  cudaMemPool_t def, cur, mine;
  CHECK(cudaDeviceGetDefaultMemPool(&def, dev));
  CHECK(cudaDeviceGetMemPool(&cur, dev));
  EXPECT(cur == def, "the current pool is the default one");
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  CHECK(cudaMemPoolCreate(&mine, &props));
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  CHECK(cudaMemPoolGetAccess(&flags, mine, &loc));
  EXPECT(flags == cudaMemAccessFlagsProtReadWrite, "own device's access: %d", (int)flags);
  cudaMemAccessDesc desc = {};
  desc.location = loc;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(mine, &desc, 1));
  desc.flags = cudaMemAccessFlagsProtRead;
  expect_code(cudaMemPoolSetAccess(mine, &desc, 1), cudaErrorNotSupported, "read-only pool access");

  // A pool made current serves cudaMallocAsync; a kernel uses the memory.
  CHECK(cudaDeviceSetMemPool(dev, mine));
  CHECK(cudaDeviceGetMemPool(&cur, dev));
  EXPECT(cur == mine, "the created pool is current");
  const int n = 1000;
  int *x, host[n];
  CHECK(cudaMallocAsync((void **)&x, n * sizeof(int), 0));
  fill<<<(n + 255) / 256, 256>>>(x, n, 5);
  CHECK(cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(host[i] == i * 3 + 5, "element %d = %d", i, host[i]);
  EXPECT(attr64(mine, cudaMemPoolAttrUsedMemCurrent) == n * sizeof(int), "allocated from the created pool");
  expect_code(cudaFreeAsync(x + 1, 0), cudaErrorInvalidValue, "freeing an interior pointer");
  CHECK(cudaFreeAsync(x, 0));
  expect_code(cudaFreeAsync(x, 0), cudaErrorInvalidValue, "freeing twice");
  CHECK(cudaFreeAsync(nullptr, 0));
  void *none = (void *)1;
  CHECK(cudaMallocAsync(&none, 0, 0));
  EXPECT(none == nullptr, "size 0 gives NULL");
  // cudaFree frees stream-ordered memory too, and cudaFreeAsync cudaMalloc'd memory.
  void *y, *z;
  CHECK(cudaMallocAsync(&y, 64, 0));
  CHECK(cudaFree(y));
  CHECK(cudaMalloc(&z, 64));
  CHECK(cudaFreeAsync(z, 0));

  // Destroying the current pool makes the default pool current again.
  CHECK(cudaMemPoolDestroy(mine));
  CHECK(cudaDeviceGetMemPool(&cur, dev));
  EXPECT(cur == def, "after destroying the current pool");
  expect_code(cudaMemPoolDestroy(def), cudaErrorInvalidValue, "destroying a default pool");
  props.allocType = cudaMemAllocationTypeInvalid;
  expect_code(cudaMemPoolCreate(&mine, &props), cudaErrorInvalidValue, "allocation type 0");
  props.allocType = cudaMemAllocationTypePinned;
  props.location.id = 99;
  expect_code(cudaMemPoolCreate(&mine, &props), cudaErrorInvalidValue, "device 99");
  CHECK(cudaDeviceSynchronize());
}

int main() {
  int dev = 0, supported = 0;
  CHECK(cudaSetDevice(dev));
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev));
  EXPECT(supported == 1, "cudaDevAttrMemoryPoolsSupported: %d", supported);
  pipelines();
  cudaMemPool_t pool;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  CHECK(cudaMemPoolCreate(&pool, &props));
  unsigned long long max = ~0ull;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &max));
  reuse_in_stream_order(pool);
  CHECK(cudaMemPoolDestroy(pool));
  CHECK(cudaMemPoolCreate(&pool, &props));
  attributes_and_trimming(pool);
  CHECK(cudaMemPoolDestroy(pool));
  created_pools_and_misuse(dev);
  return ctest_finish();
}
