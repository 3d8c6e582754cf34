// Several kernels in one file, some of them templates (over element type and
// over a functor), launched in sequence on the same buffers: fill, map,
// combine, a multi-pass Hillis-Steele scan (ping-pong), and a gather.
#define CTEST_NAME "multi_kernel"
#include "ctest.h"

#include <vector>

template <typename T>
__global__ void fill(T *p, T value, T step, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value + step * (T)i;
}

struct Square {
  template <typename T>
  __device__ __host__ T operator()(T v) const { return v * v; }
};
struct AddConst {
  long long c;
  template <typename T>
  __device__ __host__ T operator()(T v) const { return v + (T)c; }
};

template <typename T, typename F>
__global__ void map(T *p, F f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = f(p[i]);
}

template <typename A, typename B>
__global__ void combine(const A *a, const B *b, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (double)a[i] - 0.5 * (double)b[i];
}

// One step of an inclusive scan: out[i] = in[i] + in[i - offset].
__global__ void scan_step(const long long *in, long long *out, int offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + (i >= offset ? in[i - offset] : 0);
}

__global__ void gather(const double *src, const long long *idx_src, double *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[(unsigned long long)idx_src[i] % (unsigned long long)n];
}

int main() {
  const int n = 50000;
  const int B = 256;
  const unsigned G = ceil_div(n, B);
  int *di;
  float *df;
  double *dd, *dg;
  long long *ds0, *ds1;
  CHECK(cudaMalloc(&di, n * sizeof(int)));
  CHECK(cudaMalloc(&df, n * sizeof(float)));
  CHECK(cudaMalloc(&dd, n * sizeof(double)));
  CHECK(cudaMalloc(&dg, n * sizeof(double)));
  CHECK(cudaMalloc(&ds0, n * sizeof(long long)));
  CHECK(cudaMalloc(&ds1, n * sizeof(long long)));

  fill<int><<<G, B>>>(di, -100, 3, n);
  fill<float><<<G, B>>>(df, 0.25f, 0.5f, n);
  fill<long long><<<G, B>>>(ds0, 1, 1, n);
  CHECK_LAUNCH();
  map<<<G, B>>>(di, AddConst{7}, n);
  map<<<G, B>>>(df, Square(), n);
  map<<<G, B>>>(ds0, Square(), n);
  CHECK_LAUNCH();
  combine<<<G, B>>>(di, df, dd, n);
  CHECK_LAUNCH();
  // Inclusive prefix sum of ds0 (values (i+1)^2) in log2(n) launches.
  long long *src = ds0, *dst = ds1;
  int passes = 0;
  for (int offset = 1; offset < n; offset *= 2, passes++) {
    scan_step<<<G, B>>>(src, dst, offset, n);
    CHECK(cudaGetLastError());
    long long *t = src;
    src = dst;
    dst = t;
  }
  CHECK(cudaDeviceSynchronize());
  gather<<<G, B>>>(dd, src, dg, n);
  CHECK_LAUNCH();

  std::vector<int> hi(n);
  std::vector<float> hf(n);
  std::vector<double> hd(n), hg(n);
  std::vector<long long> hs(n);
  CHECK(cudaMemcpy(hi.data(), di, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hf.data(), df, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hd.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hg.data(), dg, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hs.data(), src, n * sizeof(long long), cudaMemcpyDeviceToHost));

  long long prefix = 0;
  std::vector<double> want_d(n);
  for (int i = 0; i < n; i++) {
    int wi = -100 + 3 * i + 7;
    float f = 0.25f + 0.5f * (float)i;
    float wf = f * f;
    EXPECT(hi[i] == wi, "int pipeline [%d] = %d, want %d", i, hi[i], wi);
    EXPECT(hf[i] == wf, "float pipeline [%d] = %.9g, want %.9g", i, hf[i], wf);
    want_d[i] = (double)wi - 0.5 * (double)wf;
    EXPECT(hd[i] == want_d[i], "combine [%d] = %.17g, want %.17g", i, hd[i], want_d[i]);
    prefix += (long long)(i + 1) * (i + 1);
    EXPECT(hs[i] == prefix, "scan [%d] = %lld, want %lld", i, hs[i], prefix);
  }
  prefix = 0;
  for (int i = 0; i < n; i++) {
    prefix += (long long)(i + 1) * (i + 1);
    double w = want_d[(unsigned long long)prefix % (unsigned long long)n];
    EXPECT(hg[i] == w, "gather [%d] = %.17g, want %.17g", i, hg[i], w);
  }
  printf("multi_kernel: %d scan passes, sum of squares 1..%d = %lld\n", passes, n, hs[n - 1]);
  CHECK(cudaFree(di));
  CHECK(cudaFree(df));
  CHECK(cudaFree(dd));
  CHECK(cudaFree(dg));
  CHECK(cudaFree(ds0));
  CHECK(cudaFree(ds1));
  return ctest_finish();
}
