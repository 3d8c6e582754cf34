/* Stream attributes, stream memory operations, context-wide events, the error log,
 * batched copies, managed-range attributes and the smaller driver entry points of
 * issue 14, through the driver API against our include/cuda.h alone.
 *
 * Results are checked against values computed here (words written by the stream, bytes
 * copied by the batches, what the hints said); every misuse is one entry of kExpected,
 * whose codes are those NVIDIA's driver 580.159 gave on an H200 for the same calls
 * (probe run in this issue), except where a comment says otherwise.
 * STREAM_OPS_PRINT=1 prints this machine's codes in the table's form.
 * Prints "PASS stream_ops" on success. */
#define _POSIX_C_SOURCE 199309L /* nanosleep */
#define CUDA_ENABLE_DEPRECATED  /* cuCtxDetach */
#include <cuda.h>

#include "host_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXPECT_TRUE(cond)                                               \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                       \
    }                                                                   \
  } while (0)

struct Case {
  const char *name;
  int expected;
};

static const struct Case kExpected[] = {
    {"attr_get_cooperative", 1},
    {"attr_get_cluster_dim", 1},
    {"attr_set_sync_0", 1},
    {"attr_set_sync_5", 1},
    {"attr_set_domain_2", 1},
    {"attr_set_domain_map_3_5", 1},
    {"attr_set_window_huge", 1},
    {"attr_set_window_ratio_2", 1},
    {"wait_flags_4", 1},
    {"wait_flush", 801},
    {"write_flags_2", 1},
    {"write_no_memory_barrier", 1},
    {"write_misaligned", 1},
    {"write64_misaligned", 1},
    {"batch_flags_1", 1},
    {"batch_count_0", 0},
    {"batch_count_256", 1},
    {"batch_flush_remote_writes", 801},
    {"batch_barrier_flags_2", 1},
    {"batch_type_7", 1},
    {"batch_type_0", 1},
    {"ctx_record_null_ctx", 201},
    {"ctx_record_other_ctx_event", 400},
    {"ctx_record_null_event", 400},
    {"ctx_wait_null_ctx", 201},
    {"ctx_record_capturing", 900},
    {"ctx_wait_capturing", 900},
    {"capture_end_after_ctx_record", 901},
    {"ctx_detach_not_current", 201},
    {"ctx_detach_current", 0},
    {"ctx_destroy_after_detach", 201},
    {"ctx_detach_primary", 0},
    {"logs_current_null", 1},
    {"logs_register_null_fn", 1},
    {"logs_dump_small", 1},
    {"logs_dump_null_buffer", 1},
    {"logs_dump_null_size", 1},
    {"logs_dump_file_bad_path", 1},
    {"logs_unregister_null", 1},
    {"batch_copy_null_stream", 1},
    {"batch_copy_legacy_stream", 1},
    {"batch_copy_count_0", 1},
    {"batch_copy_order_0", 1},
    {"batch_copy_flags_2", 1},
    {"batch_copy_first_index_1", 1},
    {"batch_copy_size_0", 1},
    {"batch_copy_past_end", 1},
    {"batch_copy_index_past_count", 1},
    {"batch3d_flags_1", 1},
    {"batch3d_null_stream", 1},
    {"batch3d_depth_0", 1},
    {"batch3d_operand_type_3", 1},
    {"batch3d_order_0", 1},
    {"batch3d_row_length_short", 1},
    {"range_attr_size_8", 1},
    {"range_attr_accessed_by_size_6", 1},
    {"range_attr_id_9", 1},
    {"range_attr_count_0", 1},
    {"range_attr_device_memory", 1},
    {"range_attr_past_end", 1},
    {"range_attr_null_data", 1},
    {"prefetch_batch_flags", 1},
    {"prefetch_batch_first_index_1", 1},
    {"prefetch_batch_no_locations", 1},
    {"prefetch_batch_null_stream", 1},
    {"prefetch_batch_device_memory", 1},
    {"discard_batch_flags", 1},
    {"discard_batch_device_memory", 1},
    {"array_memory_requirements", 1},
    {"array_sparse_properties", 1},
};
#define CASES ((int)(sizeof(kExpected) / sizeof(kExpected[0])))

