/*
 * 8-bit floating point (ours): the storage types, the conversion functions and the C++
 * types __nv_fp8_e4m3 / __nv_fp8_e5m2 (and their x2 / x4 vectors) of the CUDA Math API's
 * "FP8 Intrinsics" section. Every conversion is done in software, the same way in host and
 * device code, so host and device give bit-identical results.
 *
 * Serves three compilers:
 *   our NVRTC (__CUDACC_RTC__), a CUDA compiler (our nvcc / clang -x cuda: __CUDA__ or
 *   __CUDACC__)   with cuda_fp16.h and cuda_bf16.h: the full API, __half and
 *                 __nv_bfloat16 constructors and operators included
 *   a plain C++ or C host compiler
 *                 the storage types, enums and conversion functions (the __half_raw and
 *                 __nv_bfloat16_raw structs are declared here when cuda_fp16.h /
 *                 cuda_bf16.h are absent) and, in C++, the classes without their
 *                 __half / __nv_bfloat16 members
 *
 * The formats (CUDA Math API, "FP8 Intrinsics"; OCP 8-bit floating point):
 *   E4M3  1 sign, 4 exponent (bias 7), 3 mantissa bits. No infinities; S.1111.111 is NaN.
 *         Largest finite 448 (0x7E), smallest subnormal 2^-9.
 *   E5M2  1 sign, 5 exponent (bias 15), 2 mantissa bits, IEEE-like: S.11111.00 is infinity,
 *         S.11111.xx (xx != 0) NaN. Largest finite 57344 (0x7B), smallest subnormal 2^-16.
 *
 * Narrowing conversions round to nearest, ties to even, as if the fp8 format had one more
 * finite binade (so 464 is a tie between E4M3's 448 and the would-be 480 and goes to 448;
 * 61440 is a tie between E5M2's 57344 and 65536 and goes up, i.e. overflows). Then
 * (__nv_saturation_t, documented per enumerator):
 *   __NV_SATFINITE  a result beyond the largest finite value, and an infinite input, give
 *                   the largest finite value of the input's sign
 *   __NV_NOSAT      such a result gives NaN (S.1111.111) in E4M3 and infinity in E5M2
 * NaN stays NaN in both modes: from float, __half and bf16 inputs the canonical NaN 0x7F;
 * from double inputs a NaN of the input's sign (E5M2 keeps the top two payload bits and sets
 * the quiet bit). Magnitudes at or below half the smallest subnormal give a zero of the
 * input's sign.
 * Widening conversions (fp8 -> __half, float, ...) are exact; NaN becomes the canonical
 * __half NaN 0x7FFF.
 * The classes' constructors use __NV_SATFINITE (documented per constructor); integer
 * constructors go through float. Their integer conversion operators truncate toward zero
 * and saturate to the integer type's range, NaN giving 0.
 * __CUDA_NO_FP8_CONVERSIONS__ removes the classes' converting constructors and operators,
 * __CUDA_NO_FP8_CONVERSION_OPERATORS__ only the operators (CUDA Math API, the
 * __nv_fp8_e4m3 / __nv_fp8_e5m2 struct pages).
 */
#if defined(__clang__)
#pragma clang system_header
#elif defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CUDA_FP8_H__
#define __CUDA_FP8_H__
#define __CUDA_FP8_HPP__
#define __CUDA_FP8_TYPES_EXIST__

#if defined(__CUDACC_RTC__) || defined(__CUDA__) || defined(__CUDACC__)
#define __NV8_CUDA_MODE 1
#include "cuda_fp16.h"
#include "cuda_bf16.h"
#define __NV8 __host__ __device__ __forceinline__
#define __NV8_CTOR __host__ __device__ __forceinline__
#else
#define __NV8_CUDA_MODE 0
#include "__cudart_host_vector_types.h"
#include "device_types.h"
#if defined(__cplusplus)
#define __NV8 inline
#else
#define __NV8 static inline
#endif
#define __NV8_CTOR inline
#ifndef __CUDA_FP16_H__
typedef struct __half_raw { unsigned short x; } __half_raw;
typedef struct __half2_raw { unsigned short x, y; } __half2_raw;
#endif
#ifndef __CUDA_BF16_H__
typedef struct __nv_bfloat16_raw { unsigned short x; } __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw { unsigned short x, y; } __nv_bfloat162_raw;
#endif
#endif

/* Storage: one, two or four fp8 values; element 0 in the least significant byte. */
typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t {
  __NV_NOSAT,
  __NV_SATFINITE,
} __nv_saturation_t;

typedef enum __nv_fp8_interpretation_t {
  __NV_E4M3,
  __NV_E5M2,
} __nv_fp8_interpretation_t;

