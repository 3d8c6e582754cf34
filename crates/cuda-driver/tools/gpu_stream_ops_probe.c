/* What NVIDIA's driver answers for stream attributes, stream memory operations, context
 * events, the error log, batched copies, managed range attributes, batch prefetches and
 * discards, array queries, clusters, atomic capabilities and notifications: prints
 * "name code" lines (and values) for whichever libcuda.so.1 is loaded. Every entry point
 * is resolved with dlsym, so no cuda.h is needed; a call that crashes prints SIGNAL, and
 * a hang ends the program after 40 s. Build: cc -O1 gpu_stream_ops_probe.c -ldl -lpthread.
 * Run on an H200 with driver 580.159 for ctests/host/stream_ops.c (that run stopped at
 * the cluster queries, after the array queries, with HANG). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <pthread.h>
#include <unistd.h>
#include <signal.h>
#include <setjmp.h>
static sigjmp_buf jb;
static void on_segv(int sig) { siglongjmp(jb, sig); }
static void on_alarm(int sig) { (void)sig; printf("HANG\n"); _exit(3); }

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef void *H;
static void *lib;
#define FN(name, ...) typedef CUresult (*name##_t)(__VA_ARGS__); static name##_t name;
#define LOAD(name) name = (name##_t)dlsym(lib, #name); if (!name) printf("MISSING %s\n", #name);
FN(cuInit, unsigned)
FN(cuDeviceGet, int *, int)
FN(cuDeviceGetAttribute, int *, int, int)
FN(cuCtxCreate_v2, H *, unsigned, int)
FN(cuCtxSetCurrent, H)
FN(cuCtxGetCurrent, H *)
FN(cuCtxDestroy_v2, H)
FN(cuDevicePrimaryCtxRetain, H *, int)
FN(cuStreamCreate, H *, unsigned)
FN(cuStreamSynchronize, H)
FN(cuStreamGetPriority, H, int *)
FN(cuStreamGetAttribute, H, int, void *)
FN(cuStreamSetAttribute, H, int, const void *)
FN(cuStreamCopyAttributes, H, H)
FN(cuStreamWaitValue32_v2, H, CUdeviceptr, unsigned, unsigned)
FN(cuStreamWriteValue32_v2, H, CUdeviceptr, unsigned, unsigned)
FN(cuStreamWaitValue64_v2, H, CUdeviceptr, unsigned long long, unsigned)
FN(cuStreamWriteValue64_v2, H, CUdeviceptr, unsigned long long, unsigned)
FN(cuStreamBatchMemOp_v2, H, unsigned, void *, unsigned)
FN(cuStreamBeginCapture_v2, H, int)
FN(cuStreamEndCapture, H, H *)
FN(cuMemAlloc_v2, CUdeviceptr *, size_t)
FN(cuMemAllocHost_v2, void **, size_t)
FN(cuMemAllocManaged, CUdeviceptr *, size_t, unsigned)
FN(cuMemcpyDtoH_v2, void *, CUdeviceptr, size_t)
FN(cuMemsetD8_v2, CUdeviceptr, unsigned char, size_t)
FN(cuEventCreate, H *, unsigned)
FN(cuEventQuery, H)
FN(cuCtxRecordEvent, H, H)
FN(cuCtxWaitEvent, H, H)
FN(cuLogsCurrent, unsigned *, unsigned)
FN(cuLogsDumpToMemory, unsigned *, char *, size_t *, unsigned)
FN(cuLogsDumpToFile, unsigned *, const char *, unsigned)
FN(cuLogsRegisterCallback, void *, void *, H *)
FN(cuLogsUnregisterCallback, H)
FN(cuMemcpyBatchAsync, CUdeviceptr *, CUdeviceptr *, size_t *, size_t, void *, size_t *, size_t, size_t *, H)
FN(cuMemcpy3DBatchAsync, size_t, void *, size_t *, unsigned long long, H)
FN(cuMemRangeGetAttribute, void *, size_t, int, CUdeviceptr, size_t)
FN(cuMemAdvise_v2, CUdeviceptr, size_t, int, long long)
FN(cuMemPrefetchAsync_v2, CUdeviceptr, size_t, long long, unsigned, H)
FN(cuMemPrefetchBatchAsync, CUdeviceptr *, size_t *, size_t, void *, size_t *, size_t, unsigned long long, H)
FN(cuMemDiscardBatchAsync, CUdeviceptr *, size_t *, size_t, unsigned long long, H)
FN(cuArrayCreate_v2, H *, const void *)
FN(cuArrayGetMemoryRequirements, void *, H, int)
FN(cuArrayGetSparseProperties, void *, H)
FN(cuModuleLoadData, H *, const void *)
FN(cuModuleGetFunction, H *, H, const char *)
FN(cuOccupancyMaxActiveClusters, int *, H, const void *)
FN(cuOccupancyMaxPotentialClusterSize, int *, H, const void *)
FN(cuDeviceGetHostAtomicCapabilities, unsigned *, const int *, unsigned, int)
FN(cuDeviceGetP2PAtomicCapabilities, unsigned *, const int *, unsigned, int, int)
FN(cuDeviceRegisterAsyncNotification, int, void *, void *, H *)
FN(cuDeviceUnregisterAsyncNotification, int, H)
FN(cuFlushGPUDirectRDMAWrites, int, int)
FN(cuCtxResetPersistingL2Cache, void)
FN(cuCtxDetach, H)
FN(cuProfilerInitialize, const char *, const char *, int)
FN(cuCtxPushCurrent_v2, H)

#define P(name, call) do { if (sigsetjmp(jb, 1) == 0) { CUresult r_ = (call); printf("%-44s %d\n", name, r_); } else printf("%-44s SIGNAL\n", name); } while (0)

static const char ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n"
    ".visible .entry k(.param .u64 a, .param .u32 b, .param .f32 c)\n{\n ret;\n}\n";

static volatile unsigned *host_word;
static void *writer(void *arg) { (void)arg; usleep(100000); *host_word = 7; return NULL; }
static void log_cb(void *data, int level, char *msg, size_t len) { (void)data; printf("LOGCB level %d len %zu: %s\n", level, len, msg); }
static void async_cb(void *info, void *data, H h) { (void)info; (void)data; (void)h; }

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = on_segv; sigaction(SIGSEGV, &sa, NULL); signal(SIGALRM, on_alarm); alarm(40);
  lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) { printf("no libcuda\n"); return 1; }
  LOAD(cuInit) LOAD(cuDeviceGet) LOAD(cuDeviceGetAttribute) LOAD(cuCtxCreate_v2) LOAD(cuCtxSetCurrent) LOAD(cuCtxGetCurrent)
  LOAD(cuCtxDestroy_v2) LOAD(cuDevicePrimaryCtxRetain) LOAD(cuStreamCreate) LOAD(cuStreamSynchronize) LOAD(cuStreamGetPriority)
  LOAD(cuStreamGetAttribute) LOAD(cuStreamSetAttribute) LOAD(cuStreamCopyAttributes) LOAD(cuStreamWaitValue32_v2)
  LOAD(cuStreamWriteValue32_v2) LOAD(cuStreamWaitValue64_v2) LOAD(cuStreamWriteValue64_v2) LOAD(cuStreamBatchMemOp_v2)
  LOAD(cuStreamBeginCapture_v2) LOAD(cuStreamEndCapture) LOAD(cuMemAlloc_v2) LOAD(cuMemAllocHost_v2) LOAD(cuMemAllocManaged)
  LOAD(cuMemcpyDtoH_v2) LOAD(cuMemsetD8_v2) LOAD(cuEventCreate) LOAD(cuEventQuery) LOAD(cuCtxRecordEvent) LOAD(cuCtxWaitEvent)
  LOAD(cuLogsCurrent) LOAD(cuLogsDumpToMemory) LOAD(cuLogsDumpToFile) LOAD(cuLogsRegisterCallback) LOAD(cuLogsUnregisterCallback)
  LOAD(cuMemcpyBatchAsync) LOAD(cuMemcpy3DBatchAsync) LOAD(cuMemRangeGetAttribute) LOAD(cuMemAdvise_v2) LOAD(cuMemPrefetchAsync_v2)
  LOAD(cuMemPrefetchBatchAsync) LOAD(cuMemDiscardBatchAsync) LOAD(cuArrayCreate_v2) LOAD(cuArrayGetMemoryRequirements)
  LOAD(cuArrayGetSparseProperties) LOAD(cuModuleLoadData) LOAD(cuModuleGetFunction) LOAD(cuOccupancyMaxActiveClusters)
  LOAD(cuOccupancyMaxPotentialClusterSize) LOAD(cuDeviceGetHostAtomicCapabilities) LOAD(cuDeviceGetP2PAtomicCapabilities)
  LOAD(cuDeviceRegisterAsyncNotification) LOAD(cuDeviceUnregisterAsyncNotification) LOAD(cuFlushGPUDirectRDMAWrites)
  LOAD(cuCtxResetPersistingL2Cache) LOAD(cuCtxDetach) LOAD(cuProfilerInitialize) LOAD(cuCtxPushCurrent_v2)
  int dev; H ctx, ctx2, s, s2;
  P("init", cuInit(0)); cuDeviceGet(&dev, 0);
  int attrs[] = {92, 93, 94, 98, 108, 109, 116, 117, 118, 120, 122, 123, 126, 129, 148};
  for (unsigned i = 0; i < sizeof attrs / sizeof *attrs; i++) { int v = -99; CUresult r = cuDeviceGetAttribute(&v, attrs[i], dev); printf("attr %d: %d (rc %d)\n", attrs[i], v, r); }
  P("profiler_initialize", cuProfilerInitialize("cfg", "out", 0));
  cuDevicePrimaryCtxRetain(&ctx, dev); cuCtxSetCurrent(ctx);
  P("l2_reset", cuCtxResetPersistingL2Cache());
  cuStreamCreate(&s, 0); cuStreamCreate(&s2, 1);
  /* ---- stream attributes ---- */
  unsigned char v[64];
  int ids[] = {1, 2, 3, 4, 8, 9, 10, 0, 99};
  for (unsigned i = 0; i < sizeof ids / sizeof *ids; i++) {
    memset(v, 0xAB, 64); CUresult r = cuStreamGetAttribute(s, ids[i], v);
    printf("stream_get_attr %d rc %d bytes", ids[i], r); for (int b = 0; b < 32; b++) printf(" %02x", v[b]); printf("\n");
  }
  memset(v, 0xAB, 64); printf("null_stream_get_attr_prio rc %d val %d\n", cuStreamGetAttribute(NULL, 8, v), *(int *)v);
  memset(v, 0, 64); *(int *)v = -3; P("set_prio_-3", cuStreamSetAttribute(s, 8, v));
  { int p = 99; cuStreamGetPriority(s, &p); printf("prio after set -3: %d\n", p); }
  memset(v, 0, 64); *(int *)v = -100; P("set_prio_-100", cuStreamSetAttribute(s, 8, v));
  { int p = 99; cuStreamGetPriority(s, &p); memset(v, 0, 64); cuStreamGetAttribute(s, 8, v); printf("prio after set -100: %d attr %d\n", p, *(int *)v); }
  memset(v, 0, 64); *(int *)v = 100; P("set_prio_100", cuStreamSetAttribute(s, 8, v));
  memset(v, 0, 64); *(unsigned *)v = 0; P("set_sync_0", cuStreamSetAttribute(s, 3, v));
  memset(v, 0, 64); *(unsigned *)v = 4; P("set_sync_4", cuStreamSetAttribute(s, 3, v));
  memset(v, 0, 64); *(unsigned *)v = 5; P("set_sync_5", cuStreamSetAttribute(s, 3, v));
  memset(v, 0, 64); *(unsigned *)v = 1; P("set_domain_1", cuStreamSetAttribute(s, 10, v));
  memset(v, 0, 64); *(unsigned *)v = 2; P("set_domain_2", cuStreamSetAttribute(s, 10, v));
  memset(v, 0, 64); v[0] = 3; v[1] = 5; P("set_domain_map_3_5", cuStreamSetAttribute(s, 9, v));
  memset(v, 0, 64); P("set_coop", cuStreamSetAttribute(s, 2, v));
  { CUdeviceptr d; cuMemAlloc_v2(&d, 1 << 20);
    memset(v, 0, 64); *(CUdeviceptr *)v = d; *(size_t *)(v + 8) = 1 << 20; *(float *)(v + 16) = 0.5f; *(int *)(v + 20) = 2; *(int *)(v + 24) = 1;
    P("set_window_1MiB", cuStreamSetAttribute(s, 1, v));
    *(size_t *)(v + 8) = (size_t)1 << 40; P("set_window_huge", cuStreamSetAttribute(s, 1, v));
    *(size_t *)(v + 8) = 4096; *(float *)(v + 16) = 2.0f; P("set_window_ratio2", cuStreamSetAttribute(s, 1, v));
    *(float *)(v + 16) = 0.5f; *(int *)(v + 20) = 3; P("set_window_prop3", cuStreamSetAttribute(s, 1, v));
    *(size_t *)(v + 8) = 0; *(int *)(v + 20) = 0; *(float *)(v + 16) = 0.f; P("set_window_empty", cuStreamSetAttribute(s, 1, v));
  }
  P("copy_attrs", cuStreamCopyAttributes(s2, s));
  { memset(v, 0, 64); cuStreamGetAttribute(s2, 10, v); printf("copied domain %u\n", *(unsigned *)v); int p; cuStreamGetPriority(s2, &p); printf("copied prio (getprio) %d\n", p); memset(v,0,64); cuStreamGetAttribute(s2, 8, v); printf("copied prio attr %d\n", *(int*)v);}
  P("copy_attrs_null_dst", cuStreamCopyAttributes(NULL, s));
  P("get_attr_null_out", cuStreamGetAttribute(s, 8, NULL));
  /* ---- memops ---- */
  { CUdeviceptr d; cuMemAlloc_v2(&d, 64); cuMemsetD8_v2(d, 0, 64);
    P("write32", cuStreamWriteValue32_v2(s, d, 5, 0));
    P("write64", cuStreamWriteValue64_v2(s, d + 8, 0x100000002ULL, 0)); P("write64_nobarrier", cuStreamWriteValue64_v2(s, d + 8, 0x100000002ULL, 1));
    P("wait32_geq", cuStreamWaitValue32_v2(s, d, 5, 0));
    P("wait32_eq", cuStreamWaitValue32_v2(s, d, 5, 1));
    P("wait32_and", cuStreamWaitValue32_v2(s, d, 4, 2));
    P("wait32_nor", cuStreamWaitValue32_v2(s, d, 2, 3));
    P("wait64_geq", cuStreamWaitValue64_v2(s, d + 8, 0x100000001ULL, 0));
    P("sync", cuStreamSynchronize(s));
    unsigned long long h[2]; cuMemcpyDtoH_v2(h, d, 16); printf("memop words %llx %llx\n", h[0], h[1]);
    P("wait32_flags_4", cuStreamWaitValue32_v2(s, d, 5, 4));
    P("wait32_flush", cuStreamWaitValue32_v2(s, d, 5, 1u << 30));
    P("write32_flags_2", cuStreamWriteValue32_v2(s, d, 5, 2));
    P("write32_misaligned", cuStreamWriteValue32_v2(s, d + 2, 5, 0));
    P("write64_misaligned4", cuStreamWriteValue64_v2(s, d + 4, 5, 0));
    P("sync_after_misuse", cuStreamSynchronize(s));
    unsigned char ops[3][48]; memset(ops, 0, sizeof ops);
    *(unsigned *)ops[0] = 2; *(CUdeviceptr *)(ops[0] + 8) = d + 16; *(unsigned *)(ops[0] + 16) = 9;
    *(unsigned *)ops[1] = 6; *(unsigned *)(ops[1] + 4) = 1;
    *(unsigned *)ops[2] = 1; *(CUdeviceptr *)(ops[2] + 8) = d + 16; *(unsigned *)(ops[2] + 16) = 9; *(unsigned *)(ops[2] + 24) = 1;
    P("batch_ok", cuStreamBatchMemOp_v2(s, 3, ops, 0));
    P("batch_flags1", cuStreamBatchMemOp_v2(s, 3, ops, 1));
    P("batch_count0", cuStreamBatchMemOp_v2(s, 0, ops, 0));
    { unsigned char *many = calloc(256, 48); for (int i = 0; i < 256; i++) *(unsigned *)(many + 48 * i) = 6;
      P("batch_count255", cuStreamBatchMemOp_v2(s, 255, many, 0)); P("batch_count256", cuStreamBatchMemOp_v2(s, 256, many, 0)); }
    P("batch_null_ops", cuStreamBatchMemOp_v2(s, 1, NULL, 0));
    unsigned char op[48]; memset(op, 0, 48); *(unsigned *)op = 3; P("batch_flush_remote", cuStreamBatchMemOp_v2(s, 1, op, 0));
    *(unsigned *)op = 6; *(unsigned *)(op + 4) = 2; P("batch_barrier_flags2", cuStreamBatchMemOp_v2(s, 1, op, 0));
    memset(op, 0, 48); *(unsigned *)op = 7; P("batch_type7", cuStreamBatchMemOp_v2(s, 1, op, 0));
    memset(op, 0, 48); *(unsigned *)op = 8; *(CUdeviceptr *)(op + 8) = d; P("batch_type8", cuStreamBatchMemOp_v2(s, 1, op, 0));
    memset(op, 0, 48); *(unsigned *)op = 0; P("batch_type0", cuStreamBatchMemOp_v2(s, 1, op, 0));
    P("sync2", cuStreamSynchronize(s));
    /* host-written word released by another thread */
    void *hp; cuMemAllocHost_v2(&hp, 64); host_word = hp; *host_word = 0; pthread_t t; pthread_create(&t, NULL, writer, NULL);
    P("wait_host_word", cuStreamWaitValue32_v2(s, (CUdeviceptr)(uintptr_t)hp, 7, 1));
    P("sync_host_word", cuStreamSynchronize(s)); pthread_join(t, NULL);
    /* capture */
    H g; P("capture_begin", cuStreamBeginCapture_v2(s2, 0)); P("write_in_capture", cuStreamWriteValue32_v2(s2, d, 1, 0)); P("capture_end", cuStreamEndCapture(s2, &g));
  }
  /* ---- context events ---- */
  { H e, e2; cuEventCreate(&e, 0); H other; cuCtxCreate_v2(&other, 0, dev); cuEventCreate(&e2, 0); cuCtxSetCurrent(ctx);
    P("ctx_record", cuCtxRecordEvent(ctx, e)); P("ctx_record_null_ctx", cuCtxRecordEvent(NULL, e)); P("ctx_record_other_event", cuCtxRecordEvent(ctx, e2));
    P("ctx_record_other_ctx", cuCtxRecordEvent(other, e)); P("ctx_wait", cuCtxWaitEvent(ctx, e)); P("ctx_wait_null", cuCtxWaitEvent(NULL, e));
    P("ctx_record_null_event", cuCtxRecordEvent(ctx, NULL));
    H g; cuStreamBeginCapture_v2(s2, 2); P("ctx_record_capturing", cuCtxRecordEvent(ctx, e)); P("ctx_wait_capturing", cuCtxWaitEvent(ctx, e)); P("end", cuStreamEndCapture(s2, &g));
    P("ctx_detach_not_current", cuCtxDetach(other));
    cuCtxSetCurrent(other); P("ctx_detach_current", cuCtxDetach(other)); { H c = (H)1; cuCtxGetCurrent(&c); printf("current after detach %p (other %p)\n", c, other); }
    P("ctx_destroy_after_detach", cuCtxDestroy_v2(other));
    cuCtxSetCurrent(ctx); P("ctx_detach_primary", cuCtxDetach(ctx)); cuCtxSetCurrent(ctx);
  }
  /* ---- logs ---- */
  { unsigned it = 0; P("logs_current", cuLogsCurrent(&it, 0)); printf("iterator %u\n", it);
    P("logs_current_flags", cuLogsCurrent(&it, 1)); P("logs_current_null", cuLogsCurrent(NULL, 0));
    H cb; P("logs_register", cuLogsRegisterCallback((void *)log_cb, NULL, &cb)); P("logs_register_null_out", cuLogsRegisterCallback((void *)log_cb, NULL, NULL));
    P("logs_register_null_fn", cuLogsRegisterCallback(NULL, NULL, &cb));
    P("provoke_error", cuStreamWriteValue32_v2(s, 3, 1, 0));
    char buf[4096]; size_t n = sizeof buf; P("dump_mem", cuLogsDumpToMemory(&it, buf, &n, 0)); printf("dumped %zu: [%s] iterator now %u\n", n, buf, it);
    n = sizeof buf; P("dump_mem_again", cuLogsDumpToMemory(&it, buf, &n, 0)); printf("dumped %zu\n", n);
    n = sizeof buf; P("dump_mem_all", cuLogsDumpToMemory(NULL, buf, &n, 0)); printf("dumped all %zu\n", n);
    n = 10; P("dump_mem_small", cuLogsDumpToMemory(NULL, buf, &n, 0)); printf("small size %zu\n", n);
    n = sizeof buf; P("dump_mem_null_buf", cuLogsDumpToMemory(NULL, NULL, &n, 0)); P("dump_mem_null_size", cuLogsDumpToMemory(NULL, buf, NULL, 0));
    n = sizeof buf; P("dump_mem_flags", cuLogsDumpToMemory(NULL, buf, &n, 1));
    P("dump_file_bad", cuLogsDumpToFile(NULL, "/nonexistent/dir/x", 0)); P("dump_file_ok", cuLogsDumpToFile(NULL, "/tmp/cudalog.txt", 0)); P("dump_file_null", cuLogsDumpToFile(NULL, NULL, 0));
    P("logs_unregister", cuLogsUnregisterCallback(cb)); P("logs_unregister_again", cuLogsUnregisterCallback(cb)); P("logs_unregister_null", cuLogsUnregisterCallback(NULL));
  }
  /* ---- batch copies ---- */
  { CUdeviceptr a, b; cuMemAlloc_v2(&a, 256); cuMemAlloc_v2(&b, 256);
    CUdeviceptr dsts[2] = {b, b + 128}, srcs[2] = {a, a + 128}; size_t sizes[2] = {128, 128};
    unsigned char at[24]; memset(at, 0, 24); *(int *)at = 1; size_t idx[2] = {0, 1}; size_t fail = 77;
    P("batch_copy_ok", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, s)); printf("fail %zu\n", fail);
    fail = 77; P("batch_copy_null_stream", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, NULL)); printf("fail %zu\n", fail);
    fail = 77; P("batch_copy_legacy_stream", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, (H)1)); printf("fail %zu\n", fail);
    fail = 77; P("batch_copy_count0", cuMemcpyBatchAsync(dsts, srcs, sizes, 0, at, idx, 1, &fail, s)); printf("fail %zu\n", fail);
    fail = 77; P("batch_copy_numattrs0", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 0, &fail, s)); printf("fail %zu\n", fail);
    *(int *)at = 0; fail = 77; P("batch_copy_order0", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, s)); printf("fail %zu\n", fail);
    *(int *)at = 4; fail = 77; P("batch_copy_order4", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, s)); printf("fail %zu\n", fail);
    *(int *)at = 1; *(unsigned *)(at + 20) = 2; fail = 77; P("batch_copy_flags2", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, s)); printf("fail %zu\n", fail);
    *(unsigned *)(at + 20) = 0; idx[0] = 1; fail = 77; P("batch_copy_idx1", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, s)); printf("fail %zu\n", fail);
    idx[0] = 0; sizes[1] = 0; fail = 77; P("batch_copy_size0", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, s)); printf("fail %zu\n", fail);
    sizes[1] = 4096; fail = 77; P("batch_copy_oob", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, s)); printf("fail %zu\n", fail);
    sizes[1] = 128; srcs[1] = 8; fail = 77; P("batch_copy_bad_src", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, &fail, s)); printf("fail %zu\n", fail);
    srcs[1] = a + 128; fail = 77; P("batch_copy_null_fail", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 1, NULL, s));
    unsigned char at2[48]; memset(at2, 0, 48); *(int *)at2 = 1; *(int *)(at2 + 24) = 2; size_t idx2[2] = {0, 2};
    fail = 77; P("batch_copy_idx_oob", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at2, idx2, 2, &fail, s)); printf("fail %zu\n", fail);
    idx2[1] = 1; fail = 77; P("batch_copy_2attrs", cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at2, idx2, 2, &fail, s)); printf("fail %zu\n", fail);
    unsigned char op[112]; memset(op, 0, 112);
    *(unsigned *)op = 1; *(CUdeviceptr *)(op + 8) = a; *(unsigned *)(op + 40) = 1; *(CUdeviceptr *)(op + 48) = b;
    *(size_t *)(op + 80) = 16; *(size_t *)(op + 88) = 4; *(size_t *)(op + 96) = 1; *(unsigned *)(op + 104) = 1;
    fail = 77; P("batch3d_ok", cuMemcpy3DBatchAsync(1, op, &fail, 0, s)); printf("fail %zu\n", fail);
    fail = 77; P("batch3d_flags1", cuMemcpy3DBatchAsync(1, op, &fail, 1, s)); printf("fail %zu\n", fail);
    fail = 77; P("batch3d_null_stream", cuMemcpy3DBatchAsync(1, op, &fail, 0, NULL)); printf("fail %zu\n", fail);
    *(size_t *)(op + 96) = 0; fail = 77; P("batch3d_depth0", cuMemcpy3DBatchAsync(1, op, &fail, 0, s)); printf("fail %zu\n", fail);
    *(size_t *)(op + 96) = 1; *(unsigned *)op = 3; fail = 77; P("batch3d_type3", cuMemcpy3DBatchAsync(1, op, &fail, 0, s)); printf("fail %zu\n", fail);
    *(unsigned *)op = 0; fail = 77; P("batch3d_type0", cuMemcpy3DBatchAsync(1, op, &fail, 0, s)); printf("fail %zu\n", fail);
    *(unsigned *)op = 1; *(unsigned *)(op + 104) = 0; fail = 77; P("batch3d_order0", cuMemcpy3DBatchAsync(1, op, &fail, 0, s)); printf("fail %zu\n", fail);
    *(unsigned *)(op + 104) = 1; *(size_t *)(op + 16) = 8; fail = 77; P("batch3d_rowlen_short", cuMemcpy3DBatchAsync(1, op, &fail, 0, s)); printf("fail %zu\n", fail);
    cuStreamSynchronize(s);
  }
  /* ---- managed ranges ---- */
  { CUdeviceptr m; cuMemAllocManaged(&m, 1 << 21, 1);
    for (int a = 1; a <= 8; a++) { int out[3] = {55, 55, 55}; size_t sz = a == 3 ? 12 : 4; CUresult r = cuMemRangeGetAttribute(out, sz, a, m, 1 << 21); printf("range_attr %d rc %d: %d %d %d\n", a, r, out[0], out[1], out[2]); }
    long long host_loc = 2LL; /* {type HOST=2, id 0} packed little endian */
    P("advise_pref_host", cuMemAdvise_v2(m, 4096, 3, host_loc));
    long long dev_loc = 1LL; P("advise_accessed_dev", cuMemAdvise_v2(m, 1 << 21, 5, dev_loc));
    P("advise_accessed_host", cuMemAdvise_v2(m, 1 << 21, 5, host_loc));
    P("advise_read_mostly", cuMemAdvise_v2(m, 1 << 21, 1, dev_loc));
    P("prefetch_dev", cuMemPrefetchAsync_v2(m, 1 << 21, dev_loc, 0, s)); cuStreamSynchronize(s);
    for (int a = 1; a <= 8; a++) { int out[3] = {55, 55, 55}; size_t sz = a == 3 ? 12 : 4; CUresult r = cuMemRangeGetAttribute(out, sz, a, m, 4096); printf("range_attr4k %d rc %d: %d %d %d\n", a, r, out[0], out[1], out[2]); }
    for (int a = 1; a <= 8; a++) { int out[3] = {55, 55, 55}; size_t sz = a == 3 ? 12 : 4; CUresult r = cuMemRangeGetAttribute(out, sz, a, m, 1 << 21); printf("range_attr2M %d rc %d: %d %d %d\n", a, r, out[0], out[1], out[2]); }
    long long numa = 3LL; P("advise_pref_numa0", cuMemAdvise_v2(m, 4096, 3, numa));
    { int out = 55; printf("pref_id numa rc %d %d\n", cuMemRangeGetAttribute(&out, 4, 6, m, 4096), out); out = 55; printf("pref_type numa rc %d %d\n", cuMemRangeGetAttribute(&out, 4, 5, m, 4096), out); out = 55; printf("pref numa rc %d %d\n", cuMemRangeGetAttribute(&out, 4, 2, m, 4096), out); }
    P("prefetch_host", cuMemPrefetchAsync_v2(m, 4096, host_loc, 0, s)); cuStreamSynchronize(s);
    { int out = 55; printf("last_id host rc %d %d\n", cuMemRangeGetAttribute(&out, 4, 8, m, 4096), out); }
    int o8[2]; P("range_attr_size8", cuMemRangeGetAttribute(o8, 8, 1, m, 4096));
    P("range_attr_size6_accessed", cuMemRangeGetAttribute(o8, 6, 3, m, 4096));
    P("range_attr_attr9", cuMemRangeGetAttribute(o8, 4, 9, m, 4096));
    P("range_attr_attr0", cuMemRangeGetAttribute(o8, 4, 0, m, 4096));
    P("range_attr_count0", cuMemRangeGetAttribute(o8, 4, 1, m, 0));
    CUdeviceptr d; cuMemAlloc_v2(&d, 4096); P("range_attr_device_mem", cuMemRangeGetAttribute(o8, 4, 1, d, 4096));
    P("range_attr_past_end", cuMemRangeGetAttribute(o8, 4, 1, m, (1 << 21) + 4096));
    P("range_attr_null_data", cuMemRangeGetAttribute(NULL, 4, 1, m, 4096));
    CUdeviceptr ptrs[2] = {m, m + 4096}; size_t sz[2] = {4096, 4096}; size_t li[1] = {0};
    P("prefetch_batch_ok", cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev_loc, li, 1, 0, s));
    P("prefetch_batch_flags", cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev_loc, li, 1, 1, s));
    li[0] = 1; P("prefetch_batch_idx1", cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev_loc, li, 1, 0, s)); li[0] = 0;
    P("prefetch_batch_nlocs0", cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev_loc, li, 0, 0, s));
    P("prefetch_batch_null_stream", cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev_loc, li, 1, 0, NULL));
    P("discard_ok", cuMemDiscardBatchAsync(ptrs, sz, 2, 0, s));
    P("discard_flags", cuMemDiscardBatchAsync(ptrs, sz, 2, 1, s));
    ptrs[1] = d; P("discard_device_mem", cuMemDiscardBatchAsync(ptrs, sz, 2, 0, s));
    P("prefetch_batch_device_mem", cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev_loc, li, 1, 0, s));
    ptrs[1] = m + 1; sz[1] = 100; P("discard_unaligned", cuMemDiscardBatchAsync(ptrs, sz, 2, 0, s));
    P("sync_managed", cuStreamSynchronize(s));
  }
  /* ---- arrays, occupancy, params, atomics, notifications, RDMA ---- */
  { struct { size_t w, h; int fmt; unsigned ch; } ad = {64, 32, 0x20, 1}; H arr; P("array_create", cuArrayCreate_v2(&arr, &ad));
    size_t req[6] = {55, 55, 0, 0, 0, 0}; P("array_mem_req", cuArrayGetMemoryRequirements(req, arr, dev)); printf("req size %zu align %zu\n", req[0], req[1]);
    unsigned char sp[64]; memset(sp, 0x55, 64); P("array_sparse", cuArrayGetSparseProperties(sp, arr)); printf("sparse first words %u %u %u\n", ((unsigned *)sp)[0], ((unsigned *)sp)[1], ((unsigned *)sp)[2]);
    P("array_mem_req_null", cuArrayGetMemoryRequirements(NULL, arr, dev));
  }
  { H mod, f; P("load", cuModuleLoadData(&mod, ptx)); cuModuleGetFunction(&f, mod, "k");
    struct { unsigned gx, gy, gz, bx, by, bz, smem; H stream; void *attrs; unsigned nattrs; } cfg = {8, 1, 1, 256, 1, 1, 0, NULL, NULL, 0};
    int n = -1; P("clusters_no_attr", cuOccupancyMaxActiveClusters(&n, f, &cfg)); printf("clusters %d\n", n);
    unsigned char attr[72]; memset(attr, 0, 72); *(unsigned *)attr = 4; *(unsigned *)(attr + 8) = 1; *(unsigned *)(attr + 12) = 1; *(unsigned *)(attr + 16) = 1;
    cfg.attrs = attr; cfg.nattrs = 1; n = -1; P("clusters_1", cuOccupancyMaxActiveClusters(&n, f, &cfg)); printf("clusters %d\n", n);
    *(unsigned *)(attr + 8) = 2; n = -1; P("clusters_2", cuOccupancyMaxActiveClusters(&n, f, &cfg)); printf("clusters %d\n", n);
    *(unsigned *)(attr + 8) = 3; n = -1; P("clusters_3", cuOccupancyMaxActiveClusters(&n, f, &cfg)); printf("clusters %d\n", n);
    cfg.nattrs = 0; n = -1; P("cluster_size", cuOccupancyMaxPotentialClusterSize(&n, f, &cfg)); printf("cluster size %d\n", n);
    cfg.bx = 2048; n = -1; P("cluster_size_block2048", cuOccupancyMaxPotentialClusterSize(&n, f, &cfg)); printf("cluster size %d\n", n);
  }
  { int ops[14]; for (int i = 0; i < 14; i++) ops[i] = i; unsigned caps[14];
    P("host_atomic", cuDeviceGetHostAtomicCapabilities(caps, ops, 13, dev)); for (int i = 0; i < 13; i++) printf("host cap %d = %u\n", i, caps[i]);
    P("host_atomic_op13", cuDeviceGetHostAtomicCapabilities(caps, ops, 14, dev));
    P("host_atomic_count0", cuDeviceGetHostAtomicCapabilities(caps, ops, 0, dev));
    P("host_atomic_bad_dev", cuDeviceGetHostAtomicCapabilities(caps, ops, 1, 7));
    P("host_atomic_null", cuDeviceGetHostAtomicCapabilities(NULL, ops, 1, dev));
    P("p2p_atomic_same", cuDeviceGetP2PAtomicCapabilities(caps, ops, 1, dev, dev));
    P("p2p_atomic_bad", cuDeviceGetP2PAtomicCapabilities(caps, ops, 1, dev, 7));
  }
  { H h = NULL; P("async_register", cuDeviceRegisterAsyncNotification(dev, (void *)async_cb, NULL, &h));
    P("async_unregister", cuDeviceUnregisterAsyncNotification(dev, h)); P("async_unregister_again", cuDeviceUnregisterAsyncNotification(dev, h));
    P("async_register_null_fn", cuDeviceRegisterAsyncNotification(dev, NULL, NULL, &h));
    P("async_register_null_out", cuDeviceRegisterAsyncNotification(dev, (void *)async_cb, NULL, NULL));
    P("async_register_bad_dev", cuDeviceRegisterAsyncNotification(9, (void *)async_cb, NULL, &h));
  }
  P("rdma_0_100", cuFlushGPUDirectRDMAWrites(0, 100)); P("rdma_0_200", cuFlushGPUDirectRDMAWrites(0, 200));
  P("rdma_1_100", cuFlushGPUDirectRDMAWrites(1, 100)); P("rdma_0_0", cuFlushGPUDirectRDMAWrites(0, 0));
  cuCtxSetCurrent(NULL); P("rdma_no_ctx", cuFlushGPUDirectRDMAWrites(0, 100)); P("l2_no_ctx", cuCtxResetPersistingL2Cache());
  cuCtxSetCurrent(ctx);
  P("write32_null", cuStreamWriteValue32_v2(s, 0, 5, 0));
  { unsigned *m = malloc(64); P("write32_pageable", cuStreamWriteValue32_v2(s, (CUdeviceptr)(uintptr_t)m, 5, 0)); cuStreamSynchronize(s); printf("pageable word %u\n", m[0]); }
  P("sync_end", cuStreamSynchronize(s));
  printf("DONE\n");
  return 0;
}
