// Conditional graph nodes (CUDA Programming Guide, "Conditional Graph Nodes"): IF, IF/ELSE,
// SWITCH and WHILE nodes whose handles kernels set with cudaGraphSetConditional, bodies
// built with cudaGraphAddNode and with cudaStreamBeginCaptureToGraph, a conditional nested
// in a WHILE body, default values assigned at each launch, cudaGraphNodeGetParams of a
// conditional node, user objects whose destructor runs when the last graph or executable
// graph reference goes, and the error codes of misuse. Every expected value is computed
// here on the host.
#define CTEST_NAME "graph_conditional"
#include "ctest.h"

#include <atomic>
#include <chrono>
#include <thread>

// Sets the handle to *v.
__global__ void set_from(const int *v, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, (unsigned)*v); }

// *acc += x (one thread).
__global__ void add_to(int *acc, int x) { *acc += x; }

// One WHILE iteration: *acc += *counter, then --*counter; the loop ends at 0.
__global__ void countdown(int *counter, int *acc, cudaGraphConditionalHandle h) {
  *acc += *counter;
  *counter -= 1;
  if (*counter == 0) cudaGraphSetConditional(h, 0);
}

// Sets the handle to whether *counter is odd.
__global__ void set_if_odd(const int *counter, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, *counter & 1); }

static void expect_code(cudaError_t got, cudaError_t want, const char *what) {
  EXPECT(got == want, "%s: got %d (%s), want %d (%s)", what, (int)got, cudaGetErrorName(got), (int)want,
         cudaGetErrorName(want));
  cudaGetLastError();
}

// A kernel node of f with the given argument pointers, 1 thread.
static cudaGraphNodeParams kernel_node(const void *f, void **args) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = (void *)f;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(1);
  p.kernel.kernelParams = args;
  return p;
}

static cudaGraphNode_t add(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, cudaGraphNodeParams p) {
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, g, deps, nullptr, n, &p));
  return node;
}

// A conditional node of `type` with `size` bodies; returns the node, bodies in *bodies.
static cudaGraphNode_t add_conditional(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, cudaGraphConditionalHandle h,
                                       cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t *bodies) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, g, deps, nullptr, n, &p));
  for (unsigned i = 0; i < size; i++) bodies[i] = p.conditional.phGraph_out[i];
  return node;
}

static int read_int(const int *d) {
  int v;
  CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

static void write_int(int *d, int v) { CHECK(cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice)); }

