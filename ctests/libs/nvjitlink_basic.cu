// nvJitLink through our libnvJitLink: two relocatable PTX modules (one calls a function and
// reads a variable the other defines, as `nvcc -rdc=true -ptx` writes them) are linked, the
// "cubin" is loaded with cuModuleLoadData on our libcuda and launched, and the result is
// checked; then the error paths: an undefined reference, a bad option, NULL handles,
// unsupported inputs.
// link: -lnvJitLink -lcuda
#include <cuda.h>
#include <nvJitLink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
      failures++;                                 \
    }                                             \
  } while (0)
#define CU(call)                                   \
  do {                                             \
    CUresult rc_ = (call);                         \
    CHECK(rc_ == CUDA_SUCCESS, "%s = %d", #call, (int)rc_); \
  } while (0)
#define JIT(call, want)                                            \
  do {                                                             \
    nvJitLinkResult rc_ = (call);                                  \
    CHECK(rc_ == (want), "%s = %d, want %d", #call, (int)rc_, (int)(want)); \
  } while (0)

// out[i] = twice(i) + bias, with twice and bias from the other module.
static const char* kMain =
    "//\n// relocatable module: the kernel\n//\n"
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 func_retval0) _Z5twicei(.param .b32 _Z5twicei_param_0);\n"
    ".extern .global .align 4 .u32 bias;\n"
    ".visible .entry apply(.param .u64 apply_param_0)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [apply_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "  { .reg .b32 temp_param_reg;\n  .param .b32 param0;\n  st.param.b32 [param0], %r4;\n"
    "  .param .b32 retval0;\n  call.uni (retval0), _Z5twicei, (param0);\n  ld.param.b32 %r5, [retval0];\n  }\n"
    "  ld.global.u32 %r2, [bias];\n  add.s32 %r5, %r5, %r2;\n"
    "  mul.wide.s32 %rd3, %r4, 4;\n  add.s64 %rd4, %rd2, %rd3;\n  st.global.u32 [%rd4], %r5;\n  ret;\n}\n";

// Defines twice(x) = 2x and bias = 5.
static const char* kLib =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .global .align 4 .u32 bias = 5;\n"
    ".visible .func (.param .b32 func_retval0) _Z5twicei(.param .b32 _Z5twicei_param_0)\n{\n"
    "  .reg .b32 %r<3>;\n  ld.param.u32 %r1, [_Z5twicei_param_0];\n  shl.b32 %r2, %r1, 1;\n"
    "  st.param.b32 [func_retval0], %r2;\n  ret;\n}\n";

static char* error_log(nvJitLinkHandle h) {
  size_t n = 0;
  JIT(nvJitLinkGetErrorLogSize(h, &n), NVJITLINK_SUCCESS);
  char* log = (char*)calloc(n + 1, 1);
  JIT(nvJitLinkGetErrorLog(h, log), NVJITLINK_SUCCESS);
  return log;
}

static nvJitLinkHandle create(const char* arch) {
  const char* opts[] = {arch, "-O3", "-lineinfo"};
  nvJitLinkHandle h = NULL;
  JIT(nvJitLinkCreate(&h, 3, opts), NVJITLINK_SUCCESS);
  return h;
}

// Loads `image` with cuModuleLoadData, runs apply on `n` threads, checks the output.
static void run(const void* image, int n) {
  CUmodule mod;
  CU(cuModuleLoadData(&mod, image));
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "apply"));
  CUdeviceptr out;
  CU(cuMemAlloc(&out, n * sizeof(int)));
  void* args[] = {&out};
  CU(cuLaunchKernel(f, n / 64, 1, 1, 64, 1, 1, 0, 0, args, NULL));
  CU(cuCtxSynchronize());
  int* host = (int*)malloc(n * sizeof(int));
  CU(cuMemcpyDtoH(host, out, n * sizeof(int)));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += host[i] != 2 * i + 5;
  CHECK(bad == 0, "%d of %d results wrong (out[1] = %d, want 7)", bad, n, host[1]);
  free(host);
  CU(cuMemFree(out));
  CU(cuModuleUnload(mod));
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  unsigned major = 0, minor = 0;
  JIT(nvJitLinkVersion(&major, &minor), NVJITLINK_SUCCESS);
  CHECK(major >= 12, "version %u.%u", major, minor);

  // Link the two modules: one from memory, one from a file (type by its extension).
  nvJitLinkHandle h = create("-arch=sm_80");
  JIT(nvJitLinkAddData(h, NVJITLINK_INPUT_PTX, kMain, strlen(kMain) + 1, "main.ptx"), NVJITLINK_SUCCESS);
  char path[] = "/tmp/nvjitlink_basic_XXXXXX.ptx";
  int fd = mkstemps(path, 4);
  CHECK(fd >= 0, "mkstemps");
  FILE* file = fdopen(fd, "w");
  fputs(kLib, file);
  fclose(file);
  JIT(nvJitLinkAddFile(h, NVJITLINK_INPUT_ANY, path), NVJITLINK_SUCCESS);
  remove(path);
  JIT(nvJitLinkComplete(h), NVJITLINK_SUCCESS);
  size_t cubin_size = 0, ptx_size = 0;
  JIT(nvJitLinkGetLinkedCubinSize(h, &cubin_size), NVJITLINK_SUCCESS);
  JIT(nvJitLinkGetLinkedPtxSize(h, &ptx_size), NVJITLINK_SUCCESS);
  CHECK(cubin_size > 0 && cubin_size == ptx_size, "cubin %zu bytes, PTX %zu", cubin_size, ptx_size);
  void* cubin = malloc(cubin_size);
  JIT(nvJitLinkGetLinkedCubin(h, cubin), NVJITLINK_SUCCESS);
  char* ptx = (char*)malloc(ptx_size);
  JIT(nvJitLinkGetLinkedPtx(h, ptx), NVJITLINK_SUCCESS);
  CHECK(ptx[ptx_size - 1] == 0 && strstr(ptx, ".entry apply") != NULL, "linked PTX");
  CHECK(memcmp(cubin, ptx, ptx_size) == 0, "the cubin is the linked PTX");
  JIT(nvJitLinkDestroy(&h), NVJITLINK_SUCCESS);
  CHECK(h == NULL, "destroy clears the handle");
  run(cubin, 256);  // the image outlives its link
  // Our "cubin" links again as a cubin input.
  h = create("-arch=sm_90");
  JIT(nvJitLinkAddData(h, NVJITLINK_INPUT_CUBIN, cubin, cubin_size, "linked.cubin"), NVJITLINK_SUCCESS);
  JIT(nvJitLinkComplete(h), NVJITLINK_SUCCESS);
  JIT(nvJitLinkDestroy(&h), NVJITLINK_SUCCESS);
  free(cubin);
  free(ptx);

  // An undefined reference: NVJITLINK_ERROR_INTERNAL from Complete (what NVIDIA's
  // library answers) and NVIDIA's log line.
  h = create("-arch=sm_80");
  JIT(nvJitLinkAddData(h, NVJITLINK_INPUT_PTX, kMain, strlen(kMain), "main.ptx"), NVJITLINK_SUCCESS);
  JIT(nvJitLinkComplete(h), NVJITLINK_ERROR_INTERNAL);
  char* log = error_log(h);
  CHECK(strstr(log, "error   : Undefined reference to '_Z5twicei' in 'main.ptx'") != NULL, "log: %s", log);
  free(log);
  size_t n = 0;
  JIT(nvJitLinkGetLinkedCubinSize(h, &n), NVJITLINK_ERROR_INTERNAL);
  JIT(nvJitLinkDestroy(&h), NVJITLINK_SUCCESS);

  // A bad option: the handle is made (NVIDIA's is) and its log says why.
  const char* bad[] = {"-arch=sm_80", "-bogus"};
  JIT(nvJitLinkCreate(&h, 2, bad), NVJITLINK_ERROR_UNRECOGNIZED_OPTION);
  log = error_log(h);
  CHECK(strcmp(log, "unrecognized option: -bogus\n") == 0, "log: %s", log);
  free(log);
  JIT(nvJitLinkDestroy(&h), NVJITLINK_SUCCESS);
  const char* no_arch[] = {"-O3"};
  JIT(nvJitLinkCreate(&h, 1, no_arch), NVJITLINK_ERROR_MISSING_ARCH);
  JIT(nvJitLinkDestroy(&h), NVJITLINK_SUCCESS);

  // NULL handles and outputs.
  JIT(nvJitLinkCreate(NULL, 2, bad), NVJITLINK_ERROR_NULL_INPUT);
  JIT(nvJitLinkComplete(NULL), NVJITLINK_ERROR_NULL_INPUT);
  JIT(nvJitLinkAddData(NULL, NVJITLINK_INPUT_PTX, kLib, strlen(kLib), "lib.ptx"), NVJITLINK_ERROR_NULL_INPUT);
  JIT(nvJitLinkGetErrorLogSize(NULL, &n), NVJITLINK_ERROR_NULL_INPUT);
  JIT(nvJitLinkGetLinkedCubinSize(NULL, &n), NVJITLINK_ERROR_NULL_INPUT);
  JIT(nvJitLinkDestroy(NULL), NVJITLINK_ERROR_NULL_INPUT);
  h = create("-arch=sm_80");
  JIT(nvJitLinkGetErrorLogSize(h, NULL), NVJITLINK_ERROR_NULL_INPUT);

  // Inputs this implementation cannot use: said in the log, NVJITLINK_ERROR_INVALID_INPUT.
  static const unsigned char bitcode[] = {'B', 'C', 0xC0, 0xDE, 0, 0, 0, 0};
  JIT(nvJitLinkAddData(h, NVJITLINK_INPUT_LTOIR, bitcode, sizeof bitcode, "k.ltoir"), NVJITLINK_ERROR_INVALID_INPUT);
  unsigned char sass[64] = {0x7f, 'E', 'L', 'F'};
  sass[0x12] = 190;  // EM_CUDA: an NVIDIA cubin
  JIT(nvJitLinkAddData(h, NVJITLINK_INPUT_CUBIN, sass, sizeof sass, "k.cubin"), NVJITLINK_ERROR_INVALID_INPUT);
  JIT(nvJitLinkAddData(h, NVJITLINK_INPUT_FATBIN, kLib, strlen(kLib), "lib.fatbin"), NVJITLINK_ERROR_INCORRECT_INPUT_TYPE);
  log = error_log(h);
  CHECK(strstr(log, "'k.ltoir': LTO-IR input is not supported") && strstr(log, "'k.cubin': an NVIDIA cubin holds only SASS") &&
            strstr(log, "'lib.fatbin' does not match type NVJITLINK_INPUT_FATBIN"),
        "log: %s", log);
  free(log);
  // The refused inputs left the link as it was.
  JIT(nvJitLinkAddData(h, NVJITLINK_INPUT_PTX, kLib, strlen(kLib), "lib.ptx"), NVJITLINK_SUCCESS);
  JIT(nvJitLinkComplete(h), NVJITLINK_SUCCESS);
  JIT(nvJitLinkDestroy(&h), NVJITLINK_SUCCESS);

  CU(cuDevicePrimaryCtxRelease(dev));
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("PASS nvjitlink_basic\n");
  return 0;
}
