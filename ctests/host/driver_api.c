/* A driver-API program as a user writes one against our include/cuda.h alone: no NVIDIA
 * header, no nvcc. Built by scripts/run-libtests.sh with the host C compiler and linked
 * with -lcuda (our libcuda.so); the same file is also compiled as C++17 with -pedantic, so
 * the header stays valid C++. Every result is checked against values computed here on the
 * host. Prints "PASS driver_api" on success. */
#include <cuda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                  \
  do {                                                                               \
    CUresult check_rc_ = (call);                                                     \
    if (check_rc_ != CUDA_SUCCESS) {                                                 \
      const char *check_name_ = NULL;                                                \
      cuGetErrorName(check_rc_, &check_name_);                                       \
      fprintf(stderr, "%s:%d: %s -> %d (%s)\n", __FILE__, __LINE__, #call, (int)check_rc_, \
              check_name_ ? check_name_ : "?");                                      \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

/* y[i] = a * x[i] + y[i] for i < n. */
static const char axpy_ptx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry axpy(.param .u64 px, .param .u64 py, .param .f32 a, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .reg .f32 %f<4>;\n"
    "  ld.param.u64 %rd1, [px];\n"
    "  ld.param.u64 %rd2, [py];\n"
    "  ld.param.f32 %f1, [a];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p, %r5, %r1;\n"
    "  @%p bra DONE;\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mul.wide.u32 %rd5, %r5, 4;\n"
    "  add.s64 %rd6, %rd3, %rd5;\n"
    "  add.s64 %rd7, %rd4, %rd5;\n"
    "  ld.global.f32 %f2, [%rd6];\n"
    "  ld.global.f32 %f3, [%rd7];\n"
    "  fma.rn.f32 %f3, %f1, %f2, %f3;\n"
    "  st.global.f32 [%rd7], %f3;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

enum { N = 1000, BLOCK = 128 };

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction axpy;
  CUdeviceptr dx, dy;
  CUstream stream;
  CUevent start, stop;
  char name[256];
  int value, i, count, version;
  unsigned int n = N;
  size_t total;
  float a = 3.0f, ms = -1.0f;
  float *x, *y, *pinned;
  const char *text = NULL, *ename = NULL;
  void *params[4];

  EXPECT(CUDA_VERSION == 13000);
  EXPECT(sizeof(CUdeviceptr) == sizeof(void *));

  /* Before cuInit, calls answer CUDA_ERROR_NOT_INITIALIZED, with a name and a text. */
  EXPECT(cuDeviceGetCount(&count) == CUDA_ERROR_NOT_INITIALIZED);
  CHECK(cuInit(0));
  CHECK(cuDriverGetVersion(&version));
  EXPECT(version >= 12000);

  /* A bad call: an ordinal no device has. */
  CHECK(cuDeviceGetCount(&count));
  EXPECT(count >= 1);
  EXPECT(cuDeviceGet(&dev, count + 100) == CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuGetErrorName(CUDA_ERROR_INVALID_DEVICE, &ename));
  CHECK(cuGetErrorString(CUDA_ERROR_INVALID_DEVICE, &text));
  EXPECT(strcmp(ename, "CUDA_ERROR_INVALID_DEVICE") == 0);
  EXPECT(text != NULL && strlen(text) > 0);
  EXPECT(cuGetErrorString((CUresult)123456, &text) == CUDA_ERROR_INVALID_VALUE);

  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDeviceGetName(name, (int)sizeof name, dev));
  EXPECT(strlen(name) > 0);
  CHECK(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
  EXPECT(value == 32);
  CHECK(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev));
  EXPECT(value >= BLOCK);
  CHECK(cuDeviceTotalMem(&total, dev));
  EXPECT(total > 0);

  CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
  CHECK(cuModuleLoadData(&mod, axpy_ptx));
  CHECK(cuModuleGetFunction(&axpy, mod, "axpy"));
  EXPECT(cuModuleGetFunction(&axpy, mod, "no_such_kernel") == CUDA_ERROR_NOT_FOUND);
  CHECK(cuModuleGetFunction(&axpy, mod, "axpy"));

  x = (float *)malloc(N * sizeof(float));
  y = (float *)malloc(N * sizeof(float));
  EXPECT(x && y);
  for (i = 0; i < N; i++) {
    x[i] = (float)i;
    y[i] = (float)(2 * i);
  }
  CHECK(cuMemAlloc(&dx, N * sizeof(float)));
  CHECK(cuMemAlloc(&dy, N * sizeof(float)));
  CHECK(cuMemcpyHtoD(dx, x, N * sizeof(float)));
  CHECK(cuMemcpyHtoD(dy, y, N * sizeof(float)));

  /* Synchronous round: y = 3x + 2i = 5i, exact in float. */
  params[0] = &dx;
  params[1] = &dy;
  params[2] = &a;
  params[3] = &n;
  CHECK(cuLaunchKernel(axpy, (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL));
  CHECK(cuCtxSynchronize());
  memset(y, 0, N * sizeof(float));
  CHECK(cuMemcpyDtoH(y, dy, N * sizeof(float)));
  for (i = 0; i < N; i++) {
    if (y[i] != (float)(5 * i)) {
      fprintf(stderr, "sync: y[%d] = %g, expected %d\n", i, (double)y[i], 5 * i);
      return 1;
    }
  }

  /* Stream round, timed by events: copies and launch queued on one stream from pinned
   * memory, the launch's arguments given as one packed buffer through `extra`. */
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CHECK(cuMemAllocHost((void **)&pinned, N * sizeof(float)));
  for (i = 0; i < N; i++) {
    pinned[i] = 1.0f;
  }
  {
    struct {
      CUdeviceptr x, y;
      float a;
      unsigned int n;
    } args;
    size_t args_size = sizeof args;
    void *extra[5];
    args.x = dx;
    args.y = dy;
    args.a = 2.0f;
    args.n = N;
    extra[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
    extra[1] = &args;
    extra[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
    extra[3] = &args_size;
    extra[4] = CU_LAUNCH_PARAM_END;
    CHECK(cuEventRecord(start, stream));
    CHECK(cuMemcpyHtoDAsync(dy, pinned, N * sizeof(float), stream));
    CHECK(cuLaunchKernel(axpy, (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1, 0, stream, NULL, extra));
    CHECK(cuMemcpyDtoHAsync(pinned, dy, N * sizeof(float), stream));
    CHECK(cuEventRecord(stop, stream));
    CHECK(cuEventSynchronize(stop));
  }
  CHECK(cuEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0.0f);
  CHECK(cuStreamSynchronize(stream));
  for (i = 0; i < N; i++) {
    /* y = 2x + 1 */
    if (pinned[i] != (float)(2 * i + 1)) {
      fprintf(stderr, "stream: y[%d] = %g, expected %d\n", i, (double)pinned[i], 2 * i + 1);
      return 1;
    }
  }

  CHECK(cuMemFreeHost(pinned));
  CHECK(cuEventDestroy(start));
  CHECK(cuEventDestroy(stop));
  CHECK(cuStreamDestroy(stream));
  CHECK(cuMemFree(dx));
  CHECK(cuMemFree(dy));
  CHECK(cuModuleUnload(mod));
  CHECK(cuCtxDestroy(ctx));
  free(x);
  free(y);
  printf("device %s, stream round %.3f ms\n", name, (double)ms);
  printf("PASS driver_api\n");
  return 0;
}
