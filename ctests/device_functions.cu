// Non-inlined __device__ functions (__noinline__), including recursion
// (factorial, fibonacci, gcd), many arguments, struct return values, and
// pointers to a caller's local array.
#define CTEST_NAME "device_functions"
#include "ctest.h"

#include <vector>

struct Pair {
  long long lo;
  int hi;
};

__device__ __noinline__ unsigned long long factorial(int n) {
  return n <= 1 ? 1ull : (unsigned long long)n * factorial(n - 1);
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned gcd(unsigned a, unsigned b) { return b == 0 ? a : gcd(b, a % b); }

__device__ __noinline__ long long mix8(int a, int b, int c, int d, long long e, int f, short g,
                                       char h) {
  return a * 1ll - b * 2ll + c * 3ll - d * 4ll + e * 5ll - f * 6ll + g * 7ll - h * 8ll;
}

__device__ __noinline__ Pair make_pair(int i) {
  Pair p;
  p.lo = (long long)i * i - 7;
  p.hi = i ^ 0x55;
  return p;
}

// Fills a caller-owned local array through a pointer and returns its sum.
__device__ __noinline__ int fill_local(int *buf, int len, int seed) {
  int s = 0;
  for (int k = 0; k < len; k++) {
    buf[k] = seed * (k + 1) % 97;
    s += buf[k];
  }
  return s;
}

__global__ void kernel(unsigned long long *fact, int *fibs, unsigned *gcds, long long *mixes,
                       Pair *pairs, int *locals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  fact[i] = factorial(i % 21);
  fibs[i] = fib(i % 16);
  gcds[i] = gcd(1000u + 37u * i, 36u * (unsigned)(i % 50 + 1));
  mixes[i] = mix8(i, i + 1, i * 3, -i, (long long)i << 33, 7 - i, (short)(i % 300), (char)(i % 100));
  pairs[i] = make_pair(i);
  int local[16];
  int s = fill_local(local, 1 + i % 16, i);
  locals[i] = s * 1000 + local[i % (1 + i % 16)];
}

static unsigned long long h_fact(int n) {
  unsigned long long r = 1;
  for (int k = 2; k <= n; k++) r *= k;
  return r;
}
static int h_fib(int n) {
  int a = 0, b = 1;
  for (int k = 0; k < n; k++) {
    int t = a + b;
    a = b;
    b = t;
  }
  return a;
}
static unsigned h_gcd(unsigned a, unsigned b) {
  while (b) {
    unsigned t = a % b;
    a = b;
    b = t;
  }
  return a;
}

int main() {
  const int n = 1000;
  unsigned long long *dfact;
  int *dfib, *dloc;
  unsigned *dgcd;
  long long *dmix;
  Pair *dpair;
  CHECK(cudaMalloc(&dfact, n * sizeof(*dfact)));
  CHECK(cudaMalloc(&dfib, n * sizeof(*dfib)));
  CHECK(cudaMalloc(&dgcd, n * sizeof(*dgcd)));
  CHECK(cudaMalloc(&dmix, n * sizeof(*dmix)));
  CHECK(cudaMalloc(&dpair, n * sizeof(*dpair)));
  CHECK(cudaMalloc(&dloc, n * sizeof(*dloc)));
  kernel<<<ceil_div(n, 128), 128>>>(dfact, dfib, dgcd, dmix, dpair, dloc, n);
  CHECK_LAUNCH();
  std::vector<unsigned long long> fact(n);
  std::vector<int> fibs(n), locs(n);
  std::vector<unsigned> gcds(n);
  std::vector<long long> mixes(n);
  std::vector<Pair> pairs(n);
  CHECK(cudaMemcpy(fact.data(), dfact, n * sizeof(*dfact), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(fibs.data(), dfib, n * sizeof(*dfib), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gcds.data(), dgcd, n * sizeof(*dgcd), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(mixes.data(), dmix, n * sizeof(*dmix), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(pairs.data(), dpair, n * sizeof(*dpair), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(locs.data(), dloc, n * sizeof(*dloc), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    EXPECT(fact[i] == h_fact(i % 21), "factorial(%d) = %llu", i % 21, fact[i]);
    EXPECT(fibs[i] == h_fib(i % 16), "fib(%d) = %d", i % 16, fibs[i]);
    unsigned g = h_gcd(1000u + 37u * i, 36u * (unsigned)(i % 50 + 1));
    EXPECT(gcds[i] == g, "gcd #%d = %u, want %u", i, gcds[i], g);
    long long e = (long long)i << 33;
    long long m = i * 1ll - (i + 1) * 2ll + (i * 3) * 3ll - (-i) * 4ll + e * 5ll - (7 - i) * 6ll +
                  (short)(i % 300) * 7ll - (char)(i % 100) * 8ll;
    EXPECT(mixes[i] == m, "mix8 #%d = %lld, want %lld", i, mixes[i], m);
    EXPECT(pairs[i].lo == (long long)i * i - 7 && pairs[i].hi == (i ^ 0x55),
           "make_pair(%d) = {%lld, %d}", i, pairs[i].lo, pairs[i].hi);
    int len = 1 + i % 16, s = 0, local[16];
    for (int k = 0; k < len; k++) {
      local[k] = i * (k + 1) % 97;
      s += local[k];
    }
    int want = s * 1000 + local[i % len];
    EXPECT(locs[i] == want, "fill_local #%d = %d, want %d", i, locs[i], want);
  }
  CHECK(cudaFree(dfact));
  CHECK(cudaFree(dfib));
  CHECK(cudaFree(dgcd));
  CHECK(cudaFree(dmix));
  CHECK(cudaFree(dpair));
  CHECK(cudaFree(dloc));
  return ctest_finish();
}
