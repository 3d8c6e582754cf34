/* Misuse of the driver API, table-driven: every case makes one call that is wrong in one way
 * (null and stale handles, wrong or no context, out-of-range sizes, attributes and flags,
 * destroyed streams and events, double frees, launches over limits, calls before cuInit,
 * use after a fault) and the table ctests/host/misuse/expected.inc holds the code NVIDIA's
 * driver returned for it.
 *
 * Each case runs in a child process of its own (forked before cuInit), so a case that
 * crashes or hangs is reported as such and cannot disturb the next one; the child does its
 * own cuInit and setup. Environment:
 *   MISUSE_RECORD=1    print the table with the codes this driver returns, in expected.inc's
 *                      format (run against NVIDIA's driver to update the golden file)
 *   MISUSE_ONLY=name   run one case
 *   MISUSE_VERBOSE=1   print every case, not only the mismatches */
#define _POSIX_C_SOURCE 200809L
/* cuModuleGetTexRef/GetSurfRef are cases too. */
#define CUDA_ENABLE_DEPRECATED 1

#include "host_check.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* A case's return value when its own setup failed: not a CUresult. */
#define SETUP_FAILED ((CUresult)-2)

#define CASE(name) static CUresult name(void)

/* Setup steps: a failure ends the case as SETUP_FAILED with a line saying which step. */
#define SETUP(call)                                                                    \
  do {                                                                                 \
    CUresult setup_rc_ = (call);                                                       \
    if (setup_rc_ != CUDA_SUCCESS) {                                                   \
      fprintf(stderr, "  setup %s:%d: %s -> %d\n", __FILE__, __LINE__, #call, (int)setup_rc_); \
      return SETUP_FAILED;                                                             \
    }                                                                                  \
  } while (0)

static CUdevice dev;
static CUcontext ctx;

/* cuInit and the primary context of device 0, current. */
static CUresult init_ctx(void) {
  CUresult rc = cuInit(0);
  if (rc == CUDA_SUCCESS) rc = cuDeviceGet(&dev, 0);
  if (rc == CUDA_SUCCESS) rc = cuDevicePrimaryCtxRetain(&ctx, dev);
  if (rc == CUDA_SUCCESS) rc = cuCtxSetCurrent(ctx);
  return rc;
}
#define INIT() SETUP(init_ctx())

/* The module every launch and module case uses: PTX the driver JIT-compiles. */
static const char MODULE_PTX[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".global .align 4 .u32 counter;\n"
    ".visible .entry noop() { ret; }\n"
    ".visible .entry add_one(.param .u64 p, .param .u32 n) {\n"
    "  .reg .u64 %rd<4>; .reg .u32 %r<6>; .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    "  mad.lo.u32 %r5, %r2, %r3, %r4; setp.ge.u32 %p, %r5, %r1; @%p ret;\n"
    "  cvta.to.global.u64 %rd1, %rd1; mul.wide.u32 %rd2, %r5, 4; add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r1, [%rd3]; add.u32 %r1, %r1, 1; st.global.u32 [%rd3], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry store_null() {\n"
    "  .reg .u64 %rd<2>; .reg .u32 %r<2>;\n"
    "  mov.u64 %rd1, 0; mov.u32 %r1, 7; st.global.u32 [%rd1], %r1; ret;\n"
    "}\n"
    ".visible .entry trap_now() { trap; ret; }\n"
    ".visible .entry grid_sync_like() { bar.sync 0; ret; }\n";

static CUmodule mod;

static CUresult load_module(void) { return cuModuleLoadData(&mod, MODULE_PTX); }

static CUresult get_function(CUfunction *f, const char *name) {
  CUresult rc = mod ? CUDA_SUCCESS : load_module();
  return rc == CUDA_SUCCESS ? cuModuleGetFunction(f, mod, name) : rc;
}

#include "misuse/init_device.inc"
#include "misuse/context_memory.inc"
#include "misuse/streams_events.inc"
#include "misuse/modules_launch.inc"
#include "misuse/graphs_pools.inc"
#include "misuse/vmm_arrays_errors.inc"

struct misuse_case {
  const char *name;
  CUresult (*run)(void);
  CUresult expected;
  int nvidia_crashes; /* NVIDIA's driver crashed here: `expected` is our own answer */
  int also;           /* a second code NVIDIA's driver returned in another run, or -1 */
};

#define EXPECTED(fn, code) {#fn, fn, code, 0, -1},
#define NVIDIA_CRASHES(fn, code) {#fn, fn, code, 1, -1},
#define NVIDIA_EITHER(fn, code, other) {#fn, fn, code, 0, (int)(other)},
static const struct misuse_case CASES[] = {
#include "misuse/expected.inc"
};
#undef EXPECTED
#undef NVIDIA_CRASHES
#undef NVIDIA_EITHER

/* What a child reported: a CUresult, or how it ended without reporting one. */
enum outcome_kind { OUTCOME_CODE, OUTCOME_SETUP_FAILED, OUTCOME_SIGNAL, OUTCOME_NO_REPORT };
struct outcome {
  enum outcome_kind kind;
  int value; /* the code, or the signal */
};

static struct outcome run_case(const struct misuse_case *c) {
  struct outcome out = {OUTCOME_NO_REPORT, 0};
  int fds[2];
  pid_t pid;
  int status = 0, code = 0;
  if (pipe(fds) != 0) {
    perror("pipe");
    exit(2);
  }
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(2);
  }
  if (pid == 0) {
    CUresult rc;
    close(fds[0]);
    alarm(60); /* a case that hangs ends as SIGALRM */
    rc = c->run();
    code = (int)rc;
    if (write(fds[1], &code, sizeof code) != (ssize_t)sizeof code) _exit(3);
    /* _exit: the case is over; what it left behind is the driver's to clean up at exit,
     * and NVIDIA's exit handlers after a fault are not what is being tested. */
    _exit(0);
  }
  close(fds[1]);
  if (read(fds[0], &code, sizeof code) == (ssize_t)sizeof code) {
    out.kind = code == (int)SETUP_FAILED ? OUTCOME_SETUP_FAILED : OUTCOME_CODE;
    out.value = code;
  }
  close(fds[0]);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (out.kind == OUTCOME_NO_REPORT && WIFSIGNALED(status)) {
    out.kind = OUTCOME_SIGNAL;
    out.value = WTERMSIG(status);
  }
  return out;
}

static const char *code_name(int code) {
  const char *name = NULL;
  if (cuGetErrorName((CUresult)code, &name) != CUDA_SUCCESS || name == NULL) return "?";
  return name;
}

int main(void) {
  const char *only = getenv("MISUSE_ONLY");
  int record = getenv("MISUSE_RECORD") != NULL;
  int verbose = getenv("MISUSE_VERBOSE") != NULL;
  size_t i, ran = 0, nvidia_crashes = 0;
  for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    const struct misuse_case *c = &CASES[i];
    struct outcome got;
    if (only && strcmp(only, c->name) != 0) continue;
    got = run_case(c);
    ran++;
    nvidia_crashes += (size_t)c->nvidia_crashes;
    if (record) {
      if (got.kind == OUTCOME_CODE)
        printf("%s(%s, %s)\n", c->nvidia_crashes ? "NVIDIA_CRASHES" : "EXPECTED", c->name, code_name(got.value));
      else
        printf("/* %s: %s %d */\n", c->name,
               got.kind == OUTCOME_SIGNAL ? "signal" : got.kind == OUTCOME_SETUP_FAILED ? "setup failed" : "no report",
               got.value);
      continue;
    }
    if (got.kind != OUTCOME_CODE) {
      printf("mismatch: %s: %s %d, want %s\n", c->name,
             got.kind == OUTCOME_SIGNAL ? "ended by signal" : got.kind == OUTCOME_SETUP_FAILED ? "setup failed" : "no report",
             got.value, code_name((int)c->expected));
      failures++;
    } else if (got.value != (int)c->expected && got.value != c->also) {
      printf("mismatch: %s: got %s (%d), want %s (%d)\n", c->name, code_name(got.value), got.value,
             code_name((int)c->expected), (int)c->expected);
      failures++;
    } else if (verbose) {
      printf("ok: %s: %s\n", c->name, code_name(got.value));
    }
  }
  if (!record) {
    printf("%zu cases (%zu where NVIDIA's driver crashes), %d mismatches\n", ran, nvidia_crashes, failures);
    printf("%s misuse\n", failures ? "FAIL" : "PASS");
  }
  return failures ? 1 : 0;
}
