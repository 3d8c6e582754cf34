// What NVIDIA's driver reports as a kernel's PTX and binary versions (cudaFuncGetAttributes),
// for a PTX-only build (JIT) and a SASS build. Prints one line per kernel.
#include <cstdio>
__global__ void k(int* p) { if (p) *p = 1; }
int main() {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, k);
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
  printf("ptxVersion=%d binaryVersion=%d\n", a.ptxVersion, a.binaryVersion);
  return 0;
}
