/* Graph node state and external semaphores through the driver API, against our
 * include/cuda.h alone: a conditional node set by hand-written PTX calling
 * cudaGraphSetConditional, cuGraphNodeGetParams, kernel node attributes, enabled and disabled nodes, local node ids,
 * the executable-graph setters of child graph and event nodes, capture into an existing
 * graph, and external semaphores as this driver defines them on the CPU device (an eventfd
 * is a binary semaphore, the first 8 bytes of a memfd a timeline; see
 * crates/cuda-driver/src/extsem.rs), signaled and waited for on streams and by graph nodes,
 * with the error codes of misuse (ours, from the documentation: NVIDIA's driver was not
 * asked). Every expected value is computed here.
 * Prints "PASS graph_nodes" on success. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda.h>

#include "host_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* cudaGraphSetConditional(h, *v), as nvcc 13 emits the call: an .extern function the
 * driver provides. */
static const char set_ptx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".extern .func cudaGraphSetConditional(.param .b64 h, .param .b32 v);\n"
    ".visible .entry set_cond(.param .u64 v, .param .u64 h)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [v];\n"
    "  ld.param.u64 %rd2, [h];\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  ld.global.u32 %r1, [%rd3];\n"
    "  {\n"
    "  .param .b64 p0;\n"
    "  st.param.b64 [p0], %rd2;\n"
    "  .param .b32 p1;\n"
    "  st.param.b32 [p1], %r1;\n"
    "  call.uni cudaGraphSetConditional, (p0, p1);\n"
    "  }\n"
    "  ret;\n"
    "}\n";

static CUfunction add_fn, set_fn;

static CUgraphNode add_kernel(CUgraph g, const CUgraphNode *deps, size_t n, CUdeviceptr *out, unsigned *value) {
  CUDA_KERNEL_NODE_PARAMS p;
  void *args[2];
  CUgraphNode node;
  args[0] = out;
  args[1] = value;
  memset(&p, 0, sizeof p);
  p.func = add_fn;
  p.gridDimX = p.gridDimY = p.gridDimZ = 1;
  p.blockDimX = p.blockDimY = p.blockDimZ = 1;
  p.kernelParams = args;
  CHECK(cuGraphAddKernelNode(&node, g, deps, n, &p));
  return node;
}

static unsigned read_u32(CUdeviceptr d) {
  unsigned v;
  CHECK(cuMemcpyDtoH(&v, d, 4));
  return v;
}

static void launch_and_wait(CUgraphExec e, CUstream s) {
  CHECK(cuGraphLaunch(e, s));
  CHECK(cuStreamSynchronize(s));
}