// set_from(v) -> IF (size 1 or 2): body 0 adds 10, body 1 adds 20.
static void if_else(int *v, int *acc, unsigned size) {
  printf("if (%u bodies)\n", size);
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  void *set_args[] = {&v, &h};
  cudaGraphNode_t set = add(g, nullptr, 0, kernel_node((const void *)set_from, set_args));
  cudaGraph_t bodies[2];
  cudaGraphNode_t cond = add_conditional(g, &set, 1, h, cudaGraphCondTypeIf, size, bodies);
  int ten = 10, twenty = 20;
  void *args10[] = {&acc, &ten}, *args20[] = {&acc, &twenty};
  add(bodies[0], nullptr, 0, kernel_node((const void *)add_to, args10));
  if (size == 2) add(bodies[1], nullptr, 0, kernel_node((const void *)add_to, args20));

  // What cudaGraphNodeGetParams says of the node is what it was made with.
  size_t n = 0;
  CHECK(cudaGraphNodeGetDependencies(cond, nullptr, nullptr, &n));
  EXPECT(n == 1, "conditional node dependencies: %zu", n);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  const int values[] = {0, 1, 7, 0, 2};
  for (int value : values) {
    write_int(v, value);
    write_int(acc, 0);
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    int want = value ? 10 : (size == 2 ? 20 : 0);
    EXPECT(read_int(acc) == want, "if/%u with %d: got %d, want %d", size, value, read_int(acc), want);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
}

// set_from(v) -> SWITCH (3 bodies adding 1, 2, 4).
static void switch_node(int *v, int *acc) {
  printf("switch\n");
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  void *set_args[] = {&v, &h};
  cudaGraphNode_t set = add(g, nullptr, 0, kernel_node((const void *)set_from, set_args));
  cudaGraph_t bodies[3];
  add_conditional(g, &set, 1, h, cudaGraphCondTypeSwitch, 3, bodies);
  int adds[3] = {1, 2, 4};
  void *args[3][2];
  for (int i = 0; i < 3; i++) {
    args[i][0] = &acc;
    args[i][1] = &adds[i];
    add(bodies[i], nullptr, 0, kernel_node((const void *)add_to, args[i]));
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int value = 0; value < 6; value++) {
    write_int(v, value);
    write_int(acc, 0);
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    int want = value < 3 ? adds[value] : 0;
    EXPECT(read_int(acc) == want, "switch with %d: got %d, want %d", value, read_int(acc), want);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
}

// An IF body of copies and fills made with cudaGraphAddNode: memset(tmp, 42) ->
// memcpy(acc <- tmp); the ELSE body sets acc to 7 through a 2D memset of one row.
static void if_copies(int *v, int *acc, int *tmp) {
  printf("if with memset and memcpy bodies\n");
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  void *set_args[] = {&v, &h};
  cudaGraphNode_t set = add(g, nullptr, 0, kernel_node((const void *)set_from, set_args));
  cudaGraph_t bodies[2];
  add_conditional(g, &set, 1, h, cudaGraphCondTypeIf, 2, bodies);
  cudaGraphNodeParams fill = {};
  fill.type = cudaGraphNodeTypeMemset;
  fill.memset.dst = tmp;
  fill.memset.value = 42;
  fill.memset.elementSize = 4;
  fill.memset.width = 1;
  fill.memset.height = 1;
  cudaGraphNode_t filled = add(bodies[0], nullptr, 0, fill);
  cudaGraphNodeParams copy = {};
  copy.type = cudaGraphNodeTypeMemcpy;
  copy.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(tmp, sizeof(int), sizeof(int), 1);
  copy.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(acc, sizeof(int), sizeof(int), 1);
  copy.memcpy.copyParams.extent = make_cudaExtent(sizeof(int), 1, 1);
  copy.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
  add(bodies[0], &filled, 1, copy);
  fill.memset.dst = acc;
  fill.memset.value = 7;
  fill.memset.pitch = sizeof(int);
  add(bodies[1], nullptr, 0, fill);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  const int values[] = {1, 0, 3};
  for (int value : values) {
    write_int(v, value);
    write_int(tmp, 0);
    write_int(acc, 0);
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    int want = value ? 42 : 7;
    EXPECT(read_int(acc) == want, "if with copies, value %d: got %d, want %d", value, read_int(acc), want);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
}

// WHILE, default 1 assigned at each launch, body captured into the node's graph: a
// countdown from n adds n + (n-1) + ... + 1; a nested IF, set in the body from the
// decremented counter's parity, adds 100 per odd value.
static void while_loop(int *counter, int *acc, int *odd_acc) {
  printf("while\n");
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle w, i;
  CHECK(cudaGraphConditionalHandleCreate(&w, g, 1, cudaGraphCondAssignDefault));
  CHECK(cudaGraphConditionalHandleCreate(&i, g));
  cudaGraph_t body;
  add_conditional(g, nullptr, 0, w, cudaGraphCondTypeWhile, 1, &body);

  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
  countdown<<<1, 1, 0, s>>>(counter, acc, w);
  set_if_odd<<<1, 1, 0, s>>>(counter, i);
  cudaStreamCaptureStatus status;
  cudaGraph_t captured;
  const cudaGraphNode_t *deps;
  size_t ndeps;
  CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &captured, &deps, nullptr, &ndeps));
  EXPECT(status == cudaStreamCaptureStatusActive && captured == body && ndeps == 1, "capture into the body: %d, %zu dependencies",
         (int)status, ndeps);
  cudaGraph_t inner;
  cudaGraphNode_t if_node = add_conditional(body, deps, ndeps, i, cudaGraphCondTypeIf, 1, &inner);
  CHECK(cudaStreamUpdateCaptureDependencies(s, &if_node, nullptr, 1, cudaStreamSetCaptureDependencies));
  CHECK(cudaStreamEndCapture(s, nullptr));
  CHECK(cudaStreamDestroy(s));
  int hundred = 100;
  void *args[] = {&odd_acc, &hundred};
  add(inner, nullptr, 0, kernel_node((const void *)add_to, args));
  size_t body_nodes = 0;
  CHECK(cudaGraphGetNodes(body, nullptr, &body_nodes));
  EXPECT(body_nodes == 3, "the while body has %zu nodes, want 3", body_nodes);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  const int starts[] = {5, 1, 12};
  for (int n : starts) {
    write_int(counter, n);
    write_int(acc, 0);
    write_int(odd_acc, 0);
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    int odd = 0;
    for (int c = n - 1; c >= 0; c--) odd += (c & 1) ? 100 : 0;
    EXPECT(read_int(acc) == n * (n + 1) / 2, "while from %d: sum %d, want %d", n, read_int(acc), n * (n + 1) / 2);
    EXPECT(read_int(odd_acc) == odd, "while from %d: nested if %d, want %d", n, read_int(odd_acc), odd);
    EXPECT(read_int(counter) == 0, "while from %d: counter %d", n, read_int(counter));
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));

  // A default of 0 never enters the loop.
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphConditionalHandleCreate(&w, g, 0, cudaGraphCondAssignDefault));
  add_conditional(g, nullptr, 0, w, cudaGraphCondTypeWhile, 1, &body);
  int one = 1;
  void *args1[] = {&acc, &one};
  add(body, nullptr, 0, kernel_node((const void *)add_to, args1));
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  write_int(acc, 0);
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  EXPECT(read_int(acc) == 0, "while with default 0 ran its body: %d", read_int(acc));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
}

