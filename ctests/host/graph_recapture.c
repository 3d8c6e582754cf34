/* Recapture into an existing graph (cuStreamBeginRecaptureToGraph, CUDA 13.3) through the
 * driver API, against our include/cuda.h alone: the graph's nodes are matched in creation
 * order with the operations captured again; changed parameters go to the callback and into
 * the nodes, which an executable graph then takes with cuGraphExecUpdate; an allocation
 * recaptured gets the original node's address; a refusing callback, a topology mismatch and
 * too few operations fail the recapture. The codes of the failures are ours, from the
 * documentation (the H200's driver 580 predates the call). Every expected value is
 * computed here. Prints "PASS graph_recapture" on success. */
#include <cuda.h>

#include "host_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* *out += add (one thread). */
static const char add_ptx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry add(.param .u64 out, .param .u32 add)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r1, [add];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.global.u32 %r2, [%rd2];\n"
    "  add.s32 %r3, %r2, %r1;\n"
    "  st.global.u32 [%rd2], %r3;\n"
    "  ret;\n"
    "}\n";

static CUfunction add_fn;

/* What the callback saw. */
struct seen {
  int calls;
  CUgraphNode node;
  CUgraphRecaptureStatus status;
  unsigned original_add, recaptured_add;
  CUresult answer;
};

static unsigned kernel_add(const CUgraphNodeParams *p) {
  if (p->type != CU_GRAPH_NODE_TYPE_KERNEL || p->kernel.kernelParams == NULL) return 0xffffffffu;
  return *(const unsigned *)p->kernel.kernelParams[1];
}

static CUresult CUDA_CB on_mismatch(void *data, CUgraphNode node, const CUgraphNodeParams *original, const CUgraphNodeParams *recaptured,
                                    CUgraphRecaptureStatus status) {
  struct seen *s = (struct seen *)data;
  s->calls++;
  s->node = node;
  s->status = status;
  s->original_add = kernel_add(original);
  s->recaptured_add = kernel_add(recaptured);
  return s->answer;
}

/* The captured sequence: out = 0; out += a; out += b; a scratch allocation set and freed.
 * Returns the scratch address. */
static CUdeviceptr work(CUstream s, CUdeviceptr out, unsigned a, unsigned b) {
  void *args_a[2], *args_b[2];
  CUdeviceptr scratch;
  args_a[0] = &out;
  args_a[1] = &a;
  args_b[0] = &out;
  args_b[1] = &b;
  CHECK(cuMemsetD32Async(out, 0, 1, s));
  CHECK(cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args_a, NULL));
  CHECK(cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args_b, NULL));
  CHECK(cuMemAllocAsync(&scratch, 256, s));
  CHECK(cuMemsetD8Async(scratch, 7, 256, s));
  CHECK(cuMemFreeAsync(scratch, s));
  return scratch;
}

/* A graph of three nodes (no memory nodes, so it can be made again cheaply): out = 0;
 * out += 2; out += 3. */
static CUgraph small_graph(CUstream s, CUdeviceptr out) {
  unsigned two = 2, three = 3;
  void *args_a[2], *args_b[2];
  CUgraph g;
  args_a[0] = &out;
  args_a[1] = &two;
  args_b[0] = &out;
  args_b[1] = &three;
  CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuMemsetD32Async(out, 0, 1, s));
  CHECK(cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args_a, NULL));
  CHECK(cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args_b, NULL));
  CHECK(cuStreamEndCapture(s, &g));
  return g;
}

static unsigned run(CUgraphExec e, CUstream s, CUdeviceptr out) {
  unsigned v = 0;
  CHECK(cuGraphLaunch(e, s));
  CHECK(cuStreamSynchronize(s));
  CHECK(cuMemcpyDtoH(&v, out, 4));
  return v;
}

