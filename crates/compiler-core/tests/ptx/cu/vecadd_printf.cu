// Source of ../vecadd_printf.ptx (nvcc -ptx -arch=sm_80).
#include <cstdio>

__global__ void vecadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (i == 0) printf("n=%d first=%f\n", n, (double)c[0]);
}
