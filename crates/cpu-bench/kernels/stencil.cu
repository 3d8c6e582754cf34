// One Jacobi step of the 5-point Laplace stencil on a w x h grid (borders copied).
// The OpenCL twin is stencil.cl.
extern "C" __global__ void stencil5(int w, int h, const float* __restrict__ in, float* __restrict__ out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[i] = in[i];
    } else {
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
    }
}
