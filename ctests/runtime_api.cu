// Runtime API calls the other tests leave out, each checked for its documented effect:
// current device and invalid devices, cudaPeekAtLastError vs cudaGetLastError, pitched
// allocations with 2D copies and fills, symbol address/size and out-of-range symbol copies, pointer attributes of device,
// pinned and plain host memory, stream priorities and flags, limits, memory info, a
// kernel's dynamic shared memory attribute, and cudaDeviceReset (allocations and launches
// work again after it, kernels included).
#define CTEST_NAME "runtime_api"
#include "ctest.h"

#include <vector>

__device__ int table[16];

__global__ void fill_table(int base) { table[threadIdx.x] = base + (int)threadIdx.x; }

__global__ void rows(int *p, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) {
    int *row = (int *)((char *)p + y * pitch);
    row[x] += 1000 * y + x;
  }
}

__global__ void uses_dynamic_shared(int *out) {
  extern __shared__ int s[];
  s[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

static void expect_code(cudaError_t got, cudaError_t want, const char *what) {
  EXPECT(got == want, "%s: got %d (%s), want %d (%s)", what, (int)got, cudaGetErrorName(got), (int)want,
         cudaGetErrorName(want));
}

int main() {
  int count = 0, dev = -1, version = 0;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaGetDevice(&dev));
  EXPECT(dev == 0, "cudaGetDevice = %d before cudaSetDevice", dev);
  CHECK(cudaSetDevice(0));
  CHECK(cudaDriverGetVersion(&version));
  EXPECT(version >= 12000, "cudaDriverGetVersion = %d", version);

  // Errors: a bad device is reported, peeked (kept) and then read (cleared).
  expect_code(cudaSetDevice(count), cudaErrorInvalidDevice, "cudaSetDevice(count)");
  expect_code(cudaPeekAtLastError(), cudaErrorInvalidDevice, "cudaPeekAtLastError");
  expect_code(cudaPeekAtLastError(), cudaErrorInvalidDevice, "cudaPeekAtLastError again");
  expect_code(cudaGetLastError(), cudaErrorInvalidDevice, "cudaGetLastError");
  expect_code(cudaGetLastError(), cudaSuccess, "cudaGetLastError after reading");
  CHECK(cudaGetDevice(&dev));
  EXPECT(dev == 0, "cudaGetDevice = %d after a failed cudaSetDevice", dev);

  // Pitched memory: 2D fill, a kernel over the rows, 2D copies both ways.
  const int w = 100, h = 37;
  int *pitched = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch((void **)&pitched, &pitch, w * sizeof(int), h));
  EXPECT(pitch >= w * sizeof(int), "pitch %zu for rows of %zu bytes", pitch, w * sizeof(int));
  CHECK(cudaMemset2D(pitched, pitch, 0, w * sizeof(int), h));
  std::vector<int> host(w * h);
  for (int i = 0; i < w * h; i++) host[i] = 7 * i;
  CHECK(cudaMemcpy2D(pitched, pitch, host.data(), w * sizeof(int), w * sizeof(int), h, cudaMemcpyHostToDevice));
  rows<<<dim3(ceil_div(w, 32), h), 32>>>(pitched, pitch, w, h);
  CHECK_LAUNCH();
  std::vector<int> back(w * h, -1);
  CHECK(cudaMemcpy2D(back.data(), w * sizeof(int), pitched, pitch, w * sizeof(int), h, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      EXPECT(back[y * w + x] == 7 * (y * w + x) + 1000 * y + x, "pitched[%d][%d] = %d", y, x, back[y * w + x]);
  CHECK(cudaFree(pitched));

  // Symbols: size, address, copies through the address, range checks.
  size_t size = 0;
  int *table_addr = nullptr;
  CHECK(cudaGetSymbolSize(&size, table));
  EXPECT(size == sizeof(int) * 16, "cudaGetSymbolSize(table) = %zu", size);
  CHECK(cudaGetSymbolAddress((void **)&table_addr, table));
  EXPECT(table_addr != nullptr, "cudaGetSymbolAddress(table) = NULL");
  fill_table<<<1, 16>>>(40);
  CHECK_LAUNCH();
  int t[16];
  CHECK(cudaMemcpy(t, table_addr, sizeof(t), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++) EXPECT(t[i] == 40 + i, "table[%d] = %d", i, t[i]);
  int one = 1;
  expect_code(cudaMemcpyToSymbol(table, &one, sizeof(int), 16 * sizeof(int)), cudaErrorInvalidValue,
              "cudaMemcpyToSymbol past the end");
  cudaGetLastError();
  expect_code(cudaMemcpyToSymbol(table, &one, sizeof(int), 0, cudaMemcpyDeviceToHost),
              cudaErrorInvalidMemcpyDirection, "cudaMemcpyToSymbol with kind DeviceToHost");
  cudaGetLastError();

  // Pointer attributes.
  int *d = nullptr, *pinned = nullptr;
  CHECK(cudaMalloc(&d, 256));
  CHECK(cudaMallocHost(&pinned, 256));
  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, d + 3));
  EXPECT(a.type == cudaMemoryTypeDevice && a.device == 0 && a.devicePointer == d + 3,
         "device memory: type %d device %d devicePointer %p", (int)a.type, a.device, a.devicePointer);
  CHECK(cudaPointerGetAttributes(&a, pinned));
  EXPECT(a.type == cudaMemoryTypeHost && a.hostPointer == pinned, "pinned memory: type %d hostPointer %p",
         (int)a.type, a.hostPointer);
  std::vector<int> plain(64);
  CHECK(cudaPointerGetAttributes(&a, plain.data()));
  EXPECT(a.type == cudaMemoryTypeUnregistered, "plain host memory: type %d", (int)a.type);
  CHECK(cudaFreeHost(pinned));

  // Streams: priority and flags as created.
  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT(greatest <= least, "priority range least %d greatest %d", least, greatest);
  cudaStream_t s;
  CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest));
  int prio = 1234;
  unsigned flags = 1234;
  CHECK(cudaStreamGetPriority(s, &prio));
  CHECK(cudaStreamGetFlags(s, &flags));
  EXPECT(prio == greatest && flags == cudaStreamNonBlocking, "stream priority %d flags %u", prio, flags);
  CHECK(cudaStreamDestroy(s));

  // Limits, memory info, a kernel attribute.
  size_t stack = 0, free_mem = 0, total_mem = 0;
  CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  EXPECT(stack > 0, "stack size limit %zu", stack);
  CHECK(cudaMemGetInfo(&free_mem, &total_mem));
  EXPECT(total_mem > 0 && free_mem <= total_mem, "cudaMemGetInfo free %zu total %zu", free_mem, total_mem);
  CHECK(cudaFuncSetAttribute(uses_dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 32 * 1024));
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, uses_dynamic_shared));
  EXPECT(fa.maxDynamicSharedSizeBytes == 32 * 1024, "maxDynamicSharedSizeBytes = %d", fa.maxDynamicSharedSizeBytes);
  uses_dynamic_shared<<<1, 64, 64 * sizeof(int)>>>(d);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(t, d, sizeof(t), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++) EXPECT(t[i] == 63 - i, "reversed[%d] = %d", i, t[i]);

  // cudaDeviceReset: everything allocated is gone; the device works again afterwards,
  // launches of kernels used before included.
  CHECK(cudaDeviceReset());
  int *again = nullptr;
  CHECK(cudaMalloc(&again, 64 * sizeof(int)));
  uses_dynamic_shared<<<1, 64, 64 * sizeof(int)>>>(again);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(t, again, sizeof(t), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++) EXPECT(t[i] == 63 - i, "after reset reversed[%d] = %d", i, t[i]);
  fill_table<<<1, 16>>>(-5);
  CHECK_LAUNCH();
  CHECK(cudaMemcpyFromSymbol(t, table, sizeof(t)));
  for (int i = 0; i < 16; i++) EXPECT(t[i] == -5 + i, "after reset table[%d] = %d", i, t[i]);
  CHECK(cudaFree(again));
  return ctest_finish();
}
