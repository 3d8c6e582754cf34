// Source of ../reduce_shared.ptx (nvcc -ptx -arch=sm_80).
extern __shared__ float dyn[];

__global__ void __launch_bounds__(256, 2) reduce(const float* in, float* out, int n) {
    __shared__ float tile[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    tile[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (t < s) tile[t] += tile[t + s];
        __syncthreads();
    }
    float v = tile[t];
    if (t < 32) {
        #pragma unroll 1
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    }
    if (t == 0) atomicAdd(out, v);
}

__global__ void scan_dyn(int* data) {
    int t = threadIdx.x;
    dyn[t] = (float)data[t];
    __syncthreads();
    unsigned m = __ballot_sync(0xffffffffu, dyn[t] > 0.0f);
    data[t] = __popc(m) + __any_sync(0xffffffffu, t == 3);
}
