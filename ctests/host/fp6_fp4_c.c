/* cuda_fp6.h and cuda_fp4.h in a plain C program (also built as C++17 by
 * scripts/run-libtests.sh): every conversion function, in all four rounding modes (NVIDIA's
 * header takes only cudaRoundNearest and cudaRoundZero; ours also the directed modes),
 * against the tables of ctests/fp6_fp4_conversions_expected.inc
 * (ctests/tools/gen_fp6_fp4_tables.py), and every byte widened to __half bits. Prints
 * "PASS fp6_fp4_c". Needs no device: it only links with -lcuda like its neighbours. */
#include <cuda_fp4.h>
#include <stdio.h>
#include <string.h>

#include "../fp6_fp4_conversions_expected.inc"

#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

static int failures = 0;
static void fail(const char *what, int i, int f, unsigned got, unsigned want) {
  if (failures++ < 20) printf("mismatch: %s[%d] format %d: got %08x want %08x\n", what, i, f, got, want);
}

static const enum cudaRoundMode kModes[4] = {cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf};

/* The four modes' results of format f (0 E2M3, 1 E3M2, 2 E2M1) packed like the table. */
#define ALL_MODES(CVT6, CVT4, X)                                                          \
  static unsigned CVT6##_all(X x, int f) {                                                \
    unsigned r = 0;                                                                       \
    int m;                                                                                \
    for (m = 0; m < 4; m++) {                                                             \
      unsigned c = f == 2 ? CVT4(x, __NV_E2M1, kModes[m])                                 \
                          : CVT6(x, f ? __NV_E3M2 : __NV_E2M3, kModes[m]);                \
      r |= c << (8 * m);                                                                  \
    }                                                                                     \
    return r;                                                                             \
  }
ALL_MODES(__nv_cvt_float_to_fp6, __nv_cvt_float_to_fp4, float)
ALL_MODES(__nv_cvt_double_to_fp6, __nv_cvt_double_to_fp4, double)
ALL_MODES(__nv_cvt_halfraw_to_fp6, __nv_cvt_halfraw_to_fp4, __half_raw)
ALL_MODES(__nv_cvt_bfloat16raw_to_fp6, __nv_cvt_bfloat16raw_to_fp4, __nv_bfloat16_raw)

/* x2 of (x, x) in mode m: both elements equal the scalar result */
static unsigned twice(unsigned code, int f) { return f == 2 ? code | code << 4 : code | code << 8; }

