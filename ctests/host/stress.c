/* Stress of the driver's concurrent parts: host threads, each with several streams of its
 * own, issue kernels, fills, copies, event records and cross-stream waits, host functions
 * and queries in random order, and check every buffer against a host-side model of what
 * the operations must have left in it. Then processes started together compile the same
 * new modules into one kernel cache (CUDA_CACHE_PATH), twice (cold, then warm), and the
 * cache directory is checked for torn or foreign entries.
 *
 * Environment: STRESS_SECONDS (default 10) for the threads' phase, STRESS_THREADS (4),
 * STRESS_STREAMS (3 per thread), STRESS_PROCESSES (4), STRESS_SEED (time-based; printed).
 * A run that does not finish within 3 x STRESS_SECONDS + 120 s is reported as a hang. */
#define _POSIX_C_SOURCE 200809L

#include "host_check.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ELEMENTS 4096
#define MAX_STREAMS 16

static const char STRESS_PTX[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry add_const(.param .u64 p, .param .u32 n, .param .u32 c) {\n"
    "  .reg .u64 %rd<4>; .reg .u32 %r<8>; .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n]; ld.param.u32 %r6, [c];\n"
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    "  mad.lo.u32 %r5, %r2, %r3, %r4; setp.ge.u32 %p, %r5, %r1; @%p ret;\n"
    "  cvta.to.global.u64 %rd1, %rd1; mul.wide.u32 %rd2, %r5, 4; add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r7, [%rd3]; add.u32 %r7, %r7, %r6; st.global.u32 [%rd3], %r7;\n"
    "  ret;\n"
    "}\n";

static CUcontext ctx;
static CUfunction add_const;
static double deadline;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned env_or(const char *name, unsigned fallback) {
  const char *v = getenv(name);
  return v && *v ? (unsigned)strtoul(v, NULL, 10) : fallback;
}

static unsigned next_random(unsigned long long *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return (unsigned)(*state >> 32);
}

/* Host functions run on the driver's threads: a counter under a mutex, checked at the end. */
static pthread_mutex_t host_calls_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long host_calls_done;
static void CUDA_CB count_host_call(void *unused) {
  (void)unused;
  pthread_mutex_lock(&host_calls_lock);
  host_calls_done++;
  pthread_mutex_unlock(&host_calls_lock);
}

struct worker {
  unsigned index, streams;
  unsigned long long seed;
  unsigned long ops, checks, host_calls;
  int failed;
  pthread_t thread;
};

struct lane {
  CUstream stream;
  CUdeviceptr buffer;
  unsigned *readback; /* pinned */
  unsigned model;     /* the value every element must hold once the stream is idle */
};

#define TRY(call)                                                                            \
  do {                                                                                       \
    CUresult try_rc_ = (call);                                                               \
    if (try_rc_ != CUDA_SUCCESS) {                                                           \
      fprintf(stderr, "worker %u: %s:%d: %s -> %d\n", w->index, __FILE__, __LINE__, #call, (int)try_rc_); \
      w->failed = 1;                                                                         \
      return NULL;                                                                           \
    }                                                                                        \
  } while (0)

/* Copies the lane's buffer back and compares it with the model. */
static int check_lane(struct worker *w, struct lane *l) {
  unsigned i;
  if (cuMemcpyDtoHAsync(l->readback, l->buffer, ELEMENTS * sizeof(unsigned), l->stream) != CUDA_SUCCESS ||
      cuStreamSynchronize(l->stream) != CUDA_SUCCESS) {
    fprintf(stderr, "worker %u: read back failed\n", w->index);
    return 0;
  }
  for (i = 0; i < ELEMENTS; i++) {
    if (l->readback[i] != l->model) {
      fprintf(stderr, "worker %u: element %u is %u, expected %u\n", w->index, i, l->readback[i], l->model);
      return 0;
    }
  }
  w->checks++;
  return 1;
}

static void *work(void *arg) {
  struct worker *w = (struct worker *)arg;
  struct lane lanes[MAX_STREAMS];
  CUevent events[2];
  unsigned i, n = ELEMENTS;
  TRY(cuCtxSetCurrent(ctx));
  TRY(cuEventCreate(&events[0], CU_EVENT_DISABLE_TIMING));
  TRY(cuEventCreate(&events[1], CU_EVENT_DISABLE_TIMING));
  for (i = 0; i < w->streams; i++) {
    struct lane *l = &lanes[i];
    void *pinned;
    int priority = -(int)(i % 2);
    TRY(cuStreamCreateWithPriority(&l->stream, i % 3 == 0 ? CU_STREAM_DEFAULT : CU_STREAM_NON_BLOCKING, priority));
    TRY(cuMemAlloc(&l->buffer, ELEMENTS * sizeof(unsigned)));
    TRY(cuMemAllocHost(&pinned, ELEMENTS * sizeof(unsigned)));
    l->readback = (unsigned *)pinned;
    l->model = w->index * 1000 + i;
    TRY(cuMemsetD32Async(l->buffer, l->model, ELEMENTS, l->stream));
  }
  while (now() < deadline && !w->failed) {
    unsigned op = next_random(&w->seed) % 16;
    struct lane *a = &lanes[next_random(&w->seed) % w->streams];
    struct lane *b = &lanes[next_random(&w->seed) % w->streams];
    w->ops++;
    if (op < 6) { /* a kernel adding c to every element */
      unsigned c = next_random(&w->seed) % 100 + 1;
      void *params[3];
      params[0] = &a->buffer;
      params[1] = &n;
      params[2] = &c;
      TRY(cuLaunchKernel(add_const, ELEMENTS / 256, 1, 1, 256, 1, 1, 0, a->stream, params, NULL));
      a->model += c;
    } else if (op < 8) { /* a fill */
      unsigned v = next_random(&w->seed);
      TRY(cuMemsetD32Async(a->buffer, v, ELEMENTS, a->stream));
      a->model = v;
    } else if (op < 10 && a != b) {
      /* b copies a's buffer once a's earlier work is done, and a waits for the copy before
       * it changes its buffer again. */
      TRY(cuEventRecord(events[0], a->stream));
      TRY(cuStreamWaitEvent(b->stream, events[0], 0));
      TRY(cuMemcpyDtoDAsync(b->buffer, a->buffer, ELEMENTS * sizeof(unsigned), b->stream));
      TRY(cuEventRecord(events[1], b->stream));
      TRY(cuStreamWaitEvent(a->stream, events[1], 0));
      b->model = a->model;
    } else if (op < 12) { /* a host function in stream order */
      TRY(cuLaunchHostFunc(a->stream, count_host_call, NULL));
      w->host_calls++;
    } else if (op < 14) { /* queries answer done or not yet, nothing else */
      CUresult q = cuStreamQuery(a->stream);
      if (q != CUDA_SUCCESS && q != CUDA_ERROR_NOT_READY) {
        fprintf(stderr, "worker %u: cuStreamQuery -> %d\n", w->index, (int)q);
        w->failed = 1;
      }
    } else if (!check_lane(w, a)) {
      w->failed = 1;
    }
  }
  for (i = 0; i < w->streams && !w->failed; i++) {
    if (!check_lane(w, &lanes[i])) w->failed = 1;
  }
  for (i = 0; i < w->streams; i++) {
    cuStreamDestroy(lanes[i].stream);
    cuMemFree(lanes[i].buffer);
    cuMemFreeHost(lanes[i].readback);
  }
  cuEventDestroy(events[0]);
  cuEventDestroy(events[1]);
  return NULL;
}

static int threads_phase(unsigned seconds, unsigned threads, unsigned streams, unsigned long long seed) {
  struct worker workers[64];
  unsigned i;
  unsigned long ops = 0, checks = 0, host_calls = 0;
  int failed = 0;
  CUmodule mod;
  CUdevice dev;
  if (threads > 64) threads = 64;
  if (streams < 1) streams = 1;
  if (streams > MAX_STREAMS) streams = MAX_STREAMS;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuModuleLoadData(&mod, STRESS_PTX));
  CHECK(cuModuleGetFunction(&add_const, mod, "add_const"));
  deadline = now() + seconds;
  for (i = 0; i < threads; i++) {
    memset(&workers[i], 0, sizeof workers[i]);
    workers[i].index = i;
    workers[i].streams = streams;
    workers[i].seed = seed * 0x9e3779b97f4a7c15ull + i + 1;
    if (pthread_create(&workers[i].thread, NULL, work, &workers[i]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      return 0;
    }
  }
  for (i = 0; i < threads; i++) {
    pthread_join(workers[i].thread, NULL);
    ops += workers[i].ops;
    checks += workers[i].checks;
    host_calls += workers[i].host_calls;
    failed |= workers[i].failed;
  }
  CHECK(cuCtxSynchronize());
  if (host_calls_done != host_calls) {
    fprintf(stderr, "host functions: %lu ran, %lu queued\n", host_calls_done, host_calls);
    failed = 1;
  }
  printf("threads: %u threads x %u streams, %.0f s: %lu operations, %lu buffer checks, %lu host functions%s\n", threads,
         streams, (double)seconds, ops, checks, host_calls, failed ? ", FAILED" : "");
  CHECK(cuModuleUnload(mod));
  return !failed;
}

/* One process of the cache phase: compiles `modules` PTX modules that differ by `tag` (new
 * to the cache on the first round), runs each and checks the result. */
static int cache_process(unsigned tag, unsigned modules) {
  CUdevice dev;
  CUcontext c;
  CUdeviceptr buffer;
  unsigned i, j, host[256];
  char ptx[sizeof STRESS_PTX + 128];
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&c, dev));
  CHECK(cuCtxSetCurrent(c));
  CHECK(cuMemAlloc(&buffer, sizeof host));
  for (i = 0; i < modules; i++) {
    CUmodule m;
    CUfunction f;
    unsigned n = 256, add = i + 1;
    void *params[3];
    /* A module-scope variable named after the tag and the index makes each module's code,
     * and so its cache key, its own. */
    snprintf(ptx, sizeof ptx, "%s.global .u32 tag_%u_%u;\n", STRESS_PTX, tag, i);
    CHECK(cuModuleLoadData(&m, ptx));
    CHECK(cuModuleGetFunction(&f, m, "add_const"));
    CHECK(cuMemsetD32(buffer, 7, 256));
    params[0] = &buffer;
    params[1] = &n;
    params[2] = &add;
    CHECK(cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, CU_STREAM_LEGACY, params, NULL));
    CHECK(cuMemcpyDtoH(host, buffer, sizeof host));
    for (j = 0; j < 256; j++) {
      if (host[j] != 7 + add) {
        fprintf(stderr, "cache process: module %u element %u is %u\n", i, j, host[j]);
        return 0;
      }
    }
    CHECK(cuModuleUnload(m));
  }
  return 1;
}