static int got[CASES];
static int ncases = 0;

static void answer(CUresult rc) {
  if (ncases < CASES) got[ncases] = (int)rc;
  ncases++;
}

static void sleep_ms(long ms) {
  struct timespec ts;
  ts.tv_sec = ms / 1000;
  ts.tv_nsec = (ms % 1000) * 1000000L;
  nanosleep(&ts, NULL);
}

static volatile unsigned *word(void *base, int i) { return (volatile unsigned *)base + i; }

static int log_messages = 0;
static void CUDA_CB on_log(void *data, CUlogLevel level, char *message, size_t length) {
  (void)data;
  (void)level;
  if (message != NULL && strlen(message) == length) log_messages++;
}

typedef CUresult(CUDAAPI *BatchV1)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *, size_t, size_t *,
                                   CUstream);
typedef CUresult(CUDAAPI *Batch3DV1)(size_t, CUDA_MEMCPY3D_BATCH_OP *, size_t *, unsigned long long, CUstream);
typedef CUresult(CUDAAPI *PrefetchBatch)(CUdeviceptr *, size_t *, size_t, CUmemLocation *, size_t *, size_t, unsigned long long, CUstream);

static const char kernel_ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n"
    ".visible .entry k(.param .u64 a, .param .u32 b, .param .f32 c)\n{\n ret;\n}\n";

