// Graph nodes through the runtime's own structures: a 3D memcpy node (cudaMemcpy3DParms)
// and its setters, memcpy nodes to and from a __device__ symbol, the 1D setter, the
// parameter getters (memset, host, child graph, event record/wait), executable graph
// flags, cudaGraphInstantiateWithParams, and CUDA 11's five-argument cudaGraphInstantiate.
// Every copy's result is checked on the host.
#define CTEST_NAME "graph_runtime_nodes"
#include "ctest.h"

#include <vector>

__device__ int table[64];

static void host_bump(void *p) { ++*static_cast<int *>(p); }

int main() {
  const int n = 64;
  std::vector<int> src(n), back(n, -1);
  for (int i = 0; i < n; i++) src[i] = i * 7 + 3;
  int *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMemset(b, 0, n * sizeof(int)));

  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  // Host -> a (3D parameters, one row of n ints).
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(src.data(), n * sizeof(int), n, 1);
  p.dstPtr = make_cudaPitchedPtr(a, n * sizeof(int), n, 1);
  p.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  p.kind = cudaMemcpyHostToDevice;
  cudaGraphNode_t up, to_sym, from_sym, fill, host, rec;
  CHECK(cudaGraphAddMemcpyNode(&up, g, nullptr, 0, &p));
  // a -> table -> b, through the symbol nodes.
  CHECK(cudaGraphAddMemcpyNodeToSymbol(&to_sym, g, &up, 1, table, a, n * sizeof(int), 0, cudaMemcpyDeviceToDevice));
  CHECK(cudaGraphAddMemcpyNodeFromSymbol(&from_sym, g, &to_sym, 1, b, table, n / 2 * sizeof(int), n / 2 * sizeof(int),
                                         cudaMemcpyDeviceToDevice));
  cudaMemsetParams ms = {};
  ms.dst = a;
  ms.value = 0x11;
  ms.elementSize = 1;
  ms.width = 16;
  ms.height = 1;
  CHECK(cudaGraphAddMemsetNode(&fill, g, &from_sym, 1, &ms));
  int bumps = 0;
  cudaHostNodeParams hp = {host_bump, &bumps};
  CHECK(cudaGraphAddHostNode(&host, g, &fill, 1, &hp));
  cudaEvent_t e1, e2, got;
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventCreate(&e2));
  CHECK(cudaGraphAddEventRecordNode(&rec, g, &host, 1, e1));

  // The getters give back what was set.
  cudaMemsetParams ms_back = {};
  CHECK(cudaGraphMemsetNodeGetParams(fill, &ms_back));
  EXPECT(ms_back.dst == a && ms_back.value == 0x11 && ms_back.elementSize == 1 && ms_back.width == 16,
         "memset node parameters read back wrong");
  cudaHostNodeParams hp_back = {};
  CHECK(cudaGraphHostNodeGetParams(host, &hp_back));
  EXPECT(hp_back.fn == host_bump && hp_back.userData == &bumps, "host node parameters read back wrong");
  CHECK(cudaGraphEventRecordNodeGetEvent(rec, &got));
  EXPECT(got == e1, "event record node: got another event");
  CHECK(cudaGraphEventRecordNodeSetEvent(rec, e2));
  CHECK(cudaGraphEventRecordNodeGetEvent(rec, &got));
  EXPECT(got == e2, "event record node: the new event is not set");

  // A child graph is kept as given.
  cudaGraph_t child, child_back;
  cudaGraphNode_t child_node, empty;
  CHECK(cudaGraphCreate(&child, 0));
  CHECK(cudaGraphAddEmptyNode(&empty, child, nullptr, 0));
  CHECK(cudaGraphAddChildGraphNode(&child_node, g, &rec, 1, child));
  CHECK(cudaGraphChildGraphNodeGetGraph(child_node, &child_back));
  size_t child_nodes = 0;
  CHECK(cudaGraphGetNodes(child_back, nullptr, &child_nodes));
  EXPECT(child_nodes == 1, "child graph has %zu nodes, want 1", child_nodes);

  cudaGraphInstantiateParams ip = {};
  ip.flags = cudaGraphInstantiateFlagAutoFreeOnLaunch;
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiateWithParams(&exec, g, &ip));
  EXPECT(ip.result_out == cudaGraphInstantiateSuccess, "instantiate result %d", (int)ip.result_out);
  unsigned long long flags = 0;
  CHECK(cudaGraphExecGetFlags(exec, &flags));
  EXPECT(flags == cudaGraphInstantiateFlagAutoFreeOnLaunch, "exec flags %llu", flags);

  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaStreamSynchronize(0));
  EXPECT(bumps == 1, "host node ran %d times", bumps);
  EXPECT(cudaEventQuery(e2) == cudaSuccess, "the replaced record node's event was not recorded");
  CHECK(cudaMemcpy(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int want = i < n / 2 ? src[n / 2 + i] : 0;
    EXPECT(back[i] == want, "b[%d] = %d, want %d", i, back[i], want);
  }
  CHECK(cudaMemcpy(back.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int want = i < 4 ? 0x11111111 : src[i];
    EXPECT(back[i] == want, "a[%d] = %#x, want %#x", i, back[i], want);
  }

  // Setters: the upload now reads a shifted source; the executable graph gets a 1D copy
  // into b's upper half from the symbol's start.
  std::vector<int> src2(n);
  for (int i = 0; i < n; i++) src2[i] = 1000 + i;
  p.srcPtr = make_cudaPitchedPtr(src2.data(), n * sizeof(int), n, 1);
  CHECK(cudaGraphExecMemcpyNodeSetParams(exec, up, &p));
  CHECK(cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, from_sym, b + n / 2, table, n / 2 * sizeof(int), 0,
                                                   cudaMemcpyDeviceToDevice));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaStreamSynchronize(0));
  CHECK(cudaMemcpy(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int want = i < n / 2 ? src[n / 2 + i] : src2[i - n / 2];
    EXPECT(back[i] == want, "after the setters, b[%d] = %d, want %d", i, back[i], want);
  }

  // The graph's own node set in 1D, instantiated the CUDA 11 way.
  CHECK(cudaGraphMemcpyNodeSetParams1D(up, a, src2.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaGraphExec_t exec11;
  CHECK(cudaGraphInstantiate(&exec11, g, nullptr, nullptr, 0));
  CHECK(cudaGraphLaunch(exec11, 0));
  CHECK(cudaStreamSynchronize(0));
  CHECK(cudaMemcpy(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    // exec11 copies the symbol's upper half into b's lower half; b's upper half keeps
    // what the earlier launch left there.
    int want = i < n / 2 ? src2[n / 2 + i] : src2[i - n / 2];
    EXPECT(back[i] == want, "CUDA 11 instantiate: b[%d] = %d, want %d", i, back[i], want);
  }

  // Misuse: a bad direction.
  EXPECT(cudaGraphMemcpyNodeSetParams1D(up, a, src.data(), 4, (cudaMemcpyKind)7) == cudaErrorInvalidMemcpyDirection,
         "a bad copy direction is refused");
  cudaGetLastError();

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphExecDestroy(exec11));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaEventDestroy(e1));
  CHECK(cudaEventDestroy(e2));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return ctest_finish();
}
