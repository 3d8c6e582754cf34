// sincos: y = __sinf(x) * __cosf(x), one element per thread: the fast-math intrinsics,
// which compile to sin.approx.f32 and cos.approx.f32 (as -use_fast_math makes sinf/cosf).
extern "C" __global__ void sincos_fast(int n, const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __sinf(x[i]) * __cosf(x[i]);
}