int main(void) {
  int i, f, m, c;
  for (i = 0; i < COUNT(kF32In); i++) {
    float x;
    float2 xx;
    memcpy(&x, &kF32In[i], 4);
    xx.x = x;
    xx.y = x;
    for (f = 0; f < 3; f++) {
      unsigned got = __nv_cvt_float_to_fp6_all(x, f);
      if (got != kF32Out[i][f]) fail("float", i, f, got, kF32Out[i][f]);
      for (m = 0; m < 4; m++) {
        unsigned w = twice((kF32Out[i][f] >> (8 * m)) & 0xff, f);
        unsigned g = f == 2 ? __nv_cvt_float2_to_fp4x2(xx, __NV_E2M1, kModes[m])
                            : __nv_cvt_float2_to_fp6x2(xx, f ? __NV_E3M2 : __NV_E2M3, kModes[m]);
        if (g != w) fail("float2", i, f, g, w);
      }
    }
  }
  for (i = 0; i < COUNT(kF64In); i++) {
    double x;
    double2 xx;
    memcpy(&x, &kF64In[i], 8);
    xx.x = x;
    xx.y = x;
    for (f = 0; f < 3; f++) {
      unsigned got = __nv_cvt_double_to_fp6_all(x, f);
      if (got != kF64Out[i][f]) fail("double", i, f, got, kF64Out[i][f]);
      for (m = 0; m < 4; m++) {
        unsigned w = twice((kF64Out[i][f] >> (8 * m)) & 0xff, f);
        unsigned g = f == 2 ? __nv_cvt_double2_to_fp4x2(xx, __NV_E2M1, kModes[m])
                            : __nv_cvt_double2_to_fp6x2(xx, f ? __NV_E3M2 : __NV_E2M3, kModes[m]);
        if (g != w) fail("double2", i, f, g, w);
      }
    }
  }
  for (i = 0; i < COUNT(kF16In); i++) {
    __half_raw r;
    __half2_raw r2;
    r.x = kF16In[i];
    r2.x = r2.y = kF16In[i];
    for (f = 0; f < 3; f++) {
      unsigned got = __nv_cvt_halfraw_to_fp6_all(r, f);
      if (got != kF16Out[i][f]) fail("half", i, f, got, kF16Out[i][f]);
      for (m = 0; m < 4; m++) {
        unsigned w = twice((kF16Out[i][f] >> (8 * m)) & 0xff, f);
        unsigned g = f == 2 ? __nv_cvt_halfraw2_to_fp4x2(r2, __NV_E2M1, kModes[m])
                            : __nv_cvt_halfraw2_to_fp6x2(r2, f ? __NV_E3M2 : __NV_E2M3, kModes[m]);
        if (g != w) fail("half2", i, f, g, w);
      }
    }
  }
  for (i = 0; i < COUNT(kBF16In); i++) {
    __nv_bfloat16_raw r;
    __nv_bfloat162_raw r2;
    r.x = kBF16In[i];
    r2.x = r2.y = kBF16In[i];
    for (f = 0; f < 3; f++) {
      unsigned got = __nv_cvt_bfloat16raw_to_fp6_all(r, f);
      if (got != kBF16Out[i][f]) fail("bf16", i, f, got, kBF16Out[i][f]);
      for (m = 0; m < 4; m++) {
        unsigned w = twice((kBF16Out[i][f] >> (8 * m)) & 0xff, f);
        unsigned g = f == 2 ? __nv_cvt_bfloat16raw2_to_fp4x2(r2, __NV_E2M1, kModes[m])
                            : __nv_cvt_bfloat16raw2_to_fp6x2(r2, f ? __NV_E3M2 : __NV_E2M3, kModes[m]);
        if (g != w) fail("bf162", i, f, g, w);
      }
    }
  }
  for (f = 0; f < 3; f++) {
    for (c = 0; c < 256; c++) {
      unsigned h, h2;
      if (f == 2) {
        __half2_raw w = __nv_cvt_fp4x2_to_halfraw2((__nv_fp4x2_storage_t)c, __NV_E2M1);
        h = __nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)c, __NV_E2M1).x;
        h2 = w.x | (unsigned)w.y << 16;
        if (h2 != (kToHalf[2][c & 15] | (unsigned)kToHalf[2][c >> 4] << 16)) fail("fp4x2 -> half2", c, f, h2, 0);
      } else {
        __nv_fp6_interpretation_t k = f ? __NV_E3M2 : __NV_E2M3;
        __half2_raw w = __nv_cvt_fp6x2_to_halfraw2((__nv_fp6x2_storage_t)(c | (255 - c) << 8), k);
        h = __nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)c, k).x;
        h2 = w.x | (unsigned)w.y << 16;
        if (h2 != (kToHalf[f][c] | (unsigned)kToHalf[f][255 - c] << 16)) fail("fp6x2 -> half2", c, f, h2, 0);
      }
      if (h != kToHalf[f][c]) fail("-> half", c, f, h, kToHalf[f][c]);
      /* the class operators' tables are checked by fp6_fp4_host.cpp */
      (void)kToFloat[f][c];
      (void)kToInt[f][c];
      (void)kToUChar[f][c];
      (void)kToSChar[f][c];
    }
  }
  (void)kIntIn;
  (void)kIntOut;
  if (failures) {
    printf("FAIL fp6_fp4_c: %d mismatches\n", failures);
    return 1;
  }
  printf("PASS fp6_fp4_c\n");
  return 0;
}
