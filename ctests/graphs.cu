// CUDA graphs and stream capture: a graph built by hand (memset -> kernel -> memcpy ->
// kernel -> host node) launched several times; a graph captured from two streams forked
// and joined with events, launched several times; cloning, child graphs, executable-graph
// updates; and the error codes of illegal operations during capture (synchronizing a
// capturing stream, unjoined forks, the legacy stream under capture, cudaMalloc under
// global and relaxed capture modes). Every expected value is computed here on the host.
#define CTEST_NAME "graphs"
#include "ctest.h"

#include <atomic>

// x[i] = x[i] * 2 + add.
__global__ void twice_plus(int *x, int n, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 2 + add;
}

// acc[i] += y[i].
__global__ void accumulate(int *acc, const int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += y[i];
}

// out[i] = a[i] * mul + b[i].
__global__ void combine(const int *a, const int *b, int *out, int n, int mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] * mul + b[i];
}

__global__ void noop() {}

static std::atomic<int> host_calls{0};
static void CUDART_CB count_call(void *arg) {
  host_calls.fetch_add(1);
  if (arg) *(int *)arg += 1;
}

// Checks an expected failure and clears it from the runtime's last error.
static void expect_code(cudaError_t got, cudaError_t want, const char *what) {
  EXPECT(got == want, "%s: got %d (%s), want %d (%s)", what, (int)got, cudaGetErrorName(got), (int)want,
         cudaGetErrorName(want));
  cudaGetLastError();
}

static const int N = 256;

static size_t count_nodes(cudaGraph_t g) {
  size_t n = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &n));
  return n;
}

// memset(x, 3) -> twice_plus(x, +1) -> memcpy(y <- x) -> accumulate(acc += y) -> host.
static void manual_graph(int *x, int *y, int *acc) {
  printf("manual graph\n");
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t set, kern, copy, add, host;

  cudaMemsetParams mp = {};
  mp.dst = x;
  mp.value = 3;
  mp.elementSize = 4;
  mp.width = N;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp));

  int n = N, one = 1;
  void *kargs[] = {&x, &n, &one};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)twice_plus;
  kp.gridDim = dim3((N + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = kargs;
  CHECK(cudaGraphAddKernelNode(&kern, g, &set, 1, &kp));
  // The node keeps its own copy of the arguments.
  one = 1000;

  CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &kern, 1, y, x, N * sizeof(int), cudaMemcpyDeviceToDevice));

  void *aargs[] = {&acc, &y, &n};
  cudaKernelNodeParams ap = kp;
  ap.func = (void *)accumulate;
  ap.kernelParams = aargs;
  CHECK(cudaGraphAddKernelNode(&add, g, &copy, 1, &ap));

  static int host_counter = 0;
  cudaHostNodeParams hp = {count_call, &host_counter};
  CHECK(cudaGraphAddHostNode(&host, g, &add, 1, &hp));

  EXPECT(count_nodes(g) == 5, "manual graph: %zu nodes", count_nodes(g));
  size_t roots = 0;
  CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
  EXPECT(roots == 1, "roots %zu", roots);
  cudaGraphNode_t root;
  roots = 1;
  CHECK(cudaGraphGetRootNodes(g, &root, &roots));
  EXPECT(root == set, "the root is the memset node");
  cudaGraphNodeType t;
  CHECK(cudaGraphNodeGetType(kern, &t));
  EXPECT(t == cudaGraphNodeTypeKernel, "kernel node type %d", (int)t);
  CHECK(cudaGraphNodeGetType(copy, &t));
  EXPECT(t == cudaGraphNodeTypeMemcpy, "memcpy node type %d", (int)t);
  CHECK(cudaGraphNodeGetType(host, &t));
  EXPECT(t == cudaGraphNodeTypeHost, "host node type %d", (int)t);
  // The edge queries and edits took edge data in CUDA 13; the cu12 variants (CUDA 13
  // headers, CUDA 12's runtime) would call them with the wrong arguments.
  int runtime = 0;
  CHECK(cudaRuntimeGetVersion(&runtime));
  if (runtime >= 13000) {
    size_t edges = 0;
    CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
    EXPECT(edges == 4, "edges %zu", edges);
    cudaGraphNode_t dep = nullptr;
    size_t ndeps = 1;
    CHECK(cudaGraphNodeGetDependencies(add, &dep, nullptr, &ndeps));
    EXPECT(ndeps == 1 && dep == copy, "accumulate depends on the copy");
    // An edge that exists already cannot be added again.
    expect_code(cudaGraphAddDependencies(g, &set, &kern, nullptr, 1), cudaErrorInvalidValue, "duplicate edge");
  }

  CHECK(cudaMemset(acc, 0, N * sizeof(int)));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int launches = 3;
  for (int l = 0; l < launches; l++) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  int h[N];
  CHECK(cudaMemcpy(h, acc, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(h[i] == launches * (3 * 2 + 1), "acc[%d] = %d", i, h[i]);
  EXPECT(host_counter == launches, "host node ran %d times", host_counter);

  // An update with the same topology takes the new memset value.
  cudaGraph_t g2;
  CHECK(cudaGraphClone(&g2, g));
  cudaGraphNode_t set2;
  CHECK(cudaGraphNodeFindInClone(&set2, set, g2));
  mp.value = 10;
  CHECK(cudaGraphMemsetNodeSetParams(set2, &mp));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, g2, &info));
  EXPECT(info.result == cudaGraphExecUpdateSuccess, "update result %d", (int)info.result);
  CHECK(cudaMemset(acc, 0, N * sizeof(int)));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(h, acc, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(h[i] == 10 * 2 + 1, "after update acc[%d] = %d", i, h[i]);
  // Another topology cannot be taken.
  cudaGraphNode_t extra;
  CHECK(cudaGraphAddEmptyNode(&extra, g2, nullptr, 0));
  expect_code(cudaGraphExecUpdate(exec, g2, &info), cudaErrorGraphExecUpdateFailure, "update with a new node");
  EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged, "update result %d", (int)info.result);

  // The graph inside a child node of another graph, launched once.
  cudaGraph_t parent;
  CHECK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t child;
  CHECK(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, g));
  cudaGraphExec_t pexec;
  CHECK(cudaGraphInstantiate(&pexec, parent, 0));
  CHECK(cudaMemset(acc, 0, N * sizeof(int)));
  CHECK(cudaGraphLaunch(pexec, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(h, acc, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(h[i] == 3 * 2 + 1, "child graph acc[%d] = %d", i, h[i]);
  EXPECT(host_counter == launches + 2, "host node ran %d times", host_counter);

  CHECK(cudaGraphExecDestroy(pexec));
  CHECK(cudaGraphDestroy(parent));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g2));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s));
}

