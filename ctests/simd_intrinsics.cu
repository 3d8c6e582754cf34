// CUDA's SIMD intrinsics on packed half-words and bytes (__vadd2, __vabsdiffs4,
// __vsadu2, ...), which nvcc lowers partly to PTX video instructions (vabsdiff4,
// vabsdiff2.add, ...) and partly to packed integer arithmetic (add.u16x2).  The host
// recomputes each result lane by lane from the intrinsic's definition in the CUDA
// Math API ("SIMD Intrinsics").
#define CTEST_NAME "simd_intrinsics"
#include "ctest.h"

#include <vector>

const int kOut = 20;  // results per element

__global__ void simd(const unsigned *a, const unsigned *b, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned *r = out + (size_t)i * kOut;
  r[0] = __vadd2(x, y);
  r[1] = __vadd4(x, y);
  r[2] = __vsub2(x, y);
  r[3] = __vabsdiffs4(x, y);
  r[4] = __vabsdiffu4(x, y);
  r[5] = __vabsdiffs2(x, y);
  r[6] = __vabsdiffu2(x, y);
  r[7] = __vaddss4(x, y);
  r[8] = __vaddus2(x, y);
  r[9] = __vsubus2(x, y);
  r[10] = __vavgu4(x, y);
  r[11] = __vhaddu2(x, y);
  r[12] = __vmaxs2(x, y);
  r[13] = __vminu4(x, y);
  r[14] = __vcmpgts4(x, y);
  r[15] = __vseteq4(x, y);
  r[16] = __vsetgeu2(x, y);
  r[17] = __vsadu2(x, y);
  r[18] = __vsads4(x, y);
  r[19] = __vsadu4(x, y);
}

// Lane k (width w bits) of v, signed or unsigned.
static long long lane(unsigned v, int k, int w, bool s) {
  unsigned long long m = (1ull << w) - 1, u = (v >> (k * w)) & m;
  return s && (u >> (w - 1)) ? (long long)u - (1ll << w) : (long long)u;
}

template <class F>
static unsigned lanes(unsigned x, unsigned y, int w, bool s, F f) {
  unsigned r = 0;
  for (int k = 0; k < 32 / w; k++) {
    long long v = f(lane(x, k, w, s), lane(y, k, w, s));
    r |= (unsigned)((unsigned long long)v & ((1ull << w) - 1)) << (k * w);
  }
  return r;
}

static long long clampll(long long v, long long lo, long long hi) { return v < lo ? lo : v > hi ? hi : v; }
static long long absll(long long v) { return v < 0 ? -v : v; }

static unsigned sad(unsigned x, unsigned y, int w, bool s) {
  unsigned r = 0;
  for (int k = 0; k < 32 / w; k++) r += (unsigned)absll(lane(x, k, w, s) - lane(y, k, w, s));
  return r;
}

int main() {
  const int n = 30000;
  std::vector<unsigned> a(n), b(n);
  const unsigned char edge[] = {0, 1, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x40};
  CtestRng rng(11);
  for (int i = 0; i < n; i++) {
    if (i < n / 2) {
      unsigned x = 0, y = 0;
      for (int k = 0; k < 4; k++) {
        x |= (unsigned)edge[rng.next32() % 8] << (8 * k);
        y |= (unsigned)edge[rng.next32() % 8] << (8 * k);
      }
      a[i] = x;
      b[i] = y;
    } else {
      a[i] = rng.next32();
      b[i] = rng.next32();
    }
  }
  unsigned *da, *db, *dout;
  CHECK(cudaMalloc(&da, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&db, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, (size_t)n * kOut * sizeof(unsigned)));
  CHECK(cudaMemcpy(da, a.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  simd<<<ceil_div(n, 256), 256>>>(da, db, dout, n);
  CHECK_LAUNCH();
  std::vector<unsigned> out((size_t)n * kOut);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; i++) {
    unsigned x = a[i], y = b[i], w[kOut];
    w[0] = lanes(x, y, 16, false, [](long long p, long long q) { return p + q; });
    w[1] = lanes(x, y, 8, false, [](long long p, long long q) { return p + q; });
    w[2] = lanes(x, y, 16, false, [](long long p, long long q) { return p - q; });
    w[3] = lanes(x, y, 8, true, [](long long p, long long q) { return absll(p - q); });
    w[4] = lanes(x, y, 8, false, [](long long p, long long q) { return absll(p - q); });
    w[5] = lanes(x, y, 16, true, [](long long p, long long q) { return absll(p - q); });
    w[6] = lanes(x, y, 16, false, [](long long p, long long q) { return absll(p - q); });
    w[7] = lanes(x, y, 8, true, [](long long p, long long q) { return clampll(p + q, -128, 127); });
    w[8] = lanes(x, y, 16, false, [](long long p, long long q) { return clampll(p + q, 0, 65535); });
    w[9] = lanes(x, y, 16, false, [](long long p, long long q) { return clampll(p - q, 0, 65535); });
    w[10] = lanes(x, y, 8, false, [](long long p, long long q) { return (p + q + 1) >> 1; });
    w[11] = lanes(x, y, 16, false, [](long long p, long long q) { return (p + q) >> 1; });
    w[12] = lanes(x, y, 16, true, [](long long p, long long q) { return p > q ? p : q; });
    w[13] = lanes(x, y, 8, false, [](long long p, long long q) { return p < q ? p : q; });
    w[14] = lanes(x, y, 8, true, [](long long p, long long q) { return p > q ? 0xffll : 0ll; });
    w[15] = lanes(x, y, 8, false, [](long long p, long long q) { return (long long)(p == q); });
    w[16] = lanes(x, y, 16, false, [](long long p, long long q) { return (long long)(p >= q); });
    w[17] = sad(x, y, 16, false);
    w[18] = sad(x, y, 8, true);
    w[19] = sad(x, y, 8, false);
    for (int k = 0; k < kOut; k++)
      EXPECT(out[(size_t)i * kOut + k] == w[k], "#%d (a=0x%08x b=0x%08x) result %d = 0x%08x, want 0x%08x", i, x, y,
             k, out[(size_t)i * kOut + k], w[k]);
  }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dout));
  return ctest_finish();
}
