// Stream capture and graph edge cases, each answer compared with what an H200 (driver
// 580.159, CUDA 13.0) gave for the same sequence of calls: codes of misuse during capture
// (relaxed and global modes, captured events, waits on events from outside the capture),
// the nodes and edges a fork/join and an external event record produce, a cycle.
#define CTEST_NAME "graph_codes"
#include <cuda.h>
#include <dlfcn.h>
#include "ctest.h"

static const long kNvidia[] = {401, 0, 401, 0, 0, 0, 900, 901, 0, 900, 901, 0, 907, 2, 901, 1, 0, 905, 901, 0, 0, 0, 0, 0, 3, 3, 0, 1, 401, 401, 0, 0, 0, 2};
static int step = 0;
static void answer(const char *label, long got) {
  long want = kNvidia[step++];
  EXPECT(got == want, "%s: %ld, the H200 answered %ld", label, got, want);
}
#define P(label, expr) answer(label, (long)(expr))
__global__ void k(int *p) { if (p) atomicAdd(p, 1); }
int main() {
  cudaFree(0);
  cudaStream_t s, s2; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaGraph_t g = nullptr;
  P("end capture, not capturing", cudaStreamEndCapture(s, &g));
  cudaGetLastError();
  P("begin capture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  P("begin capture again", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  P("end after double begin", cudaStreamEndCapture(s, &g)); cudaGetLastError();
  // relaxed mode: cudaDeviceSynchronize / cudaMalloc while capturing
  P("begin relaxed", cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  k<<<1,1,0,s>>>(nullptr);
  int *m = nullptr;
  P("cudaMalloc during relaxed capture", cudaMalloc(&m, 16));
  P("ctxsync during relaxed capture", cudaDeviceSynchronize());
  P("end relaxed", cudaStreamEndCapture(s, &g)); cudaGetLastError();
  if (g) cudaGraphDestroy(g), g = nullptr;
  // global mode: sync memcpy from another (non-capturing) thread context = this thread
  P("begin global", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  P("cudaMalloc during global capture", cudaMalloc(&m, 16));
  P("end global after malloc", cudaStreamEndCapture(s, &g)); cudaGetLastError();
  if (g) cudaGraphDestroy(g), g = nullptr;
  // captured event query
  cudaEvent_t e; cudaEventCreate(&e);
  P("begin (event query)", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  k<<<1,1,0,s>>>(nullptr);
  cudaEventRecord(e, s);
  P("query captured event", cudaEventQuery(e));
  P("is capturing after query (status)", [&]{ cudaStreamCaptureStatus st; cudaStreamIsCapturing(s, &st); return (int)st; }());
  P("end after captured event query", cudaStreamEndCapture(s, &g)); cudaGetLastError();
  P("query event after capture ended", cudaEventQuery(e)); cudaGetLastError();
  if (g) cudaGraphDestroy(g), g = nullptr;
  // wait on event recorded outside capture
  cudaEvent_t e2; cudaEventCreate(&e2); cudaEventRecord(e2, s2); cudaStreamSynchronize(s2);
  P("begin (outside event)", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  P("wait on event recorded outside", cudaStreamWaitEvent(s, e2, 0));
  k<<<1,1,0,s>>>(nullptr);
  P("end after outside wait", cudaStreamEndCapture(s, &g)); cudaGetLastError();
  if (g) { size_t n = 0; cudaGraphGetNodes(g, nullptr, &n); P("nodes after outside wait", n); cudaGraphDestroy(g); g = nullptr; }
  cudaEvent_t e3; cudaEventCreate(&e3);
  P("begin (never recorded event)", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  P("wait on never-recorded event", cudaStreamWaitEvent(s, e3, 0));
  P("end after never-recorded wait", cudaStreamEndCapture(s, &g)); cudaGetLastError();
  if (g) cudaGraphDestroy(g), g = nullptr;
  // join redundancy: memset -> fork kernel on s2 -> join -> memcpy
  int *d; cudaMalloc(&d, 64);
  cudaEvent_t f1, f2; cudaEventCreate(&f1); cudaEventCreate(&f2);
  P("begin (join)", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaMemsetAsync(d, 0, 64, s);
  cudaEventRecord(f1, s); cudaStreamWaitEvent(s2, f1, 0);
  k<<<1,1,0,s2>>>(d);
  cudaEventRecord(f2, s2); cudaStreamWaitEvent(s, f2, 0);
  cudaMemcpyAsync(d + 8, d, 4, cudaMemcpyDeviceToDevice, s);
  P("end (join)", cudaStreamEndCapture(s, &g));
  if (g) { size_t n = 0, ne = 0; cudaGraphGetNodes(g, nullptr, &n); cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &ne); P("join nodes", n); P("join edges", ne); }
  // cycle
  cudaGraph_t c; cudaGraphCreate(&c, 0); cudaGraphNode_t a, b;
  cudaGraphAddEmptyNode(&a, c, nullptr, 0); cudaGraphAddEmptyNode(&b, c, &a, 1);
  P("add back edge (cycle)", cudaGraphAddDependencies(c, &b, &a, nullptr, 1));
  cudaGraphExec_t x;
  P("instantiate cycle", cudaGraphInstantiate(&x, c, 0)); cudaGetLastError();
  // driver: end capture on non-capturing, update deps on non-capturing
  // The driver's own answers, through the libcuda.so.1 the runtime loaded.
  void *libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto end_capture = (CUresult (*)(CUstream, CUgraph *))(libcuda ? dlsym(libcuda, "cuStreamEndCapture") : nullptr);
  auto update_deps = (CUresult (*)(CUstream, CUgraphNode *, const CUgraphEdgeData *, size_t, unsigned))(
      libcuda ? dlsym(libcuda, "cuStreamUpdateCaptureDependencies_v2") : nullptr);
  EXPECT(end_capture && update_deps, "libcuda.so.1's capture entry points");
  if (!end_capture || !update_deps) return ctest_finish();
  CUgraph cg;
  P("cuStreamEndCapture not capturing", end_capture((CUstream)s, &cg));
  P("cuStreamUpdateCaptureDependencies not capturing", update_deps((CUstream)s, nullptr, nullptr, 0, 0));
  // external flag event record in capture
  P("begin (external)", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  k<<<1,1,0,s>>>(nullptr);
  P("record external", cudaEventRecordWithFlags(e, s, cudaEventRecordExternal));
  P("end (external)", cudaStreamEndCapture(s, &g));
  if (g) { size_t n = 0; cudaGraphGetNodes(g, nullptr, &n); P("nodes with external record", n); }
  EXPECT(step == (int)(sizeof(kNvidia) / sizeof(kNvidia[0])), "%d answers, want %d", step, (int)(sizeof(kNvidia) / sizeof(kNvidia[0])));
  return ctest_finish();
}
