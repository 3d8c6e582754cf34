/* Green contexts and device resources (CUDA driver API reference, "Green Contexts")
 * through the driver API against our include/cuda.h alone.
 *
 * Checks results: the device's SM resource is CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
 * SMs, splits make the groups asked for and a remainder that add up to it, green
 * contexts report their partition (also through their CUcontext and their streams), a
 * kernel launched on a green-context stream writes its result, and an event recorded by
 * one green context and waited for by another orders their kernels. And misuse codes,
 * as the reference documents them: NULL pointers (CUDA_ERROR_INVALID_VALUE), a wrong
 * resource type (CUDA_ERROR_INVALID_RESOURCE_TYPE), a split asking for more SMs than
 * exist (CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION), a missing CU_GREEN_CTX_DEFAULT_STREAM
 * or CU_STREAM_NON_BLOCKING flag (CUDA_ERROR_INVALID_VALUE), a destroyed green context
 * (CUDA_ERROR_CONTEXT_IS_DESTROYED where the call documents it, cuGreenCtxDestroy and
 * cuGreenCtxGetId; CUDA_ERROR_INVALID_CONTEXT elsewhere). No GPU answered these here: where the reference
 * names no code, the code is ours (see crates/cuda-driver/src/green.rs).
 * Prints "PASS green_contexts" on success. */
#include <cuda.h>

#include "host_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT_TRUE(cond)                                               \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                       \
    }                                                                   \
  } while (0)
#define EXPECT_RC(call, code)                                                                       \
  do {                                                                                              \
    CUresult expect_rc_ = (call);                                                                   \
    if (expect_rc_ != (code)) {                                                                     \
      fprintf(stderr, "%s:%d: %s -> %d, expected %d\n", __FILE__, __LINE__, #call, (int)expect_rc_, \
              (int)(code));                                                                         \
      failures++;                                                                                   \
    }                                                                                               \
  } while (0)

