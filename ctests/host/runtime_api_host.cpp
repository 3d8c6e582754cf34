// A host program built with g++ (no CUDA compiler) against our runtime headers only,
// linked with -lcudart against our libcudart: device queries, memory, copies, streams,
// events, errors, pointer attributes, stream-ordered allocation, graphs built node by node
// and by stream capture; 3D pitched memory, peer queries, device configuration, PCI bus
// ids, driver entry points, stream ids. No kernels (launching one needs device code). Prints
// "PASS runtime_api_host" when every check holds.
// Built and run by scripts/run-libtests.sh.
#include <cuda_profiler_api.h>
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

// Exported for programs built with CUDA 12 headers; CUDA 13's header (and ours) no longer
// declares them.
extern "C" cudaError_t CUDARTAPI cudaThreadSynchronize(void);
extern "C" cudaError_t CUDARTAPI cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config);
extern "C" cudaError_t CUDARTAPI cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);

static cudaPitchedPtr pitched(void *p, size_t pitch, size_t xsize, size_t ysize) {
  cudaPitchedPtr r;
  r.ptr = p;
  r.pitch = pitch;
  r.xsize = xsize;
  r.ysize = ysize;
  return r;
}

static cudaExtent extent3(size_t w, size_t h, size_t d) {
  cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

// A pitched 3D allocation written from the host, partly filled on the device, copied
// within the device at an offset and read back: every byte is checked against a model.
static void three_d() {
  const size_t W = 13 * sizeof(int), H = 5, D = 3;
  cudaPitchedPtr dev;
  std::memset(&dev, 0, sizeof dev);
  OK(cudaMalloc3D(&dev, extent3(W, H, D)));
  CHECK(dev.ptr != nullptr && dev.pitch >= W && dev.xsize == W && dev.ysize == H);
  std::vector<unsigned char> host(W * H * D), back(W * H * D, 0), model(W * H * D);
  for (size_t i = 0; i < host.size(); i++) host[i] = (unsigned char)(i * 7 + 1);

  cudaMemcpy3DParms up;
  std::memset(&up, 0, sizeof up);
  up.srcPtr = pitched(host.data(), W, W, H);
  up.dstPtr = dev;
  up.extent = extent3(W, H, D);
  up.kind = cudaMemcpyHostToDevice;
  OK(cudaMemcpy3D(&up));
  model = host;

  // Bytes [4, 12) of rows 1..3 of slices 1..2 become 0xAB.
  cudaPitchedPtr at = dev;
  at.ptr = (char *)dev.ptr + dev.pitch * H + dev.pitch + 4;
  OK(cudaMemset3D(at, 0xAB, extent3(8, 3, 2)));
  for (size_t z = 1; z < 3; z++)
    for (size_t y = 1; y < 4; y++)
      for (size_t x = 4; x < 12; x++) model[(z * H + y) * W + x] = 0xAB;

  // Slice 0, rows 0..1, bytes [0, 8) copied onto slice 2, rows 3..4, bytes [16, 24), on a
  // stream.
  cudaStream_t s;
  OK(cudaStreamCreate(&s));
  cudaMemcpy3DParms dd;
  std::memset(&dd, 0, sizeof dd);
  dd.srcPtr = dev;
  dd.dstPtr = dev;
  dd.srcPos.x = 0, dd.srcPos.y = 0, dd.srcPos.z = 0;
  dd.dstPos.x = 16, dd.dstPos.y = 3, dd.dstPos.z = 2;
  dd.extent = extent3(8, 2, 1);
  dd.kind = cudaMemcpyDeviceToDevice;
  OK(cudaMemcpy3DAsync(&dd, s));
  OK(cudaMemset3DAsync(pitched((char *)dev.ptr + W - 2, dev.pitch, W, H), 0x11, extent3(2, 1, 1), s));
  OK(cudaStreamSynchronize(s));
  for (size_t y = 0; y < 2; y++)
    for (size_t x = 0; x < 8; x++) model[(2 * H + 3 + y) * W + 16 + x] = model[y * W + x];
  model[W - 2] = model[W - 1] = 0x11;

  cudaMemcpy3DParms down;
  std::memset(&down, 0, sizeof down);
  down.srcPtr = dev;
  down.dstPtr = pitched(back.data(), W, W, H);
  down.extent = extent3(W, H, D);
  down.kind = cudaMemcpyDefault;
  OK(cudaMemcpy3D(&down));
  size_t wrong = 0;
  for (size_t i = 0; i < model.size(); i++) wrong += back[i] != model[i];
  CHECK(wrong == 0);

  // A width beyond the pitch, and arrays (none exist here), are refused.
  cudaMemcpy3DParms bad = down;
  bad.extent.width = dev.pitch + 1;
  CHECK(cudaMemcpy3D(&bad) == cudaErrorInvalidPitchValue);
  CHECK(cudaMemcpy3D(nullptr) == cudaErrorInvalidValue);
  CHECK(cudaMemset3D(dev, 0, extent3(dev.pitch + 1, 1, 1)) == cudaErrorInvalidValue);
  (void)cudaGetLastError();
  OK(cudaStreamDestroy(s));
  OK(cudaFree(dev.ptr));
}

// One device cannot be its own peer: the documented codes for each call.
static void peers(int count) {
  int can = -1;
  OK(cudaDeviceCanAccessPeer(&can, 0, 0));
  CHECK(can == 0);
  CHECK(cudaDeviceCanAccessPeer(&can, 0, count) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceEnablePeerAccess(0, 0) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceEnablePeerAccess(0, 1) == cudaErrorInvalidValue);
  CHECK(cudaDeviceEnablePeerAccess(count, 0) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceDisablePeerAccess(0) == cudaErrorPeerAccessNotEnabled);
  CHECK(cudaDeviceDisablePeerAccess(-1) == cudaErrorInvalidDevice);
  int v = -1;
  CHECK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0) == cudaErrorInvalidDevice);
  (void)cudaGetLastError();
  // A "peer" copy within one device is a device copy.
  const size_t n = 1000;
  std::vector<unsigned char> h(n), r(n, 0);
  for (size_t i = 0; i < n; i++) h[i] = (unsigned char)(i ^ 0x5a);
  unsigned char *a = nullptr, *b = nullptr;
  OK(cudaMalloc(&a, n));
  OK(cudaMalloc(&b, n));
  OK(cudaMemcpy(a, h.data(), n, cudaMemcpyHostToDevice));
  OK(cudaMemcpyPeer(b, 0, a, 0, n));
  OK(cudaMemcpy(r.data(), b, n, cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(h.data(), r.data(), n) == 0);
  OK(cudaMemset(b, 0, n));
  OK(cudaMemcpyPeerAsync(b, 0, a, 0, n, 0));
  OK(cudaDeviceSynchronize());
  std::fill(r.begin(), r.end(), 0);
  OK(cudaMemcpy(r.data(), b, n, cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(h.data(), r.data(), n) == 0);
  CHECK(cudaMemcpyPeer(b, count, a, 0, n) == cudaErrorInvalidDevice);
  (void)cudaGetLastError();
  OK(cudaFree(a));
  OK(cudaFree(b));
}

static void device_config() {
  enum cudaFuncCache c = cudaFuncCachePreferNone;
  OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  OK(cudaDeviceGetCacheConfig(&c));
  CHECK(c == cudaFuncCachePreferShared);
  OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));
  OK(cudaDeviceGetCacheConfig(&c));
  CHECK(c == cudaFuncCachePreferNone);
  CHECK(cudaDeviceSetCacheConfig((enum cudaFuncCache)7) == cudaErrorInvalidValue);
  enum cudaSharedMemConfig m = cudaSharedMemBankSizeDefault;
  OK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  OK(cudaDeviceGetSharedMemConfig(&m));
  CHECK(m == cudaSharedMemBankSizeEightByte);
  OK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeDefault));
  CHECK(cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)3) == cudaErrorInvalidValue);
  (void)cudaGetLastError();

  // PCI bus id: "domain:bus:device.0", matching the attributes, and back to the device.
  char id[32];
  std::memset(id, 0, sizeof id);
  OK(cudaDeviceGetPCIBusId(id, (int)sizeof id, 0));
  unsigned domain = 0, bus = 0, dev = 0, fn = 9;
  CHECK(std::sscanf(id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) == 4);
  CHECK((int)domain == attribute(cudaDevAttrPciDomainId, 0));
  CHECK((int)bus == attribute(cudaDevAttrPciBusId, 0));
  CHECK((int)dev == attribute(cudaDevAttrPciDeviceId, 0));
  int back = -1;
  OK(cudaDeviceGetByPCIBusId(&back, id));
  CHECK(back == 0);
  CHECK(cudaDeviceGetByPCIBusId(&back, nullptr) == cudaErrorInvalidValue);
  CHECK(cudaDeviceGetPCIBusId(id, 0, 0) == cudaErrorInvalidValue);
  (void)cudaGetLastError();

  cudaDeviceProp want;
  std::memset(&want, 0, sizeof want);
  int chosen = -1;
  OK(cudaChooseDevice(&chosen, &want));
  CHECK(chosen == 0);
  CHECK(cudaChooseDevice(&chosen, nullptr) == cudaErrorInvalidValue);
  (void)cudaGetLastError();

  // GPUDirect RDMA write flushes: only where the device reports them supported.
  cudaError_t flush = cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                                         cudaFlushGPUDirectRDMAWritesToOwner);
  if (attribute(cudaDevAttrGPUDirectRDMAFlushWritesOptions, 0) & cudaFlushGPUDirectRDMAWritesOptionHost)
    CHECK(flush == cudaSuccess);
  else
    CHECK(flush == cudaErrorNotSupported);
  CHECK(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, (cudaFlushGPUDirectRDMAWritesScope)7) ==
        cudaErrorInvalidValue);
  (void)cudaGetLastError();

  OK(cudaProfilerStart());
  OK(cudaProfilerStop());
  OK(cudaThreadSynchronize());
  OK(cudaCtxResetPersistingL2Cache());
}

