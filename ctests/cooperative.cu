// Cooperative launches: grid-wide synchronization with cooperative groups
// (grid.sync()), a grid sized by the occupancy API, the COOPERATIVE_LAUNCH attribute, and
// a grid too large to be resident at once (cudaErrorCooperativeLaunchTooLarge).
#define CTEST_NAME "cooperative"
#include "ctest.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Three phases separated by grid-wide barriers: every block writes its slice, then reads
// a neighbour's slice written by another block, then block 0 sums everything.
__global__ void phases(int *a, int *b, long long *sum, int n) {
  cg::grid_group grid = cg::this_grid();
  int stride = (int)grid.size();
  for (int i = (int)grid.thread_rank(); i < n; i += stride) a[i] = i + 1;
  grid.sync();
  for (int i = (int)grid.thread_rank(); i < n; i += stride) b[i] = a[(i + 1000) % n] * 2;
  grid.sync();
  if (grid.thread_rank() == 0) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += b[i];
    *sum = s;
  }
}

int main() {
  int dev = 0, coop = 0, sms = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  EXPECT(coop == 1, "cudaDevAttrCooperativeLaunch = %d", coop);

  const int threads = 128;
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, threads, 0));
  EXPECT(per_sm >= 1, "occupancy %d blocks per SM", per_sm);
  // Keep the grid modest: every block of a cooperative launch must be resident.
  int blocks = sms * (per_sm < 2 ? per_sm : 2);

  const int n = 100000;
  int *a, *b;
  long long *sum;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&sum, sizeof(long long)));
  int nn = n;
  void *args[] = {&a, &b, &sum, &nn};
  for (int round = 0; round < 3; round++) {
    CHECK(cudaMemset(sum, 0, sizeof(long long)));
    CHECK(cudaLaunchCooperativeKernel((void *)phases, dim3(blocks), dim3(threads), args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    long long got = 0;
    CHECK(cudaMemcpy(&got, sum, sizeof(got), cudaMemcpyDeviceToHost));
    long long want = (long long)n * (n + 1);  // 2 * sum of 1..n
    EXPECT(got == want, "round %d: sum %lld, want %lld (%d blocks)", round, got, want, blocks);
  }

  // One block more than can be resident.
  int too_many = per_sm * sms + 1;
  cudaError_t e = cudaLaunchCooperativeKernel((void *)phases, dim3(too_many), dim3(threads), args, 0, 0);
  EXPECT(e == cudaErrorCooperativeLaunchTooLarge, "%d blocks: got %d (%s), want cudaErrorCooperativeLaunchTooLarge",
         too_many, (int)e, cudaGetErrorName(e));
  cudaGetLastError();
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(sum));
  return ctest_finish();
}