// s1: memset(a, 0); twice_plus(a, +1) [a = 1]; record e1
// s2: wait e1; combine(a, a -> b, *10) [b = 11]; record e2
// s1: twice_plus(a, +5) [a = 7]; wait e2; combine(a, b -> c, *100) [c = 711];
//     memcpy c -> pinned host; host node.
static void captured_graph(int *a, int *b, int *c) {
  printf("captured graph\n");
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t e1, e2;
  CHECK(cudaEventCreateWithFlags(&e1, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&e2, cudaEventDisableTiming));
  int *h;
  CHECK(cudaMallocHost(&h, N * sizeof(int)));
  for (int i = 0; i < N; i++) h[i] = -1;
  static int calls = 0;
  int blocks = (N + 127) / 128;

  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus st;
  CHECK(cudaStreamIsCapturing(s1, &st));
  EXPECT(st == cudaStreamCaptureStatusActive, "s1 capturing: %d", (int)st);
  CHECK(cudaStreamIsCapturing(s2, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "s2 not capturing yet: %d", (int)st);
  CHECK(cudaMemsetAsync(a, 0, N * sizeof(int), s1));
  twice_plus<<<blocks, 128, 0, s1>>>(a, N, 1);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(e1, s1));
  CHECK(cudaStreamWaitEvent(s2, e1, 0));
  CHECK(cudaStreamIsCapturing(s2, &st));
  EXPECT(st == cudaStreamCaptureStatusActive, "s2 joined the capture: %d", (int)st);
  combine<<<blocks, 128, 0, s2>>>(a, a, b, N, 10);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(e2, s2));
  twice_plus<<<blocks, 128, 0, s1>>>(a, N, 5);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamWaitEvent(s1, e2, 0));
  combine<<<blocks, 128, 0, s1>>>(a, b, c, N, 100);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(h, c, N * sizeof(int), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaLaunchHostFunc(s1, count_call, &calls));
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s1, &g));
  CHECK(cudaStreamIsCapturing(s1, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "s1 after the capture: %d", (int)st);
  CHECK(cudaStreamIsCapturing(s2, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "s2 after the capture: %d", (int)st);
  // Nothing ran during the capture.
  CHECK(cudaDeviceSynchronize());
  EXPECT(h[0] == -1 && calls == 0, "captured work ran: h[0] = %d, calls = %d", h[0], calls);
  EXPECT(count_nodes(g) == 7, "captured graph: %zu nodes", count_nodes(g));
  size_t roots = 0;
  CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
  EXPECT(roots == 1, "captured graph: %zu roots", roots);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int l = 1; l <= 3; l++) {
    for (int i = 0; i < N; i++) h[i] = -1;
    CHECK(cudaGraphLaunch(exec, s2));
    CHECK(cudaStreamSynchronize(s2));
    for (int i = 0; i < N; i++) EXPECT(h[i] == 7 * 100 + 11, "launch %d: c[%d] = %d", l, i, h[i]);
    EXPECT(calls == l, "launch %d: host node ran %d times", l, calls);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaFreeHost(h));
  CHECK(cudaEventDestroy(e1));
  CHECK(cudaEventDestroy(e2));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
}