typedef int (*MemAllocFn)(unsigned long long *dptr, size_t bytes);

// cuMemAlloc through the runtime, called, and the memory used by the runtime.
static void entry_points() {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  OK(cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableDefault, &status));
  CHECK(fn != nullptr && status == cudaDriverEntryPointSuccess);
  if (fn != nullptr) {
    unsigned long long d = 0;
    CHECK(((MemAllocFn)fn)(&d, 256) == 0);
    CHECK(d != 0);
    OK(cudaMemset((void *)d, 0x3c, 256));
    unsigned char h[256];
    OK(cudaMemcpy(h, (void *)d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(h[0] == 0x3c && h[255] == 0x3c);
    OK(cudaFree((void *)d));
  }
  void *by_version = nullptr;
  OK(cudaGetDriverEntryPointByVersion("cuMemAlloc", &by_version, 12000, cudaEnableDefault, &status));
  CHECK(by_version == fn && status == cudaDriverEntryPointSuccess);
  fn = (void *)1;
  OK(cudaGetDriverEntryPoint("cuNoSuchEntryPoint", &fn, cudaEnableDefault, &status));
  CHECK(fn == nullptr && status == cudaDriverEntryPointSymbolNotFound);
  CHECK(cudaGetDriverEntryPoint("cuMemAlloc", &fn, 8, &status) == cudaErrorInvalidValue);
  CHECK(cudaGetDriverEntryPoint(nullptr, &fn, 0, &status) == cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

static void stream_identity() {
  cudaStream_t a, b;
  OK(cudaStreamCreate(&a));
  OK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  unsigned long long ia = 0, ib = 0, ia2 = 1, ipt = 0;
  OK(cudaStreamGetId(a, &ia));
  OK(cudaStreamGetId(b, &ib));
  OK(cudaStreamGetId(a, &ia2));
  OK(cudaStreamGetId(cudaStreamPerThread, &ipt));
  CHECK(ia != ib && ia == ia2 && ipt != ia && ipt != ib);
  int dev = -1;
  OK(cudaStreamGetDevice(b, &dev));
  CHECK(dev == 0);
  dev = -1;
  OK(cudaStreamGetDevice(0, &dev));
  CHECK(dev == 0);
  CHECK(cudaStreamGetId(a, nullptr) == cudaErrorInvalidValue);
  (void)cudaGetLastError();
  OK(cudaStreamDestroy(a));
  OK(cudaStreamDestroy(b));

  // Managed memory attached to one stream, then back to all; the documented refusals.
  int *m = nullptr, *plain = nullptr;
  OK(cudaMallocManaged(&m, 64 * sizeof(int)));
  OK(cudaMalloc(&plain, 64 * sizeof(int)));
  cudaStream_t c;
  OK(cudaStreamCreate(&c));
  OK(cudaStreamAttachMemAsync(c, m, 0, cudaMemAttachSingle));
  OK(cudaMemsetAsync(m, 0x22, 64 * sizeof(int), c));
  OK(cudaStreamAttachMemAsync(c, m));
  OK(cudaStreamAttachMemAsync(c, (void *)m, 64 * sizeof(int), cudaMemAttachGlobal));
  OK(cudaStreamSynchronize(c));
  CHECK(m[0] == 0x22222222 && m[63] == 0x22222222);
  CHECK(cudaStreamAttachMemAsync(c, m, 0, 3) == cudaErrorInvalidValue);
  CHECK(cudaStreamAttachMemAsync(c, plain, 0, cudaMemAttachGlobal) == cudaErrorInvalidValue);
  CHECK(cudaStreamAttachMemAsync(cudaStreamLegacy, m, 0, cudaMemAttachSingle) == cudaErrorInvalidValue);
  (void)cudaGetLastError();
  OK(cudaStreamDestroy(c));
  OK(cudaFree(m));
  OK(cudaFree(plain));

  void *p = nullptr;
  unsigned flags = 0;
  OK(cudaHostAlloc(&p, 64, cudaHostAllocMapped | cudaHostAllocPortable));
  OK(cudaHostGetFlags(&flags, p));
  CHECK((flags & (cudaHostAllocMapped | cudaHostAllocPortable)) == (cudaHostAllocMapped | cudaHostAllocPortable));
  OK(cudaFreeHost(p));
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
  three_d();
  if (count == 1) peers(count);
  device_config();
  entry_points();
  stream_identity();
  OK(cudaDeviceSynchronize());
  if (failures != 0) {
    std::printf("%d checks failed\n", failures);
    return 1;
  }
  std::printf("PASS runtime_api_host\n");
  return 0;
}
