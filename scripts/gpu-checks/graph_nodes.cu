// Prints the answers of whichever libcuda.so.1 is loaded to the graph calls of
// crates/cuda-driver/src/graph/ and extsem.rs (conditional nodes, node state, kernel node
// attributes, user objects, capture into a graph, external semaphores), one line per call,
// to compare NVIDIA's driver with ours (LD_LIBRARY_PATH=target/release). Output is
// unbuffered: a call that crashes a driver still leaves the lines before it.
// Build: nvcc -arch=sm_90 -std=c++17 graph_nodes.cu -o graph_nodes -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>
#include <atomic>
#include <thread>
#include <chrono>

#define P(what, call) do { CUresult r_ = (call); const char *n_ = 0; cuGetErrorName(r_, &n_); printf("%-60s %d %s\n", what, (int)r_, n_ ? n_ : "?"); } while (0)

__global__ void noop() {}
// Entry points newer than some cuda.h: looked up at run time.
typedef CUresult (*GetParamsFn)(CUgraphNode, CUgraphNodeParams *);
typedef CUresult (*GetIdFn)(CUgraph, unsigned *);
typedef CUresult (*LocalIdFn)(CUgraphNode, unsigned *);
typedef CUresult (*ToolsIdFn)(CUgraphNode, unsigned long long *);
template <class F> static F lookup(const char *name) {
  void *p = 0; CUdriverProcAddressQueryResult q;
  int ver = 0; cuDriverGetVersion(&ver);
  CUresult r = cuGetProcAddress(name, &p, ver, 0, &q);
  if (r || !p) { printf("%s: not found (%d, %d)\n", name, (int)r, (int)q); return 0; }
  return (F)p;
}
static std::atomic<int> destroyed{0};
static void CUDART_CB dtor(void *) { destroyed++; }
static void CUDART_CB hostfn(void *) {}

