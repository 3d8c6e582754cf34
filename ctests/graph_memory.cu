// Graph memory nodes (CUDA Programming Guide, "Graph Memory Nodes"): stream-ordered
// allocation captured into a graph, explicit allocation and free nodes, the address an
// allocation node gives staying the same across launches, and what misuse answers (the
// codes NVIDIA's driver gave on an H200). Results are checked against values computed on
// the host.
#include <cstdio>
#include <cstring>
#include <vector>

#define CTEST_NAME "graph_memory"
#include "ctest.h"

__global__ void fill(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 3 * i + k;
}

__global__ void add_into(int *out, const int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += p[i];
}

static const int kN = 1000;

// The allocation node of `g` (the only one), or NULL.
static cudaGraphNode_t alloc_node(cudaGraph_t g) {
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  CHECK(cudaGraphGetNodes(g, nodes.data(), &count));
  for (cudaGraphNode_t n : nodes) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(n, &t));
    if (t == cudaGraphNodeTypeMemAlloc) return n;
  }
  return nullptr;
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  int *out;
  CHECK(cudaMalloc(&out, kN * sizeof(int)));
  CHECK(cudaMemset(out, 0, kN * sizeof(int)));

  // 1. Captured: allocate, fill, accumulate into `out`, free.
  cudaGraph_t captured;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  int *tmp = nullptr;
  CHECK(cudaMallocAsync(&tmp, kN * sizeof(int), s));
  fill<<<(kN + 127) / 128, 128, 0, s>>>(tmp, kN, 7);
  add_into<<<(kN + 127) / 128, 128, 0, s>>>(out, tmp, kN);
  CHECK(cudaFreeAsync(tmp, s));
  CHECK(cudaStreamEndCapture(s, &captured));
  size_t count = 0;
  CHECK(cudaGraphGetNodes(captured, nullptr, &count));
  EXPECT(count == 4, "captured graph has %zu nodes, expected 4", count);
  cudaGraphNode_t an = alloc_node(captured);
  EXPECT(an != nullptr, "no allocation node in the captured graph");
  if (an) {
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof(ap));
    CHECK(cudaGraphMemAllocNodeGetParams(an, &ap));
    EXPECT(ap.dptr == tmp, "allocation node address %p, cudaMallocAsync gave %p", ap.dptr, (void *)tmp);
    EXPECT(ap.bytesize == kN * sizeof(int), "allocation node size %zu", ap.bytesize);
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, captured, 0));
  for (int launch = 0; launch < 3; ++launch) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  std::vector<int> host(kN);
  CHECK(cudaMemcpy(host.data(), out, kN * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) EXPECT(host[i] == 3 * (3 * i + 7), "captured: out[%d] = %d, expected %d", i, host[i], 3 * (3 * i + 7));

  // 2. Explicit nodes: alloc -> fill -> add_into -> free.
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams params;
  memset(&params, 0, sizeof(params));
  params.poolProps.allocType = cudaMemAllocationTypePinned;
  params.poolProps.location.type = cudaMemLocationTypeDevice;
  params.poolProps.location.id = 0;
  params.bytesize = kN * sizeof(int);
  cudaGraphNode_t a, f, k, fr;
  CHECK(cudaGraphAddMemAllocNode(&a, g, nullptr, 0, &params));
  EXPECT(params.dptr != nullptr, "cudaGraphAddMemAllocNode gave no address");
  int *buf = (int *)params.dptr;
  int n = kN, seed = -5;
  void *fill_args[] = {&buf, &n, &seed};
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof(kp));
  kp.func = (void *)fill;
  kp.gridDim = dim3((kN + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = fill_args;
  CHECK(cudaGraphAddKernelNode(&f, g, &a, 1, &kp));
  void *add_args[] = {&out, &buf, &n};
  kp.func = (void *)add_into;
  kp.kernelParams = add_args;
  CHECK(cudaGraphAddKernelNode(&k, g, &f, 1, &kp));
  CHECK(cudaGraphAddMemFreeNode(&fr, g, &k, 1, buf));
  void *freed = nullptr;
  CHECK(cudaGraphMemFreeNodeGetParams(fr, &freed));
  EXPECT(freed == buf, "free node address %p, expected %p", freed, (void *)buf);
  cudaGraphExec_t exec2;
  CHECK(cudaGraphInstantiate(&exec2, g, 0));
  CHECK(cudaGraphLaunch(exec2, s));
  CHECK(cudaGraphLaunch(exec2, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(host.data(), out, kN * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) {
    int want = 3 * (3 * i + 7) + 2 * (3 * i - 5);
    EXPECT(host[i] == want, "explicit: out[%d] = %d, expected %d", i, host[i], want);
  }

  // 3. The device's graph memory counters answer; the high watermark bounds the current use.
  unsigned long long used = 0, high = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
  EXPECT(high >= used, "graph memory high watermark %llu below current use %llu", high, used);
  EXPECT(high >= kN * sizeof(int), "graph memory high watermark %llu below one allocation", high);
  CHECK(cudaDeviceGraphMemTrim(0));

  // 4. Misuse: a free node for memory no allocation node made; cloning a graph with
  // memory nodes; resetting a high watermark to anything but 0.
  cudaGraph_t g2;
  CHECK(cudaGraphCreate(&g2, 0));
  cudaGraphNode_t bad;
  cudaError_t e1 = cudaGraphAddMemFreeNode(&bad, g2, nullptr, 0, out);
  cudaGetLastError();
  cudaGraph_t clone = nullptr;
  cudaError_t e2 = cudaGraphClone(&clone, g);
  cudaGetLastError();
  unsigned long long one = 1;
  cudaError_t e3 = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &one);
  cudaGetLastError();
  if (getenv("GRAPH_MEMORY_PRINT")) printf("codes %d %d %d\n", (int)e1, (int)e2, (int)e3);
  EXPECT(e1 == cudaErrorInvalidValue, "free node of cudaMalloc memory: %d", (int)e1);
  EXPECT(e2 == cudaErrorNotSupported, "clone of a graph with memory nodes: %d", (int)e2);
  EXPECT(e3 == cudaErrorInvalidValue, "high watermark set to 1: %d", (int)e3);
  if (clone) cudaGraphDestroy(clone);

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphExecDestroy(exec2));
  CHECK(cudaGraphDestroy(captured));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(g2));
  CHECK(cudaFree(out));
  CHECK(cudaStreamDestroy(s));
  return ctest_finish();
}