/* ---- internal: bit-level helpers ------------------------------------------------------- */
__NV8 unsigned long long __nv_fp8_i_dbits(double __d) {
  unsigned long long __u;
  __builtin_memcpy(&__u, &__d, sizeof __u);
  return __u;
}
__NV8 unsigned int __nv_fp8_i_fbits(float __f) {
  unsigned int __u;
  __builtin_memcpy(&__u, &__f, sizeof __u);
  return __u;
}
__NV8 float __nv_fp8_i_bitsf(unsigned int __u) {
  float __f;
  __builtin_memcpy(&__f, &__u, sizeof __f);
  return __f;
}

/*
 * A finite or infinite double (given as its bits) to fp8, round to nearest even.
 * The magnitude is s * 2^(e-52) (s the 53-bit significand); the fp8 quantum at exponent e
 * is 2^(max(e, emin) - M). Rounding s to that quantum gives an integer n, and the code is
 * ((max(e, emin) + bias - 1) << M) + n: a carry out of the mantissa moves into the exponent
 * field, and below emin the exponent field is 0 (subnormals).
 */
__NV8 __nv_fp8_storage_t __nv_fp8_i_from_dbits(unsigned long long __u, __nv_saturation_t __sat,
                                              __nv_fp8_interpretation_t __k) {
  const int __m = (__k == __NV_E4M3) ? 3 : 2;
  const int __bias = (__k == __NV_E4M3) ? 7 : 15;
  const unsigned int __maxcode = (__k == __NV_E4M3) ? 0x7Eu : 0x7Bu;
  const unsigned int __sign = (unsigned int)(__u >> 56) & 0x80u;
  const unsigned long long __a = __u & 0x7FFFFFFFFFFFFFFFull;
  if (__a > 0x7FF0000000000000ull) { /* NaN */
    if (__k == __NV_E4M3) return (__nv_fp8_storage_t)(__sign | 0x7Fu);
    return (__nv_fp8_storage_t)(__sign | 0x7Eu | (unsigned int)((__a >> 50) & 3u));
  }
  unsigned int __code;
  const int __bexp = (int)(__a >> 52);
  /* Every double below 2^-30 rounds to zero in both formats (smallest E5M2 subnormal
   * 2^-16); every finite value from 2^17 up, and infinity, overflows. */
  if (__bexp < 1023 - 30) {
    __code = 0;
  } else if (__bexp >= 1023 + 17) {
    __code = 0x80u; /* overflow marker */
  } else {
    const int __e = __bexp - 1023;
    const int __emin = 1 - __bias;
    const int __eq = __e > __emin ? __e : __emin;
    const unsigned long long __s = (__a & 0x000FFFFFFFFFFFFFull) | 0x0010000000000000ull;
    const int __shift = 52 - __m + (__eq - __e);
    if (__shift > 54) {
      __code = 0; /* below a quarter of the smallest subnormal (s < 2^53) */
    } else {
      unsigned long long __n = __s >> __shift;
      const unsigned long long __rem = __s & ((1ull << __shift) - 1ull);
      const unsigned long long __half_q = 1ull << (__shift - 1);
      if (__rem > __half_q || (__rem == __half_q && (__n & 1ull))) __n += 1ull;
      __code = (unsigned int)(((__eq + __bias - 1) << __m) + (int)__n);
    }
  }
  if (__code > __maxcode) {
    if (__sat == __NV_SATFINITE) __code = __maxcode;
    else __code = (__k == __NV_E4M3) ? 0x7Fu : 0x7Cu;
  }
  return (__nv_fp8_storage_t)(__sign | __code);
}

/* fp8 -> __half bits, exact (NaN -> 0x7FFF). */
__NV8 unsigned short __nv_fp8_i_to_hbits(__nv_fp8_storage_t __x, __nv_fp8_interpretation_t __k) {
  const unsigned int __c = __x;
  if (__k == __NV_E5M2) {
    /* E5M2 is the upper byte of an IEEE half. */
    if ((__c & 0x7Fu) > 0x7Cu) return (unsigned short)0x7FFFu;
    return (unsigned short)(__c << 8);
  }
  const unsigned int __sign = (__c & 0x80u) << 8;
  const unsigned int __e = (__c >> 3) & 0xFu, __f = __c & 7u;
  if ((__c & 0x7Fu) == 0x7Fu) return (unsigned short)0x7FFFu;
  if (__e != 0) return (unsigned short)(__sign | ((__e + 8u) << 10) | (__f << 7));
  if (__f == 0) return (unsigned short)__sign;
  /* subnormal f * 2^-9: normalize; p is the position of f's leading bit. */
  const unsigned int __p = (__f >= 4u) ? 2u : (__f >= 2u) ? 1u : 0u;
  return (unsigned short)(__sign | ((__p + 6u) << 10) | (((__f << (10u - __p)) & 0x3FFu)));
}