static size_t node_count(CUgraph g) {
  size_t n = 0;
  CHECK(cuGraphGetNodes(g, NULL, &n));
  return n;
}

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule m;
  CUdeviceptr out, scratch, again;
  CUstream s, other;
  CUgraph g, other_graph, none = NULL;
  CUgraphNode nodes[6];
  CUgraphExec e;
  CUgraphExecUpdateResultInfo info;
  struct seen seen;
  CUstreamCaptureStatus status;
  size_t n = 6;
  unsigned two = 2, three = 3;
  void *args[2];

  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuModuleLoadData(&m, add_ptx));
  CHECK(cuModuleGetFunction(&add_fn, m, "add"));
  CHECK(cuMemAlloc(&out, 4));
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));

  CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  scratch = work(s, out, 2, 3);
  CHECK(cuStreamEndCapture(s, &g));
  expect(node_count(g) == 6, "six captured nodes");
  CHECK(cuGraphGetNodes(g, nodes, &n));
  CHECK(cuGraphInstantiate(&e, g, 0));
  expect(run(e, s, out) == 5, "0 + 2 + 3");

  /* The same operations with the first addend changed: one callback, the node kept. */
  memset(&seen, 0, sizeof seen);
  seen.answer = CUDA_SUCCESS;
  CHECK(cuStreamBeginRecaptureToGraph(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, on_mismatch, &seen));
  again = work(s, out, 4, 3);
  CHECK(cuStreamEndCapture(s, NULL));
  expect(again == scratch, "the recaptured allocation has the original node's address");
  expect(seen.calls == 1, "one parameter mismatch reported");
  expect(seen.node == nodes[1], "the first kernel node reported");
  expect(seen.status == CU_GRAPH_RECAPTURE_ELIGIBLE_FOR_UPDATE, "a kernel argument can be updated");
  expect(seen.original_add == 2 && seen.recaptured_add == 4, "the callback sees both parameter sets");
  expect(node_count(g) == 6, "recapture adds no node");
  CHECK(cuGraphExecUpdate(e, g, &info));
  expect(info.result == CU_GRAPH_EXEC_UPDATE_SUCCESS, "the executable graph takes the recaptured graph");
  expect(run(e, s, out) == 7, "0 + 4 + 3 after the update");

  /* Without a callback the change is taken silently. */
  CHECK(cuStreamBeginRecaptureToGraph(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, NULL, NULL));
  work(s, out, 4, 10);
  CHECK(cuStreamEndCapture(s, NULL));
  CHECK(cuGraphExecUpdate(e, g, &info));
  expect(run(e, s, out) == 14, "0 + 4 + 10 after the second recapture");

  /* Misuse. */
  CHECK(cuStreamBeginCapture(other, CU_STREAM_CAPTURE_MODE_GLOBAL));
  expect_code(cuStreamBeginRecaptureToGraph(other, CU_STREAM_CAPTURE_MODE_GLOBAL, g, NULL, NULL), CUDA_ERROR_ILLEGAL_STATE,
              "a stream already capturing");
  CHECK(cuStreamEndCapture(other, &other_graph));
  CHECK(cuGraphDestroy(other_graph));
  expect_code(cuStreamBeginRecaptureToGraph(s, CU_STREAM_CAPTURE_MODE_GLOBAL, none, NULL, NULL), CUDA_ERROR_INVALID_VALUE, "a NULL graph");
  expect_code(cuStreamBeginRecaptureToGraph(s, (CUstreamCaptureMode)7, g, NULL, NULL), CUDA_ERROR_INVALID_VALUE, "capture mode 7");
  expect_code(cuStreamBeginRecaptureToGraph(CU_STREAM_LEGACY, CU_STREAM_CAPTURE_MODE_GLOBAL, g, NULL, NULL), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
              "the legacy stream");

  /* A refusing callback fails the recapture at the mismatching operation. */
  {
    CUgraph g2;
    g2 = small_graph(s, out);
    memset(&seen, 0, sizeof seen);
    seen.answer = CUDA_ERROR_INVALID_VALUE;
    CHECK(cuStreamBeginRecaptureToGraph(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g2, on_mismatch, &seen));
    CHECK(cuMemsetD32Async(out, 0, 1, s));
    args[0] = &out;
    args[1] = &three;
    expect_code(cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL), CUDA_ERROR_INVALID_VALUE, "the callback's answer");
    expect(seen.calls == 1, "the callback was asked");
    expect_code(cuMemsetD32Async(out, 0, 1, s), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "after the refusal");
    expect_code(cuStreamEndCapture(s, NULL), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "ending a refused recapture");
    CHECK(cuGraphDestroy(g2));
  }

  /* Another node type where a kernel node was: a topology mismatch. */
  {
    CUgraph g3;
    g3 = small_graph(s, out);
    CHECK(cuStreamBeginRecaptureToGraph(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g3, NULL, NULL));
    CHECK(cuMemsetD32Async(out, 0, 1, s));
    expect_code(cuMemsetD32Async(out, 1, 1, s), CUDA_ERROR_INVALID_VALUE, "a memset where a kernel node was");
    expect_code(cuStreamEndCapture(s, NULL), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "ending a mismatched recapture");
    CHECK(cuGraphDestroy(g3));
  }

  /* Fewer operations than nodes. */
  {
    CUgraph g4;
    g4 = small_graph(s, out);
    CHECK(cuStreamBeginRecaptureToGraph(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g4, NULL, NULL));
    CHECK(cuMemsetD32Async(out, 0, 1, s));
    args[0] = &out;
    args[1] = &two;
    CHECK(cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
    expect_code(cuStreamEndCapture(s, NULL), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "two of three operations");
    CHECK(cuStreamIsCapturing(s, &status));
    expect(status == CU_STREAM_CAPTURE_STATUS_NONE, "the stream no longer captures");
    CHECK(cuGraphDestroy(g4));
  }

  CHECK(cuGraphExecDestroy(e));
  CHECK(cuGraphDestroy(g));
  CHECK(cuStreamDestroy(s));
  CHECK(cuStreamDestroy(other));
  CHECK(cuMemFree(out));
  CHECK(cuModuleUnload(m));
  if (failures) {
    printf("FAIL graph_recapture: %d mismatches\n", failures);
    return 1;
  }
  printf("PASS graph_recapture\n");
  return 0;
}
