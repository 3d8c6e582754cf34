// expf: y = __expf(x), one element per thread: the fast-math intrinsic, which compiles to
// ex2.approx.ftz.f32 of x * log2(e) (as -use_fast_math makes expf).
extern "C" __global__ void expf_fast(int n, const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __expf(x[i]);
}