static void attributes_enabled_ids(CUdeviceptr out, CUstream s) {
  CUgraph g, child, other;
  CUgraphNode k, empty, child_node, ce, nodes[3];
  CUgraphExec e;
  CUkernelNodeAttrValue v;
  CUevent ev;
  unsigned one = 1, ten = 10, enabled = 7, id = 99;
  unsigned long long tools = 0;
  int i;

  CHECK(cuGraphCreate(&g, 0));
  k = add_kernel(g, NULL, 0, &out, &one);
  CHECK(cuGraphAddEmptyNode(&empty, g, NULL, 0));

  /* Attributes: unset ones read as zero; set ones read back; stream-only ids and
   * non-kernel nodes are refused (CUDA_ERROR_INVALID_VALUE, what the driver API documents
   * for these calls; not compared with NVIDIA's driver). */
  memset(&v, 0x5a, sizeof v);
  CHECK(cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &v));
  expect(v.priority == 0, "unset priority reads 0");
  memset(&v, 0, sizeof v);
  v.priority = 3;
  CHECK(cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &v));
  memset(&v, 0, sizeof v);
  CHECK(cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &v));
  expect(v.priority == 3, "priority reads back 3");
  expect_code(cuGraphKernelNodeGetAttribute(k, (CUkernelNodeAttrID)3, &v), CUDA_ERROR_INVALID_VALUE, "synchronization policy");
  expect_code(cuGraphKernelNodeGetAttribute(k, (CUkernelNodeAttrID)0, &v), CUDA_ERROR_INVALID_VALUE, "attribute 0");
  expect_code(cuGraphKernelNodeGetAttribute(empty, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &v), CUDA_ERROR_INVALID_VALUE,
              "attribute of an empty node");
  expect_code(cuGraphKernelNodeCopyAttributes(empty, k), CUDA_ERROR_INVALID_VALUE, "copy attributes to an empty node");

  /* Local ids count nodes in creation order; a destroyed node's id is not reused. */
  CHECK(cuGraphCreate(&other, 0));
  for (i = 0; i < 3; i++) CHECK(cuGraphAddEmptyNode(&nodes[i], other, NULL, 0));
  CHECK(cuGraphDestroyNode(nodes[1]));
  CHECK(cuGraphAddEmptyNode(&nodes[1], other, NULL, 0));
  CHECK(cuGraphNodeGetLocalId(nodes[1], &id));
  expect(id == 3, "local id after a destroyed node is 3");
  CHECK(cuGraphNodeGetLocalId(nodes[2], &id));
  expect(id == 2, "local id of the third node is 2");
  CHECK(cuGraphNodeGetToolsId(nodes[2], &tools));
  expect((tools & 0xffffffffu) == 2, "tools id holds the local id");

  /* Disabling the kernel node: a launch does not run it; enabled again, it does. */
  CHECK(cuGraphInstantiate(&e, g, 0));
  CHECK(cuGraphNodeGetEnabled(e, k, &enabled));
  expect(enabled == 1, "nodes start enabled");
  expect_code(cuGraphNodeGetEnabled(e, empty, &enabled), CUDA_ERROR_INVALID_VALUE, "enabled state of an empty node");
  CHECK(cuMemsetD32(out, 0, 1));
  CHECK(cuGraphNodeSetEnabled(e, k, 0));
  launch_and_wait(e, s);
  expect(read_u32(out) == 0, "a disabled kernel node did not run");
  CHECK(cuGraphNodeSetEnabled(e, k, 5));
  CHECK(cuGraphNodeGetEnabled(e, k, &enabled));
  expect(enabled == 1, "any non-zero value enables");
  launch_and_wait(e, s);
  expect(read_u32(out) == 1, "the enabled kernel node ran");

  CHECK(cuEventCreate(&ev, 0));
  expect_code(cuGraphExecEventRecordNodeSetEvent(e, empty, ev), CUDA_ERROR_INVALID_VALUE, "event setter on an empty node");
  CHECK(cuGraphExecDestroy(e));

  /* A child graph node of an executable graph takes another graph of the same shape. */
  CHECK(cuGraphCreate(&child, 0));
  add_kernel(child, NULL, 0, &out, &one);
  CHECK(cuGraphAddChildGraphNode(&child_node, g, NULL, 0, child));
  CHECK(cuGraphInstantiate(&e, g, 0));
  CHECK(cuMemsetD32(out, 0, 1));
  launch_and_wait(e, s);
  expect(read_u32(out) == 2, "kernel and child kernel add 1 each");
  CHECK(cuGraphDestroy(child));
  CHECK(cuGraphCreate(&child, 0));
  add_kernel(child, NULL, 0, &out, &ten);
  CHECK(cuGraphExecChildGraphNodeSetParams(e, child_node, child));
  CHECK(cuMemsetD32(out, 0, 1));
  launch_and_wait(e, s);
  expect(read_u32(out) == 11, "the child graph node took the new kernel parameters");
  CHECK(cuGraphAddEmptyNode(&ce, child, NULL, 0));
  expect_code(cuGraphExecChildGraphNodeSetParams(e, child_node, child), CUDA_ERROR_INVALID_VALUE, "child graph of another shape");
  expect_code(cuGraphExecChildGraphNodeSetParams(e, empty, child), CUDA_ERROR_INVALID_VALUE, "child setter on an empty node");
  CHECK(cuGraphExecDestroy(e));
  CHECK(cuGraphDestroy(child));
  CHECK(cuGraphDestroy(other));
  CHECK(cuGraphDestroy(g));
  CHECK(cuEventDestroy(ev));
}

/* set_cond(v, h) -> IF/ELSE through cuGraphAddNode; cuGraphNodeGetParams gives the node
 * back with the body array cuGraphAddNode wrote. */
