// Managed memory (cudaMallocManaged): one pointer that the host and kernels both
// dereference.  The host fills it, a kernel updates it in place, the host reads the
// result through the same pointer; copies to and from it, pointer attributes, the
// cudaMemAdvise / cudaMemPrefetchAsync hints (CUDA 13 signatures: cudaMemLocation) and
// their argument errors, and freeing.  A device without managed memory
// (cudaDevAttrManagedMemory 0) must refuse cudaMallocManaged with cudaErrorNotSupported.
#define CTEST_NAME "managed_memory"
#include "ctest.h"

#include <vector>

__global__ void scale_add_index(int *data, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * k + i;
}

int main() {
  const int dev = 0;
  int managed = 0, concurrent = 0;
  CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, dev));
  CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev));
  if (!managed) {
    int *p = nullptr;
    cudaError_t e = cudaMallocManaged(&p, 64);
    EXPECT(e == cudaErrorNotSupported, "cudaMallocManaged without managed memory returned %d", (int)e);
    cudaGetLastError();
    return ctest_finish();
  }

  const int n = 10000;
  const size_t bytes = n * sizeof(int);
  int *data = nullptr;
  CHECK(cudaMallocManaged(&data, bytes));
  CtestRng rng(11);
  std::vector<int> want(n);
  for (int i = 0; i < n; i++) {
    data[i] = (int)rng.range(-1000, 1000);
    want[i] = data[i] * 3 + i;
  }

  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, data + 5));
  EXPECT(attr.type == cudaMemoryTypeManaged, "pointer type %d", (int)attr.type);
  EXPECT(attr.device == dev, "pointer device %d", attr.device);
  EXPECT(attr.hostPointer == data + 5 && attr.devicePointer == data + 5, "host %p device %p for %p",
         attr.hostPointer, attr.devicePointer, (void *)(data + 5));

  cudaMemLocation on_device = {cudaMemLocationTypeDevice, dev};
  cudaMemLocation on_host = {cudaMemLocationTypeHost, 0};
  CHECK(cudaMemAdvise(data, bytes, cudaMemAdviseSetReadMostly, on_device));
  CHECK(cudaMemAdvise(data, bytes, cudaMemAdviseUnsetReadMostly, on_device));
  CHECK(cudaMemAdvise(data, bytes, cudaMemAdviseSetPreferredLocation, on_host));
  if (concurrent) {
    CHECK(cudaMemPrefetchAsync(data, bytes, on_device, 0, 0));
  }
  scale_add_index<<<ceil_div(n, 256), 256>>>(data, n, 3);
  CHECK_LAUNCH();
  CHECK(cudaMemPrefetchAsync(data, bytes, on_host, 0, 0));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; i++) {
    EXPECT(data[i] == want[i], "data[%d] = %d, want %d", i, data[i], want[i]);
  }

  // Copies: managed -> device memory -> host, and host -> managed.
  int *device_copy = nullptr;
  CHECK(cudaMalloc(&device_copy, bytes));
  CHECK(cudaMemcpy(device_copy, data, bytes, cudaMemcpyDefault));
  std::vector<int> back(n);
  CHECK(cudaMemcpy(back.data(), device_copy, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    EXPECT(back[i] == want[i], "copy[%d] = %d, want %d", i, back[i], want[i]);
  }
  std::vector<int> fresh(n, 0);
  for (int i = 0; i < n; i++) fresh[i] = 7 * i - 3;
  CHECK(cudaMemcpy(data, fresh.data(), bytes, cudaMemcpyHostToDevice));
  for (int i = 0; i < n; i++) {
    EXPECT(data[i] == 7 * i - 3, "after cudaMemcpy data[%d] = %d", i, data[i]);
  }

  // Hints on memory that is not managed, or with a bad device, are errors.
  cudaError_t e = cudaMemAdvise(device_copy, bytes, cudaMemAdviseSetReadMostly, on_device);
  EXPECT(e == cudaErrorInvalidValue, "advice on device memory returned %d", (int)e);
  cudaGetLastError();
  cudaMemLocation bad_device = {cudaMemLocationTypeDevice, 1000};
  e = cudaMemPrefetchAsync(data, bytes, bad_device, 0, 0);
  EXPECT(e == cudaErrorInvalidDevice, "prefetch to device 1000 returned %d", (int)e);
  cudaGetLastError();

  CHECK(cudaFree(device_copy));
  CHECK(cudaFree(data));
  return ctest_finish();
}
