__global__ void m(float* o, const float* a, double* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  o[i] = sinf(x) + cosf(x) * expf(x) - logf(fabsf(x) + 1.f) + powf(x, 1.5f) + tanhf(x) + atan2f(x, 2.f) + erff(x) + __expf(x) + rsqrtf(x+2.f) + cbrtf(x);
  double y = d[i];
  d[i] = sin(y) + exp(y) + log1p(fabs(y)) + pow(y, 2.5) + sqrt(fabs(y)) + floor(y) + fmod(y, 3.0);
}
__global__ void at(int* c, unsigned* u, float* f, unsigned long long* l, double* dd) {
  atomicAdd(c, 1); atomicMax(c+1, threadIdx.x); atomicInc(u, 17); atomicDec(u+1, 5); atomicCAS(c+2, 0, 5);
  atomicAdd(f, 1.5f); atomicAdd(l, 3ull); atomicExch(c+3, 7); atomicAnd(c+4, 3); atomicOr(c+5, 8); atomicXor(c+6, 1);
  atomicAdd(dd, 2.0);
  __threadfence();
}
__device__ int fib(int n) { return n < 2 ? n : fib(n-1) + fib(n-2); }
__global__ void w(int* o, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = fib(t % 10);
  __syncthreads();
  int v = s[(t + 1) % blockDim.x];
  unsigned b = __ballot_sync(0xffffffff, v & 1);
  v += __shfl_down_sync(0xffffffff, v, 1);
  printf("t=%d v=%d b=%x %f\n", t, v, b, 1.5);
  o[t] = v + __popc(b) + __clzll((long long)v) + __ffs(v) + __brev(v) + __byte_perm(v, t, 0x5410) + __umulhi(v, t) + __sad(v, t, 1);
}