static void stream_attributes(CUstream s, CUstream s2) {
  CUstreamAttrValue v;
  memset(&v, 0, sizeof v);
  CHECK(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
  EXPECT_TRUE((unsigned)v.syncPolicy == 0xffffffffu); /* none chosen yet, as NVIDIA's */
  CHECK(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &v));
  EXPECT_TRUE(v.memSyncDomain == CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT);
  CHECK(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
  EXPECT_TRUE(v.accessPolicyWindow.num_bytes == 0 && v.accessPolicyWindow.base_ptr == NULL);
  answer(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v));
  answer(cuStreamGetAttribute(s, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v));
  /* Priorities are clamped to the range and read back by cuStreamGetPriority. */
  int least, greatest, prio;
  CHECK(cuCtxGetStreamPriorityRange(&least, &greatest));
  memset(&v, 0, sizeof v);
  v.priority = greatest - 100;
  CHECK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v));
  CHECK(cuStreamGetPriority(s, &prio));
  EXPECT_TRUE(prio == greatest);
  memset(&v, 0, sizeof v);
  v.syncPolicy = (CUsynchronizationPolicy)0;
  answer(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
  v.syncPolicy = (CUsynchronizationPolicy)5;
  answer(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
  v.syncPolicy = CU_SYNC_POLICY_BLOCKING_SYNC;
  CHECK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
  memset(&v, 0, sizeof v);
  v.memSyncDomain = (CUlaunchMemSyncDomain)2;
  answer(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &v));
  v.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
  CHECK(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &v));
  memset(&v, 0, sizeof v);
  v.memSyncDomainMap.default_ = 3;
  v.memSyncDomainMap.remote = 5;
  answer(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, &v));
  memset(&v, 0, sizeof v);
  v.accessPolicyWindow.num_bytes = (size_t)1 << 40;
  v.accessPolicyWindow.hitRatio = 0.5f;
  answer(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
  v.accessPolicyWindow.num_bytes = 0;
  v.accessPolicyWindow.hitRatio = 2.0f;
  answer(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
  /* Copying takes everything but the priority. */
  CHECK(cuStreamCopyAttributes(s2, s));
  CHECK(cuStreamGetAttribute(s2, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &v));
  EXPECT_TRUE(v.memSyncDomain == CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE);
  CHECK(cuStreamGetAttribute(s2, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
  EXPECT_TRUE(v.syncPolicy == CU_SYNC_POLICY_BLOCKING_SYNC);
  CHECK(cuStreamGetPriority(s2, &prio));
  EXPECT_TRUE(prio == least);
}

static void memory_operations(CUstream s) {
  CUdeviceptr d;
  CHECK(cuMemAlloc(&d, 64));
  CHECK(cuMemsetD8(d, 0, 64));
  CHECK(cuStreamWriteValue32(s, d, 5, 0));
  CHECK(cuStreamWriteValue64(s, d + 8, 0x100000002ULL, 0));
  CHECK(cuStreamWaitValue32(s, d, 5, CU_STREAM_WAIT_VALUE_GEQ));
  CHECK(cuStreamWaitValue32(s, d, 5, CU_STREAM_WAIT_VALUE_EQ));
  CHECK(cuStreamWaitValue32(s, d, 4, CU_STREAM_WAIT_VALUE_AND));
  CHECK(cuStreamWaitValue32(s, d, 2, CU_STREAM_WAIT_VALUE_NOR));
  CHECK(cuStreamWaitValue64(s, d + 8, 0x100000001ULL, CU_STREAM_WAIT_VALUE_GEQ));
  /* A batch: write, barrier, wait for what was written. */
  CUstreamBatchMemOpParams ops[3];
  memset(ops, 0, sizeof ops);
  ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[0].writeValue.address = d + 16;
  ops[0].writeValue.value = 9;
  ops[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
  ops[1].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
  ops[2].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
  ops[2].waitValue.address = d + 16;
  ops[2].waitValue.value = 9;
  ops[2].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  CHECK(cuStreamBatchMemOp(s, 3, ops, 0));
  CHECK(cuStreamSynchronize(s));
  unsigned long long h[3];
  CHECK(cuMemcpyDtoH(h, d, sizeof h));
  EXPECT_TRUE(h[0] == 5 && h[1] == 0x100000002ULL && h[2] == 9);

  answer(cuStreamWaitValue32(s, d, 5, 4));
  answer(cuStreamWaitValue32(s, d, 5, CU_STREAM_WAIT_VALUE_FLUSH));
  answer(cuStreamWriteValue32(s, d, 5, 2));
  answer(cuStreamWriteValue32(s, d, 5, CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
  answer(cuStreamWriteValue32(s, d + 2, 5, 0));
  answer(cuStreamWriteValue64(s, d + 4, 5, 0));
  answer(cuStreamBatchMemOp(s, 3, ops, 1));
  answer(cuStreamBatchMemOp(s, 0, ops, 0));
  CUstreamBatchMemOpParams *many = (CUstreamBatchMemOpParams *)calloc(256, sizeof *many);
  for (int i = 0; i < 256; i++) many[i].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
  CHECK(cuStreamBatchMemOp(s, 255, many, 0));
  answer(cuStreamBatchMemOp(s, 256, many, 0));
  free(many);
  CUstreamBatchMemOpParams op;
  memset(&op, 0, sizeof op);
  op.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
  answer(cuStreamBatchMemOp(s, 1, &op, 0));
  op.operation = CU_STREAM_MEM_OP_BARRIER;
  op.memoryBarrier.flags = 2;
  answer(cuStreamBatchMemOp(s, 1, &op, 0));
  memset(&op, 0, sizeof op);
  op.operation = (CUstreamBatchMemOpType)7;
  answer(cuStreamBatchMemOp(s, 1, &op, 0));
  op.operation = (CUstreamBatchMemOpType)0;
  answer(cuStreamBatchMemOp(s, 1, &op, 0));
  CHECK(cuStreamSynchronize(s));

  /* The stream waits for a word the host writes later; what follows the wait runs after. */
  void *pinned;
  CHECK(cuMemAllocHost(&pinned, 64));
  memset(pinned, 0, 64);
  CUdeviceptr pd;
  CHECK(cuMemHostGetDevicePointer(&pd, pinned, 0));
  CHECK(cuStreamWaitValue32(s, pd, 7, CU_STREAM_WAIT_VALUE_EQ));
  CHECK(cuStreamWriteValue32(s, pd + 4, 42, 0));
  sleep_ms(50);
  EXPECT_TRUE(*word(pinned, 1) == 0);
  EXPECT_TRUE(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
  *word(pinned, 0) = 7;
  CHECK(cuStreamSynchronize(s));
  EXPECT_TRUE(*word(pinned, 1) == 42);
  CHECK(cuMemFreeHost(pinned));
  CHECK(cuMemFree(d));
}

static void context_events(CUcontext ctx, CUdevice dev, CUstream s) {
  void *pinned;
  CHECK(cuMemAllocHost(&pinned, 64));
  memset(pinned, 0, 64);
  CUdeviceptr pd;
  CHECK(cuMemHostGetDevicePointer(&pd, pinned, 0));
  /* A context record covers the work of every stream so far. */
  CUevent e, e2;
  CHECK(cuEventCreate(&e, 0));
  CHECK(cuStreamWaitValue32(s, pd, 9, CU_STREAM_WAIT_VALUE_EQ));
  CHECK(cuCtxRecordEvent(ctx, e));
  sleep_ms(20);
  EXPECT_TRUE(cuEventQuery(e) == CUDA_ERROR_NOT_READY);
  *word(pinned, 0) = 9;
  CHECK(cuEventSynchronize(e));
  /* A context wait holds back later work on every stream, also streams created after it. */
  CUstream waiter, later;
  CHECK(cuStreamCreate(&waiter, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamWaitValue32(waiter, pd + 4, 1, CU_STREAM_WAIT_VALUE_EQ));
  CHECK(cuEventCreate(&e2, 0));
  CHECK(cuCtxRecordEvent(ctx, e2));
  CHECK(cuCtxWaitEvent(ctx, e2));
  CHECK(cuStreamCreate(&later, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamWriteValue32(later, pd + 8, 5, 0));
  sleep_ms(50);
  EXPECT_TRUE(*word(pinned, 2) == 0);
  *word(pinned, 1) = 1;
  CHECK(cuStreamSynchronize(later));
  EXPECT_TRUE(*word(pinned, 2) == 5);

  CUcontext other;
  CUevent foreign;
  CHECK(cuCtxCreate(&other, NULL, 0, dev));
  CHECK(cuEventCreate(&foreign, 0));
  CHECK(cuCtxSetCurrent(ctx));
  answer(cuCtxRecordEvent(NULL, e));
  answer(cuCtxRecordEvent(ctx, foreign));
  answer(cuCtxRecordEvent(ctx, NULL));
  answer(cuCtxWaitEvent(NULL, e));
  CUgraph g;
  CHECK(cuStreamBeginCapture(waiter, CU_STREAM_CAPTURE_MODE_RELAXED));
  answer(cuCtxRecordEvent(ctx, e));
  answer(cuCtxWaitEvent(ctx, e));
  answer(cuStreamEndCapture(waiter, &g));
  answer(cuCtxDetach(other));
  CHECK(cuCtxSetCurrent(other));
  answer(cuCtxDetach(other));
  answer(cuCtxDestroy(other));
  CHECK(cuCtxSetCurrent(ctx));
  answer(cuCtxDetach(ctx));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuStreamDestroy(waiter));
  CHECK(cuStreamDestroy(later));
  CHECK(cuMemFreeHost(pinned));
}

static void error_log(CUstream s) {
  CUlogIterator it;
  CHECK(cuLogsCurrent(&it, 0));
  answer(cuLogsCurrent(NULL, 0));
  CUlogsCallbackHandle cb;
  CHECK(cuLogsRegisterCallback(on_log, NULL, &cb));
  answer(cuLogsRegisterCallback(NULL, NULL, &cb));
  EXPECT_TRUE(cuStreamWriteValue32(s, 3, 1, 0) == CUDA_ERROR_INVALID_VALUE);
  char buf[8192];
  size_t n = sizeof buf;
  CHECK(cuLogsDumpToMemory(&it, buf, &n, 0));
  EXPECT_TRUE(n == strlen(buf) && n > 0);
  EXPECT_TRUE(strstr(buf, "[CUDA][E] Returning 1 (CUDA_ERROR_INVALID_VALUE) from cuStreamWriteValue32_v2") != NULL);
  EXPECT_TRUE(buf[0] == '[' && buf[13] == ']');
  EXPECT_TRUE(log_messages >= 2);
  n = sizeof buf;
  CHECK(cuLogsDumpToMemory(&it, buf, &n, 0));
  EXPECT_TRUE(n == 0);
  n = 10;
  answer(cuLogsDumpToMemory(NULL, buf, &n, 0));
  EXPECT_TRUE(n == 0);
  n = sizeof buf;
  answer(cuLogsDumpToMemory(NULL, NULL, &n, 0));
  answer(cuLogsDumpToMemory(NULL, buf, NULL, 0));
  answer(cuLogsDumpToFile(NULL, "/nonexistent/dir/log.txt", 0));
  CHECK(cuLogsUnregisterCallback(cb));
  answer(cuLogsUnregisterCallback(NULL));
}

static void batched_copies(CUstream s) {
  BatchV1 batch_v1 = NULL;
  Batch3DV1 batch3d_v1 = NULL;
  /* The legacy-stream symbols also in the per-thread build: a NULL stream is then the
   * legacy one, which batches refuse. */
  CHECK(cuGetProcAddress("cuMemcpyBatchAsync", (void **)&batch_v1, 12080, CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL));
  CHECK(cuGetProcAddress("cuMemcpy3DBatchAsync", (void **)&batch3d_v1, 12080, CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL));
  unsigned char pattern[256], back[256];
  for (int i = 0; i < 256; i++) pattern[i] = (unsigned char)(i * 7 + 1);
  CUdeviceptr a, b;
  CHECK(cuMemAlloc(&a, 256));
  CHECK(cuMemAlloc(&b, 256));
  CHECK(cuMemcpyHtoD(a, pattern, 256));
  CHECK(cuMemsetD8(b, 0, 256));
  /* Two copies with swapped halves, one attribute for both. */
  CUdeviceptr dsts[2] = {b + 128, b}, srcs[2] = {a, a + 128};
  size_t sizes[2] = {128, 128}, idx[2] = {0, 1}, fail = 77;
  CUmemcpyAttributes at[2];
  memset(at, 0, sizeof at);
  at[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  at[1].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
  CHECK(batch_v1(dsts, srcs, sizes, 2, at, idx, 1, &fail, s));
  EXPECT_TRUE(fail == SIZE_MAX);
  CHECK(cuStreamSynchronize(s));
  CHECK(cuMemcpyDtoH(back, b, 256));
  EXPECT_TRUE(memcmp(back, pattern + 128, 128) == 0 && memcmp(back + 128, pattern, 128) == 0);
  /* The _v2 form (what cuda.h calls cuMemcpyBatchAsync) with two attributes. */
  CHECK(cuMemsetD8(b, 0, 256));
  CHECK(cuMemcpyBatchAsync(dsts, srcs, sizes, 2, at, idx, 2, s));
  CHECK(cuStreamSynchronize(s));
  CHECK(cuMemcpyDtoH(back, b, 256));
  EXPECT_TRUE(memcmp(back, pattern + 128, 128) == 0 && memcmp(back + 128, pattern, 128) == 0);

  fail = 77;
  answer(batch_v1(dsts, srcs, sizes, 2, at, idx, 1, &fail, NULL));
  EXPECT_TRUE(fail == 77);
  answer(batch_v1(dsts, srcs, sizes, 2, at, idx, 1, &fail, CU_STREAM_LEGACY));
  EXPECT_TRUE(fail == SIZE_MAX);
  answer(batch_v1(dsts, srcs, sizes, 0, at, idx, 1, &fail, s));
  at[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_INVALID;
  fail = 77;
  answer(batch_v1(dsts, srcs, sizes, 2, at, idx, 1, &fail, s));
  EXPECT_TRUE(fail == SIZE_MAX);
  at[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  at[0].flags = 2;
  answer(batch_v1(dsts, srcs, sizes, 2, at, idx, 1, &fail, s));
  at[0].flags = 0;
  idx[0] = 1;
  answer(batch_v1(dsts, srcs, sizes, 2, at, idx, 1, &fail, s));
  idx[0] = 0;
  sizes[1] = 0;
  answer(batch_v1(dsts, srcs, sizes, 2, at, idx, 1, &fail, s));
  EXPECT_TRUE(fail == 1);
  sizes[1] = 4096;
  answer(batch_v1(dsts, srcs, sizes, 2, at, idx, 1, &fail, s));
  EXPECT_TRUE(fail == 1);
  sizes[1] = 128;
  idx[1] = 2;
  answer(batch_v1(dsts, srcs, sizes, 2, at, idx, 2, &fail, s));
  idx[1] = 1;

  /* A 3D copy between pitched pointers: 16 bytes of each of 4 rows, pitches 32 and 16. */
  CUDA_MEMCPY3D_BATCH_OP op;
  memset(&op, 0, sizeof op);
  op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
  op.src.op.ptr.ptr = a;
  op.src.op.ptr.rowLength = 32;
  op.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
  op.dst.op.ptr.ptr = b;
  op.extent.width = 16;
  op.extent.height = 4;
  op.extent.depth = 1;
  op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  CHECK(cuMemsetD8(b, 0, 256));
  fail = 77;
  CHECK(batch3d_v1(1, &op, &fail, 0, s));
  EXPECT_TRUE(fail == SIZE_MAX);
  CHECK(cuStreamSynchronize(s));
  CHECK(cuMemcpyDtoH(back, b, 256));
  for (int r = 0; r < 4; r++) EXPECT_TRUE(memcmp(back + 16 * r, pattern + 32 * r, 16) == 0);
  EXPECT_TRUE(back[64] == 0);
  answer(batch3d_v1(1, &op, &fail, 1, s));
  fail = 77;
  answer(batch3d_v1(1, &op, &fail, 0, NULL));
  EXPECT_TRUE(fail == 77);
  op.extent.depth = 0;
  answer(batch3d_v1(1, &op, &fail, 0, s));
  EXPECT_TRUE(fail == 0);
  op.extent.depth = 1;
  op.src.type = (CUmemcpy3DOperandType)3;
  answer(batch3d_v1(1, &op, &fail, 0, s));
  op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
  op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_INVALID;
  answer(batch3d_v1(1, &op, &fail, 0, s));
  EXPECT_TRUE(fail == 0);
  op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  op.src.op.ptr.rowLength = 8;
  answer(batch3d_v1(1, &op, &fail, 0, s));
  CHECK(cuStreamSynchronize(s));
  CHECK(cuMemFree(a));
  CHECK(cuMemFree(b));
}

static int range_attr(CUmem_range_attribute attr, CUdeviceptr p, size_t n) {
  int v = 55;
  CHECK(cuMemRangeGetAttribute(&v, 4, attr, p, n));
  return v;
}

static void managed_ranges(CUstream s) {
  const size_t big = 1 << 21;
  CUdeviceptr m, d;
  CHECK(cuMemAllocManaged(&m, big, CU_MEM_ATTACH_GLOBAL));
  CHECK(cuMemAlloc(&d, 4096));
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, big) == 0);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, big) == CU_DEVICE_INVALID);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, big) == CU_DEVICE_INVALID);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, big) == CU_MEM_LOCATION_TYPE_INVALID);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m, big) == CU_DEVICE_INVALID);
  CUmemLocation host, dev0;
  memset(&host, 0, sizeof host);
  memset(&dev0, 0, sizeof dev0);
  host.type = CU_MEM_LOCATION_TYPE_HOST;
  dev0.type = CU_MEM_LOCATION_TYPE_DEVICE;
  CHECK(cuMemAdvise(m, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host));
  CHECK(cuMemAdvise(m, big, CU_MEM_ADVISE_SET_ACCESSED_BY, dev0));
  CHECK(cuMemAdvise(m, big, CU_MEM_ADVISE_SET_ACCESSED_BY, host));
  CHECK(cuMemAdvise(m, big, CU_MEM_ADVISE_SET_READ_MOSTLY, dev0));
  CHECK(cuMemPrefetchAsync(m, big, dev0, 0, s));
  CHECK(cuStreamSynchronize(s));
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096) == 1);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 4096) == CU_DEVICE_CPU);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 4096) == CU_MEM_LOCATION_TYPE_HOST);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, 4096) == CU_DEVICE_CPU);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, big) == CU_DEVICE_INVALID);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, big) == 0);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, big) == CU_MEM_LOCATION_TYPE_DEVICE);
  int accessed[3] = {55, 55, 55};
  CHECK(cuMemRangeGetAttribute(accessed, sizeof accessed, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, big));
  EXPECT_TRUE(accessed[0] == 0 && accessed[1] == CU_DEVICE_CPU && accessed[2] == CU_DEVICE_INVALID);
  /* Several attributes in one call. */
  int rm = 55, pt = 55;
  void *data[2] = {&rm, &pt};
  size_t data_sizes[2] = {4, 4};
  CUmem_range_attribute attrs[2] = {CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE};
  CHECK(cuMemRangeGetAttributes(data, data_sizes, attrs, 2, m, 4096));
  EXPECT_TRUE(rm == 1 && pt == CU_MEM_LOCATION_TYPE_HOST);

  int o[2];
  answer(cuMemRangeGetAttribute(o, 8, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096));
  answer(cuMemRangeGetAttribute(o, 6, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 4096));
  answer(cuMemRangeGetAttribute(o, 4, (CUmem_range_attribute)9, m, 4096));
  answer(cuMemRangeGetAttribute(o, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 0));
  answer(cuMemRangeGetAttribute(o, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, d, 4096));
  answer(cuMemRangeGetAttribute(o, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, big + 4096));
  answer(cuMemRangeGetAttribute(NULL, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096));

  /* Batched prefetches and discards. */
  CUdeviceptr ptrs[2] = {m, m + 4096};
  size_t sz[2] = {4096, 4096}, li[1] = {0};
  CHECK(cuMemPrefetchBatchAsync(ptrs, sz, 2, &host, li, 1, 0, s));
  CHECK(cuStreamSynchronize(s));
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, 8192) == CU_MEM_LOCATION_TYPE_HOST);
  EXPECT_TRUE(range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 8192) == CU_DEVICE_CPU);
  answer(cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev0, li, 1, 1, s));
  li[0] = 1;
  answer(cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev0, li, 1, 0, s));
  li[0] = 0;
  answer(cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev0, li, 0, 0, s));
  PrefetchBatch legacy_prefetch = NULL;
  CHECK(cuGetProcAddress("cuMemPrefetchBatchAsync", (void **)&legacy_prefetch, 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL));
  answer(legacy_prefetch(ptrs, sz, 2, &dev0, li, 1, 0, NULL));
  CHECK(cuMemDiscardBatchAsync(ptrs, sz, 2, 0, s));
  CHECK(cuMemDiscardAndPrefetchBatchAsync(ptrs, sz, 2, &dev0, li, 1, 0, s));
  answer(cuMemDiscardBatchAsync(ptrs, sz, 2, 1, s));
  ptrs[1] = d;
  answer(cuMemPrefetchBatchAsync(ptrs, sz, 2, &dev0, li, 1, 0, s));
  answer(cuMemDiscardBatchAsync(ptrs, sz, 2, 0, s));
  CHECK(cuStreamSynchronize(s));
  CHECK(cuMemFree(m));
  CHECK(cuMemFree(d));
}

