// Sorts each block's SORT_N floats in shared memory with a bitonic network: SORT_N / 2
// threads, each doing one compare-exchange per step, a __syncthreads() between steps
// (55 barriers for 1024 elements).
#define SORT_N 1024

extern "C" __global__ void bitonic_sort_shared(float* data)
{
    __shared__ float s[SORT_N];
    float* d = data + (size_t)blockIdx.x * SORT_N;
    unsigned t = threadIdx.x;
    s[t] = d[t];
    s[t + SORT_N / 2] = d[t + SORT_N / 2];
    for (unsigned size = 2; size <= SORT_N; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned lo = 2 * t - (t & (stride - 1));
            unsigned hi = lo + stride;
            bool ascending = (lo & size) == 0;
            float a = s[lo], b = s[hi];
            if ((a > b) == ascending) {
                s[lo] = b;
                s[hi] = a;
            }
        }
    }
    __syncthreads();
    d[t] = s[t];
    d[t + SORT_N / 2] = s[t + SORT_N / 2];
}