int main() {
  setvbuf(stdout, NULL, _IONBF, 0);
  cudaFree(0);
  CUcontext ctx; cuCtxGetCurrent(&ctx);
  CUgraph g; cuGraphCreate(&g, 0);
  CUgraphConditionalHandle h = 0;
  P("handle flags 2", cuGraphConditionalHandleCreate(&h, g, ctx, 0, 2));
  P("handle null graph", cuGraphConditionalHandleCreate(&h, 0, ctx, 0, 0));
  P("handle null ctx", cuGraphConditionalHandleCreate(&h, g, 0, 0, 0));
  P("handle ok", cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0));
  printf("handle value %llx\n", (unsigned long long)h);
  struct { CUgraphConditionalNodeType t; unsigned size; unsigned long long hh; const char *what; } cases[] = {
    {CU_GRAPH_COND_TYPE_IF, 3, h, "if size 3"}, {CU_GRAPH_COND_TYPE_IF, 0, h, "if size 0"},
    {CU_GRAPH_COND_TYPE_WHILE, 2, h, "while size 2"}, {CU_GRAPH_COND_TYPE_SWITCH, 0, h, "switch size 0"},
    {(CUgraphConditionalNodeType)3, 1, h, "type 3"}, {CU_GRAPH_COND_TYPE_IF, 1, h + 4, "bad handle"},
    {CU_GRAPH_COND_TYPE_IF, 1, 0, "handle 0"}};
  for (auto &c : cases) {
    CUgraphNodeParams p; memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.conditional.handle = c.hh; p.conditional.type = c.t; p.conditional.size = c.size; p.conditional.ctx = ctx;
    CUgraphNode n; P(c.what, cuGraphAddNode(&n, g, 0, 0, 0, &p));
  }
  // null ctx in node params
  {
    CUgraphNodeParams p; memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL; p.conditional.handle = h; p.conditional.type = CU_GRAPH_COND_TYPE_IF; p.conditional.size = 1;
    CUgraphNode n = 0; P("if node ctx NULL", cuGraphAddNode(&n, g, 0, 0, 0, &p));
    if (n) cuGraphDestroyNode(n);
  }
  // a body with an event record node, a host node
  CUgraphNodeParams p; memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL; p.conditional.handle = h; p.conditional.type = CU_GRAPH_COND_TYPE_IF; p.conditional.size = 2; p.conditional.ctx = ctx;
  CUgraphNode cn; P("if/else ok", cuGraphAddNode(&cn, g, 0, 0, 0, &p));
  CUgraph *out1 = p.conditional.phGraph_out;
  CUgraphNodeParams q; memset(&q, 0, sizeof q);
  auto getParams = lookup<GetParamsFn>("cuGraphNodeGetParams");
  if (getParams) P("get params", getParams(cn, &q));
  printf("getparams type %d handle %d size %u same array %d ctx same %d\n", q.type, q.conditional.handle == h, q.conditional.size, q.conditional.phGraph_out == out1, q.conditional.ctx == ctx);
  CUevent ev; cuEventCreate(&ev, 0);
  CUgraphNode en; P("event record node in body", cuGraphAddEventRecordNode(&en, out1[0], 0, 0, ev));
  CUDA_HOST_NODE_PARAMS hp = {hostfn, 0};
  CUgraphNode hn; P("host node in body", cuGraphAddHostNode(&hn, out1[1], 0, 0, &hp));
  CUgraphExec ex = 0;
  P("instantiate body with event+host", cuGraphInstantiateWithFlags(&ex, g, 0));
  if (ex) cuGraphExecDestroy(ex);
  P("destroy node (body graph) ", cuGraphDestroyNode(en));
  P("destroy host", cuGraphDestroyNode(hn));
  P("instantiate after", cuGraphInstantiateWithFlags(&ex, g, 0));
  P("conditional set params", cuGraphNodeSetParams(cn, &p));
  // user objects
  CUuserObject o;
  P("uo flags 0", cuUserObjectCreate(&o, 0, dtor, 1, 0));
  P("uo count 0", cuUserObjectCreate(&o, 0, dtor, 0, 1));
  P("uo null destroy", cuUserObjectCreate(&o, 0, 0, 1, 1));
  P("uo ok", cuUserObjectCreate(&o, 0, dtor, 1, 1));
  P("uo retain 0", cuUserObjectRetain(o, 0));
  P("graph retain flags 2", cuGraphRetainUserObject(g, o, 1, 2));
  P("graph release not owned", cuGraphReleaseUserObject(g, o, 1));
  P("graph retain 2", cuGraphRetainUserObject(g, o, 2, 0));
  P("graph release 3 of 2", cuGraphReleaseUserObject(g, o, 3));
  P("graph release 1", cuGraphReleaseUserObject(g, o, 1));
  P("uo release 1 (caller's)", cuUserObjectRelease(o, 1));
  P("exec destroy", ex ? cuGraphExecDestroy(ex) : CUDA_ERROR_INVALID_VALUE);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  printf("destroyed before graph destroy %d\n", destroyed.load());
  // local ids
  CUgraph g2; cuGraphCreate(&g2, 0);
  CUgraphNode a, b, c; cuGraphAddEmptyNode(&a, g2, 0, 0); cuGraphAddEmptyNode(&b, g2, &a, 1); cuGraphAddEmptyNode(&c, g2, 0, 0);
  cuGraphDestroyNode(b); CUgraphNode d; cuGraphAddEmptyNode(&d, g2, 0, 0);
  unsigned id = 0; unsigned long long tid = 0; unsigned gid = 0;
  auto getId = lookup<GetIdFn>("cuGraphGetId"); auto localId = lookup<LocalIdFn>("cuGraphNodeGetLocalId"); auto toolsId = lookup<ToolsIdFn>("cuGraphNodeGetToolsId");
  if (getId && localId && toolsId) {
  getId(g2, &gid);
  localId(a, &id); printf("local a %u\n", id);
  localId(c, &id); printf("local c %u\n", id);
  localId(d, &id); printf("local d %u (after destroying b)\n", id);
  toolsId(d, &tid); printf("tools d %llx graph id %u\n", tid, gid);
  CUgraph g3; cuGraphClone(&g3, g2); CUgraphNode dc; cuGraphNodeFindInClone(&dc, d, g3); localId(dc, &id); printf("clone local d %u\n", id);
  }
  cuGraphDebugDotPrint(g2, "/tmp/g2.dot", 0);
  { FILE *f = fopen("/tmp/g2.dot", "r"); char line[256]; int k = 0; while (f && fgets(line, sizeof line, f) && k++ < 12) printf("dot: %s", line); if (f) fclose(f); }
  P("destroy g", cuGraphDestroy(g));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  printf("destroyed after graph destroy %d\n", destroyed.load());
  // kernel node attributes and enabled
  void *fp = (void *)noop; cudaKernelNodeParams kp = {}; kp.func = fp; kp.gridDim = dim3(1); kp.blockDim = dim3(1);
  cudaGraph_t rg; cudaGraphCreate(&rg, 0); cudaGraphNode_t kn; cudaGraphAddKernelNode(&kn, rg, 0, 0, &kp);
  CUgraphNode e2; cuGraphAddEmptyNode(&e2, rg, 0, 0);
  CUkernelNodeAttrValue v; memset(&v, 0x5a, sizeof v);
  for (int idv : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 99}) {
    char w[64]; snprintf(w, sizeof w, "get attr %d", idv); memset(&v, 0x5a, sizeof v);
    CUresult r = cuGraphKernelNodeGetAttribute(kn, (CUkernelNodeAttrID)idv, &v);
    const char *nm; cuGetErrorName(r, &nm); unsigned *wv = (unsigned *)&v;
    printf("%-60s %d %s words %x %x %x %x\n", w, r, nm, wv[0], wv[1], wv[2], wv[3]);
  }
  memset(&v, 0, sizeof v); v.cooperative = 1; P("set coop", cuGraphKernelNodeSetAttribute(kn, CU_KERNEL_NODE_ATTRIBUTE_COOPERATIVE, &v));
  memset(&v, 0, sizeof v); v.priority = 3; P("set priority 3", cuGraphKernelNodeSetAttribute(kn, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &v));
  memset(&v, 0, sizeof v); v.clusterDim.x = 2; v.clusterDim.y = 1; v.clusterDim.z = 1; P("set cluster 2", cuGraphKernelNodeSetAttribute(kn, CU_KERNEL_NODE_ATTRIBUTE_CLUSTER_DIMENSION, &v));
  memset(&v, 0, sizeof v); P("set sync policy(3)", cuGraphKernelNodeSetAttribute(kn, (CUkernelNodeAttrID)3, &v));
  P("get attr on empty", cuGraphKernelNodeGetAttribute(e2, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &v));
  P("copy attr to empty", cuGraphKernelNodeCopyAttributes(e2, kn));
  cudaGraphExec_t rex; cudaGraphInstantiate(&rex, rg, 0);
  unsigned en2 = 7;
  P("get enabled kernel", cuGraphNodeGetEnabled(rex, kn, &en2)); printf("enabled %u\n", en2);
  P("get enabled empty", cuGraphNodeGetEnabled(rex, e2, &en2));
  P("set enabled empty 0", cuGraphNodeSetEnabled(rex, e2, 0));
  P("set enabled kernel 0", cuGraphNodeSetEnabled(rex, kn, 0));
  P("set enabled kernel 5", cuGraphNodeSetEnabled(rex, kn, 5));
  P("get enabled kernel", cuGraphNodeGetEnabled(rex, kn, &en2)); printf("enabled %u\n", en2);
  P("exec event set on empty", cuGraphExecEventRecordNodeSetEvent(rex, e2, ev));
  CUgraph child; cuGraphCreate(&child, 0); CUgraphNode ce; cuGraphAddEmptyNode(&ce, child, 0, 0);
  P("exec child set on empty", cuGraphExecChildGraphNodeSetParams(rex, e2, child));
  // capture to graph end with NULL
  CUstream s; cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
  P("begin capture", cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  P("end capture NULL", cuStreamEndCapture(s, 0));
  CUstreamCaptureStatus st; cuStreamIsCapturing(s, &st); printf("still capturing %d\n", st);
  if (st) { CUgraph gg; P("end capture", cuStreamEndCapture(s, &gg)); }
  CUgraph tg; cuGraphCreate(&tg, 0);
  P("begin capture to graph", cuStreamBeginCaptureToGraph(s, tg, 0, 0, 0, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CUgraph got = (CUgraph)0x1;
  P("end capture to graph NULL", cuStreamEndCapture(s, 0));
  cuStreamIsCapturing(s, &st); printf("still capturing %d\n", st);
  P("begin capture to graph 2", cuStreamBeginCaptureToGraph(s, tg, 0, 0, 0, CU_STREAM_CAPTURE_MODE_GLOBAL));
  P("end capture to graph", cuStreamEndCapture(s, &got)); printf("returned graph same %d\n", got == tg);
  P("begin capture to graph dep foreign", cuStreamBeginCaptureToGraph(s, tg, &a, 0, 1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  cuStreamIsCapturing(s, &st); if (st) cuStreamEndCapture(s, &got);
  // external semaphores
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC sd; CUexternalSemaphore es;
  memset(&sd, 0, sizeof sd); sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD; sd.handle.fd = eventfd(0, 0);
  P("import eventfd opaque", cuImportExternalSemaphore(&es, &sd));
  memset(&sd, 0, sizeof sd); sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD; sd.handle.fd = -1;
  P("import fd -1", cuImportExternalSemaphore(&es, &sd));
  int mfd = memfd_create("t", 0); ftruncate(mfd, 8);
  memset(&sd, 0, sizeof sd); sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD; sd.handle.fd = mfd;
  P("import memfd timeline", cuImportExternalSemaphore(&es, &sd));
  memset(&sd, 0, sizeof sd); sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32;
  P("import win32", cuImportExternalSemaphore(&es, &sd));
  memset(&sd, 0, sizeof sd); sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE;
  P("import d3d12", cuImportExternalSemaphore(&es, &sd));
  memset(&sd, 0, sizeof sd); sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC;
  P("import nvscisync null", cuImportExternalSemaphore(&es, &sd));
  memset(&sd, 0, sizeof sd); sd.type = (CUexternalSemaphoreHandleType)0;
  P("import type 0", cuImportExternalSemaphore(&es, &sd));
  memset(&sd, 0, sizeof sd); sd.type = (CUexternalSemaphoreHandleType)11;
  P("import type 11", cuImportExternalSemaphore(&es, &sd));
  memset(&sd, 0, sizeof sd); sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD; sd.handle.fd = eventfd(0, 0); sd.flags = 1;
  P("import flags 1", cuImportExternalSemaphore(&es, &sd));
  P("import NULL desc", cuImportExternalSemaphore(&es, 0));
  CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp; memset(&sp, 0, sizeof sp);
  P("signal 0 sems", cuSignalExternalSemaphoresAsync(0, 0, 0, s));
  CUDA_EXT_SEM_SIGNAL_NODE_PARAMS snp = {0, 0, 0};
  CUgraphNode sn; P("add signal node 0 sems", cuGraphAddExternalSemaphoresSignalNode(&sn, tg, 0, 0, &snp));
  CUDA_EXT_SEM_SIGNAL_NODE_PARAMS gp; P("signal node get", cuGraphExternalSemaphoresSignalNodeGetParams(sn, &gp)); printf("get: %p %p %u\n", (void*)gp.extSemArray, (void*)gp.paramsArray, gp.numExtSems);
  CUDA_EXT_SEM_WAIT_NODE_PARAMS wp; P("wait get on signal node", cuGraphExternalSemaphoresWaitNodeGetParams(sn, &wp));
  fflush(stdout);
  return 0;
}