static void misuse() {
  printf("misuse\n");
  cudaStream_t s, t, blocking;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
  CHECK(cudaStreamCreate(&blocking));
  cudaGraph_t g = (cudaGraph_t)0x1;

  // The legacy stream cannot capture.
  expect_code(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported,
              "capture of the legacy stream");
  cudaGetLastError();

  // Synchronizing a capturing stream invalidates the capture.
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  expect_code(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaErrorIllegalState, "capture begun twice");
  noop<<<1, 1, 0, s>>>();
  CHECK(cudaGetLastError());
  expect_code(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported, "synchronize while capturing");
  cudaStreamCaptureStatus st;
  CHECK(cudaStreamIsCapturing(s, &st));
  EXPECT(st == cudaStreamCaptureStatusInvalidated, "status after the synchronize: %d", (int)st);
  noop<<<1, 1, 0, s>>>();
  expect_code(cudaGetLastError(), cudaErrorStreamCaptureInvalidated, "launch into an invalidated capture");
  expect_code(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated, "end of an invalidated capture");
  EXPECT(g == nullptr, "an invalidated capture returns no graph");
  cudaGetLastError();

  // A fork that is not joined back.
  cudaEvent_t e;
  CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  noop<<<1, 1, 0, s>>>();
  CHECK(cudaEventRecord(e, s));
  CHECK(cudaStreamWaitEvent(t, e, 0));
  noop<<<1, 1, 0, t>>>();
  CHECK(cudaGetLastError());
  g = (cudaGraph_t)0x1;
  expect_code(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureUnjoined, "unjoined fork");
  EXPECT(g == nullptr, "an unjoined capture returns no graph");
  CHECK(cudaStreamIsCapturing(t, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "the forked stream left the capture: %d", (int)st);
  cudaGetLastError();

  // The legacy stream may not depend on a capturing blocking stream.
  CHECK(cudaStreamBeginCapture(blocking, cudaStreamCaptureModeGlobal));
  noop<<<1, 1, 0, 0>>>();
  expect_code(cudaGetLastError(), cudaErrorStreamCaptureImplicit, "legacy-stream launch during capture");
  expect_code(cudaStreamEndCapture(blocking, &g), cudaErrorStreamCaptureInvalidated, "end after the implicit dependency");
  cudaGetLastError();

  // cudaMalloc is unsafe under a global capture, allowed in relaxed mode.
  void *p = nullptr;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  EXPECT(mode == cudaStreamCaptureModeGlobal, "the previous mode: %d", (int)mode);
  CHECK(cudaMalloc(&p, 64));
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  noop<<<1, 1, 0, s>>>();
  CHECK(cudaGetLastError());
  CHECK(cudaStreamEndCapture(s, &g));
  EXPECT(g != nullptr && count_nodes(g) == 1, "relaxed capture: one node");
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  void *q = nullptr;
  expect_code(cudaMalloc(&q, 64), cudaErrorStreamCaptureUnsupported, "cudaMalloc during a global capture");
  expect_code(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated, "end after cudaMalloc");
  cudaGetLastError();
  CHECK(cudaFree(p));

  CHECK(cudaEventDestroy(e));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(t));
  CHECK(cudaStreamDestroy(blocking));
}

int main() {
  int *x, *y, *acc;
  CHECK(cudaMalloc(&x, N * sizeof(int)));
  CHECK(cudaMalloc(&y, N * sizeof(int)));
  CHECK(cudaMalloc(&acc, N * sizeof(int)));
  manual_graph(x, y, acc);
  captured_graph(x, y, acc);
  misuse();
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(acc));
  return ctest_finish();
}