static std::atomic<int> destroyed{0};
static void CUDART_CB destroy_object(void *p) { destroyed.fetch_add(*(int *)p); }

// The destructor runs on an internal thread: wait (up to 5 s) for it.
static bool destroyed_becomes(int want) {
  for (int i = 0; i < 500 && destroyed.load() != want; i++) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return destroyed.load() == want;
}

// A user object referenced by the caller, a graph and an executable graph.
static void user_objects() {
  printf("user objects\n");
  static int weight = 1;
  cudaUserObject_t obj;
  CHECK(cudaUserObjectCreate(&obj, &weight, destroy_object, 1, cudaUserObjectNoDestructorSync));
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t empty;
  CHECK(cudaGraphAddEmptyNode(&empty, g, nullptr, 0));
  CHECK(cudaGraphRetainUserObject(g, obj, 2, 0));
  CHECK(cudaGraphReleaseUserObject(g, obj, 1));
  // The caller's one reference moves to the graph: the graph holds 2.
  CHECK(cudaGraphRetainUserObject(g, obj, 1, cudaGraphUserObjectMove));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT(destroyed.load() == 0, "destructor ran while the executable graph holds references");
  CHECK(cudaGraphExecDestroy(exec));
  EXPECT(destroyed_becomes(1), "destructor ran %d times after the last reference, want 1", destroyed.load());
}

static void misuse(int *v) {
  printf("misuse\n");
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  expect_code(cudaGraphConditionalHandleCreate(&h, g, 0, 2), cudaErrorInvalidValue, "handle flags 2");
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  const struct {
    cudaGraphConditionalNodeType type;
    unsigned size;
  } bad[] = {{cudaGraphCondTypeIf, 3}, {cudaGraphCondTypeIf, 0}, {cudaGraphCondTypeWhile, 2}, {cudaGraphCondTypeSwitch, 0}};
  for (auto b : bad) {
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = b.type;
    p.conditional.size = b.size;
    cudaGraphNode_t node;
    char what[64];
    snprintf(what, sizeof what, "conditional type %d with %u bodies", (int)b.type, b.size);
    expect_code(cudaGraphAddNode(&node, g, nullptr, nullptr, 0, &p), cudaErrorInvalidValue, what);
  }
  size_t n = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &n));
  EXPECT(n == 0, "failed adds left %zu nodes", n);
  (void)v;
  CHECK(cudaGraphDestroy(g));

  cudaUserObject_t obj;
  static int weight = 0;
  expect_code(cudaUserObjectCreate(&obj, &weight, destroy_object, 1, 0), cudaErrorInvalidValue, "user object flags 0");
  expect_code(cudaUserObjectCreate(&obj, &weight, destroy_object, 0, cudaUserObjectNoDestructorSync), cudaErrorInvalidValue,
              "user object refcount 0");
}

int main() {
  int *v, *acc, *counter, *odd_acc;
  CHECK(cudaMalloc(&v, sizeof(int)));
  CHECK(cudaMalloc(&acc, sizeof(int)));
  CHECK(cudaMalloc(&counter, sizeof(int)));
  CHECK(cudaMalloc(&odd_acc, sizeof(int)));
  if_else(v, acc, 1);
  if_else(v, acc, 2);
  switch_node(v, acc);
  if_copies(v, acc, odd_acc);
  while_loop(counter, acc, odd_acc);
  user_objects();
  misuse(v);
  CHECK(cudaFree(v));
  CHECK(cudaFree(acc));
  CHECK(cudaFree(counter));
  CHECK(cudaFree(odd_acc));
  return ctest_finish();
}