static void small_entry_points(CUdevice dev) {
  CUDA_ARRAY_DESCRIPTOR ad;
  memset(&ad, 0, sizeof ad);
  ad.Width = 64;
  ad.Height = 32;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 1;
  CUarray arr;
  CHECK(cuArrayCreate(&arr, &ad));
  CUDA_ARRAY_MEMORY_REQUIREMENTS req;
  CUDA_ARRAY_SPARSE_PROPERTIES sp;
  answer(cuArrayGetMemoryRequirements(&req, arr, dev));
  answer(cuArrayGetSparseProperties(&sp, arr));
  CHECK(cuArrayDestroy(arr));

  /* Atomic capabilities: codes the reference documents (no operations, an unknown one). */
  CUatomicOperation ops[2] = {CU_ATOMIC_OPERATION_INTEGER_ADD, CU_ATOMIC_OPERATION_FLOAT_ADD};
  unsigned caps[2];
  CHECK(cuDeviceGetHostAtomicCapabilities(caps, ops, 2, dev));
  EXPECT_TRUE(cuDeviceGetHostAtomicCapabilities(caps, ops, 0, dev) == CUDA_ERROR_INVALID_VALUE);
  ops[1] = CU_ATOMIC_OPERATION_MAX;
  EXPECT_TRUE(cuDeviceGetHostAtomicCapabilities(caps, ops, 2, dev) == CUDA_ERROR_INVALID_VALUE);

  /* cuFuncGetParamCount is CUDA 13.2: looked up, so that the program also runs on older
   * drivers. */
  CUresult (*param_count)(CUfunction, size_t *) = NULL;
  CUdriverProcAddressQueryResult found;
  if (cuGetProcAddress("cuFuncGetParamCount", (void **)&param_count, 13020, 0, &found) == CUDA_SUCCESS && param_count != NULL) {
    CUmodule mod;
    CUfunction f;
    size_t n = 0;
    CHECK(cuModuleLoadData(&mod, kernel_ptx));
    CHECK(cuModuleGetFunction(&f, mod, "k"));
    CHECK(param_count(f, &n));
    EXPECT_TRUE(n == 3);
    CHECK(cuModuleUnload(mod));
  }
}

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  int v = 0;
  CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, dev));
  EXPECT_TRUE(v == 1);
  CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, dev));
  EXPECT_TRUE(v == 1);
  CUstream s, s2;
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
  stream_attributes(s, s2);
  memory_operations(s);
  context_events(ctx, dev, s);
  error_log(s);
  batched_copies(s);
  managed_ranges(s);
  small_entry_points(dev);
  CHECK(cuStreamDestroy(s));
  CHECK(cuStreamDestroy(s2));

  int print = getenv("STREAM_OPS_PRINT") != NULL;
  if (ncases != CASES) {
    fprintf(stderr, "made %d checked calls, the table has %d\n", ncases, CASES);
    return 1;
  }
  for (int i = 0; i < CASES; ++i) {
    if (print) printf("    {\"%s\", %d},\n", kExpected[i].name, got[i]);
    if (got[i] != kExpected[i].expected) {
      fprintf(stderr, "%s: got %d, NVIDIA's driver answers %d\n", kExpected[i].name, got[i], kExpected[i].expected);
      failures++;
    }
  }
  if (failures != 0) {
    fprintf(stderr, "FAIL stream_ops: %d failures\n", failures);
    return 1;
  }
  printf("PASS stream_ops\n");
  return 0;
}