/* __half / bf16 bits -> float, exact (used instead of the fp16 header so plain hosts work). */
__NV8 float __nv_fp8_i_hbits_to_float(unsigned short __h) {
  const unsigned int __sign = ((unsigned int)__h & 0x8000u) << 16;
  const unsigned int __e = ((unsigned int)__h >> 10) & 0x1Fu, __f = (unsigned int)__h & 0x3FFu;
  if (__e == 0x1Fu) return __nv_fp8_i_bitsf(__sign | 0x7F800000u | (__f << 13));
  if (__e != 0) return __nv_fp8_i_bitsf(__sign | ((__e + 112u) << 23) | (__f << 13));
  /* zero or subnormal: f * 2^-24 is exact in float */
  const float __v = (float)__f * 5.9604644775390625e-8f;
  return __sign ? -__v : __v;
}
__NV8 float __nv_fp8_i_bf16bits_to_float(unsigned short __b) {
  return __nv_fp8_i_bitsf((unsigned int)__b << 16);
}

/* ---- conversion functions (CUDA Math API, "FP8 Conversion and Data Movement") ----------- */
__NV8 __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                               const __nv_fp8_interpretation_t fp8_interpretation) {
  return __nv_fp8_i_from_dbits(__nv_fp8_i_dbits(x), saturate, fp8_interpretation);
}
__NV8 __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(const double2 x, const __nv_saturation_t saturate,
                                                     const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(__nv_cvt_double_to_fp8(x.x, saturate, fp8_interpretation) |
                                ((unsigned int)__nv_cvt_double_to_fp8(x.y, saturate, fp8_interpretation) << 8));
}
/* float is exact in double; its NaNs all become the canonical NaN. */
__NV8 __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                              const __nv_fp8_interpretation_t fp8_interpretation) {
  if ((__nv_fp8_i_fbits(x) & 0x7FFFFFFFu) > 0x7F800000u) return (__nv_fp8_storage_t)0x7Fu;
  return __nv_cvt_double_to_fp8((double)x, saturate, fp8_interpretation);
}
__NV8 __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(const float2 x, const __nv_saturation_t saturate,
                                                   const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(__nv_cvt_float_to_fp8(x.x, saturate, fp8_interpretation) |
                                ((unsigned int)__nv_cvt_float_to_fp8(x.y, saturate, fp8_interpretation) << 8));
}
__NV8 __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t saturate,
                                                const __nv_fp8_interpretation_t fp8_interpretation) {
  return __nv_cvt_float_to_fp8(__nv_fp8_i_hbits_to_float(x.x), saturate, fp8_interpretation);
}
__NV8 __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(const __half2_raw x, const __nv_saturation_t saturate,
                                                     const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(
      __nv_cvt_float_to_fp8(__nv_fp8_i_hbits_to_float(x.x), saturate, fp8_interpretation) |
      ((unsigned int)__nv_cvt_float_to_fp8(__nv_fp8_i_hbits_to_float(x.y), saturate, fp8_interpretation) << 8));
}
__NV8 __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
                                                    const __nv_fp8_interpretation_t fp8_interpretation) {
  return __nv_cvt_float_to_fp8(__nv_fp8_i_bf16bits_to_float(x.x), saturate, fp8_interpretation);
}
__NV8 __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(const __nv_bfloat162_raw x,
                                                         const __nv_saturation_t saturate,
                                                         const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(
      __nv_cvt_float_to_fp8(__nv_fp8_i_bf16bits_to_float(x.x), saturate, fp8_interpretation) |
      ((unsigned int)__nv_cvt_float_to_fp8(__nv_fp8_i_bf16bits_to_float(x.y), saturate, fp8_interpretation) << 8));
}
__NV8 __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                                         const __nv_fp8_interpretation_t fp8_interpretation) {
  __half_raw __r;
  __r.x = __nv_fp8_i_to_hbits(x, fp8_interpretation);
  return __r;
}
__NV8 __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                             const __nv_fp8_interpretation_t fp8_interpretation) {
  __half2_raw __r;
  __r.x = __nv_fp8_i_to_hbits((__nv_fp8_storage_t)(x & 0xFFu), fp8_interpretation);
  __r.y = __nv_fp8_i_to_hbits((__nv_fp8_storage_t)(x >> 8), fp8_interpretation);
  return __r;
}

/* ---- e8m0 scale factors: 2^(code - 127), code 0xFF NaN (CUDA Math API, "FP8 ... e8m0") --
 * |x| goes to a power of two toward zero (cudaRoundZero) or up (cudaRoundPosInf); results
 * below 2^-127 are clipped to it (code 0); above 2^127 they saturate to it (0xFE) under
 * __NV_SATFINITE, else become NaN; NaN stays NaN. The code is a float's biased exponent:
 * both have bias 127. */