/* fill(p, v, n): p[i] = v; scale(p, n): p[i] = p[i] * 3 + 1. */
static const char kernels_ptx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry fill(.param .u64 p, .param .u32 v, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [v];\n"
    "  ld.param.u32 %r2, [n];\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r6, %r3, %r4, %r5;\n"
    "  setp.ge.u32 %p, %r6, %r2;\n"
    "  @%p bra DONE;\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd2, %r6, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry scale(.param .u64 p, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r2, [n];\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r6, %r3, %r4, %r5;\n"
    "  setp.ge.u32 %p, %r6, %r2;\n"
    "  @%p bra DONE;\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd2, %r6, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r7, [%rd3];\n"
    "  mad.lo.s32 %r7, %r7, 3, 1;\n"
    "  st.global.u32 [%rd3], %r7;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

enum { N = 4096, GROUP = 64 };

/* A green context over `desc`, its CUcontext and a non-blocking stream of it. */
static void make_green(CUdevResourceDesc desc, CUdevice dev, CUgreenCtx *green, CUcontext *ctx, CUstream *stream) {
  CHECK(cuGreenCtxCreate(green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
  CHECK(cuCtxFromGreenCtx(ctx, *green));
  CHECK(cuGreenCtxStreamCreate(stream, *green, CU_STREAM_NON_BLOCKING, 0));
}

int main(void) {
  CUdevice dev;
  CUcontext primary;
  int sms = 0;
  unsigned int n = 0, m, i;
  CUdevResource whole, groups[2], rest, other[1], bad, mine;
  CUdevResourceDesc desc_a, desc_b, desc_whole;
  CUgreenCtx green_a, green_b, green_of_ctx;
  CUcontext ctx_a, ctx_b, got_ctx;
  CUstream stream_a, stream_b, stream_bad;
  CUlibrary lib;
  CUkernel fill, scale;
  CUevent done_a;
  CUdeviceptr buf;
  unsigned long long id_a = 0, id_b = 0, id_cur = 0;
  unsigned int *host;

  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  CHECK(cuDevicePrimaryCtxRetain(&primary, dev));
  CHECK(cuCtxSetCurrent(primary));
  EXPECT_TRUE(sizeof(CUdevResource) == 144);

  /* The device's SMs: what the attribute says; partitions of any size (see green.rs). */
  CHECK(cuDeviceGetDevResource(dev, &whole, CU_DEV_RESOURCE_TYPE_SM));
  EXPECT_TRUE(whole.type == CU_DEV_RESOURCE_TYPE_SM);
  EXPECT_TRUE(whole.sm.smCount == (unsigned int)sms);
  EXPECT_TRUE(whole.sm.minSmPartitionSize == 1 && whole.sm.smCoscheduledAlignment == 1);
  CHECK(cuCtxGetDevResource(primary, &mine, CU_DEV_RESOURCE_TYPE_SM));
  EXPECT_TRUE(mine.sm.smCount == (unsigned int)sms);
  EXPECT_RC(cuDeviceGetDevResource(dev, NULL, CU_DEV_RESOURCE_TYPE_SM), CUDA_ERROR_INVALID_VALUE);
  EXPECT_RC(cuDeviceGetDevResource(dev, &bad, CU_DEV_RESOURCE_TYPE_INVALID), CUDA_ERROR_INVALID_RESOURCE_TYPE);
  EXPECT_RC(cuDeviceGetDevResource(-1, &bad, CU_DEV_RESOURCE_TYPE_SM), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_RC(cuCtxGetDevResource(primary, &bad, (CUdevResourceType)7), CUDA_ERROR_INVALID_RESOURCE_TYPE);

  /* Splits: a query, then one group of half the SMs (at least 1) and its remainder. */
  CHECK(cuDevSmResourceSplitByCount(NULL, &n, &whole, NULL, 0, 1));
  EXPECT_TRUE(n == (unsigned int)sms);
  m = ((unsigned int)sms + 1) / 2;
  n = 1;
  CHECK(cuDevSmResourceSplitByCount(groups, &n, &whole, &rest, 0, m));
  EXPECT_TRUE(n == 1);
  EXPECT_TRUE(groups[0].type == CU_DEV_RESOURCE_TYPE_SM && groups[0].sm.smCount == m);
  EXPECT_TRUE(rest.type == CU_DEV_RESOURCE_TYPE_SM && groups[0].sm.smCount + rest.sm.smCount == (unsigned int)sms);
  /* Asking for more groups than fit gives what fits. */
  n = 2;
  CHECK(cuDevSmResourceSplitByCount(other, &n, &whole, NULL, 0, (unsigned int)sms));
  EXPECT_TRUE(n == 1 && other[0].sm.smCount == (unsigned int)sms);
  n = 1;
  EXPECT_RC(cuDevSmResourceSplitByCount(other, &n, &whole, NULL, 0, (unsigned int)sms + 1),
            CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
  EXPECT_RC(cuDevSmResourceSplitByCount(other, NULL, &whole, NULL, 0, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_RC(cuDevSmResourceSplitByCount(other, &n, NULL, NULL, 0, 1), CUDA_ERROR_INVALID_VALUE);
  memcpy(&bad, &whole, sizeof bad);
  bad.type = CU_DEV_RESOURCE_TYPE_INVALID;
  EXPECT_RC(cuDevSmResourceSplitByCount(other, &n, &bad, NULL, 0, 1), CUDA_ERROR_INVALID_RESOURCE_TYPE);

  {
    /* cuDevSmResourceSplit (CUDA 13.1): a fixed group of 1 SM and a discovered group that
     * gets the rest (its smCount written back); more SMs than exist, or no parameters. */
    CU_DEV_SM_RESOURCE_GROUP_PARAMS params[2];
    CUdevResource structured[2], left;
    memset(params, 0, sizeof params);
    params[0].smCount = 1;
    if (sms >= 2) {
      CHECK(cuDevSmResourceSplit(structured, 2, &whole, &left, 0, params));
      EXPECT_TRUE(params[1].smCount == (unsigned int)sms - 1);
      EXPECT_TRUE(structured[0].sm.smCount == 1 && structured[1].sm.smCount == (unsigned int)sms - 1);
      EXPECT_TRUE(left.type == CU_DEV_RESOURCE_TYPE_SM && left.sm.smCount == 0);
    }
    params[0].smCount = (unsigned int)sms + 1;
    EXPECT_RC(cuDevSmResourceSplit(structured, 1, &whole, NULL, 0, params), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
    EXPECT_RC(cuDevSmResourceSplit(structured, 1, &whole, NULL, 0, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT_RC(cuDevSmResourceSplit(structured, 1, &bad, NULL, 0, params), CUDA_ERROR_INVALID_RESOURCE_TYPE);
  }

  /* Descriptors: the group; the remainder (or, on a one-SM device, the whole device). */
  CHECK(cuDevResourceGenerateDesc(&desc_a, &groups[0], 1));
  if (rest.sm.smCount > 0) {
    CHECK(cuDevResourceGenerateDesc(&desc_b, &rest, 1));
  } else {
    CHECK(cuDevResourceGenerateDesc(&desc_b, &whole, 1));
  }
  CHECK(cuDevResourceGenerateDesc(&desc_whole, &whole, 1));
  EXPECT_RC(cuDevResourceGenerateDesc(NULL, &whole, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_RC(cuDevResourceGenerateDesc(&desc_whole, NULL, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_RC(cuDevResourceGenerateDesc(&desc_whole, &bad, 1), CUDA_ERROR_INVALID_RESOURCE_TYPE);
  {
    /* Outputs of two different splits cannot share a descriptor. */
    CUdevResource mixed[2];
    CUdevResourceDesc unused;
    memcpy(&mixed[0], &groups[0], sizeof mixed[0]);
    memcpy(&mixed[1], &other[0], sizeof mixed[1]);
    EXPECT_RC(cuDevResourceGenerateDesc(&unused, mixed, 2), CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
  }

  /* Green contexts: CU_GREEN_CTX_DEFAULT_STREAM is required. */
  EXPECT_RC(cuGreenCtxCreate(&green_a, desc_a, dev, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_RC(cuGreenCtxCreate(NULL, desc_a, dev, CU_GREEN_CTX_DEFAULT_STREAM), CUDA_ERROR_INVALID_VALUE);
  make_green(desc_a, dev, &green_a, &ctx_a, &stream_a);
  make_green(desc_b, dev, &green_b, &ctx_b, &stream_b);
  EXPECT_TRUE(ctx_a != ctx_b && ctx_a != primary);
  EXPECT_RC(cuGreenCtxStreamCreate(&stream_bad, green_a, CU_STREAM_DEFAULT, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_RC(cuGreenCtxStreamCreate(NULL, green_a, CU_STREAM_NON_BLOCKING, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_RC(cuCtxFromGreenCtx(NULL, green_a), CUDA_ERROR_INVALID_VALUE);
  CHECK(cuGreenCtxGetId(green_a, &id_a));
  CHECK(cuGreenCtxGetId(green_b, &id_b));
  EXPECT_TRUE(id_a != id_b);
  EXPECT_RC(cuGreenCtxGetId(green_a, NULL), CUDA_ERROR_INVALID_VALUE);

  /* Each reports its partition: directly, through its CUcontext and through its stream. */
  CHECK(cuGreenCtxGetDevResource(green_a, &mine, CU_DEV_RESOURCE_TYPE_SM));
  EXPECT_TRUE(mine.sm.smCount == m);
  EXPECT_RC(cuGreenCtxGetDevResource(green_a, &bad, CU_DEV_RESOURCE_TYPE_INVALID), CUDA_ERROR_INVALID_RESOURCE_TYPE);
  CHECK(cuCtxGetDevResource(ctx_b, &mine, CU_DEV_RESOURCE_TYPE_SM));
  EXPECT_TRUE(mine.sm.smCount == (rest.sm.smCount > 0 ? rest.sm.smCount : (unsigned int)sms));
  CHECK(cuStreamGetDevResource(stream_a, &mine, CU_DEV_RESOURCE_TYPE_SM));
  EXPECT_TRUE(mine.sm.smCount == m);
  {
    CUgreenCtx g = NULL;
    CHECK(cuStreamGetCtx_v2(stream_a, &got_ctx, &g));
    EXPECT_TRUE(got_ctx == primary && g == green_a);
    CHECK(cuStreamGetGreenCtx(stream_b, &g));
    EXPECT_TRUE(g == green_b);
    CHECK(cuStreamGetGreenCtx(NULL, &g));
    EXPECT_TRUE(g == NULL);
  }

  /* The green CUcontext on the usual context stack. */
  CHECK(cuCtxPushCurrent(ctx_a));
  CHECK(cuCtxGetCurrent(&got_ctx));
  EXPECT_TRUE(got_ctx == ctx_a);
  CHECK(cuGreenCtxGetId(NULL, &id_cur));
  EXPECT_TRUE(id_cur == id_a);
  CHECK(cuStreamGetDevResource(NULL, &mine, CU_DEV_RESOURCE_TYPE_SM));
  EXPECT_TRUE(mine.sm.smCount == m);
  CHECK(cuLibraryLoadData(&lib, kernels_ptx, NULL, NULL, 0, NULL, NULL, 0));
  CHECK(cuLibraryGetKernel(&fill, lib, "fill"));
  CHECK(cuLibraryGetKernel(&scale, lib, "scale"));
  CHECK(cuMemAlloc(&buf, N * sizeof(unsigned int)));
  CHECK(cuEventCreate(&done_a, CU_EVENT_DISABLE_TIMING));
  CHECK(cuCtxPopCurrent(&got_ctx));
  EXPECT_TRUE(got_ctx == ctx_a);

  /* Green context A fills, records; green context B waits for the record, then scales:
   * every element must be 7 * 3 + 1. */
  {
    unsigned int value = 7, count = N;
    void *fill_args[3];
    void *scale_args[2];
    fill_args[0] = &buf;
    fill_args[1] = &value;
    fill_args[2] = &count;
    scale_args[0] = &buf;
    scale_args[1] = &count;
    CHECK(cuLaunchKernel((CUfunction)fill, N / GROUP, 1, 1, GROUP, 1, 1, 0, stream_a, fill_args, NULL));
    EXPECT_RC(cuGreenCtxRecordEvent(NULL, done_a), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_RC(cuGreenCtxRecordEvent(green_a, NULL), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_RC(cuGreenCtxWaitEvent(green_b, NULL), CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuGreenCtxRecordEvent(green_a, done_a));
    CHECK(cuGreenCtxWaitEvent(green_b, done_a));
    CHECK(cuLaunchKernel((CUfunction)scale, N / GROUP, 1, 1, GROUP, 1, 1, 0, stream_b, scale_args, NULL));
    CHECK(cuStreamSynchronize(stream_b));
  }
  host = (unsigned int *)malloc(N * sizeof(unsigned int));
  CHECK(cuCtxPushCurrent(ctx_a));
  CHECK(cuMemcpyDtoH(host, buf, N * sizeof(unsigned int)));
  for (i = 0; i < N; i++) {
    if (host[i] != 22) {
      fprintf(stderr, "element %u is %u, expected 22\n", i, host[i]);
      failures++;
      break;
    }
  }
  free(host);
  CHECK(cuEventSynchronize(done_a));
  CHECK(cuMemFree(buf));
  CHECK(cuCtxPopCurrent(&got_ctx));

  /* cuCtxDestroy does not end a green context's CUcontext; cuGreenCtxDestroy does. */
  EXPECT_RC(cuCtxDestroy(ctx_a), CUDA_ERROR_INVALID_CONTEXT);
  CHECK(cuEventDestroy(done_a));
  CHECK(cuStreamDestroy(stream_a));
  CHECK(cuStreamDestroy(stream_b));
  CHECK(cuLibraryUnload(lib));
  CHECK(cuGreenCtxDestroy(green_a));
  EXPECT_RC(cuGreenCtxDestroy(green_a), CUDA_ERROR_CONTEXT_IS_DESTROYED);
  EXPECT_RC(cuGreenCtxGetId(green_a, &id_cur), CUDA_ERROR_CONTEXT_IS_DESTROYED);
  EXPECT_RC(cuGreenCtxStreamCreate(&stream_bad, green_a, CU_STREAM_NON_BLOCKING, 0), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_RC(cuGreenCtxGetDevResource(green_a, &mine, CU_DEV_RESOURCE_TYPE_SM), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_RC(cuCtxFromGreenCtx(&got_ctx, green_a), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_RC(cuCtxPushCurrent(ctx_a), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_RC(cuGreenCtxDestroy(NULL), CUDA_ERROR_INVALID_CONTEXT);
  CHECK(cuGreenCtxDestroy(green_b));

  /* A green context over the whole device still works after the others are gone. */
  CHECK(cuGreenCtxCreate(&green_of_ctx, desc_whole, dev, CU_GREEN_CTX_DEFAULT_STREAM));
  CHECK(cuGreenCtxGetDevResource(green_of_ctx, &mine, CU_DEV_RESOURCE_TYPE_SM));
  EXPECT_TRUE(mine.sm.smCount == (unsigned int)sms);
  CHECK(cuGreenCtxDestroy(green_of_ctx));
  CHECK(cuDevicePrimaryCtxRelease(dev));

  if (failures) {
    fprintf(stderr, "%d failures\n", failures);
    return 1;
  }
  printf("PASS green_contexts\n");
  return 0;
}
