// cuda_fp6.h / cuda_fp4.h in a plain C++17 host program (g++, no CUDA compiler): the classes'
// layout, constructors (float, double, integers, x2 and x4 vectors) and operators (float,
// double, integers, bool, float2, float4) against the tables of
// ctests/fp6_fp4_conversions_expected.inc (ctests/tools/gen_fp6_fp4_tables.py). The
// conversion functions in every rounding mode are checked by fp6_fp4_c.c; the __half and
// __nv_bfloat16 members need a CUDA compiler (ctests/fp6_fp4_conversions.cu). Prints
// "PASS fp6_fp4_host". Built and run by scripts/run-libtests.sh.
#include <cuda_fp4.h>
#include <cuda_fp6.h>

#include <cstdio>
#include <cstring>
#include <type_traits>

#include "../fp6_fp4_conversions_expected.inc"

static_assert(sizeof(__nv_fp6_e2m3) == 1 && alignof(__nv_fp6_e2m3) == 1, "layout");
static_assert(sizeof(__nv_fp6x2_e3m2) == 2 && alignof(__nv_fp6x2_e3m2) == 2, "layout");
static_assert(sizeof(__nv_fp6x4_e2m3) == 4 && alignof(__nv_fp6x4_e2m3) == 4, "layout");
static_assert(sizeof(__nv_fp4_e2m1) == 1 && alignof(__nv_fp4_e2m1) == 1, "layout");
static_assert(sizeof(__nv_fp4x2_e2m1) == 1 && alignof(__nv_fp4x2_e2m1) == 1, "layout");
static_assert(sizeof(__nv_fp4x4_e2m1) == 2 && alignof(__nv_fp4x4_e2m1) == 2, "layout");
static_assert(std::is_same<__nv_fp6x4_storage_t, unsigned int>::value &&
                  std::is_same<__nv_fp4x2_storage_t, unsigned char>::value &&
                  std::is_same<__nv_fp4x4_storage_t, unsigned short>::value,
              "storage types");
static_assert(std::is_trivial<__nv_fp6_e3m2>::value && std::is_trivial<__nv_fp6x4_e3m2>::value &&
                  std::is_trivial<__nv_fp4x4_e2m1>::value,
              "trivial");
static_assert(__NV_E2M3 == 0 && __NV_E3M2 == 1 && __NV_E2M1 == 0, "enum values");
static_assert(!std::is_convertible<float, __nv_fp6_e2m3>::value && !std::is_convertible<__nv_fp4_e2m1, float>::value,
              "constructors and operators are explicit");

static int failures = 0;
#define EXPECT(cond, ...)                 \
  do {                                    \
    if (!(cond)) {                        \
      if (failures++ < 20) {              \
        printf("mismatch: " __VA_ARGS__); \
        printf("\n");                     \
      }                                   \
    }                                     \
  } while (0)
#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

static unsigned fbits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}
static unsigned rn(const unsigned (&row)[3], int f) { return row[f] & 0xff; }

// The scalar classes of value x against a table row (round to nearest).
template <class X, class Row>
static void scalars(const char *what, int i, X x, const Row &row) {
  unsigned got = __nv_fp6_e2m3(x).__x | __nv_fp6_e3m2(x).__x << 8 | __nv_fp4_e2m1(x).__x << 16;
  unsigned want = rn(row, 0) | rn(row, 1) << 8 | rn(row, 2) << 16;
  EXPECT(got == want, "%s[%d] classes: got %06x want %06x", what, i, got, want);
}

template <class T>
static void operators(int f, int c) {
  T v;
  v.__x = (unsigned char)c;
  float x = float(v);
  EXPECT(fbits(x) == kToFloat[f][c], "format %d %02x -> float: got %08x", f, c, fbits(x));
  EXPECT(double(v) == (double)x, "format %d %02x -> double", f, c);
  EXPECT(int(v) == kToInt[f][c] && long(v) == kToInt[f][c] && (long long)v == kToInt[f][c] && short(v) == kToInt[f][c],
         "format %d %02x -> int", f, c);
  EXPECT((unsigned char)v == kToUChar[f][c] && (unsigned)v == (unsigned)kToUChar[f][c] &&
             (unsigned long long)v == (unsigned long long)kToUChar[f][c],
         "format %d %02x -> unsigned", f, c);
  EXPECT((signed char)v == kToSChar[f][c], "format %d %02x -> signed char", f, c);
  EXPECT(bool(v) == ((kToFloat[f][c] & 0x7fffffffu) != 0), "format %d %02x -> bool", f, c);
}