/* Every file in the cache's directory is a whole entry: an object file or a pack of them
 * (compiler-core/src/cache.rs), and no temporary file is left behind. */
static int cache_entries_intact(const char *dir, unsigned *entries) {
  char path[4096];
  DIR *d;
  struct dirent *e;
  int ok = 1;
  snprintf(path, sizeof path, "%s/cuda-cpu", dir);
  d = opendir(path);
  *entries = 0;
  if (d == NULL) {
    fprintf(stderr, "cache directory %s is missing\n", path);
    return 0;
  }
  while ((e = readdir(d)) != NULL) {
    char file[4608], magic[8];
    FILE *f;
    size_t got;
    struct stat st;
    if (e->d_name[0] == '.') continue;
    snprintf(file, sizeof file, "%s/%s", path, e->d_name);
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    f = fopen(file, "rb");
    got = f ? fread(magic, 1, sizeof magic, f) : 0;
    if (f) fclose(f);
    if (got < 4 || (memcmp(magic, "\x7f" "ELF", 4) != 0 && (got < 8 || memcmp(magic, "cuda-obj", 8) != 0))) {
      fprintf(stderr, "cache entry %s is neither an object nor a pack (%zu bytes read)\n", e->d_name, got);
      ok = 0;
    }
    (*entries)++;
  }
  closedir(d);
  return ok;
}