__NV8 __nv_fp8_storage_t __nv_fp8_i_e8m0_from_fbits(unsigned int __u, __nv_saturation_t __sat, int __round_up) {
  unsigned int __a = __u & 0x7FFFFFFFu;
  if (__a > 0x7F800000u) return 0xFF;
  if (__a == 0x7F800000u) return __sat == __NV_SATFINITE ? 0xFE : 0xFF;
  if (__a < 0x00800000u) return (__round_up && __a > 0x00400000u) ? 1 : 0; /* below 2^-126 */
  unsigned int __e = __a >> 23;
  if (__round_up && (__a & 0x7FFFFFu)) __e += 1;
  if (__e > 254) return __sat == __NV_SATFINITE ? 0xFE : 0xFF;
  return (__nv_fp8_storage_t)__e;
}
__NV8 __nv_fp8_storage_t __nv_fp8_i_e8m0_from_dbits(unsigned long long __u, __nv_saturation_t __sat, int __round_up) {
  unsigned long long __a = __u & 0x7FFFFFFFFFFFFFFFull;
  if (__a > 0x7FF0000000000000ull) return 0xFF;
  if (__a == 0x7FF0000000000000ull) return __sat == __NV_SATFINITE ? 0xFE : 0xFF;
  long long __code = (long long)(__a >> 52) - 896; /* the double's exponent, rebiased */
  if (__round_up && (__a & 0xFFFFFFFFFFFFFull)) __code += 1;
  if (__code < 0) return 0;
  /* A finite double beyond float's range goes through float toward zero first (as NVIDIA's
   * does: its largest finite value), so only rounding up can overflow. */
  if (__code > 254) return (__round_up && __sat != __NV_SATFINITE) ? 0xFF : 0xFE;
  return (__nv_fp8_storage_t)__code;
}
__NV8 __nv_fp8_storage_t __nv_cvt_float_to_e8m0(const float x, const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return __nv_fp8_i_e8m0_from_fbits(__nv_fp8_i_fbits(x), saturate, rounding == cudaRoundPosInf);
}
__NV8 __nv_fp8x2_storage_t __nv_cvt_float2_to_e8m0x2(const float2 x, const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return (__nv_fp8x2_storage_t)(__nv_cvt_float_to_e8m0(x.x, saturate, rounding) | (__nv_cvt_float_to_e8m0(x.y, saturate, rounding) << 8));
}
__NV8 __nv_fp8_storage_t __nv_cvt_double_to_e8m0(const double x, const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return __nv_fp8_i_e8m0_from_dbits(__nv_fp8_i_dbits(x), saturate, rounding == cudaRoundPosInf);
}
__NV8 __nv_fp8x2_storage_t __nv_cvt_double2_to_e8m0x2(const double2 x, const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return (__nv_fp8x2_storage_t)(__nv_cvt_double_to_e8m0(x.x, saturate, rounding) | (__nv_cvt_double_to_e8m0(x.y, saturate, rounding) << 8));
}
__NV8 __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_e8m0(const __nv_bfloat16_raw x, const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  return __nv_fp8_i_e8m0_from_fbits((unsigned int)x.x << 16, saturate, rounding == cudaRoundPosInf);
}
__NV8 __nv_fp8x2_storage_t __nv_cvt_bfloat162raw_to_e8m0x2(const __nv_bfloat162_raw x, const __nv_saturation_t saturate, const enum cudaRoundMode rounding) {
  __nv_bfloat16_raw __lo, __hi;
  __lo.x = x.x;
  __hi.x = x.y;
  return (__nv_fp8x2_storage_t)(__nv_cvt_bfloat16raw_to_e8m0(__lo, saturate, rounding) | (__nv_cvt_bfloat16raw_to_e8m0(__hi, saturate, rounding) << 8));
}
/* 2^-127 is a bfloat16 subnormal (0x0040); NaN is the canonical quiet NaN. */
__NV8 unsigned short __nv_fp8_i_e8m0_to_bf16bits(__nv_fp8_storage_t __x) {
  return __x == 0xFF ? (unsigned short)0x7FFF : __x == 0 ? (unsigned short)0x0040 : (unsigned short)(__x << 7);
}
__NV8 __nv_bfloat16_raw __nv_cvt_e8m0_to_bf16raw(const __nv_fp8_storage_t x) {
  __nv_bfloat16_raw __r;
  __r.x = __nv_fp8_i_e8m0_to_bf16bits(x);
  return __r;
}
__NV8 __nv_bfloat162_raw __nv_cvt_e8m0x2_to_bf162raw(const __nv_fp8x2_storage_t x) {
  __nv_bfloat162_raw __r;
  __r.x = __nv_fp8_i_e8m0_to_bf16bits((__nv_fp8_storage_t)(x & 0xFFu));
  __r.y = __nv_fp8_i_e8m0_to_bf16bits((__nv_fp8_storage_t)(x >> 8));
  return __r;
}

