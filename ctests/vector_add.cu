// c[i] = a[i] + b[i] over ~1M floats (not a multiple of the block size).
#define CTEST_NAME "vector_add"
#include "ctest.h"

#include <vector>

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = (1 << 20) + 3;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  CtestRng rng(1);
  for (int i = 0; i < n; i++) {
    a[i] = (float)(int32_t)rng.next32() * 0x1p-20f;
    b[i] = (float)i * 0.5f - 1000.0f;
  }
  float *da, *db, *dc;
  size_t bytes = n * sizeof(float);
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), bytes, cudaMemcpyHostToDevice));
  const int block = 256;
  vector_add<<<ceil_div(n, block), block>>>(da, db, dc, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float want = a[i] + b[i];
    EXPECT(memcmp(&want, &c[i], sizeof(float)) == 0, "c[%d] = %a, want %a", i, c[i], want);
  }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  return ctest_finish();
}
