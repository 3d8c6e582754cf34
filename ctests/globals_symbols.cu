// Module-scope variables: a __constant__ array and __device__ variables set
// with cudaMemcpyToSymbol (whole and at an offset), read back with
// cudaMemcpyFromSymbol, statically initialized ones, and kernels that use and
// update them.
#define CTEST_NAME "globals_symbols"
#include "ctest.h"

#include <vector>

const int kCoeffs = 16;
const int kTable = 256;

__constant__ int coeffs[kCoeffs];
__constant__ float scale = 1.5f;           // statically initialized constant
__device__ int bias;                        // set from the host
__device__ int initialized = 12345;         // statically initialized global
__device__ unsigned table[kTable];          // written by a kernel, read by the host
__device__ long long counter_like[4] = {1, 2, 3, 4};

__global__ void use_symbols(int *out, float *fout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int acc = bias + initialized;
  for (int k = 0; k < kCoeffs; k++)
    if ((i >> k) & 1) acc += coeffs[k];
  out[i] = acc;
  fout[i] = scale * (float)(i % 1024);
}

__global__ void write_table(unsigned salt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kTable) table[i] = (unsigned)i * 2654435761u ^ salt;
  if (i < 4) counter_like[i] = counter_like[i] * 10 + i;
}

int main() {
  int hc[kCoeffs];
  for (int k = 0; k < kCoeffs; k++) hc[k] = (k + 1) * (k % 2 ? -3 : 5);
  // Write the first half of coeffs whole, then the second half at an offset.
  int zero[kCoeffs] = {0};
  CHECK(cudaMemcpyToSymbol(coeffs, zero, sizeof(zero)));
  CHECK(cudaMemcpyToSymbol(coeffs, hc, sizeof(int) * kCoeffs / 2));
  CHECK(cudaMemcpyToSymbol(coeffs, hc + kCoeffs / 2, sizeof(int) * kCoeffs / 2,
                           sizeof(int) * kCoeffs / 2));
  int hbias = -777;
  CHECK(cudaMemcpyToSymbol(bias, &hbias, sizeof(int)));

  // Read-back of what was set and of static initializers.
  int back[kCoeffs], hinit = 0, hbias_back = 0;
  float hscale = 0;
  long long hcounter[4];
  CHECK(cudaMemcpyFromSymbol(back, coeffs, sizeof(back)));
  CHECK(cudaMemcpyFromSymbol(&hbias_back, bias, sizeof(int)));
  CHECK(cudaMemcpyFromSymbol(&hinit, initialized, sizeof(int)));
  CHECK(cudaMemcpyFromSymbol(&hscale, scale, sizeof(float)));
  CHECK(cudaMemcpyFromSymbol(hcounter, counter_like, sizeof(hcounter)));
  for (int k = 0; k < kCoeffs; k++) EXPECT(back[k] == hc[k], "coeffs[%d] = %d, want %d", k, back[k], hc[k]);
  EXPECT(hbias_back == hbias, "bias = %d", hbias_back);
  EXPECT(hinit == 12345, "initialized = %d, want 12345", hinit);
  EXPECT(hscale == 1.5f, "scale = %g, want 1.5", hscale);
  for (int k = 0; k < 4; k++) EXPECT(hcounter[k] == k + 1, "counter_like[%d] = %lld", k, hcounter[k]);

  const int n = 70000;
  int *dout;
  float *dfout;
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMalloc(&dfout, n * sizeof(float)));
  use_symbols<<<ceil_div(n, 256), 256>>>(dout, dfout, n);
  CHECK_LAUNCH();
  std::vector<int> out(n);
  std::vector<float> fout(n);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(fout.data(), dfout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int want = hbias + 12345;
    for (int k = 0; k < kCoeffs; k++)
      if ((i >> k) & 1) want += hc[k];
    EXPECT(out[i] == want, "out[%d] = %d, want %d", i, out[i], want);
    EXPECT(fout[i] == 1.5f * (float)(i % 1024), "fout[%d] = %g", i, fout[i]);
  }

  // A kernel writes __device__ variables; read them back by symbol.
  write_table<<<2, 128>>>(0xabcdu);
  CHECK_LAUNCH();
  unsigned htable[kTable];
  CHECK(cudaMemcpyFromSymbol(htable, table, sizeof(htable)));
  for (int i = 0; i < kTable; i++) {
    unsigned want = (unsigned)i * 2654435761u ^ 0xabcdu;
    EXPECT(htable[i] == want, "table[%d] = %u, want %u", i, htable[i], want);
  }
  // Partial read at an offset.
  unsigned tail[8];
  CHECK(cudaMemcpyFromSymbol(tail, table, sizeof(tail), sizeof(unsigned) * (kTable - 8)));
  for (int i = 0; i < 8; i++) EXPECT(tail[i] == htable[kTable - 8 + i], "table tail[%d] = %u", i, tail[i]);
  CHECK(cudaMemcpyFromSymbol(hcounter, counter_like, sizeof(hcounter)));
  for (int k = 0; k < 4; k++)
    EXPECT(hcounter[k] == (k + 1) * 10 + k, "counter_like[%d] = %lld after kernel", k, hcounter[k]);

  CHECK(cudaFree(dout));
  CHECK(cudaFree(dfout));
  return ctest_finish();
}