#if defined(__cplusplus)
/* ---- internal: class helpers -------------------------------------------------------------- */
__NV8 float __nv_fp8_i_to_float(__nv_fp8_storage_t __x, __nv_fp8_interpretation_t __k) {
  return __nv_fp8_i_hbits_to_float(__nv_fp8_i_to_hbits(__x, __k));
}
/* Truncate toward zero, saturate to [lo, hi], NaN -> 0. */
__NV8 long long __nv_fp8_i_to_int(float __f, double __lo, double __hi) {
  if (__f != __f) return 0;
  if ((double)__f <= __lo) return (long long)__lo;
  if ((double)__f >= __hi) return (long long)__hi;
  return (long long)__f;
}
__NV8 unsigned long long __nv_fp8_i_to_uint(float __f, double __hi) {
  if (__f != __f || __f <= 0.0f) return 0;
  if ((double)__f >= __hi) return (unsigned long long)__hi;
  return (unsigned long long)__f;
}

#if !defined(__CUDA_NO_FP8_CONVERSIONS__)
#if __NV8_CUDA_MODE
#define __NV8_SCALAR_HALF_BF16(T, K)                                                                 \
  explicit __NV8_CTOR T(const __half f) {                                                            \
    __x = __nv_cvt_halfraw_to_fp8(static_cast<__half_raw>(f), __NV_SATFINITE, K);                    \
  }                                                                                                  \
  explicit __NV8_CTOR T(const __nv_bfloat16 f) {                                                     \
    __x = __nv_cvt_bfloat16raw_to_fp8(static_cast<__nv_bfloat16_raw>(f), __NV_SATFINITE, K);         \
  }
#define __NV8_SCALAR_HALF_BF16_OPS(K)                                                                \
  explicit __NV8_CTOR operator __half() const { return __half(__nv_cvt_fp8_to_halfraw(__x, K)); }    \
  explicit __NV8_CTOR operator __nv_bfloat16() const {                                               \
    return __nv_bfloat16(__nv_fp8_i_to_float(__x, K));                                               \
  }
#define __NV8_X2_HALF_BF16(T, K)                                                                     \
  explicit __NV8_CTOR T(const __half2 f) {                                                           \
    __x = __nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(f), __NV_SATFINITE, K);               \
  }                                                                                                  \
  explicit __NV8_CTOR T(const __nv_bfloat162 f) {                                                    \
    __x = __nv_cvt_bfloat16raw2_to_fp8x2(static_cast<__nv_bfloat162_raw>(f), __NV_SATFINITE, K);     \
  }
#define __NV8_X2_HALF_OPS(K)                                                                         \
  explicit __NV8_CTOR operator __half2() const { return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, K)); }
#define __NV8_X4_HALF_BF16(T, K)                                                                     \
  explicit __NV8_CTOR T(const __half2 flo, const __half2 fhi) {                                      \
    __x = (unsigned int)__nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(flo), __NV_SATFINITE, K) | \
          ((unsigned int)__nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(fhi), __NV_SATFINITE, K) << 16); \
  }                                                                                                  \
  explicit __NV8_CTOR T(const __nv_bfloat162 flo, const __nv_bfloat162 fhi) {                        \
    __x = (unsigned int)__nv_cvt_bfloat16raw2_to_fp8x2(static_cast<__nv_bfloat162_raw>(flo), __NV_SATFINITE, K) | \
          ((unsigned int)__nv_cvt_bfloat16raw2_to_fp8x2(static_cast<__nv_bfloat162_raw>(fhi), __NV_SATFINITE, K) << 16); \
  }
#else
#define __NV8_SCALAR_HALF_BF16(T, K)
#define __NV8_SCALAR_HALF_BF16_OPS(K)
#define __NV8_X2_HALF_BF16(T, K)
#define __NV8_X2_HALF_OPS(K)
#define __NV8_X4_HALF_BF16(T, K)
#endif

