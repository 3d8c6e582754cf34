/* A C program of the driver API, built by CMake's C compiler and linked with
   CUDA::cuda_driver (our libcuda). */
#include <cuda.h>
#include <stdio.h>

#define CHECK(x)                                              \
  do {                                                        \
    CUresult r_ = (x);                                        \
    if (r_ != CUDA_SUCCESS) {                                 \
      printf("FAIL %s = %d (line %d)\n", #x, (int)r_, __LINE__); \
      return 1;                                               \
    }                                                         \
  } while (0)

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr buf;
  unsigned int host[1024];
  int count = 0, i;
  CHECK(cuInit(0));
  CHECK(cuDeviceGetCount(&count));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuMemAlloc(&buf, sizeof(host)));
  CHECK(cuMemsetD32(buf, 0xdeadbeefu, 1024));
  CHECK(cuMemsetD32(buf + 512 * sizeof(unsigned int), 7u, 256));
  CHECK(cuMemcpyDtoH(host, buf, sizeof(host)));
  for (i = 0; i < 1024; ++i) {
    unsigned int want = (i >= 512 && i < 768) ? 7u : 0xdeadbeefu;
    if (host[i] != want) {
      printf("FAIL host[%d] = %#x, want %#x\n", i, host[i], want);
      return 1;
    }
  }
  CHECK(cuMemFree(buf));
  if (cuMemFree(buf) == CUDA_SUCCESS) {
    printf("FAIL double free succeeded\n");
    return 1;
  }
  CHECK(cuDevicePrimaryCtxRelease(dev));
  printf("PASS toolkit_cmake_driver (%d device%s)\n", count, count == 1 ? "" : "s");
  return 0;
}
