"""CuPy on our stack: libcuda.so.1 (CPU device) + libnvrtc.so.12, nothing of NVIDIA's but
cudart. Every kernel CuPy generates here goes through our NVRTC (with CuPy's CCCL headers)
and our PTX compiler. Results are checked against NumPy on the host."""
import sys
import numpy as np
import cupy as cp

failures = []

def check(name, got, want, **tol):
    got = cp.asnumpy(got) if isinstance(got, cp.ndarray) else got
    ok = np.allclose(got, want, **tol) if tol else np.array_equal(got, want)
    print(("PASS " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        print("  got ", got, "\n  want", want)

x_h = np.arange(1000, dtype=np.float32)
x = cp.asarray(x_h)

# Elementwise expressions (CuPy's generated kernels, broadcasting, type promotion).
check("elementwise x*2+1", x * 2 + 1, x_h * 2 + 1)
a_h = np.arange(12, dtype=np.int32).reshape(3, 4)
a = cp.asarray(a_h)
check("broadcast int32 + row", a + cp.arange(4, dtype=cp.int32), a_h + np.arange(4, dtype=np.int32))
check("float64 math", cp.sqrt(x.astype(cp.float64)) + cp.exp(-x.astype(cp.float64)),
      np.sqrt(x_h.astype(np.float64)) + np.exp(-x_h.astype(np.float64)), rtol=1e-12)

# User ElementwiseKernel with a math function.
k = cp.ElementwiseKernel('float32 a, float32 b', 'float32 c', 'c = a * b + sinf(a)', 'mul_sin')
check("ElementwiseKernel sinf", k(x, x), x_h * x_h + np.sin(x_h), rtol=1e-5)

# Reductions (CuPy's own reduction kernels: shared memory + __syncthreads).
check("sum", x.sum(), x_h.sum(), rtol=1e-6)
check("max", x.max(), x_h.max())
check("sum axis=1", a.sum(axis=1), a_h.sum(axis=1))
check("argmin", (x - 500) ** 2, (x_h - 500) ** 2)
check("mean float64", x.astype(cp.float64).mean(), x_h.astype(np.float64).mean(), rtol=1e-12)

# ReductionKernel.
l2 = cp.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'l2norm')
check("ReductionKernel l2norm", l2(x), np.sqrt((x_h.astype(np.float64) ** 2).sum()), rtol=1e-5)

# RawKernel and RawModule with name expressions (templates through nvrtcGetLoweredName).
raw = cp.RawKernel(r'''
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}''', 'saxpy')
y = cp.ones(1000, dtype=cp.float32)
raw((4,), (256,), (np.float32(3), x, y, np.int32(1000)))
check("RawKernel saxpy", y, 3 * x_h + 1)

mod = cp.RawModule(code=r'''
template<typename T> __global__ void scale(T* p, T s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= s;
}
__global__ void warp_sum(const int* in, int* out) {
    int v = in[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) out[threadIdx.x / 32] = v;
}''', name_expressions=['scale<float>', 'scale<double>', 'warp_sum'])
d = cp.arange(10, dtype=cp.float64)
mod.get_function('scale<double>')((1,), (32,), (d, np.float64(0.5), np.int32(10)))
check("RawModule template scale<double>", d, np.arange(10, dtype=np.float64) * 0.5)
wi_h = np.arange(128, dtype=np.int32)
wo = cp.zeros(4, dtype=cp.int32)
mod.get_function('warp_sum')((1,), (128,), (cp.asarray(wi_h), wo))
check("RawModule warp shuffle sum", wo, wi_h.reshape(4, 32).sum(axis=1))

# CUB's device-wide reductions (CuPy's default accelerator), from the PTX in CuPy's
# compiled extension: a larger input, checked against float64.
big_h = np.random.default_rng(3).random(1 << 18).astype(np.float32)
check("CUB sum float32", cp.asarray(big_h).sum(), big_h.astype(np.float64).sum(), rtol=1e-5)
check("CUB max int64", cp.asarray(r_h := np.random.default_rng(5).integers(-1 << 40, 1 << 40, 100003)).max(), r_h.max())

# Scans (CuPy's own kernels).
r_h = np.random.default_rng(7).integers(0, 1 << 20, 4096).astype(np.int32)
check("cumsum", cp.cumsum(cp.asarray(r_h)), np.cumsum(r_h))

print(f"{len(failures)} failed")
if failures:
    sys.exit(1)
print("PASS cupy_smoke")
