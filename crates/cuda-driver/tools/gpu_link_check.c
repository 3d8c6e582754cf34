/* What NVIDIA's driver answers for cuLink* failures, to compare with ours
 * (cuda-driver/src/link.rs). Run on a machine with an NVIDIA GPU and driver:
 *
 *   cc -O2 -o gpu_link_check crates/cuda-driver/tools/gpu_link_check.c -ldl
 *   ./gpu_link_check                 # NVIDIA's libcuda.so.1
 *   LD_LIBRARY_PATH=target/release ./gpu_link_check   # ours, for the same table
 *
 * Each case prints: the call that failed, its CUresult, and the error log
 * (between | marks). The driver API is declared here (no cuda.h needed). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int CUresult;
typedef void *CUlinkState;
typedef CUresult (*Init)(unsigned);
typedef CUresult (*DeviceGet)(int *, int);
typedef CUresult (*CtxCreate)(void **, unsigned, int);
typedef CUresult (*LinkCreate)(unsigned, int *, void **, CUlinkState *);
typedef CUresult (*LinkAddData)(CUlinkState, int, void *, size_t, const char *, unsigned, int *, void **);
typedef CUresult (*LinkComplete)(CUlinkState, void **, size_t *);
typedef CUresult (*LinkDestroy)(CUlinkState);

#define HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"
static const char *CALLER = HEAD
    ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
    ".visible .entry k(.param .u64 p) {\n .reg .b32 %r<3>;\n mov.u32 %r1, 1;\n"
    " { .param .b32 a; .param .b32 b; st.param.b32 [a], %r1; call.uni (b), twice, (a); ld.param.b32 %r2, [b]; }\n ret;\n}\n";
static const char *CALLEE = HEAD
    ".visible .func (.param .b32 r) twice(.param .b32 x) { .reg .b32 %r<2>; ld.param.b32 %r1, [x];"
    " add.s32 %r1, %r1, %r1; st.param.b32 [r], %r1; ret; }\n";

static LinkCreate link_create;
static LinkAddData link_add;
static LinkComplete link_complete;
static LinkDestroy link_destroy;

/* Links the given (type, text, name) inputs and reports the first failure. */
static void run(const char *title, int n, const int *types, const char **texts, const char **names) {
  char log[4096];
  memset(log, 0, sizeof log);
  int opts[2] = {5 /* CU_JIT_ERROR_LOG_BUFFER */, 6 /* ..._SIZE_BYTES */};
  void *vals[2] = {log, (void *)(size_t)sizeof log};
  CUlinkState st = 0;
  CUresult r = link_create(2, opts, vals, &st);
  const char *what = "cuLinkCreate";
  for (int i = 0; r == 0 && i < n; i++) {
    r = link_add(st, types[i], (void *)texts[i], strlen(texts[i]) + 1, names[i], 0, 0, 0);
    what = "cuLinkAddData";
  }
  if (r == 0) {
    void *cubin = 0;
    size_t size = 0;
    r = link_complete(st, &cubin, &size);
    what = "cuLinkComplete";
  }
  printf("%-22s %s -> %d, log size %zu |%s|\n", title, what, r, (size_t)vals[1], log);
  if (st) link_destroy(st);
}

int main(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) { printf("no libcuda.so.1: %s\n", dlerror()); return 1; }
  int dev = 0;
  void *ctx = 0;
  if (((Init)dlsym(lib, "cuInit"))(0) || ((DeviceGet)dlsym(lib, "cuDeviceGet"))(&dev, 0) ||
      ((CtxCreate)dlsym(lib, "cuCtxCreate_v2"))(&ctx, 0, dev)) {
    printf("driver initialisation failed\n");
    return 1;
  }
  link_create = (LinkCreate)dlsym(lib, "cuLinkCreate_v2");
  link_add = (LinkAddData)dlsym(lib, "cuLinkAddData_v2");
  link_complete = (LinkComplete)dlsym(lib, "cuLinkComplete");
  link_destroy = (LinkDestroy)dlsym(lib, "cuLinkDestroy");
  const int ptx2[] = {1, 1, 1};
  const char *undef[] = {CALLER};
  const char *undef_n[] = {"caller"};
  run("undefined reference", 1, ptx2, undef, undef_n);
  const char *dup[] = {CALLER, CALLEE, CALLEE};
  const char *dup_n[] = {"caller", "callee", "callee2"};
  run("multiple definition", 3, ptx2, dup, dup_n);
  const char *bad[] = {HEAD "this is not ptx;"};
  const char *bad_n[] = {"bad"};
  run("invalid PTX", 1, ptx2, bad, bad_n);
  const int nvvm[] = {5};
  const char *junk[] = {"BC junk"};
  const char *junk_n[] = {"lto"};
  run("NVVM input", 1, nvvm, junk, junk_n);
  const int odd[] = {99};
  run("input type 99", 1, odd, undef, undef_n);
  run("no inputs", 0, ptx2, undef, undef_n);
  return 0;
}
