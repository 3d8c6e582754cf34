// Runtime API calls on kernels beyond <<<...>>>: cache preferences, names, driver
// function handles (used through driver entry points the runtime resolves), extensible
// launches with launch attributes and dynamic shared memory, and the dynamic shared
// memory occupancy allows, checked against cudaFuncGetAttributes and the occupancy
// calculator. Results are checked against host computations.
#define CTEST_NAME "runtime_breadth"
#include "ctest.h"

// out[i] = a * x[i] + b, staged through dynamic shared memory (one float per thread).
extern "C" __global__ void breadth_axpb(float *out, const float *x, float a, int b, int n) {
  extern __shared__ float stage[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = a * stage[threadIdx.x] + (float)b;
}

// Static shared memory, so that the occupancy queries have something to subtract.
__global__ void breadth_static_smem(int *out) {
  __shared__ int table[1024];
  extern __shared__ int dyn[];
  table[threadIdx.x] = (int)threadIdx.x;
  dyn[0] = 0;
  __syncthreads();
  out[threadIdx.x] = table[(threadIdx.x + 1) % blockDim.x];
}

static void host_only() {}

// CUresult cuFuncGetAttribute(int *, CUfunction_attribute, CUfunction) and cuLaunchKernel.
typedef int (*FuncGetAttributeFn)(int *, int, cudaFunction_t);
typedef int (*LaunchKernelFn)(cudaFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              cudaStream_t, void **, void **);

static void check_axpb(const float *got, const float *x, float a, int b, int n, const char *what) {
  for (int i = 0; i < n; i++) {
    float want = a * x[i] + (float)b;
    EXPECT(got[i] == want, "%s: out[%d] = %g, want %g", what, i, got[i], want);
  }
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  float hx[n], hout[n];
  for (int i = 0; i < n; i++) hx[i] = (float)(i % 97) * 0.5f - 3.0f;
  float *x, *out;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));

  // Cache preferences: the C call and the template. A host function is no kernel: the
  // documented answer is cudaErrorInvalidDeviceFunction; NVIDIA's runtime 13 hands a
  // pointer it did not register to the driver as a kernel handle, which the driver
  // refuses as an invalid handle.
  CHECK(cudaFuncSetCacheConfig((const void *)breadth_axpb, cudaFuncCachePreferL1));
  CHECK(cudaFuncSetCacheConfig(breadth_static_smem, cudaFuncCachePreferShared));
  cudaError_t e = cudaFuncSetCacheConfig((const void *)host_only, cudaFuncCachePreferL1);
  EXPECT(e == cudaErrorInvalidDeviceFunction || e == cudaErrorInvalidResourceHandle,
         "cudaFuncSetCacheConfig on a host function: %s", cudaGetErrorName(e));
  (void)cudaGetLastError();

  // Names: the device name of an extern "C" kernel is its C name.
  const char *name = nullptr;
  CHECK(cudaFuncGetName(&name, breadth_axpb));
  EXPECT(name != nullptr && strcmp(name, "breadth_axpb") == 0, "cudaFuncGetName: %s", name ? name : "(null)");
  e = cudaFuncGetName(&name, (const void *)host_only);
  EXPECT(e == cudaErrorInvalidDeviceFunction || e == cudaErrorInvalidResourceHandle, "cudaFuncGetName on a host function: %s",
         cudaGetErrorName(e));
  (void)cudaGetLastError();

  // The driver handle of the kernel, queried and launched through driver entry points.
  cudaFunction_t f = nullptr;
  CHECK(cudaGetFuncBySymbol(&f, (const void *)breadth_axpb));
  EXPECT(f != nullptr, "cudaGetFuncBySymbol gave NULL");
  void *get_attr = nullptr, *launch = nullptr;
  cudaDriverEntryPointQueryResult st = cudaDriverEntryPointSymbolNotFound;
  CHECK(cudaGetDriverEntryPointByVersion("cuFuncGetAttribute", &get_attr, 12000, cudaEnableDefault, &st));
  EXPECT(get_attr != nullptr && st == cudaDriverEntryPointSuccess, "cuFuncGetAttribute entry point");
  CHECK(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &launch, 12000, cudaEnableDefault, &st));
  EXPECT(launch != nullptr && st == cudaDriverEntryPointSuccess, "cuLaunchKernel entry point");
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, breadth_axpb));
  if (f != nullptr && get_attr != nullptr && launch != nullptr) {
    int max_threads = -1, nregs = -1;
    EXPECT(((FuncGetAttributeFn)get_attr)(&max_threads, 0, f) == 0, "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)");
    EXPECT(((FuncGetAttributeFn)get_attr)(&nregs, 4, f) == 0, "cuFuncGetAttribute(NUM_REGS)");
    EXPECT(max_threads == fa.maxThreadsPerBlock, "max threads %d vs %d", max_threads, fa.maxThreadsPerBlock);
    EXPECT(nregs == fa.numRegs, "registers %d vs %d", nregs, fa.numRegs);
    float a = 2.0f;
    int b = 7, nn = n;
    void *args[] = {&out, &x, &a, &b, &nn};
    CHECK(cudaMemset(out, 0, n * sizeof(float)));
    EXPECT(((LaunchKernelFn)launch)(f, blocks, 1, 1, threads, 1, 1, threads * sizeof(float), 0, args, nullptr) == 0,
           "cuLaunchKernel on the runtime's function handle");
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
    check_axpb(hout, hx, 2.0f, 7, n, "cuLaunchKernel");
  }

  // cudaLaunchKernelExC with a priority attribute and dynamic shared memory, on a stream.
  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaLaunchAttribute attr[1] = {};
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = greatest;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = threads * sizeof(float);
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  {
    float a = -1.5f;
    int b = 3, nn = n;
    void *args[] = {&out, &x, &a, &b, &nn};
    CHECK(cudaMemset(out, 0, n * sizeof(float)));
    CHECK(cudaLaunchKernelExC(&cfg, (const void *)breadth_axpb, args));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
    check_axpb(hout, hx, -1.5f, 3, n, "cudaLaunchKernelExC");
  }
  // The template converts each argument to the parameter's type (double -> float,
  // long -> int) before taking its address.
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  CHECK(cudaLaunchKernelEx(&cfg, breadth_axpb, out, (const float *)x, 0.25, 11L, n));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
  check_axpb(hout, hx, 0.25f, 11, n, "cudaLaunchKernelEx template");
  // The kernel handle form.
  cudaKernel_t k = nullptr;
  CHECK(cudaGetKernel(&k, breadth_axpb));
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  {
    float a = 4.0f;
    int b = -2, nn = n;
    const float *cx = x;
    CHECK(cudaLaunchKernelEx(&cfg, k, out, cx, a, b, nn));
  }
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
  check_axpb(hout, hx, 4.0f, -2, n, "cudaLaunchKernelEx with a cudaKernel_t");
  CHECK(cudaStreamDestroy(s));

  // Dynamic shared memory occupancy allows: never more for more blocks, never more than
  // the multiprocessor has beside the static shared memory, and exactly the amount at
  // which that many blocks still fit.
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cudaFuncAttributes sa;
  CHECK(cudaFuncGetAttributes(&sa, breadth_static_smem));
  EXPECT(sa.sharedSizeBytes >= 1024 * sizeof(int), "static shared memory %zu", sa.sharedSizeBytes);
  size_t avail[5] = {0, 0, 0, 0, 0};
  for (int nb = 1; nb <= 4; nb++) CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail[nb], breadth_static_smem, nb, threads));
  for (int nb = 2; nb <= 4; nb++) EXPECT(avail[nb] <= avail[nb - 1], "available %zu for %d blocks > %zu", avail[nb], nb, avail[nb - 1]);
  EXPECT(avail[1] + sa.sharedSizeBytes <= prop.sharedMemPerMultiprocessor, "available %zu + static %zu > %zu per SM", avail[1],
         sa.sharedSizeBytes, prop.sharedMemPerMultiprocessor);
  EXPECT(4 * (avail[4] + sa.sharedSizeBytes) <= prop.sharedMemPerMultiprocessor, "4 blocks of %zu + %zu exceed %zu", avail[4],
         sa.sharedSizeBytes, prop.sharedMemPerMultiprocessor);
  if (avail[4] <= (size_t)sa.maxDynamicSharedSizeBytes) {
    int fit = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, breadth_static_smem, threads, avail[4]));
    EXPECT(fit >= 4, "%d blocks fit with %zu bytes of dynamic shared memory, want >= 4", fit, avail[4]);
  }
  size_t tmpl = 0;
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&tmpl, breadth_static_smem, 2, threads));
  EXPECT(tmpl == avail[2], "template form %zu vs %zu", tmpl, avail[2]);

  // The kernel runs with the dynamic shared memory it was told is available.
  int *iout;
  CHECK(cudaMalloc(&iout, threads * sizeof(int)));
  size_t dyn = avail[4] < (size_t)sa.maxDynamicSharedSizeBytes ? avail[4] : (size_t)sa.maxDynamicSharedSizeBytes;
  if (dyn < sizeof(int)) dyn = sizeof(int);
  breadth_static_smem<<<1, threads, dyn>>>(iout);
  CHECK_LAUNCH();
  int hi[threads];
  CHECK(cudaMemcpy(hi, iout, sizeof hi, cudaMemcpyDeviceToHost));
  for (int i = 0; i < threads; i++) EXPECT(hi[i] == (i + 1) % threads, "static_smem[%d] = %d", i, hi[i]);

  CHECK(cudaFree(iout));
  CHECK(cudaFree(x));
  CHECK(cudaFree(out));
  return ctest_finish();
}
