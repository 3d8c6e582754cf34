// Source of grid_stride.ptx: nvcc -arch=sm_80 -ptx grid_stride.cu (CUDA 13).
// Grid-stride kernels (their loop heads become lockstep heads of the barrier-region
// split) for tests/interleave.rs. Integer arithmetic only, so that every schedule
// gives the same bits.

// Per-block sum through a shared-memory tree (any n: uneven trip counts).
extern "C" __global__ void sum_tree(const unsigned* in, unsigned* out, unsigned n)
{
    __shared__ unsigned s[256];
    unsigned tid = threadIdx.x;
    unsigned acc = 0;
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        acc += in[i] * (i % 13 + 1);
    s[tid] = acc;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

// Per-block sum through warp shuffles and one shared slot per warp.
extern "C" __global__ void sum_shuffle(const unsigned* in, unsigned* out, unsigned n)
{
    __shared__ unsigned warp_sums[32];
    unsigned tid = threadIdx.x;
    unsigned acc = 0;
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        acc ^= in[i] + i;
    for (int offset = 16; offset > 0; offset >>= 1)
        acc ^= __shfl_down_sync(0xffffffffu, acc, offset);
    if ((tid & 31) == 0) warp_sums[tid >> 5] = acc;
    __syncthreads();
    if (tid < 32) {
        acc = tid < blockDim.x / 32 ? warp_sums[tid] : 0;
        for (int offset = 16; offset > 0; offset >>= 1)
            acc ^= __shfl_down_sync(0xffffffffu, acc, offset);
        if (tid == 0) out[blockIdx.x] = acc;
    }
}

// Threads with tid % 5 == 3 exit at once; the others run the grid-stride loop with a
// per-thread trip limit, then meet the exited ones at a barrier (exited threads count
// as arrived) and read a neighbour's value from shared memory.
extern "C" __global__ void exits_then_barrier(const unsigned* in, unsigned* out, unsigned n)
{
    __shared__ unsigned s[256];
    unsigned tid = threadIdx.x;
    s[tid] = 0xdead;
    if (tid % 5 == 3) return;
    unsigned acc = blockIdx.x;
    unsigned trips = 0;
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < n && trips < tid % 7 + 2; i += gridDim.x * blockDim.x) {
        acc = acc * 31 + in[i];
        trips++;
    }
    s[tid] = acc;
    __syncthreads();
    unsigned next = (tid + 1) % blockDim.x;
    out[blockIdx.x * blockDim.x + tid] = acc + 3 * s[next];
}

// A block-uniform grid-stride loop over tiles with barriers and a warp reduction inside:
// each tile is staged in shared memory, summed per warp with __shfl_xor_sync, and
// thread 0 folds the warp sums into the block's running value.
extern "C" __global__ void tiles(const unsigned* in, unsigned* out, unsigned n)
{
    __shared__ unsigned tile[256];
    __shared__ unsigned warp_sums[8];
    unsigned tid = threadIdx.x;
    unsigned running = 0;
    for (unsigned base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        unsigned i = base + tid;
        tile[tid] = i < n ? in[i] : 0;
        __syncthreads();
        unsigned v = tile[blockDim.x - 1 - tid];
        for (int m = 16; m > 0; m >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, m);
        if ((tid & 31) == 0) warp_sums[tid >> 5] = v;
        __syncthreads();
        if (tid == 0) {
            unsigned t = 0;
            for (unsigned w = 0; w < blockDim.x / 32; w++) t += warp_sums[w];
            running = running * 7 + t;
        }
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = running;
}

// A grid-stride loop that traps in block `bad` at its third element: the launch fails.
extern "C" __global__ void trap_in_block(const unsigned* in, unsigned* out, unsigned n, unsigned bad)
{
    __shared__ unsigned s[256];
    unsigned acc = 0;
    unsigned k = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        if (blockIdx.x == bad && k == 2) __trap();
        acc += in[i];
        k++;
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
