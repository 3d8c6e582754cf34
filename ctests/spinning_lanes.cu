// Lanes that spin-wait before a warp collective while the rest of their warp waits at it:
// cooperative groups' tiles of 64 and 128 threads (CUDA Programming Guide, "Cooperative
// Groups": thread_block_tile<N> for N > 32 with block_tile_memory), whose sync is a
// shared-memory barrier one lane of each warp spins on between warp syncs, and a plain
// kernel where lane 0 of each warp waits for a flag the next warp sets before a full-warp
// shuffle. Results are checked against host arithmetic.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <vector>

#define CTEST_NAME "spinning_lanes"
#include "ctest.h"

namespace cg = cooperative_groups;

template <int N>
__global__ void big_tiles(const int *in, int *out) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<N>(block);
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int sum = cg::reduce(tile, v, cg::plus<int>());
  tile.sync();
  int first = tile.shfl(v, 0);
  int max = cg::reduce(tile, v, cg::greater<int>());
  int *o = out + 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  o[0] = sum;
  o[1] = first;
  o[2] = max;
  o[3] = (int)(tile.meta_group_rank() * 1000 + tile.thread_rank());
}

template <int N>
static void big_tile_case(int blocks, int threads) {
  int n = blocks * threads;
  std::vector<int> in(n), out(4 * n, -1);
  for (int i = 0; i < n; i++) in[i] = (i * 37 + 11) % 101 - 50;
  int *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, 4 * n * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  big_tiles<N><<<blocks, threads>>>(din, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, 4 * n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int base = i / N * N, sum = 0, max = in[base];
    for (int j = base; j < base + N; j++) {
      sum += in[j];
      max = in[j] > max ? in[j] : max;
    }
    int t = i % threads;
    const int *o = &out[4 * i];
    EXPECT(o[0] == sum && o[1] == in[base] && o[2] == max && o[3] == (t / N) * 1000 + t % N,
           "tile %d thread %d: sum %d first %d max %d rank %d, want %d %d %d %d", N, i, o[0], o[1], o[2], o[3], sum, in[base], max,
           (t / N) * 1000 + t % N);
  }
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
}

// Lane 0 of warp w waits until warp w + 1 has published its value (the last warp publishes
// at once), then the whole warp shuffles lane 0's copy.
__global__ void chained_warps(int *flags, int *values, int *out) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, nwarps = blockDim.x / 32;
  int got = 0;
  if (lane == 0) {
    if (warp + 1 < nwarps) {
      while (atomicAdd(&flags[warp + 1], 0) == 0) {
      }
      got = ((volatile int *)values)[warp + 1];
    }
    values[warp] = got + warp + 1;
    __threadfence_block();
    atomicExch(&flags[warp], 1);
  }
  out[threadIdx.x] = __shfl_sync(0xffffffff, got, 0);
}

static void chained_case() {
  const int warps = 8, threads = warps * 32;
  int *flags, *values, *dout;
  CHECK(cudaMalloc(&flags, warps * sizeof(int)));
  CHECK(cudaMalloc(&values, warps * sizeof(int)));
  CHECK(cudaMalloc(&dout, threads * sizeof(int)));
  CHECK(cudaMemset(flags, 0, warps * sizeof(int)));
  chained_warps<<<1, threads>>>(flags, values, dout);
  CHECK_LAUNCH();
  std::vector<int> out(threads);
  CHECK(cudaMemcpy(out.data(), dout, threads * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < threads; t++) {
    // Warp w sees the sum of (v + 1) over the warps after it.
    int w = t / 32, want = 0;
    for (int v = w + 1; v < warps; v++) want += v + 1;
    EXPECT(out[t] == want, "chained warps: thread %d got %d, want %d", t, out[t], want);
  }
  CHECK(cudaFree(flags));
  CHECK(cudaFree(values));
  CHECK(cudaFree(dout));
}

// A barrier between the warps of a block built from warp syncs: lane 0 of each warp
// arrives, and the last to arrive opens the next generation with a volatile store, in a
// branch only lane 0 takes, while its warp waits at __syncwarp; then full-warp shuffles.
__device__ void warps_barrier(volatile unsigned *gen, unsigned *count) {
  __syncwarp();
  if ((threadIdx.x & 31) == 0) {
    unsigned g = *gen;
    __threadfence_block();
    if (atomicAdd(count, 1u) == blockDim.x / 32 - 1) {
      *count = 0;
      __threadfence_block();
      *gen = g + 1;
    } else {
      while (*gen == g) {
      }
    }
    __threadfence_block();
  }
  __syncwarp();
}

__global__ void barrier_then_shuffle(int *out) {
  __shared__ volatile unsigned gen;
  __shared__ unsigned count;
  if (threadIdx.x == 0) {
    gen = 0;
    count = 0;
  }
  __syncthreads();
  int lane = threadIdx.x % 32;
  for (int round = 0; round < 3; round++) {
    warps_barrier(&gen, &count);
    out[round * blockDim.x + threadIdx.x] = __shfl_sync(0xffffffff, lane * 3 + round, (lane + 1 + round) % 32);
  }
}

static void barrier_case() {
  const int threads = 128;
  int *dout;
  CHECK(cudaMalloc(&dout, 3 * threads * sizeof(int)));
  barrier_then_shuffle<<<2, threads>>>(dout);
  CHECK_LAUNCH();
  std::vector<int> out(3 * threads);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int round = 0; round < 3; round++)
    for (int t = 0; t < threads; t++) {
      int want = ((t % 32 + 1 + round) % 32) * 3 + round;
      EXPECT(out[round * threads + t] == want, "barrier then shuffle: round %d thread %d got %d, want %d", round, t,
             out[round * threads + t], want);
    }
  CHECK(cudaFree(dout));
}

int main() {
  barrier_case();
  big_tile_case<64>(3, 128);
  big_tile_case<128>(2, 256);
  big_tile_case<64>(1, 256);
  chained_case();
  return ctest_finish();
}
