// Block barriers on real hardware: __syncthreads_count/and/or with exited threads, and a
// warp-0-only scan with __syncwarp between two __syncthreads (CuPy's scan pattern).
#include <cstdio>
__global__ void red(int* out) {
  int t = threadIdx.x;
  if (t >= 200) return;
  int c = __syncthreads_count(t % 3 == 0);
  int a = __syncthreads_and(t < 200);
  int o = __syncthreads_or(t < 150);
  int a2 = __syncthreads_and(t < 150);
  out[4 * t] = c; out[4 * t + 1] = a; out[4 * t + 2] = o; out[4 * t + 3] = a2;
}
__global__ void scan(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  __syncthreads();
  if (t < 32) {
    int x = t % 7 + 1;
    s[lane] = x;
    for (int j = 1; j < 32; j *= 2) {
      __syncwarp();
      if (lane >= j) x += s[lane - j];
      __syncwarp();
      s[lane] = x;
    }
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[lane];
}
int main() {
  int *d, h[4 * 256];
  cudaMalloc(&d, sizeof(h));
  red<<<2, 256>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int popc = 0; for (int t = 0; t < 200; t++) popc += t % 3 == 0;
  int bad = 0;
  for (int t = 0; t < 200; t++) bad += h[4*t] != popc || h[4*t+1] != 1 || h[4*t+2] != 1 || h[4*t+3] != 0;
  printf("bar.red: thread0 = %d %d %d %d (expect %d 1 1 0), %d bad\n", h[0], h[1], h[2], h[3], popc, bad);
  int *d2, h2[3 * 512];
  cudaMalloc(&d2, sizeof(h2));
  scan<<<3, 512>>>(d2);
  cudaMemcpy(h2, d2, sizeof(h2), cudaMemcpyDeviceToHost);
  int pre[32], acc = 0; for (int i = 0; i < 32; i++) { acc += i % 7 + 1; pre[i] = acc; }
  int bad2 = 0; for (int i = 0; i < 3 * 512; i++) bad2 += h2[i] != pre[i % 32];
  printf("warp scan between barriers: %d bad\n", bad2);
  return bad || bad2;
}
