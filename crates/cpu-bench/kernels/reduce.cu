// Sum of n floats in two launches: a grid-stride pass in which each block writes one
// partial sum, then one block that sums the partials. Two block-level reductions:
//  - reduce_shared: a shared-memory tree with __syncthreads() after every step;
//  - reduce_shuffle: __shfl_down_sync within each warp, one shared-memory slot per warp.
#define BLOCK 256

extern "C" __global__ void reduce_shared(const float* __restrict__ in, float* __restrict__ out, unsigned n)
{
    __shared__ float s[BLOCK];
    unsigned tid = threadIdx.x;
    float acc = 0.0f;
    for (unsigned i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK)
        acc += in[i];
    s[tid] = acc;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

extern "C" __global__ void reduce_shuffle(const float* __restrict__ in, float* __restrict__ out, unsigned n)
{
    __shared__ float warp_sums[BLOCK / 32];
    unsigned tid = threadIdx.x;
    float acc = 0.0f;
    for (unsigned i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK)
        acc += in[i];
    acc = warp_sum(acc);
    if ((tid & 31) == 0) warp_sums[tid >> 5] = acc;
    __syncthreads();
    if (tid < 32) {
        acc = tid < BLOCK / 32 ? warp_sums[tid] : 0.0f;
        acc = warp_sum(acc);
        if (tid == 0) out[blockIdx.x] = acc;
    }
}
