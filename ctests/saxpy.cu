// y = a*x + y (single precision) over 1M elements.  The inputs are chosen so
// that a*x[i] is exact, so the result is the same whether or not the compiler
// fuses the multiply-add: the check is bit-exact.
#define CTEST_NAME "saxpy"
#include "ctest.h"

#include <vector>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  const float a = 2.5f;
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 1000) * 0.25f;
    y[i] = (float)(i % 777) * 0.5f - 100.0f;
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<ceil_div(n, 512), 512>>>(n, a, dx, dy);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  double checksum = 0;
  for (int i = 0; i < n; i++) {
    float want = a * x[i] + y[i];
    EXPECT(want == out[i], "y[%d] = %.9g, want %.9g", i, out[i], want);
    checksum += out[i];
  }
  printf("saxpy: n=%d a=%g y[1]=%g y[%d]=%g sum(y)=%.1f\n", n, a, out[1], n - 1,
         out[n - 1], checksum);
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return ctest_finish();
}
