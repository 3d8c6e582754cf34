// Source of ../device_calls.ptx (nvcc -ptx -arch=sm_80).
#include <cassert>

__device__ int table[4] = {1, 2, 3, 4};
__constant__ float coeffs[3] = {0.5f, -1.25f, 3.0f};
__device__ int* table_ptr = &table[2];
__device__ __managed__ int counter;
__device__ double dtab[2][2] = {{1.0, 2.0}, {3.0, 4.0}};

__device__ __noinline__ int twice(int x) { return 2 * x + table[x & 3]; }
__device__ __noinline__ float poly(float x) { return coeffs[0] + x * (coeffs[1] + x * coeffs[2]); }

typedef int (*op_t)(int);
__device__ op_t ops[1] = {twice};

__global__ void calls(int* out, float* f, double* d, unsigned short* h, int sel) {
    int t = threadIdx.x + blockIdx.y * 7;
    assert(sel >= 0);
    op_t op = ops[sel];
    out[t] = op(t) + *table_ptr + twice(t);
    f[t] = poly(f[t]);
    d[t] = d[t] * dtab[t & 1][1] + 1.0e-3;
    unsigned short hv;
    asm("{ .reg .f16 tmp;\n\tcvt.rn.f16.f32 tmp, %1;\n\tmov.b16 %0, tmp; }" : "=h"(hv) : "f"(f[t]));
    h[t] = hv;
    atomicAdd(&counter, 1);
    atomicCAS(out + 1, 5, t);
}
