// A template-heavy CUDA source whose PTX is the compile-speed benchmark's input:
// elementwise maps, block reductions and scans instantiated over types, operations and
// block sizes, so the module has hundreds of kernels and tens of thousands of lines.
#include <cstdint>

struct Add { template <class T> __device__ T operator()(T a, T b) const { return a + b; } };
struct Mul { template <class T> __device__ T operator()(T a, T b) const { return a * b; } };
struct Max { template <class T> __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
struct Min { template <class T> __device__ T operator()(T a, T b) const { return a < b ? a : b; } };

struct Sin { __device__ float operator()(float x) const { return sinf(x) * cosf(x * 0.5f); } };
struct Exp { __device__ float operator()(float x) const { return expf(-x * x) + logf(1.0f + fabsf(x)); } };
struct Pow { __device__ float operator()(float x) const { return powf(fabsf(x) + 1.0f, 1.7f); } };
struct Poly { __device__ float operator()(float x) const { return ((x * 3.0f + 2.0f) * x - 1.0f) * x; } };

template <class T, class Op>
__global__ void map2(const T *a, const T *b, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += gridDim.x * blockDim.x) out[i] = Op()(a[i], b[i]);
}

template <class F>
__global__ void unary(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = F()(a[i]);
}

template <class T, class Op, int BLOCK>
__global__ void reduce(const T *in, T *out, int n, T init) {
  __shared__ T s[BLOCK];
  int t = threadIdx.x;
  T acc = init;
  for (int i = blockIdx.x * BLOCK + t; i < n; i += gridDim.x * BLOCK) acc = Op()(acc, in[i]);
  s[t] = acc;
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (t < k) s[t] = Op()(s[t], s[t + k]);
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

template <class T, int BLOCK>
__global__ void scan(const T *in, T *out, int n) {
  __shared__ T s[2 * BLOCK];
  int t = threadIdx.x, base = blockIdx.x * BLOCK;
  s[t] = base + t < n ? in[base + t] : T(0);
  __syncthreads();
  int pin = 0;
  for (int off = 1; off < BLOCK; off <<= 1) {
    int pout = 1 - pin;
    s[pout * BLOCK + t] = t >= off ? s[pin * BLOCK + t] + s[pin * BLOCK + t - off] : s[pin * BLOCK + t];
    __syncthreads();
    pin = pout;
  }
  if (base + t < n) out[base + t] = s[pin * BLOCK + t];
}

template <class T>
__global__ void stencil(const T *in, T *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= w - 1 || y >= h - 1) return;
  T c = in[y * w + x];
  out[y * w + x] = (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]) - T(4) * c;
}

#define MAPS(T) \
  template __global__ void map2<T, Add>(const T *, const T *, T *, int); \
  template __global__ void map2<T, Mul>(const T *, const T *, T *, int); \
  template __global__ void map2<T, Max>(const T *, const T *, T *, int); \
  template __global__ void map2<T, Min>(const T *, const T *, T *, int);
#define REDS(T, B) \
  template __global__ void reduce<T, Add, B>(const T *, T *, int, T); \
  template __global__ void reduce<T, Mul, B>(const T *, T *, int, T); \
  template __global__ void reduce<T, Max, B>(const T *, T *, int, T); \
  template __global__ void reduce<T, Min, B>(const T *, T *, int, T);
#define ALL(T) MAPS(T) REDS(T, 64) REDS(T, 128) REDS(T, 256) REDS(T, 512) REDS(T, 1024) \
  template __global__ void scan<T, 128>(const T *, T *, int); \
  template __global__ void scan<T, 256>(const T *, T *, int); \
  template __global__ void scan<T, 1024>(const T *, T *, int); \
  template __global__ void stencil<T>(const T *, T *, int, int);

ALL(int) ALL(unsigned) ALL(long long) ALL(unsigned long long) ALL(float) ALL(double) ALL(short) ALL(char)
template __global__ void unary<Sin>(const float *, float *, int);
template __global__ void unary<Exp>(const float *, float *, int);
template __global__ void unary<Pow>(const float *, float *, int);
template __global__ void unary<Poly>(const float *, float *, int);
