// Integer arithmetic on 32- and 64-bit values, signed and unsigned: high
// multiplies, division and remainder (negative operands too), shifts,
// min/max, bit operations and bit-counting intrinsics.  Inputs come from a
// fixed generator plus edge values; the host recomputes everything with plain
// C++ (and __int128 for the high halves).
#define CTEST_NAME "int_math"
#include "ctest.h"

#include <climits>
#include <vector>

const int kOut32 = 24;  // results per element, 32-bit
const int kOut64 = 14;  // results per element, 64-bit

__global__ void ops32(const int *a, const int *b, const unsigned *sh, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  unsigned ux = (unsigned)x, uy = (unsigned)y, s = sh[i];
  unsigned *r = out + (size_t)i * kOut32;
  r[0] = ux + uy;  // unsigned: wraps without undefined behaviour
  r[1] = ux - uy;
  r[2] = ux * uy;
  r[3] = (unsigned)__mulhi(x, y);
  r[4] = __umulhi(ux, uy);
  r[5] = (y != 0 && !(x == INT_MIN && y == -1)) ? (unsigned)(x / y) : 0u;
  r[6] = (y != 0 && !(x == INT_MIN && y == -1)) ? (unsigned)(x % y) : 0u;
  r[7] = uy != 0 ? ux / uy : 0u;
  r[8] = uy != 0 ? ux % uy : 0u;
  r[9] = ux << s;
  r[10] = ux >> s;
  r[11] = (unsigned)(x >> s);  // arithmetic shift
  r[12] = (unsigned)min(x, y);
  r[13] = (unsigned)max(x, y);
  r[14] = min(ux, uy);
  r[15] = max(ux, uy);
  r[16] = (ux & uy) ^ (~ux | (uy >> 3));
  r[17] = (unsigned)__popc(ux);
  r[18] = (unsigned)__clz(x);
  r[19] = (unsigned)__ffs(x);
  r[20] = __brev(ux);
  r[21] = (unsigned)abs(x == INT_MIN ? 0 : x);
  r[22] = __funnelshift_l(ux, uy, s);  // high word of (uy:ux) << s
  r[23] = (unsigned)(short)x * 3u + (unsigned)(signed char)(y >> 8);
}

__global__ void ops64(const long long *a, const long long *b, const unsigned *sh,
                      unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long x = a[i], y = b[i];
  unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
  unsigned s = sh[i] * 2 + 1;  // 1..63
  unsigned long long *r = out + (size_t)i * kOut64;
  r[0] = ux + uy;
  r[1] = ux - uy;
  r[2] = ux * uy;
  r[3] = (unsigned long long)__mul64hi(x, y);
  r[4] = __umul64hi(ux, uy);
  r[5] = (y != 0 && !(x == LLONG_MIN && y == -1)) ? (unsigned long long)(x / y) : 0ull;
  r[6] = (y != 0 && !(x == LLONG_MIN && y == -1)) ? (unsigned long long)(x % y) : 0ull;
  r[7] = uy != 0 ? ux / uy : 0ull;
  r[8] = uy != 0 ? ux % uy : 0ull;
  r[9] = (ux << s) ^ (ux >> s);
  r[10] = (unsigned long long)(x >> s);
  r[11] = (unsigned long long)__popcll(ux) | ((unsigned long long)__clzll(x) << 8) |
          ((unsigned long long)__ffsll(x) << 16);
  r[12] = __brevll(ux);
  r[13] = (unsigned long long)min(x, y) ^ max(ux, uy);
}

static unsigned h_brev(unsigned v) {
  unsigned r = 0;
  for (int k = 0; k < 32; k++) r |= ((v >> k) & 1u) << (31 - k);
  return r;
}
static unsigned long long h_brev64(unsigned long long v) {
  unsigned long long r = 0;
  for (int k = 0; k < 64; k++) r |= ((v >> k) & 1ull) << (63 - k);
  return r;
}
static int h_popc(unsigned long long v) {
  int c = 0;
  for (; v; v &= v - 1) c++;
  return c;
}
static int h_clz(unsigned long long v, int bits) {
  int c = 0;
  for (int k = bits - 1; k >= 0 && !((v >> k) & 1); k--) c++;
  return c;
}
static int h_ffs(unsigned long long v, int bits) {
  for (int k = 0; k < bits; k++)
    if ((v >> k) & 1) return k + 1;
  return 0;
}

