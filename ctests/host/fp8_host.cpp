// cuda_fp8.h in a plain C++17 host program (g++, no CUDA compiler): the conversion
// functions and the classes' float/double/integer members against the tables of
// ctests/fp8_conversions_expected.inc (ctests/tools/gen_fp8_tables.py). The __half and
// __nv_bfloat16 members need a CUDA compiler and are not declared here; the raw-struct
// functions are. Prints "PASS fp8_host". Built and run by scripts/run-libtests.sh.
#include <cuda_fp8.h>

#include <cstdio>
#include <cstring>
#include <type_traits>

#include "../fp8_conversions_expected.inc"

static_assert(sizeof(__nv_fp8_e4m3) == 1 && alignof(__nv_fp8_e4m3) == 1, "layout");
static_assert(sizeof(__nv_fp8x2_e5m2) == 2 && alignof(__nv_fp8x2_e5m2) == 2, "layout");
static_assert(sizeof(__nv_fp8x4_e4m3) == 4 && alignof(__nv_fp8x4_e4m3) == 4, "layout");
static_assert(std::is_trivial<__nv_fp8_e5m2>::value && std::is_trivial<__nv_fp8x4_e5m2>::value, "trivial");
static_assert(__NV_NOSAT == 0 && __NV_SATFINITE == 1 && __NV_E4M3 == 0 && __NV_E5M2 == 1, "enum values");
static_assert(!std::is_convertible<float, __nv_fp8_e4m3>::value, "constructors are explicit");

static int failures = 0;
#define EXPECT(cond, ...)                   \
  do {                                      \
    if (!(cond)) {                          \
      if (failures++ < 20) {                \
        printf("mismatch: " __VA_ARGS__);   \
        printf("\n");                       \
      }                                     \
    }                                       \
  } while (0)
#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

static unsigned all4_float(float x) {
  return __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3) | __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3) << 8 |
         __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2) << 16 |
         (unsigned)__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2) << 24;
}
static unsigned all4_double(double x) {
  return __nv_cvt_double_to_fp8(x, __NV_NOSAT, __NV_E4M3) | __nv_cvt_double_to_fp8(x, __NV_SATFINITE, __NV_E4M3) << 8 |
         __nv_cvt_double_to_fp8(x, __NV_NOSAT, __NV_E5M2) << 16 |
         (unsigned)__nv_cvt_double_to_fp8(x, __NV_SATFINITE, __NV_E5M2) << 24;
}

int main() {
  for (int i = 0; i < COUNT(kF32In); i++) {
    float x;
    memcpy(&x, &kF32In[i], 4);
    EXPECT(all4_float(x) == kF32Out[i], "float %08x: got %08x want %08x", kF32In[i], all4_float(x), kF32Out[i]);
    unsigned cls = __nv_fp8_e4m3(x).__x | __nv_fp8_e5m2(x).__x << 8;
    unsigned want = ((kF32Out[i] >> 8) & 0xff) | (kF32Out[i] >> 24) << 8;
    EXPECT(cls == want, "classes(float %08x): got %04x want %04x", kF32In[i], cls, want);
    float2 f2 = {x, x};
    EXPECT(__nv_cvt_float2_to_fp8x2(f2, __NV_SATFINITE, __NV_E4M3) == (((kF32Out[i] >> 8) & 0xff) * 0x101u),
           "float2 %08x", kF32In[i]);
  }
  for (int i = 0; i < COUNT(kF64In); i++) {
    double x;
    memcpy(&x, &kF64In[i], 8);
    EXPECT(all4_double(x) == kF64Out[i], "double %016llx: got %08x want %08x", kF64In[i], all4_double(x), kF64Out[i]);
  }
  for (int i = 0; i < COUNT(kF16In); i++) {
    __half_raw r;
    r.x = kF16In[i];
    unsigned got = __nv_cvt_halfraw_to_fp8(r, __NV_NOSAT, __NV_E4M3) | __nv_cvt_halfraw_to_fp8(r, __NV_SATFINITE, __NV_E5M2) << 24;
    EXPECT(got == (kF16Out[i] & 0xff0000ffu), "half %04x: got %08x", kF16In[i], got);
  }
  for (int i = 0; i < COUNT(kBF16In); i++) {
    __nv_bfloat16_raw r;
    r.x = kBF16In[i];
    unsigned got = __nv_cvt_bfloat16raw_to_fp8(r, __NV_SATFINITE, __NV_E4M3) << 8 |
                   __nv_cvt_bfloat16raw_to_fp8(r, __NV_NOSAT, __NV_E5M2) << 16;
    EXPECT(got == (kBF16Out[i] & 0x00ffff00u), "bf16 %04x: got %08x", kBF16In[i], got);
  }
  for (int c = 0; c < 256; c++) {
    EXPECT(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E4M3).x == kToHalf_e4m3[c], "e4m3 %02x -> half", c);
    EXPECT(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E5M2).x == kToHalf_e5m2[c], "e5m2 %02x -> half", c);
    __nv_fp8_e4m3 a;
    a.__x = (__nv_fp8_storage_t)c;
    __nv_fp8_e5m2 b;
    b.__x = (__nv_fp8_storage_t)c;
    float fa = float(a), fb = float(b);
    unsigned ua, ub;
    memcpy(&ua, &fa, 4);
    memcpy(&ub, &fb, 4);
    EXPECT(fa != fa ? (kToFloat_e4m3[c] & 0x7fffffffu) > 0x7f800000u : ua == kToFloat_e4m3[c], "e4m3 %02x -> float", c);
    EXPECT(fb != fb ? (kToFloat_e5m2[c] & 0x7fffffffu) > 0x7f800000u : ub == kToFloat_e5m2[c], "e5m2 %02x -> float", c);
    EXPECT(int(a) == kToInt_e4m3[c] && int(b) == kToInt_e5m2[c], "%02x -> int", c);
    EXPECT((short)a == kToShort_e4m3[c] && (short)b == kToShort_e5m2[c], "%02x -> short", c);
    EXPECT((unsigned char)a == kToUChar_e4m3[c] && (signed char)b == kToSChar_e5m2[c], "%02x -> char", c);
    EXPECT(bool(a) == ((c & 0x7f) != 0), "%02x -> bool", c);
  }
  for (int i = 0; i < COUNT(kIntIn); i++) {
    EXPECT(__nv_fp8_e4m3(kIntIn[i]).__x == kIntOut[i][0] && __nv_fp8_e5m2(kIntIn[i]).__x == kIntOut[i][1], "int %d",
           kIntIn[i]);
  }
  float4 f4 = {1.0f, -2.0f, 448.0f, 1e9f};
  __nv_fp8x4_e4m3 v4(f4);
  float4 back = float4(v4);
  EXPECT(v4.__x == 0x7e7ec038u && back.x == 1.0f && back.y == -2.0f && back.w == 448.0f, "x4: %08x", v4.__x);
  if (failures) {
    printf("FAIL fp8_host: %d mismatches\n", failures);
    return 1;
  }
  printf("PASS fp8_host\n");
  return 0;
}
