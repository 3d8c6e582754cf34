// One link of the graph-replay chain: every element of a small buffer gains 1.
extern "C" __global__ void add_one(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
