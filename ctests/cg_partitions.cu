// Cooperative groups within a warp (CUDA C++ Programming Guide, "Cooperative Groups"):
// binary_partition and labeled_partition of a tile (then reduce and rank within each
// part), tile shuffles of types wider than a register (uint4, a struct of three doubles),
// and __clz of integer types other than int (converted to int, as NVIDIA declares it).
// Every result is checked against host arithmetic.
#define CTEST_NAME "cg_partitions"
#include "ctest.h"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <vector>

namespace cg = cooperative_groups;

struct Triple {
  double a, b, c;
};

__global__ void partitions(const int *in, int *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  auto odd_even = cg::binary_partition(tile, v & 1);
  auto by_label = cg::labeled_partition(tile, v % 3);
  int *o = out + 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  o[0] = cg::reduce(odd_even, v, cg::plus<int>());
  o[1] = (int)odd_even.thread_rank() * 100 + (int)odd_even.size();
  o[2] = cg::reduce(by_label, v, cg::greater<int>());
  o[3] = (int)by_label.size();
}

__global__ void wide_shuffles(int *out, double *dout, int *clz) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  unsigned t = threadIdx.x;
  uint4 u = make_uint4(t, t * 2, t * 3, t * 4);
  uint4 x = tile.shfl_xor(u, 5);
  uint4 d = tile.shfl_down(u, 3);
  Triple tr = {t * 0.5, t * 1.5, t * 2.5};
  Triple s = tile.shfl(tr, 7);
  out[4 * t] = (int)x.y;
  out[4 * t + 1] = (int)x.w;
  out[4 * t + 2] = (int)d.z;
  out[4 * t + 3] = (int)tile.shfl_up(u, 2).x;
  dout[3 * t] = s.a;
  dout[3 * t + 1] = s.b;
  dout[3 * t + 2] = s.c;
  clz[2 * t] = __clz((unsigned long)t + 1);
  clz[2 * t + 1] = __clz((long long)(1u << (t % 32)));
}

static int host_clz32(unsigned x) {
  int n = 0;
  for (int b = 31; b >= 0 && !((x >> b) & 1); b--) n++;
  return n;
}

int main() {
  const int blocks = 2, threads = 64, n = blocks * threads;
  std::vector<int> in(n), out(4 * n);
  for (int i = 0; i < n; i++) in[i] = (i * 29 + 7) % 61;
  int *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, 4 * n * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  partitions<<<blocks, threads>>>(din, dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int base = i / 32 * 32, sum = 0, rank = 0, size = 0, max = -1, lsize = 0;
    for (int j = base; j < base + 32; j++) {
      if ((in[j] & 1) == (in[i] & 1)) {
        sum += in[j];
        size++;
        if (j < i) rank++;
      }
      if (in[j] % 3 == in[i] % 3) {
        max = in[j] > max ? in[j] : max;
        lsize++;
      }
    }
    const int *o = &out[4 * i];
    EXPECT(o[0] == sum && o[1] == rank * 100 + size && o[2] == max && o[3] == lsize,
           "thread %d: sum %d rank/size %d max %d size %d, want %d %d %d %d", i, o[0], o[1], o[2], o[3], sum,
           rank * 100 + size, max, lsize);
  }

  const int t32 = 32;
  int *wout, *wclz;
  double *wd;
  CHECK(cudaMalloc(&wout, 4 * t32 * sizeof(int)));
  CHECK(cudaMalloc(&wd, 3 * t32 * sizeof(double)));
  CHECK(cudaMalloc(&wclz, 2 * t32 * sizeof(int)));
  wide_shuffles<<<1, t32>>>(wout, wd, wclz);
  CHECK_LAUNCH();
  std::vector<int> w(4 * t32), c(2 * t32);
  std::vector<double> dd(3 * t32);
  CHECK(cudaMemcpy(w.data(), wout, w.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dd.data(), wd, dd.size() * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(c.data(), wclz, c.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < t32; t++) {
    int base = t / 16 * 16, r = t % 16;
    int xr = base + (r ^ 5), dn = r + 3 < 16 ? t + 3 : t, up = r >= 2 ? t - 2 : t, src = base + 7;
    EXPECT(w[4 * t] == xr * 2 && w[4 * t + 1] == xr * 4 && w[4 * t + 2] == dn * 3 && w[4 * t + 3] == up,
           "thread %d: shuffles %d %d %d %d, want %d %d %d %d", t, w[4 * t], w[4 * t + 1], w[4 * t + 2], w[4 * t + 3],
           xr * 2, xr * 4, dn * 3, up);
    EXPECT(dd[3 * t] == src * 0.5 && dd[3 * t + 1] == src * 1.5 && dd[3 * t + 2] == src * 2.5,
           "thread %d: struct shuffle %g %g %g, want lane %d's", t, dd[3 * t], dd[3 * t + 1], dd[3 * t + 2], src);
    int want0 = host_clz32((unsigned)t + 1), want1 = host_clz32(1u << (t % 32));
    EXPECT(c[2 * t] == want0 && c[2 * t + 1] == want1, "thread %d: __clz %d %d, want %d %d", t, c[2 * t],
           c[2 * t + 1], want0, want1);
  }
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(wout));
  CHECK(cudaFree(wd));
  CHECK(cudaFree(wclz));
  return ctest_finish();
}