static int processes_phase(unsigned processes, unsigned long long seed) {
  char dir[] = "/tmp/stress-cache-XXXXXX";
  unsigned round, p, entries = 0, tag = (unsigned)(seed % 1000000);
  int ok = 1;
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 0;
  }
  setenv("CUDA_CACHE_PATH", dir, 1);
  for (round = 0; round < 2 && ok; round++) {
    pid_t pids[32];
    if (processes > 32) processes = 32;
    fflush(stdout);
    for (p = 0; p < processes; p++) {
      pids[p] = fork();
      if (pids[p] == 0) _exit(cache_process(tag, 6) ? 0 : 1);
    }
    for (p = 0; p < processes; p++) {
      int status = 0;
      if (pids[p] < 0 || waitpid(pids[p], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "cache round %u: process %u failed (status %#x)\n", round, p, (unsigned)status);
        ok = 0;
      }
    }
  }
  ok = ok && cache_entries_intact(dir, &entries);
  printf("processes: %u processes x 2 rounds x 6 modules into one cache: %u entries%s\n", processes, entries,
         ok ? "" : ", FAILED");
  {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  }
  return ok && entries > 0;
}

int main(void) {
  unsigned seconds = env_or("STRESS_SECONDS", 10);
  unsigned long long seed = env_or("STRESS_SEED", (unsigned)time(NULL));
  int ok;
  alarm(3 * seconds + 120); /* a deadlock ends the run as SIGALRM */
  printf("seed %llu\n", seed);
  /* The processes go first: fork before this process starts the driver's threads. */
  ok = processes_phase(env_or("STRESS_PROCESSES", 4), seed);
  ok = threads_phase(seconds, env_or("STRESS_THREADS", 4), env_or("STRESS_STREAMS", 3), seed) && ok;
  printf("%s stress\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
