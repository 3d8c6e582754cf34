// A host program built with g++ (no CUDA compiler) against our runtime headers only,
// linked with -lcudart against our libcudart: device queries, memory, copies, streams,
// events, errors, pointer attributes, stream-ordered allocation, graphs built node by node
// and by stream capture. No kernels (launching one needs device code). Prints
// "PASS runtime_api_host" when every check holds.
// Built and run by scripts/run-libtests.sh.
#include <cuda_runtime_api.h>
#include <cuda_runtime_templates.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static int failures = 0;

#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);    \
      failures++;                                                    \
    }                                                                \
  } while (0)

#define OK(call)                                                                                     \
  do {                                                                                               \
    cudaError_t e_ = (call);                                                                         \
    if (e_ != cudaSuccess) {                                                                         \
      std::printf("FAIL %s:%d: %s -> %s (%s)\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_), \
                  cudaGetErrorString(e_));                                                           \
      failures++;                                                                                    \
    }                                                                                                \
  } while (0)

static int attribute(cudaDeviceAttr attr, int device) {
  int value = -12345;
  OK(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}

static void properties(int device) {
  cudaDeviceProp p;
  std::memset(&p, 0xff, sizeof p);
  OK(cudaGetDeviceProperties(&p, device));
  CHECK(std::strlen(p.name) > 0 && std::strlen(p.name) < sizeof p.name);
  CHECK(p.totalGlobalMem > 0);
  // Every field below is written at its CUDA 13 offset; a layout mismatch shows here.
  CHECK(p.warpSize == attribute(cudaDevAttrWarpSize, device));
  CHECK(p.maxThreadsPerBlock == attribute(cudaDevAttrMaxThreadsPerBlock, device));
  CHECK(p.maxThreadsDim[0] == attribute(cudaDevAttrMaxBlockDimX, device));
  CHECK(p.maxThreadsDim[2] == attribute(cudaDevAttrMaxBlockDimZ, device));
  CHECK(p.maxGridSize[0] == attribute(cudaDevAttrMaxGridDimX, device));
  CHECK(p.maxGridSize[1] == attribute(cudaDevAttrMaxGridDimY, device));
  CHECK(p.major == attribute(cudaDevAttrComputeCapabilityMajor, device));
  CHECK(p.minor == attribute(cudaDevAttrComputeCapabilityMinor, device));
  CHECK(p.multiProcessorCount == attribute(cudaDevAttrMultiProcessorCount, device));
  CHECK(p.sharedMemPerBlock == (size_t)attribute(cudaDevAttrMaxSharedMemoryPerBlock, device));
  CHECK(p.sharedMemPerBlockOptin == (size_t)attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  CHECK(p.regsPerBlock == attribute(cudaDevAttrMaxRegistersPerBlock, device));
  CHECK(p.maxThreadsPerMultiProcessor == attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device));
  CHECK(p.l2CacheSize == attribute(cudaDevAttrL2CacheSize, device));
  CHECK(p.pciBusID == attribute(cudaDevAttrPciBusId, device));
  CHECK(p.managedMemory == attribute(cudaDevAttrManagedMemory, device));
  CHECK(p.concurrentKernels == attribute(cudaDevAttrConcurrentKernels, device));
  CHECK(p.unifiedAddressing == attribute(cudaDevAttrUnifiedAddressing, device));
  CHECK(p.memoryPoolsSupported == attribute(cudaDevAttrMemoryPoolsSupported, device));
  CHECK(p.clusterLaunch == attribute(cudaDevAttrClusterLaunch, device));
  CHECK(p.hostNumaMultinodeIpcSupported == attribute(cudaDevAttrHostNumaMultinodeIpcSupported, device));
  CHECK(p.warpSize > 0 && p.maxThreadsPerBlock >= p.warpSize && p.multiProcessorCount > 0);
  CHECK(p.major >= 1);
  std::printf("device %d: %s, sm_%d%d, %d SMs, %zu MiB\n", device, p.name, p.major, p.minor, p.multiProcessorCount,
              p.totalGlobalMem >> 20);
}

static void memory_and_copies() {
  const size_t n = 1 << 16;
  unsigned char *d = nullptr, *d2 = nullptr;
  OK(cudaMalloc(&d, n));  // the cudaMalloc<T> convenience
  OK(cudaMalloc((void **)&d2, n));
  CHECK(d != nullptr && d2 != nullptr);
  OK(cudaMemset(d, 0x5a, n));
  std::vector<unsigned char> h(n, 0);
  OK(cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost));
  CHECK(h[0] == 0x5a && h[n / 2] == 0x5a && h[n - 1] == 0x5a);
  for (size_t i = 0; i < n; i++) h[i] = (unsigned char)(i * 7);
  OK(cudaMemcpy(d, h.data(), n, cudaMemcpyHostToDevice));
  OK(cudaMemcpy(d2, d, n, cudaMemcpyDeviceToDevice));
  std::vector<unsigned char> back(n, 0);
  OK(cudaMemcpy(back.data(), d2, n, cudaMemcpyDefault));
  CHECK(back == h);

  cudaPointerAttributes a;
  OK(cudaPointerGetAttributes(&a, d + 100));
  CHECK(a.type == cudaMemoryTypeDevice && a.devicePointer == d + 100);

  float *pinned = nullptr;
  OK(cudaMallocHost(&pinned, 1024 * sizeof(float)));
  CHECK(pinned != nullptr);
  OK(cudaPointerGetAttributes(&a, pinned));
  CHECK(a.type == cudaMemoryTypeHost && a.hostPointer == pinned);
  std::vector<int> pageable(16);
  OK(cudaPointerGetAttributes(&a, pageable.data()));
  CHECK(a.type == cudaMemoryTypeUnregistered);
  OK(cudaFreeHost(pinned));

  size_t free_bytes = 0, total_bytes = 0;
  OK(cudaMemGetInfo(&free_bytes, &total_bytes));
  CHECK(total_bytes > 0 && free_bytes <= total_bytes);
  OK(cudaFree(d));
  OK(cudaFree(d2));
}

static void streams_and_events() {
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  unsigned int flags = 99;
  OK(cudaStreamGetFlags(s, &flags));
  CHECK(flags == cudaStreamNonBlocking);
  cudaEvent_t start, stop;
  OK(cudaEventCreate(&start));
  OK(cudaEventCreate(&stop, cudaEventDefault));  // the flags overload
  const size_t n = 4096;
  int *host = nullptr, *dev = nullptr;
  OK(cudaMallocHost(&host, n * sizeof(int)));
  for (size_t i = 0; i < n; i++) host[i] = (int)i;
  OK(cudaMallocAsync(&dev, n * sizeof(int), s));  // the cudaMallocAsync<T> convenience
  OK(cudaEventRecord(start, s));
  OK(cudaMemcpyAsync(dev, host, n * sizeof(int), cudaMemcpyHostToDevice, s));
  OK(cudaMemsetAsync(dev, 0, 16 * sizeof(int), s));
  OK(cudaMemcpyAsync(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  OK(cudaFreeAsync(dev, s));
  OK(cudaEventRecord(stop, s));
  OK(cudaStreamSynchronize(s));
  OK(cudaEventSynchronize(stop));
  CHECK(cudaEventQuery(stop) == cudaSuccess);
  CHECK(cudaStreamQuery(s) == cudaSuccess);
  CHECK(host[0] == 0 && host[15] == 0 && host[16] == 16 && host[n - 1] == (int)(n - 1));
  float ms = -1;
  OK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(ms >= 0);
  OK(cudaFreeHost(host));
  OK(cudaEventDestroy(start));
  OK(cudaEventDestroy(stop));
  OK(cudaStreamDestroy(s));
}

// What a host node or a captured cudaLaunchHostFunc sees: the copy before it in the graph
// must have finished, so the host buffer holds n copies of `expect` when it runs.
struct HostCheck {
  const unsigned *buf;
  size_t n;
  unsigned expect;
  std::atomic<int> calls{0}, saw_data{0};
};

static void CUDART_CB host_check(void *user) {
  HostCheck *c = static_cast<HostCheck *>(user);
  bool all = true;
  for (size_t i = 0; i < c->n; i++) all = all && c->buf[i] == c->expect;
  c->calls++;
  if (all) c->saw_data++;
}

// memset -> 1D copy to pinned host memory -> host node, launched three times; the third
// launch runs with new memset parameters set in the executable graph.
static void graph_of_nodes() {
  const size_t n = 1000;
  unsigned *dev = nullptr, *host = nullptr;
  OK(cudaMalloc(&dev, n * sizeof(unsigned)));
  OK(cudaMallocHost(&host, n * sizeof(unsigned)));
  HostCheck check;
  check.buf = host;
  check.n = n;
  check.expect = 0x01020304u;

  cudaGraph_t graph = nullptr;
  OK(cudaGraphCreate(&graph, 0));
  cudaMemsetParams ms;
  std::memset(&ms, 0, sizeof ms);
  ms.dst = dev;
  ms.value = check.expect;
  ms.elementSize = sizeof(unsigned);
  ms.width = n;
  ms.height = 1;
  cudaGraphNode_t set = nullptr, copy = nullptr, call = nullptr;
  OK(cudaGraphAddMemsetNode(&set, graph, nullptr, 0, &ms));
  OK(cudaGraphAddMemcpyNode1D(&copy, graph, &set, 1, host, dev, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp;
  hp.fn = host_check;
  hp.userData = &check;
  OK(cudaGraphAddHostNode(&call, graph, &copy, 1, &hp));

  size_t count = 0;
  OK(cudaGraphGetNodes(graph, nullptr, &count));
  CHECK(count == 3);
  cudaGraphNode_t roots[4] = {};
  count = 4;
  OK(cudaGraphGetRootNodes(graph, roots, &count));
  CHECK(count == 1 && roots[0] == set);
  cudaGraphNodeType type = cudaGraphNodeTypeCount;
  OK(cudaGraphNodeGetType(set, &type));
  CHECK(type == cudaGraphNodeTypeMemset);
  OK(cudaGraphNodeGetType(copy, &type));
  CHECK(type == cudaGraphNodeTypeMemcpy);
  OK(cudaGraphNodeGetType(call, &type));
  CHECK(type == cudaGraphNodeTypeHost);
  cudaGraphNode_t deps[2] = {};
  cudaGraphEdgeData edge[2];
  std::memset(edge, 0xff, sizeof edge);
  count = 2;
  OK(cudaGraphNodeGetDependencies(call, deps, edge, &count));
  CHECK(count == 1 && deps[0] == copy && edge[0].from_port == 0 && edge[0].to_port == 0 &&
        edge[0].type == cudaGraphDependencyTypeDefault);
  count = 0;
  OK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count));
  CHECK(count == 2);

  cudaGraphExec_t exec = nullptr;
  OK(cudaGraphInstantiate(&exec, graph));  // flags default to 0 in C++
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int launch = 0; launch < 3; launch++) {
    if (launch == 2) {
      ms.value = check.expect = 0xa5a5a5a5u;
      OK(cudaGraphExecMemsetNodeSetParams(exec, set, &ms));
    }
    std::memset(host, 0, n * sizeof(unsigned));
    OK(cudaGraphLaunch(exec, s));
    OK(cudaStreamSynchronize(s));
    CHECK(host[0] == check.expect && host[n / 2] == check.expect && host[n - 1] == check.expect);
    CHECK(check.calls == launch + 1 && check.saw_data == launch + 1);
  }
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(graph));
  OK(cudaStreamDestroy(s));
  OK(cudaFreeHost(host));
  OK(cudaFree(dev));
}

// cudaMemsetAsync + cudaMemcpyAsync + cudaLaunchHostFunc recorded by stream capture (nothing
// runs while capturing), then the captured graph replayed twice.
static void stream_capture() {
  const size_t n = 4096;
  unsigned char *dev = nullptr, *host = nullptr;
  OK(cudaMalloc(&dev, n));
  OK(cudaMallocHost(&host, n));
  std::memset(host, 0, n);
  HostCheck check;
  check.buf = reinterpret_cast<const unsigned *>(host);
  check.n = n / sizeof(unsigned);
  check.expect = 0x77777777u;
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  cudaStreamCaptureStatus status = cudaStreamCaptureStatusInvalidated;
  OK(cudaStreamIsCapturing(s, &status));
  CHECK(status == cudaStreamCaptureStatusNone);
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaStreamIsCapturing(s, &status));
  CHECK(status == cudaStreamCaptureStatusActive);
  OK(cudaMemsetAsync(dev, 0x77, n, s));

  unsigned long long id = 0;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  const cudaGraphEdgeData *edges = nullptr;
  size_t ndeps = 99;
  status = cudaStreamCaptureStatusNone;
  OK(cudaStreamGetCaptureInfo(s, &status, &id, &capturing, &deps, &edges, &ndeps));
  CHECK(status == cudaStreamCaptureStatusActive && capturing != nullptr && ndeps == 1 && deps != nullptr);
  if (edges != nullptr && ndeps == 1) CHECK(edges[0].from_port == 0 && edges[0].type == cudaGraphDependencyTypeDefault);
  cudaGraphNodeType type = cudaGraphNodeTypeCount;
  if (deps != nullptr && ndeps == 1) {
    OK(cudaGraphNodeGetType(deps[0], &type));
    CHECK(type == cudaGraphNodeTypeMemset);
  }

  OK(cudaMemcpyAsync(host, dev, n, cudaMemcpyDeviceToHost, s));
  OK(cudaLaunchHostFunc(s, host_check, &check));
  unsigned long long same_id = 0;
  status = cudaStreamCaptureStatusNone;
  OK(cudaStreamGetCaptureInfo(s, &status, &same_id));  // the C++ default arguments
  CHECK(status == cudaStreamCaptureStatusActive && same_id == id);
  cudaGraph_t graph = nullptr;
  OK(cudaStreamEndCapture(s, &graph));
  CHECK(graph != nullptr && graph == capturing);
  OK(cudaStreamIsCapturing(s, &status));
  CHECK(status == cudaStreamCaptureStatusNone);
  CHECK(check.calls == 0 && host[0] == 0 && host[n - 1] == 0);  // recorded, not run

  size_t count = 0;
  OK(cudaGraphGetNodes(graph, nullptr, &count));
  CHECK(count == 3);
  cudaGraphExec_t exec = nullptr;
  OK(cudaGraphInstantiateWithFlags(&exec, graph, 0));
  for (int replay = 0; replay < 2; replay++) {
    std::memset(host, 0, n);
    OK(cudaGraphLaunch(exec, s));
    OK(cudaStreamSynchronize(s));
    CHECK(host[0] == 0x77 && host[n - 1] == 0x77);
    CHECK(check.calls == replay + 1 && check.saw_data == replay + 1);
  }
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(graph));
  OK(cudaStreamDestroy(s));
  OK(cudaFreeHost(host));
  OK(cudaFree(dev));
}

static void errors(int count) {
  CHECK(cudaGetLastError() == cudaSuccess);
  cudaError_t e = cudaSetDevice(count + 5);
  CHECK(e == cudaErrorInvalidDevice);
  CHECK(std::strcmp(cudaGetErrorName(e), "cudaErrorInvalidDevice") == 0);
  CHECK(std::strlen(cudaGetErrorString(e)) > 0);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaSuccess);
  int h = 0, *d = nullptr;
  OK(cudaMalloc(&d, sizeof(int)));
  e = cudaMemcpy(d, &h, sizeof h, (cudaMemcpyKind)42);
  CHECK(e == cudaErrorInvalidMemcpyDirection);
  CHECK(std::strcmp(cudaGetErrorName(e), "cudaErrorInvalidMemcpyDirection") == 0);
  CHECK(cudaGetLastError() == cudaErrorInvalidMemcpyDirection);
  OK(cudaFree(d));
  CHECK(cudaMalloc((void **)nullptr, 16) == cudaErrorInvalidValue);
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorNotReady), "cudaErrorNotReady") == 0);
  (void)cudaGetLastError();
}

int main() {
  int runtime = 0, driver = 0, count = 0;
  OK(cudaRuntimeGetVersion(&runtime));
  OK(cudaDriverGetVersion(&driver));
  CHECK(runtime == CUDART_VERSION);
  CHECK(driver >= 12000);
  OK(cudaGetDeviceCount(&count));
  CHECK(count >= 1);
  if (count < 1) return 1;
  OK(cudaSetDevice(0));
  int device = -1;
  OK(cudaGetDevice(&device));
  CHECK(device == 0);
  properties(0);
  memory_and_copies();
  streams_and_events();
  graph_of_nodes();
  stream_capture();
  errors(count);
  OK(cudaDeviceSynchronize());
  if (failures != 0) {
    std::printf("%d checks failed\n", failures);
    return 1;
  }
  std::printf("PASS runtime_api_host\n");
  return 0;
}