static void conditional(CUdeviceptr out, CUstream s) {
  CUgraph g;
  CUgraphNode set, cond;
  CUgraphNodeParams p, q;
  CUgraphConditionalHandle h;
  CUgraphExec e;
  CUcontext ctx;
  CUdeviceptr v;
  CUDA_KERNEL_NODE_PARAMS kp;
  void *args[2];
  unsigned one = 1, two = 2, values[3] = {0, 5, 0}, i;
  CHECK(cuCtxGetCurrent(&ctx));
  CHECK(cuMemAlloc(&v, 4));
  CHECK(cuGraphCreate(&g, 0));
  expect_code(cuGraphConditionalHandleCreate(&h, g, ctx, 0, 2), CUDA_ERROR_INVALID_VALUE, "handle flags 2");
  CHECK(cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0));
  args[0] = &v;
  args[1] = &h;
  memset(&kp, 0, sizeof kp);
  kp.func = set_fn;
  kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
  kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
  kp.kernelParams = args;
  CHECK(cuGraphAddKernelNode(&set, g, NULL, 0, &kp));
  memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  p.conditional.handle = h;
  p.conditional.type = CU_GRAPH_COND_TYPE_IF;
  p.conditional.size = 3;
  p.conditional.ctx = ctx;
  expect_code(cuGraphAddNode(&cond, g, &set, NULL, 1, &p), CUDA_ERROR_INVALID_VALUE, "IF with 3 bodies");
  p.conditional.size = 2;
  CHECK(cuGraphAddNode(&cond, g, &set, NULL, 1, &p));
  add_kernel(p.conditional.phGraph_out[0], NULL, 0, &out, &one);
  add_kernel(p.conditional.phGraph_out[1], NULL, 0, &out, &two);
  memset(&q, 0, sizeof q);
  CHECK(cuGraphNodeGetParams(cond, &q));
  expect(q.type == CU_GRAPH_NODE_TYPE_CONDITIONAL && q.conditional.handle == h && q.conditional.type == CU_GRAPH_COND_TYPE_IF &&
             q.conditional.size == 2 && q.conditional.phGraph_out == p.conditional.phGraph_out && q.conditional.ctx == ctx,
         "cuGraphNodeGetParams of the conditional node");
  CHECK(cuGraphInstantiate(&e, g, 0));
  for (i = 0; i < 3; i++) {
    CHECK(cuMemsetD32(v, values[i], 1));
    CHECK(cuMemsetD32(out, 0, 1));
    launch_and_wait(e, s);
    expect(read_u32(out) == (values[i] ? 1u : 2u), "the IF or the ELSE body ran");
  }
  CHECK(cuGraphExecDestroy(e));
  CHECK(cuGraphDestroy(g));
  CHECK(cuMemFree(v));
}