#if !defined(__CUDA_NO_FP8_CONVERSION_OPERATORS__)
#define __NV8_SCALAR_OPS(K, NANTEST)                                                                 \
  __NV8_SCALAR_HALF_BF16_OPS(K)                                                                      \
  explicit __NV8_CTOR operator float() const { return __nv_fp8_i_to_float(__x, K); }                 \
  explicit __NV8_CTOR operator double() const { return (double)__nv_fp8_i_to_float(__x, K); }        \
  explicit __NV8_CTOR operator unsigned char() const {                                               \
    return (unsigned char)__nv_fp8_i_to_uint(__nv_fp8_i_to_float(__x, K), 255.0);                    \
  }                                                                                                  \
  explicit __NV8_CTOR operator signed char() const {                                                 \
    return (signed char)__nv_fp8_i_to_int(__nv_fp8_i_to_float(__x, K), -128.0, 127.0);               \
  }                                                                                                  \
  explicit __NV8_CTOR operator char() const {                                                        \
    return ((char)-1 < (char)0) ? (char)static_cast<signed char>(*this)                              \
                                : (char)static_cast<unsigned char>(*this);                           \
  }                                                                                                  \
  explicit __NV8_CTOR operator unsigned short int() const {                                          \
    return (unsigned short)__nv_fp8_i_to_uint(__nv_fp8_i_to_float(__x, K), 65535.0);                 \
  }                                                                                                  \
  explicit __NV8_CTOR operator unsigned int() const {                                                \
    return (unsigned int)__nv_fp8_i_to_uint(__nv_fp8_i_to_float(__x, K), 4294967295.0);              \
  }                                                                                                  \
  explicit __NV8_CTOR operator unsigned long int() const {                                           \
    return (unsigned long)__nv_fp8_i_to_uint(__nv_fp8_i_to_float(__x, K),                            \
                                             sizeof(long) == 8 ? 18446744073709551615.0 : 4294967295.0); \
  }                                                                                                  \
  explicit __NV8_CTOR operator unsigned long long int() const {                                      \
    return __nv_fp8_i_to_uint(__nv_fp8_i_to_float(__x, K), 18446744073709551615.0);                  \
  }                                                                                                  \
  explicit __NV8_CTOR operator short int() const {                                                   \
    return (short)__nv_fp8_i_to_int(__nv_fp8_i_to_float(__x, K), -32768.0, 32767.0);                 \
  }                                                                                                  \
  explicit __NV8_CTOR operator int() const {                                                         \
    return (int)__nv_fp8_i_to_int(__nv_fp8_i_to_float(__x, K), -2147483648.0, 2147483647.0);        \
  }                                                                                                  \
  explicit __NV8_CTOR operator long int() const {                                                    \
    return (long)__nv_fp8_i_to_int(__nv_fp8_i_to_float(__x, K),                                      \
                                   sizeof(long) == 8 ? -9223372036854775808.0 : -2147483648.0,        \
                                   sizeof(long) == 8 ? 9223372036854775807.0 : 2147483647.0);        \
  }                                                                                                  \
  explicit __NV8_CTOR operator long long int() const {                                               \
    return __nv_fp8_i_to_int(__nv_fp8_i_to_float(__x, K), -9223372036854775808.0, 9223372036854775807.0); \
  }                                                                                                  \
  explicit __NV8_CTOR operator bool() const { return (__x & 0x7Fu) != 0u; }
#define __NV8_X2_OPS(K)                                                                              \
  __NV8_X2_HALF_OPS(K)                                                                               \
  explicit __NV8_CTOR operator float2() const {                                                      \
    float2 __r;                                                                                      \
    __r.x = __nv_fp8_i_to_float((__nv_fp8_storage_t)(__x & 0xFFu), K);                               \
    __r.y = __nv_fp8_i_to_float((__nv_fp8_storage_t)(__x >> 8), K);                                  \
    return __r;                                                                                      \
  }
#define __NV8_X4_OPS(K)                                                                              \
  explicit __NV8_CTOR operator float4() const {                                                      \
    float4 __r;                                                                                      \
    __r.x = __nv_fp8_i_to_float((__nv_fp8_storage_t)(__x & 0xFFu), K);                               \
    __r.y = __nv_fp8_i_to_float((__nv_fp8_storage_t)((__x >> 8) & 0xFFu), K);                        \
    __r.z = __nv_fp8_i_to_float((__nv_fp8_storage_t)((__x >> 16) & 0xFFu), K);                       \
    __r.w = __nv_fp8_i_to_float((__nv_fp8_storage_t)(__x >> 24), K);                                 \
    return __r;                                                                                      \
  }
#else
#define __NV8_SCALAR_OPS(K, NANTEST)
#define __NV8_X2_OPS(K)
#define __NV8_X4_OPS(K)
#endif

/* Integer constructors convert through float, as CUDA documents ("relies on
 * __NV_SATFINITE behavior"). */
#define __NV8_SCALAR_CTORS(T, K)                                                                     \
  __NV8_SCALAR_HALF_BF16(T, K)                                                                       \
  explicit __NV8_CTOR T(const float f) { __x = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, K); }        \
  explicit __NV8_CTOR T(const double f) { __x = __nv_cvt_double_to_fp8(f, __NV_SATFINITE, K); }      \
  explicit __NV8_CTOR T(const unsigned short int v) { __x = __nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, K); } \
  explicit __NV8_CTOR T(const unsigned int v) { __x = __nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, K); } \
  explicit __NV8_CTOR T(const unsigned long int v) { __x = __nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, K); } \
  explicit __NV8_CTOR T(const unsigned long long int v) { __x = __nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, K); } \
  explicit __NV8_CTOR T(const short int v) { __x = __nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, K); } \
  explicit __NV8_CTOR T(const int v) { __x = __nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, K); }   \
  explicit __NV8_CTOR T(const long int v) { __x = __nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, K); } \
  explicit __NV8_CTOR T(const long long int v) { __x = __nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, K); }
#define __NV8_X2_CTORS(T, K)                                                                         \
  __NV8_X2_HALF_BF16(T, K)                                                                           \
  explicit __NV8_CTOR T(const float2 f) { __x = __nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, K); }    \
  explicit __NV8_CTOR T(const double2 f) { __x = __nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, K); }