int main() {
  const int n = 20000;
  std::vector<int> a(n), b(n);
  std::vector<long long> a64(n), b64(n);
  std::vector<unsigned> sh(n);
  const int edge[] = {0, 1, -1, 2, -2, 7, -7, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1, 65536, -65536};
  const long long edge64[] = {0, 1, -1, 3, -3, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1, 1ll << 32, -(1ll << 32),
                              4294967295ll};
  const int ne = sizeof(edge) / sizeof(edge[0]), ne64 = sizeof(edge64) / sizeof(edge64[0]);
  CtestRng rng(3);
  for (int i = 0; i < n; i++) {
    if (i < ne * ne) {
      a[i] = edge[i / ne];
      b[i] = edge[i % ne];
    } else {
      a[i] = (int)rng.next32();
      // Mix of full-range and small divisors.
      b[i] = (i % 3 == 0) ? (int)rng.range(-20, 20) : (int)rng.next32();
    }
    if (i < ne64 * ne64) {
      a64[i] = edge64[i / ne64];
      b64[i] = edge64[i % ne64];
    } else {
      a64[i] = (long long)rng.next64();
      b64[i] = (i % 4 == 0) ? rng.range(-1000, 1000) : (long long)(rng.next64() >> (i % 40));
    }
    sh[i] = rng.next32() % 32;
  }
  int *da, *db;
  long long *da64, *db64;
  unsigned *dsh, *dout;
  unsigned long long *dout64;
  CHECK(cudaMalloc(&da, n * sizeof(int)));
  CHECK(cudaMalloc(&db, n * sizeof(int)));
  CHECK(cudaMalloc(&da64, n * sizeof(long long)));
  CHECK(cudaMalloc(&db64, n * sizeof(long long)));
  CHECK(cudaMalloc(&dsh, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, (size_t)n * kOut32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout64, (size_t)n * kOut64 * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(da, a.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(da64, a64.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db64, b64.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dsh, sh.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  ops32<<<ceil_div(n, 256), 256>>>(da, db, dsh, dout, n);
  ops64<<<ceil_div(n, 128), 128>>>(da64, db64, dsh, dout64, n);
  CHECK_LAUNCH();
  std::vector<unsigned> out((size_t)n * kOut32);
  std::vector<unsigned long long> out64((size_t)n * kOut64);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out64.data(), dout64, out64.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; i++) {
    int x = a[i], y = b[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y, s = sh[i];
    bool sdiv_ok = y != 0 && !(x == INT_MIN && y == -1);
    unsigned w[kOut32];
    w[0] = ux + uy;
    w[1] = ux - uy;
    w[2] = ux * uy;
    w[3] = (unsigned)(((long long)x * (long long)y) >> 32);
    w[4] = (unsigned)(((unsigned long long)ux * uy) >> 32);
    w[5] = sdiv_ok ? (unsigned)(x / y) : 0u;
    w[6] = sdiv_ok ? (unsigned)(x % y) : 0u;
    w[7] = uy ? ux / uy : 0u;
    w[8] = uy ? ux % uy : 0u;
    w[9] = ux << s;
    w[10] = ux >> s;
    w[11] = (unsigned)(x >> s);
    w[12] = (unsigned)(x < y ? x : y);
    w[13] = (unsigned)(x > y ? x : y);
    w[14] = ux < uy ? ux : uy;
    w[15] = ux > uy ? ux : uy;
    w[16] = (ux & uy) ^ (~ux | (uy >> 3));
    w[17] = (unsigned)h_popc(ux);
    w[18] = (unsigned)h_clz(ux, 32);
    w[19] = (unsigned)h_ffs(ux, 32);
    w[20] = h_brev(ux);
    w[21] = x == INT_MIN ? 0u : (unsigned)(x < 0 ? -x : x);
    w[22] = (unsigned)(((((unsigned long long)uy << 32) | ux) << s) >> 32);
    w[23] = (unsigned)(short)x * 3u + (unsigned)(signed char)(y >> 8);
    for (int k = 0; k < kOut32; k++)
      EXPECT(out[(size_t)i * kOut32 + k] == w[k], "ops32 #%d (x=%d y=%d s=%u) result %d = 0x%08x, want 0x%08x",
             i, x, y, s, k, out[(size_t)i * kOut32 + k], w[k]);

    long long X = a64[i], Y = b64[i];
    unsigned long long UX = (unsigned long long)X, UY = (unsigned long long)Y;
    unsigned S = s * 2 + 1;
    bool sdiv64_ok = Y != 0 && !(X == LLONG_MIN && Y == -1);
    unsigned long long W[kOut64];
    W[0] = UX + UY;
    W[1] = UX - UY;
    W[2] = UX * UY;
    W[3] = (unsigned long long)(long long)(((__int128)X * (__int128)Y) >> 64);
    W[4] = (unsigned long long)(((unsigned __int128)UX * UY) >> 64);
    W[5] = sdiv64_ok ? (unsigned long long)(X / Y) : 0ull;
    W[6] = sdiv64_ok ? (unsigned long long)(X % Y) : 0ull;
    W[7] = UY ? UX / UY : 0ull;
    W[8] = UY ? UX % UY : 0ull;
    W[9] = (UX << S) ^ (UX >> S);
    W[10] = (unsigned long long)(X >> S);
    W[11] = (unsigned long long)h_popc(UX) | ((unsigned long long)h_clz(UX, 64) << 8) |
            ((unsigned long long)h_ffs(UX, 64) << 16);
    W[12] = h_brev64(UX);
    W[13] = (unsigned long long)(X < Y ? X : Y) ^ (UX > UY ? UX : UY);
    for (int k = 0; k < kOut64; k++)
      EXPECT(out64[(size_t)i * kOut64 + k] == W[k],
             "ops64 #%d (x=%lld y=%lld s=%u) result %d = 0x%016llx, want 0x%016llx", i, X, Y, S, k,
             out64[(size_t)i * kOut64 + k], W[k]);
  }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(da64));
  CHECK(cudaFree(db64));
  CHECK(cudaFree(dsh));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dout64));
  return ctest_finish();
}
