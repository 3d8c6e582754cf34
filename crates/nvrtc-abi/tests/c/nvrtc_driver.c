/* A C program the way NVRTC users write them: compile a templated kernel at run time,
   look its lowered name up, load the PTX with the driver API and launch it.
   usage: nvrtc_driver /path/to/libcuda.so.1
   Links against libnvrtc (ours); the driver is loaded with dlopen. Prints PASS. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvrtc.h"

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;

static CUresult (*cuInit)(unsigned int);
static CUresult (*cuDeviceGet)(CUdevice *, int);
static CUresult (*cuCtxCreate)(CUcontext *, unsigned int, CUdevice);
static CUresult (*cuCtxDestroy)(CUcontext);
static CUresult (*cuModuleLoadData)(CUmodule *, const void *);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuMemFree)(CUdeviceptr);
static CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
static CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
                                  void **, void **);
static CUresult (*cuCtxSynchronize)(void);

#define NVRTC_CHECK(x)                                                            \
  do {                                                                            \
    nvrtcResult r_ = (x);                                                         \
    if (r_ != NVRTC_SUCCESS) {                                                    \
      fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__, __LINE__, #x, nvrtcGetErrorString(r_)); \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)
#define CU_CHECK(x)                                                               \
  do {                                                                            \
    CUresult r_ = (x);                                                            \
    if (r_ != 0) {                                                                \
      fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #x, r_);           \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

static void *sym(void *lib, const char *name) {
  void *p = dlsym(lib, name);
  if (!p) {
    fprintf(stderr, "missing %s\n", name);
    exit(1);
  }
  return p;
}

static const char *source =
    "#include \"scale.h\"\n"
    "template <typename T>\n"
    "__global__ void axpb(T *data, T a, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) data[i] = scale(data[i], a) + (T)OFFSET;\n"
    "}\n";
static const char *header = "#define OFFSET 1\ntemplate <typename T> __device__ T scale(T x, T a) { return a * x; }\n";

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s libcuda.so.1\n", argv[0]);
    return 2;
  }
  /* The API itself: version, error strings, a bad option. */
  int major = 0, minor = 0;
  NVRTC_CHECK(nvrtcVersion(&major, &minor));
  if (strcmp(nvrtcGetErrorString(NVRTC_ERROR_COMPILATION), "NVRTC_ERROR_COMPILATION") != 0) return 1;

  nvrtcProgram prog;
  const char *headers[] = {header};
  const char *names[] = {"scale.h"};
  NVRTC_CHECK(nvrtcCreateProgram(&prog, source, "axpb.cu", 1, headers, names));
  NVRTC_CHECK(nvrtcAddNameExpression(prog, "axpb<float>"));
  const char *bad[] = {"--no-such-option"};
  if (nvrtcCompileProgram(prog, 1, bad) != NVRTC_ERROR_INVALID_OPTION) return 1;
  const char *opts[] = {"--gpu-architecture=compute_80", "-std=c++17"};
  NVRTC_CHECK(nvrtcCompileProgram(prog, 2, opts));
  size_t ptx_size = 0;
  NVRTC_CHECK(nvrtcGetPTXSize(prog, &ptx_size));
  char *ptx = malloc(ptx_size);
  NVRTC_CHECK(nvrtcGetPTX(prog, ptx));
  const char *lowered = NULL;
  NVRTC_CHECK(nvrtcGetLoweredName(prog, "axpb<float>", &lowered));
  char kernel_name[256];
  snprintf(kernel_name, sizeof kernel_name, "%s", lowered);
  NVRTC_CHECK(nvrtcDestroyProgram(&prog));

  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
    return 1;
  }
  *(void **)&cuInit = sym(lib, "cuInit");
  *(void **)&cuDeviceGet = sym(lib, "cuDeviceGet");
  *(void **)&cuCtxCreate = sym(lib, "cuCtxCreate_v2");
  *(void **)&cuCtxDestroy = sym(lib, "cuCtxDestroy_v2");
  *(void **)&cuModuleLoadData = sym(lib, "cuModuleLoadData");
  *(void **)&cuModuleGetFunction = sym(lib, "cuModuleGetFunction");
  *(void **)&cuMemAlloc = sym(lib, "cuMemAlloc_v2");
  *(void **)&cuMemFree = sym(lib, "cuMemFree_v2");
  *(void **)&cuMemcpyHtoD = sym(lib, "cuMemcpyHtoD_v2");
  *(void **)&cuMemcpyDtoH = sym(lib, "cuMemcpyDtoH_v2");
  *(void **)&cuLaunchKernel = sym(lib, "cuLaunchKernel");
  *(void **)&cuCtxSynchronize = sym(lib, "cuCtxSynchronize");

  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CU_CHECK(cuInit(0));
  CU_CHECK(cuDeviceGet(&dev, 0));
  CU_CHECK(cuCtxCreate(&ctx, 0, dev));
  CU_CHECK(cuModuleLoadData(&mod, ptx));
  CU_CHECK(cuModuleGetFunction(&fn, mod, kernel_name));
  enum { N = 1000 };
  float host[N];
  for (int i = 0; i < N; ++i) host[i] = (float)i;
  CUdeviceptr d;
  CU_CHECK(cuMemAlloc(&d, sizeof host));
  CU_CHECK(cuMemcpyHtoD(d, host, sizeof host));
  float a = 2.0f;
  int n = N;
  void *params[] = {&d, &a, &n};
  CU_CHECK(cuLaunchKernel(fn, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
  CU_CHECK(cuCtxSynchronize());
  CU_CHECK(cuMemcpyDtoH(host, d, sizeof host));
  for (int i = 0; i < N; ++i) {
    if (host[i] != 2.0f * i + 1.0f) {
      fprintf(stderr, "element %d: %f\n", i, host[i]);
      return 1;
    }
  }
  CU_CHECK(cuMemFree(d));

  /* With a context current, a compile without -arch targets the current device (the CPU
     device reports compute capability 8.6 by default). */
  NVRTC_CHECK(nvrtcCreateProgram(&prog, "__global__ void k(){}", "k.cu", 0, NULL, NULL));
  NVRTC_CHECK(nvrtcCompileProgram(prog, 0, NULL));
  NVRTC_CHECK(nvrtcGetPTXSize(prog, &ptx_size));
  char *ptx2 = malloc(ptx_size);
  NVRTC_CHECK(nvrtcGetPTX(prog, ptx2));
  const char *want = getenv("EXPECT_DEFAULT_TARGET");
  if (want && !strstr(ptx2, want)) {
    fprintf(stderr, "default target: wanted %s in\n%s\n", want, ptx2);
    return 1;
  }
  free(ptx2);
  NVRTC_CHECK(nvrtcDestroyProgram(&prog));
  CU_CHECK(cuCtxDestroy(ctx));
  free(ptx);
  printf("PASS %s (NVRTC %d.%d)\n", kernel_name, major, minor);
  return 0;
}