#define __NV8_X4_FROM4(T, K, V4, CVT, E2)                                                            \
  explicit __NV8_CTOR T(const V4 f) {                                                                \
    E2 __lo, __hi;                                                                                   \
    __lo.x = f.x; __lo.y = f.y; __hi.x = f.z; __hi.y = f.w;                                          \
    __x = (unsigned int)CVT(__lo, __NV_SATFINITE, K) | ((unsigned int)CVT(__hi, __NV_SATFINITE, K) << 16); \
  }
#define __NV8_X4_CTORS(T, K)                                                                         \
  __NV8_X4_HALF_BF16(T, K)                                                                           \
  __NV8_X4_FROM4(T, K, float4, __nv_cvt_float2_to_fp8x2, float2)                                     \
  __NV8_X4_FROM4(T, K, double4, __nv_cvt_double2_to_fp8x2, double2)                                  \
  __NV8_X4_FROM4(T, K, double4_16a, __nv_cvt_double2_to_fp8x2, double2)                              \
  __NV8_X4_FROM4(T, K, double4_32a, __nv_cvt_double2_to_fp8x2, double2)
#else
#define __NV8_SCALAR_CTORS(T, K)
#define __NV8_SCALAR_OPS(K, NANTEST)
#define __NV8_X2_CTORS(T, K)
#define __NV8_X2_OPS(K)
#define __NV8_X4_CTORS(T, K)
#define __NV8_X4_OPS(K)
#endif /* !__CUDA_NO_FP8_CONVERSIONS__ */

/* The classes: the storage as public member __x, trivially default-constructible, aligned
 * to their size (CUDA Math API, "C++ struct for handling fp8 data type"). */
#define __NV8_CLASSES(KIND, K)                                                                       \
  struct __attribute__((aligned(1))) __nv_fp8_##KIND {                                               \
    __nv_fp8_storage_t __x;                                                                          \
    __nv_fp8_##KIND() = default;                                                                     \
    __NV8_SCALAR_CTORS(__nv_fp8_##KIND, K)                                                           \
    __NV8_SCALAR_OPS(K, 0)                                                                           \
  };                                                                                                 \
  struct __attribute__((aligned(2))) __nv_fp8x2_##KIND {                                             \
    __nv_fp8x2_storage_t __x;                                                                        \
    __nv_fp8x2_##KIND() = default;                                                                   \
    __NV8_X2_CTORS(__nv_fp8x2_##KIND, K)                                                             \
    __NV8_X2_OPS(K)                                                                                  \
  };                                                                                                 \
  struct __attribute__((aligned(4))) __nv_fp8x4_##KIND {                                             \
    __nv_fp8x4_storage_t __x;                                                                        \
    __nv_fp8x4_##KIND() = default;                                                                   \
    __NV8_X4_CTORS(__nv_fp8x4_##KIND, K)                                                             \
    __NV8_X4_OPS(K)                                                                                  \
  };
__NV8_CLASSES(e5m2, __NV_E5M2)
__NV8_CLASSES(e4m3, __NV_E4M3)

