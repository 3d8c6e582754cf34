/* Prints what an nvJitLink library answers for the API's edge cases, so ours can be
 * compared with NVIDIA's (which links PTX on the CPU: no GPU needed).
 *
 *   cc -O1 -o probe crates/nvjitlink/tools/probe.c -ldl
 *   ./probe path/to/libnvJitLink.so.13
 *
 * The declarations below are written from the documentation (nvJitLink.h is not used, so
 * the same program runs against both libraries; it binds the unversioned names).
 * probe-nvidia-13.5.txt is its output for NVIDIA's libnvJitLink.so.13 from the
 * nvidia-nvjitlink 13.5.37 wheel; diffing ours against it shows the differences
 * crates/nvjitlink/src/link.rs documents. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Link *H;
typedef int (*create_t)(H *, uint32_t, const char *const *);
typedef int (*destroy_t)(H *);
typedef int (*add_data_t)(H, int, const void *, size_t, const char *);
typedef int (*add_file_t)(H, int, const char *);
typedef int (*complete_t)(H);
typedef int (*size_t_fn)(H, size_t *);
typedef int (*get_t)(H, void *);
typedef int (*version_t)(unsigned *, unsigned *);

static create_t create;
static destroy_t destroy;
static add_data_t add_data;
static add_file_t add_file;
static complete_t complete;
static size_t_fn err_size, info_size, cubin_size, ptx_size;
static get_t err_log, info_log, cubin, ptx;
static version_t version;

enum { NONE = 0, CUBIN = 1, PTX, LTOIR, FATBIN, OBJECT, LIBRARY, INDEX, ANY = 10 };

static const char *A =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
    ".visible .entry k(.param .u64 p) {\n .reg .b32 %r<3>; .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [p]; ld.global.u32 %r1, [%rd1];\n"
    " { .param .b32 a; st.param.b32 [a], %r1; .param .b32 r;\n"
    "   call.uni (r), twice, (a); ld.param.b32 %r2, [r]; }\n"
    " st.global.u32 [%rd1], %r2; ret; }\n";
static const char *B =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .func (.param .b32 r) twice(.param .b32 x) {\n .reg .b32 %r<3>;\n"
    " ld.param.b32 %r1, [x]; add.s32 %r2, %r1, %r1; st.param.b32 [r], %r2; ret; }\n";

static void logs(H h, const char *what) {
  size_t n = 12345;
  int rc = err_size(h, &n);
  printf("  %s: ErrorLogSize rc=%d size=%zu", what, rc, n);
  if (rc == 0 && n > 0 && n < 100000) {
    char *b = calloc(n + 8, 1);
    memset(b, 'X', n + 7);
    rc = err_log(h, b);
    printf(" strlen=%zu rc=%d\n    error log: [%s]\n", strlen(b), rc, b);
    free(b);
  } else
    printf("\n");
  n = 12345;
  rc = info_size(h, &n);
  printf("  %s: InfoLogSize rc=%d size=%zu", what, rc, n);
  if (rc == 0 && n > 0 && n < 100000) {
    char *b = calloc(n + 8, 1);
    rc = info_log(h, b);
    printf(" rc=%d\n    info log: [%s]\n", rc, b);
    free(b);
  } else
    printf("\n");
}

static H make(int n, const char *const *opts, const char *what) {
  H h = (H)0x1;
  int rc = create(&h, n, opts);
  printf("Create(%s) rc=%d handle=%s\n", what, rc, h == NULL ? "NULL" : (h == (H)0x1 ? "untouched" : "set"));
  if (rc != 0 && h != NULL && h != (H)0x1) logs(h, "after failed create");
  return rc == 0 ? h : NULL;
}

static void outputs(H h) {
  size_t n = 777;
  int rc = cubin_size(h, &n);
  printf("  CubinSize rc=%d size=%zu\n", rc, n);
  n = 777;
  rc = ptx_size(h, &n);
  printf("  PtxSize rc=%d size=%zu", rc, n);
  if (rc == 0 && n > 0) {
    char *b = calloc(n + 8, 1);
    memset(b, 'X', n + 7);
    rc = ptx(h, b);
    printf(" strlen=%zu rc=%d", strlen(b), rc);
    free(b);
  }
  printf("\n");
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  void *lib = dlopen(argc > 1 ? argv[1] : "libnvJitLink.so.13", RTLD_NOW);
  if (!lib) { printf("dlopen: %s\n", dlerror()); return 1; }
#define SYM(v, n) v = (void *)dlsym(lib, n); if (!v) { printf("missing %s\n", n); return 1; }
  SYM(create, "nvJitLinkCreate"); SYM(destroy, "nvJitLinkDestroy"); SYM(add_data, "nvJitLinkAddData");
  SYM(add_file, "nvJitLinkAddFile"); SYM(complete, "nvJitLinkComplete");
  SYM(err_size, "nvJitLinkGetErrorLogSize"); SYM(err_log, "nvJitLinkGetErrorLog");
  SYM(info_size, "nvJitLinkGetInfoLogSize"); SYM(info_log, "nvJitLinkGetInfoLog");
  SYM(cubin_size, "nvJitLinkGetLinkedCubinSize"); SYM(cubin, "nvJitLinkGetLinkedCubin");
  SYM(ptx_size, "nvJitLinkGetLinkedPtxSize"); SYM(ptx, "nvJitLinkGetLinkedPtx");
  SYM(version, "nvJitLinkVersion");
  unsigned ma = 0, mi = 0;
  printf("Version rc=%d %u.%u\n", version(&ma, &mi), ma, mi);
  printf("Version(NULL,NULL) rc=%d\n", version(NULL, NULL));

  const char *arch[] = {"-arch=sm_80"};
  const char *bad[] = {"-arch=sm_80", "-frobnicate"};
  const char *bad2[] = {"-arch=sm_80", "--lineinfo"};
  const char *many[] = {"-arch=sm_80", "-O3", "-lineinfo", "-g", "-verbose", "-time", "-maxrregcount=32", "-ftz=1",
                        "-prec-div=0", "-prec-sqrt=1", "-fma=1", "-Xptxas=-v", "-kernels-used=k", "-no-cache"};
  const char *o2[] = {"-arch=sm_80", "-O2"};
  const char *ptxopt[] = {"-arch=sm_80", "-ptx"};
  const char *ltoptx[] = {"-arch=sm_80", "-lto", "-ptx"};
  const char *compute[] = {"-arch=compute_80"};
  const char *weird[] = {"-arch=sm_999"};
  const char *weird2[] = {"-arch=banana"};
  const char *nullopt[] = {"-arch=sm_80", NULL};
  make(0, NULL, "no options");
  make(0, arch, "numOptions 0");
  const char *g[] = {"-arch=sm_80", "-g"};
  const char *g0[] = {"-arch=sm_80", "-g", "-O0"};
  const char *line[] = {"-arch=sm_80", "-lineinfo", "-O3"};
  const char *lto[] = {"-arch=sm_80", "-lto"};
  const char *twice[] = {"-arch=sm_80", "-arch=sm_90"};
  const char *noarch[] = {"-O3"};
  H t = make(2, g, "-g"); if (t) destroy(&t);
  t = make(3, g0, "-g -O0"); if (t) destroy(&t);
  t = make(3, line, "-lineinfo -O3"); if (t) destroy(&t);
  t = make(2, twice, "-arch twice"); if (t) destroy(&t);
  make(1, noarch, "-O3 only");
  t = make(2, lto, "-lto");
  if (t) {
    printf("  AddData A rc=%d\n", add_data(t, PTX, A, strlen(A) + 1, "a.ptx"));
    printf("  AddData B rc=%d\n", add_data(t, PTX, B, strlen(B) + 1, "b.ptx"));
    printf("  Complete rc=%d\n", complete(t)); outputs(t); logs(t, "-lto"); destroy(&t);
  }
  make(2, bad, "-arch=sm_80 -frobnicate");
  make(2, bad2, "--lineinfo");
  H m = make(14, many, "many options"); if (m) destroy(&m);
  make(2, o2, "-O2");
  H p = make(2, ptxopt, "-ptx without -lto");
  if (p) {
    printf("  AddData A rc=%d\n", add_data(p, PTX, A, strlen(A) + 1, "a.ptx"));
    printf("  AddData B rc=%d\n", add_data(p, PTX, B, strlen(B) + 1, "b.ptx"));
    printf("  Complete rc=%d\n", complete(p)); outputs(p); logs(p, "-ptx"); destroy(&p);
  }
  p = make(3, ltoptx, "-lto -ptx");
  if (p) {
    printf("  AddData A rc=%d\n", add_data(p, PTX, A, strlen(A) + 1, "a.ptx"));
    printf("  AddData B rc=%d\n", add_data(p, PTX, B, strlen(B) + 1, "b.ptx"));
    printf("  Complete rc=%d\n", complete(p)); outputs(p); logs(p, "-lto -ptx"); destroy(&p);
  }
  p = make(1, compute, "-arch=compute_80"); if (p) destroy(&p);
  make(1, weird, "-arch=sm_999");
  make(1, weird2, "-arch=banana");
  make(2, nullopt, "NULL option string");
  printf("Create(NULL handle ptr) rc=%d\n", create(NULL, 1, arch));

  H h = make(1, arch, "-arch=sm_80");
  printf("GetErrorLogSize before anything: "); logs(h, "fresh");
  printf("Outputs before Complete:\n"); outputs(h);
  printf("AddData A rc=%d\n", add_data(h, PTX, A, strlen(A) + 1, "a.ptx"));
  printf("Complete (B missing) rc=%d\n", complete(h));
  logs(h, "missing symbol");
  outputs(h);
  /* NVIDIA's library crashes on further use of a handle whose Complete failed. */
  destroy(&h);
  printf("Destroy sets handle NULL: %s\n", h == NULL ? "yes" : "no");

  h = make(1, arch, "-arch=sm_80");
  printf("AddData A (no NUL, exact size) rc=%d\n", add_data(h, PTX, A, strlen(A), NULL));
  printf("AddData B as ANY rc=%d\n", add_data(h, ANY, B, strlen(B) + 1, "b.ptx"));
  printf("AddData B again (duplicate) rc=%d\n", add_data(h, PTX, B, strlen(B) + 1, "b2.ptx"));
  logs(h, "after duplicate");
  printf("Complete rc=%d\n", complete(h));
  logs(h, "duplicate");
  outputs(h);
  printf("Complete twice rc=%d\n", complete(h));
  destroy(&h);

  h = make(1, arch, "-arch=sm_80");
  printf("AddData A + B OK: %d %d\n", add_data(h, PTX, A, strlen(A) + 1, "a"), add_data(h, PTX, B, strlen(B) + 1, "b"));
  printf("Complete rc=%d\n", complete(h));
  outputs(h); logs(h, "good");
  printf("AddData after Complete rc=%d\n", add_data(h, PTX, B, strlen(B) + 1, "b3"));
  destroy(&h);

  h = make(1, arch, "-arch=sm_80");
  printf("AddData invalid PTX rc=%d\n", add_data(h, PTX, "garbage here;", 14, "bad.ptx"));
  logs(h, "invalid ptx");
  static const char *S = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .func f() { frobnicate.u32 %r1; ret; }\n";
  printf("AddData PTX with a syntax error rc=%d\n", add_data(h, PTX, S, strlen(S) + 1, "syntax.ptx"));
  logs(h, "syntax error");
  printf("Complete after invalid rc=%d\n", complete(h));
  logs(h, "complete after invalid ptx");
  destroy(&h);

  h = make(1, arch, "-arch=sm_80");
  printf("AddData LTOIR garbage rc=%d\n", add_data(h, LTOIR, "garbage", 8, "x.ltoir")); logs(h, "ltoir");
  printf("AddData CUBIN garbage rc=%d\n", add_data(h, CUBIN, "garbage", 8, "x.cubin")); logs(h, "cubin");
  printf("AddData CUBIN with PTX text rc=%d\n", add_data(h, CUBIN, B, strlen(B) + 1, "ptx.cubin")); logs(h, "cubin ptx");
  printf("AddData FATBIN garbage rc=%d\n", add_data(h, FATBIN, "garbage", 8, "x.fatbin")); logs(h, "fatbin");
  printf("AddData OBJECT garbage rc=%d\n", add_data(h, OBJECT, "garbage", 8, "x.o")); logs(h, "object");
  printf("AddData LIBRARY garbage rc=%d\n", add_data(h, LIBRARY, "garbage", 8, "x.a")); logs(h, "library");
  printf("AddData ANY garbage rc=%d\n", add_data(h, ANY, "garbage", 8, "x")); logs(h, "any");
  printf("AddData NONE rc=%d\n", add_data(h, NONE, B, strlen(B) + 1, "none")); logs(h, "none");
  printf("AddData type 42 rc=%d\n", add_data(h, 42, B, strlen(B) + 1, "t42"));
  printf("AddData INDEX rc=%d\n", add_data(h, INDEX, "garbage", 8, "x.idx"));
  printf("AddData NULL data rc=%d\n", add_data(h, PTX, NULL, 10, "null"));
  printf("AddData size 0 rc=%d\n", add_data(h, PTX, B, 0, "empty"));
  printf("AddFile missing rc=%d\n", add_file(h, PTX, "/nonexistent/x.ptx")); logs(h, "missing file");
  printf("AddFile NULL name rc=%d\n", add_file(h, PTX, NULL));
  destroy(&h);

  h = make(1, arch, "-arch=sm_80");
  printf("Complete empty link rc=%d\n", complete(h)); outputs(h); logs(h, "empty");
  destroy(&h);

  size_t n = 5;
  printf("NULL handle: Complete=%d ErrorLogSize=%d InfoLogSize=%d CubinSize=%d PtxSize=%d AddData=%d\n", complete(NULL),
         err_size(NULL, &n), info_size(NULL, &n), cubin_size(NULL, &n), ptx_size(NULL, &n), add_data(NULL, PTX, B, 10, "x"));
  h = make(1, arch, "-arch=sm_80");
  printf("NULL out: ErrorLogSize=%d ErrorLog=%d CubinSize=%d\n", err_size(h, NULL), err_log(h, NULL), cubin_size(h, NULL));
  destroy(&h);
  printf("Destroy(NULL)=%d Destroy(&NULL)=%d\n", destroy(NULL), destroy(&h));
  return 0;
}
