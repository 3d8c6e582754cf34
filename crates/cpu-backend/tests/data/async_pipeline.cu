// Source of async_pipeline.ptx: nvcc -arch=sm_80 -ptx async_pipeline.cu (CUDA 13.0).
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>

// Stage global -> shared with __pipeline_memcpy_async, then scale.
extern "C" __global__ void pipeline_scale(const float* in, float* out, int n) {
    __shared__ alignas(16) float s[256];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    __pipeline_memcpy_async(&s[t], &in[base + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[base + t] = 2.0f * s[(t + 1) % blockDim.x];
}

// cuda::barrier with cuda::memcpy_async, several phases.
extern "C" __global__ void barrier_rounds(const int* in, int* out, int rounds) {
    __shared__ alignas(16) int s[128];
    #pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cooperative_groups::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    int t = threadIdx.x;
    int acc = 0;
    for (int r = 0; r < rounds; ++r) {
        cuda::memcpy_async(&s[t], &in[r * blockDim.x + t], sizeof(int), bar);
        bar.arrive_and_wait();
        acc += s[(t + r) % blockDim.x];
        bar.arrive_and_wait();
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}