static void capture_to_graph(CUdeviceptr out, CUstream s) {
  CUgraph g;
  CUgraphNode first;
  CUgraphExec e;
  size_t n = 0;
  unsigned five = 5;
  void *args[2];
  args[0] = &out;
  args[1] = &five;
  CHECK(cuGraphCreate(&g, 0));
  CHECK(cuGraphAddEmptyNode(&first, g, NULL, 0));
  CHECK(cuStreamBeginCaptureToGraph(s, g, &first, NULL, 1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
  CHECK(cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
  /* The graph is the caller's: ending needs no place to return it. */
  CHECK(cuStreamEndCapture(s, NULL));
  CHECK(cuGraphGetNodes(g, NULL, &n));
  expect(n == 3, "capture added two nodes to the existing graph");
  CHECK(cuGraphNodeGetDependentNodes(first, NULL, NULL, &n));
  expect(n == 1, "the first captured node depends on the given node");
  CHECK(cuGraphInstantiate(&e, g, 0));
  CHECK(cuMemsetD32(out, 0, 1));
  launch_and_wait(e, s);
  expect(read_u32(out) == 10, "both captured kernels ran");
  CHECK(cuGraphExecDestroy(e));
  /* A capture into a new graph ended with no place for it: NVIDIA's driver 580 ends it and
   * answers success (ctests/host/misuse, stream_end_capture_null_graph); the stream is no
   * longer capturing. */
  CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  expect_code(cuStreamEndCapture(s, NULL), CUDA_SUCCESS, "ending a capture into a new graph with NULL");
  expect_code(cuStreamEndCapture(s, &g), CUDA_ERROR_ILLEGAL_STATE, "that capture is over");
}

static CUexternalSemaphore import_fd(CUexternalSemaphoreHandleType type, int fd) {
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
  CUexternalSemaphore sem;
  memset(&d, 0, sizeof d);
  d.type = type;
  d.handle.fd = fd;
  CHECK(cuImportExternalSemaphore(&sem, &d));
  return sem;
}

static void semaphores(CUdeviceptr out, CUstream s) {
  int efd = eventfd(0, 0), mfd = memfd_create("timeline", 0), dup_fd;
  uint64_t count = 0, *timeline;
  CUexternalSemaphore bin, tl, sems[2];
  CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[2];
  CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
  CUDA_EXT_SEM_SIGNAL_NODE_PARAMS np, got;
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
  CUexternalSemaphore none;
  CUgraph g;
  CUgraphNode wait_node, kernel, signal_node;
  CUgraphExec e;
  CUresult r;
  unsigned seven = 7;

  expect(efd >= 0 && mfd >= 0 && ftruncate(mfd, 8) == 0, "eventfd and memfd");
  dup_fd = dup(mfd);
  timeline = (uint64_t *)mmap(NULL, 8, PROT_READ | PROT_WRITE, MAP_SHARED, dup_fd, 0);
  expect(timeline != MAP_FAILED, "mapping the timeline");
  bin = import_fd(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, dup(efd));
  tl = import_fd(CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD, mfd);

  /* Signals on a stream: the eventfd counts one, the timeline takes the value. */
  memset(sp, 0, sizeof sp);
  sems[0] = bin;
  sems[1] = tl;
  sp[1].params.fence.value = 5;
  CHECK(cuSignalExternalSemaphoresAsync(sems, sp, 2, s));
  CHECK(cuStreamSynchronize(s));
  expect(read(efd, &count, 8) == 8 && count == 1, "the binary semaphore was signaled once");
  expect(*timeline == 5, "the timeline reads 5");

  /* A wait holds the stream until the host signals: the kernel after it runs then. */
  memset(&wp, 0, sizeof wp);
  CHECK(cuMemsetD32(out, 0, 1));
  CHECK(cuWaitExternalSemaphoresAsync(&bin, &wp, 1, s));
  {
    void *args[2];
    args[0] = &out;
    args[1] = &seven;
    CHECK(cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
  }
  expect(cuStreamQuery(s) == CUDA_ERROR_NOT_READY, "the stream waits for the semaphore");
  count = 1;
  expect(write(efd, &count, 8) == 8, "host signal");
  CHECK(cuStreamSynchronize(s));
  expect(read_u32(out) == 7, "the kernel ran after the wait");

  /* A timeline wait for a value already reached completes. */
  wp.params.fence.value = 5;
  CHECK(cuWaitExternalSemaphoresAsync(&tl, &wp, 1, s));
  CHECK(cuStreamSynchronize(s));

  /* Graph nodes: wait (timeline >= 6, which the host sets) -> kernel -> signal (timeline 9). */
  CHECK(cuGraphCreate(&g, 0));
  {
    CUDA_EXT_SEM_WAIT_NODE_PARAMS w;
    w.extSemArray = &tl;
    wp.params.fence.value = 6;
    w.paramsArray = &wp;
    w.numExtSems = 1;
    CHECK(cuGraphAddExternalSemaphoresWaitNode(&wait_node, g, NULL, 0, &w));
  }
  kernel = add_kernel(g, &wait_node, 1, &out, &seven);
  memset(sp, 0, sizeof sp);
  sp[0].params.fence.value = 9;
  np.extSemArray = &tl;
  np.paramsArray = sp;
  np.numExtSems = 1;
  CHECK(cuGraphAddExternalSemaphoresSignalNode(&signal_node, g, &kernel, 1, &np));
  CHECK(cuGraphExternalSemaphoresSignalNodeGetParams(signal_node, &got));
  expect(got.numExtSems == 1 && got.extSemArray[0] == tl && got.paramsArray[0].params.fence.value == 9,
         "signal node parameters read back");
  expect_code(cuGraphExternalSemaphoresWaitNodeGetParams(signal_node, (CUDA_EXT_SEM_WAIT_NODE_PARAMS *)&got), CUDA_ERROR_INVALID_VALUE,
              "wait parameters of a signal node");
  CHECK(cuGraphInstantiate(&e, g, 0));
  CHECK(cuMemsetD32(out, 0, 1));
  CHECK(cuGraphLaunch(e, s));
  expect(cuStreamQuery(s) == CUDA_ERROR_NOT_READY, "the graph waits for the timeline");
  __atomic_store_n(timeline, 6, __ATOMIC_RELEASE);
  CHECK(cuStreamSynchronize(s));
  expect(read_u32(out) == 7 && *timeline == 9, "the graph ran its kernel and signaled 9");
  /* The executable graph's signal node takes new values, not another number of them. */
  {
    CUexternalSemaphore pair[2];
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS two;
    pair[0] = pair[1] = tl;
    two.extSemArray = pair;
    two.paramsArray = sp;
    two.numExtSems = 2;
    expect_code(cuGraphExecExternalSemaphoresSignalNodeSetParams(e, signal_node, &two), CUDA_ERROR_INVALID_VALUE,
                "an executable signal node with another number of semaphores");
    sp[0].params.fence.value = 12;
    CHECK(cuGraphExecExternalSemaphoresSignalNodeSetParams(e, signal_node, &np));
    launch_and_wait(e, s);
    expect(*timeline == 12, "the executable graph signaled its new value 12");
  }
  CHECK(cuGraphExecDestroy(e));
  CHECK(cuGraphDestroy(g));

  /* Misuse: CUDA_ERROR_INVALID_VALUE for what the API documents as invalid, NOT_SUPPORTED
   * for handle types this system has no object for (not compared with NVIDIA's driver). */
  memset(&d, 0, sizeof d);
  expect_code(cuImportExternalSemaphore(&none, NULL), CUDA_ERROR_INVALID_VALUE, "NULL descriptor");
  d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  d.handle.fd = -1;
  expect_code(cuImportExternalSemaphore(&none, &d), CUDA_ERROR_INVALID_VALUE, "fd -1");
  d.handle.fd = efd;
  d.flags = 1;
  expect_code(cuImportExternalSemaphore(&none, &d), CUDA_ERROR_INVALID_VALUE, "flags 1");
  d.flags = 0;
  d.type = (CUexternalSemaphoreHandleType)0;
  expect_code(cuImportExternalSemaphore(&none, &d), CUDA_ERROR_INVALID_VALUE, "handle type 0");
  d.type = (CUexternalSemaphoreHandleType)11;
  expect_code(cuImportExternalSemaphore(&none, &d), CUDA_ERROR_INVALID_VALUE, "handle type 11");
  d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32;
  expect_code(cuImportExternalSemaphore(&none, &d), CUDA_ERROR_NOT_SUPPORTED, "a Win32 handle");
  d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE;
  expect_code(cuImportExternalSemaphore(&none, &d), CUDA_ERROR_NOT_SUPPORTED, "a D3D12 fence");
  d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  d.handle.fd = mfd; /* closed at import; an fd of something else is refused */
  r = cuImportExternalSemaphore(&none, &d);
  expect(r == CUDA_ERROR_INVALID_VALUE, "opaque fd that is no eventfd");
  CHECK(cuDestroyExternalSemaphore(bin));
  expect_code(cuDestroyExternalSemaphore(bin), CUDA_ERROR_INVALID_HANDLE, "destroying twice");
  expect_code(cuSignalExternalSemaphoresAsync(&bin, sp, 1, s), CUDA_ERROR_INVALID_HANDLE, "signaling a destroyed semaphore");
  CHECK(cuSignalExternalSemaphoresAsync(NULL, NULL, 0, s));
  CHECK(cuDestroyExternalSemaphore(tl));
  munmap(timeline, 8);
  close(dup_fd);
  close(efd);
}

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule m, m2;
  CUdeviceptr out;
  CUstream s;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuModuleLoadData(&m, add_ptx));
  CHECK(cuModuleGetFunction(&add_fn, m, "add"));
  CHECK(cuModuleLoadData(&m2, set_ptx));
  CHECK(cuModuleGetFunction(&set_fn, m2, "set_cond"));
  CHECK(cuMemAlloc(&out, 4));
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  attributes_enabled_ids(out, s);
  conditional(out, s);
  capture_to_graph(out, s);
  semaphores(out, s);
  CHECK(cuStreamDestroy(s));
  CHECK(cuMemFree(out));
  CHECK(cuModuleUnload(m));
  CHECK(cuModuleUnload(m2));
  if (failures) {
    printf("FAIL graph_nodes: %d mismatches\n", failures);
    return 1;
  }
  printf("PASS graph_nodes\n");
  return 0;
}
