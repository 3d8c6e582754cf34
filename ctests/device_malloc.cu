// Device-side malloc/free and new/delete (CUDA C++ Programming Guide, "Dynamic Global
// Memory Allocation and Operations"): memory one kernel allocates stays valid for later
// kernels until freed, every allocation is 16-byte aligned, and free(nullptr) is a no-op.
#define CTEST_NAME "device_malloc"
#include "ctest.h"

struct Node {
  int value;
  Node *next;
  __device__ Node(int v, Node *n) : value(v), next(n) {}
};

static const int kBlocks = 4, kThreads = 64, kN = kBlocks * kThreads;

// Each thread allocates (tid % 7) + 1 ints and fills them; the pointer outlives the kernel.
__global__ void alloc_kernel(int **ptrs, unsigned *misaligned) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int len = i % 7 + 1;
  int *p = (int *)malloc(len * sizeof(int));
  ptrs[i] = p;
  if (p == nullptr) return;
  if ((unsigned long long)p % 16 != 0) atomicAdd(misaligned, 1u);
  for (int k = 0; k < len; k++) p[k] = i * 10 + k;
}

// A later kernel reads another thread's block, then frees it (and a null pointer).
__global__ void sum_free_kernel(int **ptrs, int *sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = (i + 1) % kN;
  int *p = ptrs[j];
  int s = -1;
  if (p != nullptr) {
    s = 0;
    for (int k = 0; k < j % 7 + 1; k++) s += p[k];
  }
  sums[i] = s;
  free(p);
  free(nullptr);
}

// new/delete: a per-thread linked list of three nodes, summed and deleted.
__global__ void list_kernel(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Node *head = nullptr;
  for (int k = 0; k < 3; k++) head = new Node(i + k, head);
  int s = 0;
  while (head != nullptr) {
    Node *n = head->next;
    s += head->value;
    delete head;
    head = n;
  }
  out[i] = s;
}

int main() {
  size_t heap = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20));
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  EXPECT(heap >= (16 << 20), "malloc heap limit %zu, want at least %d", heap, 16 << 20);

  int **ptrs;
  int *sums, *list;
  unsigned *misaligned;
  CHECK(cudaMalloc(&ptrs, kN * sizeof(int *)));
  CHECK(cudaMalloc(&sums, kN * sizeof(int)));
  CHECK(cudaMalloc(&list, kN * sizeof(int)));
  CHECK(cudaMalloc(&misaligned, sizeof(unsigned)));
  CHECK(cudaMemset(misaligned, 0, sizeof(unsigned)));
  alloc_kernel<<<kBlocks, kThreads>>>(ptrs, misaligned);
  CHECK_LAUNCH();
  sum_free_kernel<<<kBlocks, kThreads>>>(ptrs, sums);
  CHECK_LAUNCH();
  list_kernel<<<kBlocks, kThreads>>>(list);
  CHECK_LAUNCH();

  int h_sums[kN], h_list[kN];
  unsigned h_mis = 0;
  CHECK(cudaMemcpy(h_sums, sums, sizeof(h_sums), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_list, list, sizeof(h_list), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&h_mis, misaligned, sizeof(h_mis), cudaMemcpyDeviceToHost));
  EXPECT(h_mis == 0, "%u allocations not 16-byte aligned", h_mis);
  for (int i = 0; i < kN; i++) {
    int j = (i + 1) % kN, len = j % 7 + 1, want = 0;
    for (int k = 0; k < len; k++) want += j * 10 + k;
    EXPECT(h_sums[i] == want, "sums[%d] = %d, want %d", i, h_sums[i], want);
    EXPECT(h_list[i] == 3 * i + 3, "list[%d] = %d, want %d", i, h_list[i], 3 * i + 3);
  }
  CHECK(cudaFree(ptrs));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(list));
  CHECK(cudaFree(misaligned));
  return ctest_finish();
}