int main() {
  for (int i = 0; i < COUNT(kF32In); i++) {
    int j = (i + 1) % COUNT(kF32In);
    float x, y;
    memcpy(&x, &kF32In[i], 4);
    memcpy(&y, &kF32In[j], 4);
    scalars("float", i, x, kF32Out[i]);
    float2 xy = {x, y};
    float4 q = {x, y, y, x};
    unsigned a = rn(kF32Out[i], 0), aj = rn(kF32Out[j], 0), b = rn(kF32Out[i], 1), bj = rn(kF32Out[j], 1);
    unsigned e = rn(kF32Out[i], 2), ej = rn(kF32Out[j], 2);
    EXPECT(__nv_fp6x2_e2m3(xy).__x == (a | aj << 8), "float2 e2m3 %d", i);
    EXPECT(__nv_fp6x2_e3m2(xy).__x == (b | bj << 8), "float2 e3m2 %d", i);
    EXPECT(__nv_fp4x2_e2m1(xy).__x == (e | ej << 4), "float2 e2m1 %d", i);
    EXPECT(__nv_fp6x4_e2m3(q).__x == (a | aj << 8 | aj << 16 | a << 24), "float4 e2m3 %d", i);
    EXPECT(__nv_fp6x4_e3m2(q).__x == (b | bj << 8 | bj << 16 | b << 24), "float4 e3m2 %d", i);
    EXPECT(__nv_fp4x4_e2m1(q).__x == (e | ej << 4 | ej << 8 | e << 12), "float4 e2m1 %d", i);
  }
  for (int i = 0; i < COUNT(kF64In); i++) {
    int j = (i + 1) % COUNT(kF64In);
    double x, y;
    memcpy(&x, &kF64In[i], 8);
    memcpy(&y, &kF64In[j], 8);
    scalars("double", i, x, kF64Out[i]);
    double2 xy = {x, y};
    double4_16a q16 = {y, x, x, y};
    double4_32a q32 = {x, y, x, y};
    unsigned a = rn(kF64Out[i], 0), aj = rn(kF64Out[j], 0), b = rn(kF64Out[i], 1), bj = rn(kF64Out[j], 1);
    unsigned e = rn(kF64Out[i], 2), ej = rn(kF64Out[j], 2);
    EXPECT(__nv_fp6x2_e3m2(xy).__x == (b | bj << 8) && __nv_fp4x2_e2m1(xy).__x == (e | ej << 4), "double2 %d", i);
    EXPECT(__nv_fp6x4_e2m3(q16).__x == (aj | a << 8 | a << 16 | aj << 24), "double4_16a e2m3 %d", i);
    EXPECT(__nv_fp4x4_e2m1(q32).__x == (e | ej << 4 | e << 8 | ej << 12), "double4_32a e2m1 %d", i);
  }
  for (int f = 0; f < 3; f++) {
    for (int c = 0; c < 256; c++) {
      if (f == 0) operators<__nv_fp6_e2m3>(f, c);
      if (f == 1) operators<__nv_fp6_e3m2>(f, c);
      if (f == 2) operators<__nv_fp4_e2m1>(f, c);
    }
  }
  for (int c = 0; c < 256; c++) {
    __nv_fp6x2_e3m2 v2;
    v2.__x = (unsigned short)(c | (255 - c) << 8);
    float2 w = float2(v2);
    EXPECT(fbits(w.x) == kToFloat[1][c] && fbits(w.y) == kToFloat[1][255 - c], "fp6x2 %02x -> float2", c);
    __nv_fp4x2_e2m1 u2;
    u2.__x = (unsigned char)c;
    w = float2(u2);
    EXPECT(fbits(w.x) == kToFloat[2][c & 15] && fbits(w.y) == kToFloat[2][c >> 4], "fp4x2 %02x -> float2", c);
    __nv_fp6x4_e2m3 v4;
    v4.__x = (unsigned)c | (unsigned)(255 - c) << 8 | (unsigned)(c ^ 0x5a) << 16 | (unsigned)(c ^ 0xa5) << 24;
    float4 z = float4(v4);
    EXPECT(fbits(z.x) == kToFloat[0][c] && fbits(z.y) == kToFloat[0][255 - c] && fbits(z.z) == kToFloat[0][c ^ 0x5a] &&
               fbits(z.w) == kToFloat[0][c ^ 0xa5],
           "fp6x4 %02x -> float4", c);
    __nv_fp4x4_e2m1 u4;
    u4.__x = (unsigned short)(c | (255 - c) << 8);
    z = float4(u4);
    EXPECT(fbits(z.x) == kToFloat[2][c & 15] && fbits(z.y) == kToFloat[2][c >> 4] &&
               fbits(z.z) == kToFloat[2][(255 - c) & 15] && fbits(z.w) == kToFloat[2][(255 - c) >> 4],
           "fp4x4 %02x -> float4", c);
  }
  for (int i = 0; i < COUNT(kIntIn); i++) {
    int v = kIntIn[i];
    unsigned want = kIntOut[i][0] | kIntOut[i][1] << 8 | kIntOut[i][2] << 16;
    unsigned got = __nv_fp6_e2m3(v).__x | __nv_fp6_e3m2(v).__x << 8 | __nv_fp4_e2m1(v).__x << 16;
    unsigned got_ll = __nv_fp6_e2m3((long long)v).__x | __nv_fp6_e3m2((long)v).__x << 8 | __nv_fp4_e2m1((short)v).__x << 16;
    EXPECT(got == want, "int %d: got %06x want %06x", v, got, want);
    if (v >= -32768 && v <= 32767) EXPECT(got_ll == want, "long long/long/short %d: got %06x want %06x", v, got_ll, want);
    if (v >= 0) {
      unsigned got_u = __nv_fp6_e2m3((unsigned)v).__x | __nv_fp6_e3m2((unsigned long long)v).__x << 8 |
                       __nv_fp4_e2m1((unsigned long)v).__x << 16;
      EXPECT(got_u == want, "unsigned %d: got %06x want %06x", v, got_u, want);
    }
  }
  if (failures) {
    printf("FAIL fp6_fp4_host: %d mismatches\n", failures);
    return 1;
  }
  printf("PASS fp6_fp4_host\n");
  return 0;
}
