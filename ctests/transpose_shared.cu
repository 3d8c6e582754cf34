// Tiled matrix transpose through a __shared__ tile with __syncthreads, on
// matrix sizes that are not multiples of the tile size.
#define CTEST_NAME "transpose_shared"
#include "ctest.h"

#include <vector>

const int TILE = 32;
const int ROWS_PER_PASS = 8;

// in: rows x cols (row-major), out: cols x rows.
__global__ void transpose(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];  // +1 avoids bank conflicts
  int x = blockIdx.x * TILE + threadIdx.x;  // column in `in`
  int y = blockIdx.y * TILE + threadIdx.y;  // row in `in`
  for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;  // column in `out`
  y = blockIdx.x * TILE + threadIdx.y;  // row in `out`
  for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
    if (x < rows && y + j < cols) out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

static void run(int rows, int cols) {
  std::vector<float> in((size_t)rows * cols), out((size_t)rows * cols, -1.0f);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) in[(size_t)r * cols + c] = (float)(r * 4096 + c);
  float *din, *dout;
  size_t bytes = in.size() * sizeof(float);
  CHECK(cudaMalloc(&din, bytes));
  CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMemcpy(din, in.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dout, out.data(), bytes, cudaMemcpyHostToDevice));
  dim3 block(TILE, ROWS_PER_PASS);
  dim3 grid(ceil_div(cols, TILE), ceil_div(rows, TILE));
  transpose<<<grid, block>>>(din, dout, rows, cols);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      float got = out[(size_t)c * rows + r];
      float want = in[(size_t)r * cols + c];
      EXPECT(got == want, "%dx%d: out[%d][%d] = %g, want %g", rows, cols, c, r, got, want);
    }
}

int main() {
  run(333, 517);
  run(32, 64);
  run(1, 100);
  run(97, 1);
  run(1000, 33);
  return ctest_finish();
}