/* e8m0: conversions into it round up and saturate, as NVIDIA's constructors do. */
__NV8 float __nv_fp8_i_e8m0_to_float(__nv_fp8_storage_t __x) { return __nv_fp8_i_bitsf((unsigned int)__nv_fp8_i_e8m0_to_bf16bits(__x) << 16); }
struct __attribute__((aligned(1))) __nv_fp8_e8m0 {
  __nv_fp8_storage_t __x;
  __nv_fp8_e8m0() = default;
#if !defined(__CUDA_NO_FP8_CONVERSIONS__)
  explicit __NV8_CTOR __nv_fp8_e8m0(const float __f) { __x = __nv_cvt_float_to_e8m0(__f, __NV_SATFINITE, cudaRoundPosInf); }
  explicit __NV8_CTOR __nv_fp8_e8m0(const double __f) { __x = __nv_cvt_double_to_e8m0(__f, __NV_SATFINITE, cudaRoundPosInf); }
#if __NV8_CUDA_MODE
  explicit __NV8_CTOR __nv_fp8_e8m0(const __half __f) { __x = __nv_cvt_float_to_e8m0((float)__f, __NV_SATFINITE, cudaRoundPosInf); }
  explicit __NV8_CTOR __nv_fp8_e8m0(const __nv_bfloat16 __f) {
    __x = __nv_cvt_bfloat16raw_to_e8m0(static_cast<__nv_bfloat16_raw>(__f), __NV_SATFINITE, cudaRoundPosInf);
  }
  explicit __NV8_CTOR operator __half() const { return __half(__nv_fp8_i_e8m0_to_float(__x)); }
  explicit __NV8_CTOR operator __nv_bfloat16() const { return __nv_bfloat16(__nv_cvt_e8m0_to_bf16raw(__x)); }
#endif
  explicit __NV8_CTOR __nv_fp8_e8m0(const unsigned short __v) : __nv_fp8_e8m0((float)__v) {}
  explicit __NV8_CTOR __nv_fp8_e8m0(const unsigned int __v) : __nv_fp8_e8m0((double)__v) {}
  explicit __NV8_CTOR __nv_fp8_e8m0(const unsigned long __v) : __nv_fp8_e8m0((double)__v) {}
  explicit __NV8_CTOR __nv_fp8_e8m0(const unsigned long long __v) : __nv_fp8_e8m0((double)__v) {}
  explicit __NV8_CTOR __nv_fp8_e8m0(const short __v) : __nv_fp8_e8m0((float)__v) {}
  explicit __NV8_CTOR __nv_fp8_e8m0(const int __v) : __nv_fp8_e8m0((double)__v) {}
  explicit __NV8_CTOR __nv_fp8_e8m0(const long __v) : __nv_fp8_e8m0((double)__v) {}
  explicit __NV8_CTOR __nv_fp8_e8m0(const long long __v) : __nv_fp8_e8m0((double)__v) {}
#if !defined(__CUDA_NO_FP8_CONVERSION_OPERATORS__)
  explicit __NV8_CTOR operator float() const { return __nv_fp8_i_e8m0_to_float(__x); }
  explicit __NV8_CTOR operator double() const { return (double)__nv_fp8_i_e8m0_to_float(__x); }
#endif
#endif
};
struct __attribute__((aligned(2))) __nv_fp8x2_e8m0 {
  __nv_fp8x2_storage_t __x;
  __nv_fp8x2_e8m0() = default;
#if !defined(__CUDA_NO_FP8_CONVERSIONS__)
  explicit __NV8_CTOR __nv_fp8x2_e8m0(const float2 __f) { __x = __nv_cvt_float2_to_e8m0x2(__f, __NV_SATFINITE, cudaRoundPosInf); }
  explicit __NV8_CTOR __nv_fp8x2_e8m0(const double2 __f) { __x = __nv_cvt_double2_to_e8m0x2(__f, __NV_SATFINITE, cudaRoundPosInf); }
#if !defined(__CUDA_NO_FP8_CONVERSION_OPERATORS__)
  explicit __NV8_CTOR operator float2() const {
    float2 __r;
    __r.x = __nv_fp8_i_e8m0_to_float((__nv_fp8_storage_t)(__x & 0xFFu));
    __r.y = __nv_fp8_i_e8m0_to_float((__nv_fp8_storage_t)(__x >> 8));
    return __r;
  }
#endif
#endif
};
struct __attribute__((aligned(4))) __nv_fp8x4_e8m0 {
  __nv_fp8x4_storage_t __x;
  __nv_fp8x4_e8m0() = default;
#if !defined(__CUDA_NO_FP8_CONVERSIONS__)
  explicit __NV8_CTOR __nv_fp8x4_e8m0(const float4 __f) {
    __x = (__nv_fp8x4_storage_t)__nv_cvt_float_to_e8m0(__f.x, __NV_SATFINITE, cudaRoundPosInf) |
          ((__nv_fp8x4_storage_t)__nv_cvt_float_to_e8m0(__f.y, __NV_SATFINITE, cudaRoundPosInf) << 8) |
          ((__nv_fp8x4_storage_t)__nv_cvt_float_to_e8m0(__f.z, __NV_SATFINITE, cudaRoundPosInf) << 16) |
          ((__nv_fp8x4_storage_t)__nv_cvt_float_to_e8m0(__f.w, __NV_SATFINITE, cudaRoundPosInf) << 24);
  }
#if !defined(__CUDA_NO_FP8_CONVERSION_OPERATORS__)
  explicit __NV8_CTOR operator float4() const {
    float4 __r;
    __r.x = __nv_fp8_i_e8m0_to_float((__nv_fp8_storage_t)(__x & 0xFFu));
    __r.y = __nv_fp8_i_e8m0_to_float((__nv_fp8_storage_t)((__x >> 8) & 0xFFu));
    __r.z = __nv_fp8_i_e8m0_to_float((__nv_fp8_storage_t)((__x >> 16) & 0xFFu));
    __r.w = __nv_fp8_i_e8m0_to_float((__nv_fp8_storage_t)(__x >> 24));
    return __r;
  }
#endif
#endif
};

#undef __NV8_CLASSES
#undef __NV8_SCALAR_CTORS
#undef __NV8_SCALAR_OPS
#undef __NV8_X2_CTORS
#undef __NV8_X2_OPS
#undef __NV8_X4_CTORS
#undef __NV8_X4_OPS
#undef __NV8_X4_FROM4
#undef __NV8_SCALAR_HALF_BF16
#undef __NV8_SCALAR_HALF_BF16_OPS
#undef __NV8_X2_HALF_BF16
#undef __NV8_X2_HALF_OPS
#undef __NV8_X4_HALF_BF16
#endif /* __cplusplus */

#undef __NV8
#undef __NV8_CTOR
#undef __NV8_CUDA_MODE
#endif /* __CUDA_FP8_H__ */
