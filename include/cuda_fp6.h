/*
 * 6-bit floating point (ours): the storage types, the conversion functions and the C++ types
 * __nv_fp6_e2m3 / __nv_fp6_e3m2 (and their x2 / x4 vectors) of the CUDA Math API's "FP6
 * Intrinsics" section. Every conversion is done in software, the same way in host and device
 * code, so host and device give bit-identical results. cuda_fp4.h builds on the internal
 * helpers here (as NVIDIA's cuda_fp4.h includes cuda_fp6.h, which includes cuda_fp8.h).
 *
 * Serves the same three compilers as cuda_fp8.h: our NVRTC, a CUDA compiler (our nvcc /
 * clang -x cuda) with the __half / __nv_bfloat16 members, and a plain C++ or C host compiler
 * (storage types, enum and conversion functions; in C++ the classes without their __half /
 * __nv_bfloat16 members).
 *
 * The formats (OCP Microscaling formats; CUDA Math API, "FP6 Intrinsics"), no infinities and
 * no NaN, every code a number:
 *   E2M3  1 sign, 2 exponent (bias 1), 3 mantissa bits. Largest 7.5 (0x1F), smallest
 *         subnormal 2^-3.
 *   E3M2  1 sign, 3 exponent (bias 3), 2 mantissa bits. Largest 28 (0x1F), smallest
 *         subnormal 2^-4.
 * Storage: one value in the low 6 bits of a byte (sign in bit 5; conversions return the upper
 * two bits clear and ignore them on input); x2 in two bytes and x4 in four, element 0 in the
 * least significant byte.
 *
 * Narrowing (the CUDA Math API documents the rounding parameter and saturation): rounding
 * cudaRoundNearest (to nearest, ties to the even code) or cudaRoundZero (toward zero); we
 * also honour cudaRoundPosInf / cudaRoundMinInf as directed rounding (NVIDIA's header accepts
 * only the first two: it asserts, in host and device code). Results beyond the largest value,
 * and infinities, saturate to the largest value of their sign; NaN gives +largest (0x1F), as
 * documented. A zero, or a magnitude rounded to zero, keeps its sign.
 * Widening (fp6 -> __half, float, ...) is exact.
 * The classes' constructors round to nearest (cudaRoundNearest, saturating, documented per
 * constructor); integer constructors go through float. Their integer conversion operators
 * truncate toward zero and saturate to the integer type's range (negative values give 0 for
 * unsigned types).
 * __CUDA_NO_FP6_CONVERSIONS__ removes the classes' converting constructors and operators,
 * __CUDA_NO_FP6_CONVERSION_OPERATORS__ only the operators.
 */
#if defined(__clang__)
#pragma clang system_header
#elif defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CUDA_FP6_H__
#define __CUDA_FP6_H__
#define __CUDA_FP6_HPP__
#define __CUDA_FP6_TYPES_EXIST__

#include "cuda_fp8.h"

#if defined(__CUDACC_RTC__) || defined(__CUDA__) || defined(__CUDACC__)
#define __NV_FPX_CUDA_MODE 1
#define __NV6 __host__ __device__ __forceinline__
#define __NV6_CTOR __host__ __device__ __forceinline__
#else
#define __NV_FPX_CUDA_MODE 0
#if defined(__cplusplus)
#define __NV6 inline
#else
#define __NV6 static inline
#endif
#define __NV6_CTOR inline
#endif

/* Storage: the fp8 storage types (one fp6 value per byte). */
typedef __nv_fp8_storage_t __nv_fp6_storage_t;
typedef __nv_fp8x2_storage_t __nv_fp6x2_storage_t;
typedef __nv_fp8x4_storage_t __nv_fp6x4_storage_t;

typedef enum __nv_fp6_interpretation_t {
  __NV_E2M3,
  __NV_E3M2,
} __nv_fp6_interpretation_t;

/* ---- internal: formats shared with cuda_fp4.h ------------------------------------------
 * A format is a small integer: 0 E2M3, 1 E3M2 (fp6), 2 E2M1 (fp4). */
__NV6 int __nv_fpx_i_mbits(int __f) { return __f == 0 ? 3 : __f == 1 ? 2 : 1; }
__NV6 int __nv_fpx_i_ebits(int __f) { return __f == 1 ? 3 : 2; }
__NV6 int __nv_fpx_i_bias(int __f) { return __f == 1 ? 3 : 1; }
/* the sign bit; the largest code is sign - 1 in every format */
__NV6 unsigned int __nv_fpx_i_signbit(int __f) { return __f == 2 ? 0x8u : 0x20u; }

__NV6 unsigned long long __nv_fpx_i_dbits(double __d) {
  unsigned long long __u;
  __builtin_memcpy(&__u, &__d, sizeof __u);
  return __u;
}
__NV6 float __nv_fpx_i_bitsf(unsigned int __u) {
  float __f;
  __builtin_memcpy(&__f, &__u, sizeof __f);
  return __f;
}

/*
 * A double (given as its bits) to the format, saturating. __rnd: 0 nearest even, 1 toward
 * zero, 2 toward +infinity, 3 toward -infinity (enum cudaRoundMode's values).
 * The magnitude is s * 2^(e-52) (s the 53-bit significand); the quantum at exponent e is
 * 2^(max(e, emin) - M). Rounding s to that quantum gives an integer n, and the code is
 * ((max(e, emin) + bias - 1) << M) + n: a carry out of the mantissa moves into the exponent
 * field, and below emin the exponent field is 0 (subnormals).
 */
__NV6 unsigned int __nv_fpx_i_from_dbits(unsigned long long __u, int __fmt, int __rnd) {
  const int __m = __nv_fpx_i_mbits(__fmt);
  const int __bias = __nv_fpx_i_bias(__fmt);
  const unsigned int __signbit = __nv_fpx_i_signbit(__fmt);
  const unsigned int __maxcode = __signbit - 1u;
  const unsigned long long __a = __u & 0x7FFFFFFFFFFFFFFFull;
  if (__a > 0x7FF0000000000000ull) return __maxcode; /* NaN: +largest */
  const int __neg = (int)(__u >> 63);
  const unsigned int __sign = __neg ? __signbit : 0u;
  /* rounding away from zero for a directed mode that points away from this sign */
  const int __away = (__rnd == 2 && !__neg) || (__rnd == 3 && __neg);
  const int __bexp = (int)(__a >> 52);
  unsigned int __code;
  if (__a == 0) {
    __code = 0;
  } else if (__bexp >= 1023 + 6) { /* from 64 up, and infinity: beyond every format */
    __code = __maxcode;
  } else if (__bexp < 1023 - 30) { /* far below every smallest subnormal (>= 2^-4) */
    __code = __away ? 1u : 0u;
  } else {
    const int __e = __bexp - 1023;
    const int __emin = 1 - __bias;
    const int __eq = __e > __emin ? __e : __emin;
    const unsigned long long __s = (__a & 0x000FFFFFFFFFFFFFull) | 0x0010000000000000ull;
    const int __shift = 52 - __m + (__eq - __e);
    unsigned long long __n, __rem, __half_q;
    if (__shift >= 64) {
      __n = 0;
      __rem = __s;
      __half_q = ~0ull; /* the value is below a quarter of the quantum */
    } else {
      __n = __s >> __shift;
      __rem = __s & ((1ull << __shift) - 1ull);
      __half_q = 1ull << (__shift - 1);
    }
    if (__rnd == 0) {
      if (__rem > __half_q || (__rem == __half_q && (__n & 1ull))) __n += 1ull;
    } else if (__away && __rem != 0) {
      __n += 1ull;
    }
    const unsigned long long __c = ((unsigned long long)(__eq + __bias - 1) << __m) + __n;
    __code = __c > __maxcode ? __maxcode : (unsigned int)__c;
  }
  return __sign | __code;
}

/* Widening: the value's sign, and its magnitude as 2^__exp * (1 + frac / 2^__fb) with __fb
 * fraction bits, or zero. Returns 0 for zero, 1 otherwise. */
__NV6 int __nv_fpx_i_decode(unsigned int __c, int __fmt, int *__exp, unsigned int *__frac, int *__fb) {
  const int __m = __nv_fpx_i_mbits(__fmt);
  const int __bias = __nv_fpx_i_bias(__fmt);
  const unsigned int __e = (__c >> __m) & ((1u << __nv_fpx_i_ebits(__fmt)) - 1u);
  const unsigned int __f = __c & ((1u << __m) - 1u);
  if (__e != 0) {
    *__exp = (int)__e - __bias;
    *__frac = __f;
    *__fb = __m;
    return 1;
  }
  if (__f == 0) return 0;
  /* subnormal f * 2^(1 - bias - m): p is the position of f's leading bit */
  const int __p = (__f >= 4u) ? 2 : (__f >= 2u) ? 1 : 0;
  *__exp = __p + 1 - __bias - __m;
  *__frac = __f & ((1u << __p) - 1u);
  *__fb = __p;
  return 1;
}
__NV6 unsigned short __nv_fpx_i_to_hbits(unsigned int __c, int __fmt) {
  const unsigned int __signbit = __nv_fpx_i_signbit(__fmt);
  const unsigned int __sign = (__c & __signbit) ? 0x8000u : 0u;
  int __exp, __fb;
  unsigned int __frac;
  if (!__nv_fpx_i_decode(__c & (2u * __signbit - 1u), __fmt, &__exp, &__frac, &__fb)) return (unsigned short)__sign;
  return (unsigned short)(__sign | ((unsigned int)(__exp + 15) << 10) | (__frac << (10 - __fb)));
}
__NV6 float __nv_fpx_i_to_float(unsigned int __c, int __fmt) {
  const unsigned int __signbit = __nv_fpx_i_signbit(__fmt);
  const unsigned int __sign = (__c & __signbit) ? 0x80000000u : 0u;
  int __exp, __fb;
  unsigned int __frac;
  if (!__nv_fpx_i_decode(__c & (2u * __signbit - 1u), __fmt, &__exp, &__frac, &__fb)) return __nv_fpx_i_bitsf(__sign);
  return __nv_fpx_i_bitsf(__sign | ((unsigned int)(__exp + 127) << 23) | (__frac << (23 - __fb)));
}
/* float bits -> double bits, exact, in integer arithmetic (so a subnormal float stays exact
 * whatever the floating-point environment does with subnormal inputs). */
__NV6 unsigned long long __nv_fpx_i_f32bits_to_dbits(unsigned int __u) {
  const unsigned long long __sign = (unsigned long long)(__u >> 31) << 63;
  const unsigned int __e = (__u >> 23) & 0xFFu, __f = __u & 0x7FFFFFu;
  if (__e == 0xFFu) return __sign | 0x7FF0000000000000ull | ((unsigned long long)__f << 29);
  if (__e != 0) return __sign | ((unsigned long long)(__e + 1023u - 127u) << 52) | ((unsigned long long)__f << 29);
  if (__f == 0) return __sign;
  /* f * 2^-149 with f's leading bit at position p */
  const int __p = 31 - __builtin_clz(__f);
  return __sign | ((unsigned long long)(__p - 149 + 1023) << 52) |
         (((unsigned long long)__f << (52 - __p)) & 0x000FFFFFFFFFFFFFull);
}
__NV6 unsigned int __nv_fpx_i_fbits(float __f) {
  unsigned int __u;
  __builtin_memcpy(&__u, &__f, sizeof __u);
  return __u;
}
/* __half bits -> double, exact. */
__NV6 double __nv_fpx_i_hbits_to_double(unsigned short __h) {
  const unsigned int __e = ((unsigned int)__h >> 10) & 0x1Fu, __f = (unsigned int)__h & 0x3FFu;
  double __v;
  if (__e == 0x1Fu) {
    if (__f != 0) return __nv_fpx_i_bitsf(0x7FC00000u);
    __v = (double)__nv_fpx_i_bitsf(0x7F800000u);
  } else if (__e != 0) {
    __v = (double)(1024u + __f) * (double)__nv_fpx_i_bitsf((__e + 127u - 25u) << 23);
  } else {
    __v = (double)__f * 5.9604644775390625e-8; /* 2^-24 */
  }
  return (__h & 0x8000u) ? -__v : __v;
}

/* ---- conversion functions (CUDA Math API, "FP6 Conversion and Data Movement") ----------- */
__NV6 __nv_fp6_storage_t __nv_cvt_double_to_fp6(const double x, const __nv_fp6_interpretation_t fp6_interpretation,
                                               const enum cudaRoundMode rounding) {
  return (__nv_fp6_storage_t)__nv_fpx_i_from_dbits(__nv_fpx_i_dbits(x), (int)fp6_interpretation, (int)rounding);
}
__NV6 __nv_fp6x2_storage_t __nv_cvt_double2_to_fp6x2(const double2 x, const __nv_fp6_interpretation_t fp6_interpretation,
                                                     const enum cudaRoundMode rounding) {
  return (__nv_fp6x2_storage_t)(__nv_cvt_double_to_fp6(x.x, fp6_interpretation, rounding) |
                                ((unsigned int)__nv_cvt_double_to_fp6(x.y, fp6_interpretation, rounding) << 8));
}
/* float, __half and bf16 are exact in double; float and bf16 bits are widened as integers. */
__NV6 __nv_fp6_storage_t __nv_cvt_float_to_fp6(const float x, const __nv_fp6_interpretation_t fp6_interpretation,
                                              const enum cudaRoundMode rounding) {
  return (__nv_fp6_storage_t)__nv_fpx_i_from_dbits(__nv_fpx_i_f32bits_to_dbits(__nv_fpx_i_fbits(x)),
                                                   (int)fp6_interpretation, (int)rounding);
}
__NV6 __nv_fp6x2_storage_t __nv_cvt_float2_to_fp6x2(const float2 x, const __nv_fp6_interpretation_t fp6_interpretation,
                                                   const enum cudaRoundMode rounding) {
  return (__nv_fp6x2_storage_t)(__nv_cvt_float_to_fp6(x.x, fp6_interpretation, rounding) |
                                ((unsigned int)__nv_cvt_float_to_fp6(x.y, fp6_interpretation, rounding) << 8));
}
__NV6 __nv_fp6_storage_t __nv_cvt_halfraw_to_fp6(const __half_raw x, const __nv_fp6_interpretation_t fp6_interpretation,
                                                const enum cudaRoundMode rounding) {
  return __nv_cvt_double_to_fp6(__nv_fpx_i_hbits_to_double(x.x), fp6_interpretation, rounding);
}
__NV6 __nv_fp6x2_storage_t __nv_cvt_halfraw2_to_fp6x2(const __half2_raw x, const __nv_fp6_interpretation_t fp6_interpretation,
                                                     const enum cudaRoundMode rounding) {
  return (__nv_fp6x2_storage_t)(
      __nv_cvt_double_to_fp6(__nv_fpx_i_hbits_to_double(x.x), fp6_interpretation, rounding) |
      ((unsigned int)__nv_cvt_double_to_fp6(__nv_fpx_i_hbits_to_double(x.y), fp6_interpretation, rounding) << 8));
}
__NV6 __nv_fp6_storage_t __nv_cvt_bfloat16raw_to_fp6(const __nv_bfloat16_raw x,
                                                    const __nv_fp6_interpretation_t fp6_interpretation,
                                                    const enum cudaRoundMode rounding) {
  return (__nv_fp6_storage_t)__nv_fpx_i_from_dbits(__nv_fpx_i_f32bits_to_dbits((unsigned int)x.x << 16),
                                                   (int)fp6_interpretation, (int)rounding);
}
__NV6 __nv_fp6x2_storage_t __nv_cvt_bfloat16raw2_to_fp6x2(const __nv_bfloat162_raw x,
                                                         const __nv_fp6_interpretation_t fp6_interpretation,
                                                         const enum cudaRoundMode rounding) {
  __nv_bfloat16_raw __lo, __hi;
  __lo.x = x.x;
  __hi.x = x.y;
  return (__nv_fp6x2_storage_t)(__nv_cvt_bfloat16raw_to_fp6(__lo, fp6_interpretation, rounding) |
                                ((unsigned int)__nv_cvt_bfloat16raw_to_fp6(__hi, fp6_interpretation, rounding) << 8));
}
__NV6 __half_raw __nv_cvt_fp6_to_halfraw(const __nv_fp6_storage_t x, const __nv_fp6_interpretation_t fp6_interpretation) {
  __half_raw __r;
  __r.x = __nv_fpx_i_to_hbits(x, (int)fp6_interpretation);
  return __r;
}
__NV6 __half2_raw __nv_cvt_fp6x2_to_halfraw2(const __nv_fp6x2_storage_t x,
                                             const __nv_fp6_interpretation_t fp6_interpretation) {
  __half2_raw __r;
  __r.x = __nv_fpx_i_to_hbits(x & 0xFFu, (int)fp6_interpretation);
  __r.y = __nv_fpx_i_to_hbits((unsigned int)x >> 8, (int)fp6_interpretation);
  return __r;
}

#if defined(__cplusplus)
/* ---- internal: class helpers (shared with cuda_fp4.h) ------------------------------------ */
/* Truncate toward zero, saturate to [lo, hi] (the values are small: only unsigned types'
 * lower bound 0 can apply). */
__NV6 long long __nv_fpx_i_to_int(float __f, long long __lo, long long __hi) {
  const long long __t = (long long)__f;
  return __t < __lo ? __lo : __t > __hi ? __hi : __t;
}
__NV6 unsigned long long __nv_fpx_i_to_uint(float __f) { return __f <= 0.0f ? 0ull : (unsigned long long)__f; }

#if __NV_FPX_CUDA_MODE
__NV6 __half __nv_fpx_i_to_half(unsigned int __c, int __fmt) {
  __half_raw __r;
  __r.x = __nv_fpx_i_to_hbits(__c, __fmt);
  return __half(__r);
}
/* every fp6 / fp4 value is exact in bf16: the float's upper half */
__NV6 __nv_bfloat16 __nv_fpx_i_to_bf16(unsigned int __c, int __fmt) {
  float __f = __nv_fpx_i_to_float(__c, __fmt);
  unsigned int __u;
  __builtin_memcpy(&__u, &__f, sizeof __u);
  __nv_bfloat16_raw __r;
  __r.x = (unsigned short)(__u >> 16);
  return __nv_bfloat16(__r);
}
#endif

/* The scalar class members, for a storage byte __x of format FMT (also used by cuda_fp4.h).
 * CVT: the __nv_cvt_* name stem (fp6 / fp4), KIND: its interpretation enumerator. */
#if __NV_FPX_CUDA_MODE
#define __NV_FPX_SCALAR_HALF_BF16(T, CVT, KIND)                                                      \
  explicit __NV6_CTOR T(const __half f) {                                                            \
    __x = __nv_cvt_halfraw_to_##CVT(static_cast<__half_raw>(f), KIND, cudaRoundNearest);             \
  }                                                                                                  \
  explicit __NV6_CTOR T(const __nv_bfloat16 f) {                                                     \
    __x = __nv_cvt_bfloat16raw_to_##CVT(static_cast<__nv_bfloat16_raw>(f), KIND, cudaRoundNearest);  \
  }
#define __NV_FPX_SCALAR_HALF_BF16_OPS(FMT)                                                           \
  explicit __NV6_CTOR operator __half() const { return __nv_fpx_i_to_half(__x, FMT); }               \
  explicit __NV6_CTOR operator __nv_bfloat16() const { return __nv_fpx_i_to_bf16(__x, FMT); }
#else
#define __NV_FPX_SCALAR_HALF_BF16(T, CVT, KIND)
#define __NV_FPX_SCALAR_HALF_BF16_OPS(FMT)
#endif
#define __NV_FPX_SCALAR_CTORS(T, CVT, KIND)                                                          \
  __NV_FPX_SCALAR_HALF_BF16(T, CVT, KIND)                                                            \
  explicit __NV6_CTOR T(const float f) { __x = __nv_cvt_float_to_##CVT(f, KIND, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const double f) { __x = __nv_cvt_double_to_##CVT(f, KIND, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const unsigned short int v) { __x = __nv_cvt_float_to_##CVT((float)v, KIND, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const unsigned int v) { __x = __nv_cvt_float_to_##CVT((float)v, KIND, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const unsigned long int v) { __x = __nv_cvt_float_to_##CVT((float)v, KIND, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const unsigned long long int v) { __x = __nv_cvt_float_to_##CVT((float)v, KIND, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const short int v) { __x = __nv_cvt_float_to_##CVT((float)v, KIND, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const int v) { __x = __nv_cvt_float_to_##CVT((float)v, KIND, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const long int v) { __x = __nv_cvt_float_to_##CVT((float)v, KIND, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const long long int v) { __x = __nv_cvt_float_to_##CVT((float)v, KIND, cudaRoundNearest); }
#define __NV_FPX_SCALAR_OPS(FMT)                                                                     \
  __NV_FPX_SCALAR_HALF_BF16_OPS(FMT)                                                                 \
  explicit __NV6_CTOR operator float() const { return __nv_fpx_i_to_float(__x, FMT); }               \
  explicit __NV6_CTOR operator double() const { return (double)__nv_fpx_i_to_float(__x, FMT); }      \
  explicit __NV6_CTOR operator unsigned char() const {                                               \
    return (unsigned char)__nv_fpx_i_to_uint(__nv_fpx_i_to_float(__x, FMT));                         \
  }                                                                                                  \
  explicit __NV6_CTOR operator unsigned short int() const {                                          \
    return (unsigned short)__nv_fpx_i_to_uint(__nv_fpx_i_to_float(__x, FMT));                        \
  }                                                                                                  \
  explicit __NV6_CTOR operator unsigned int() const {                                                \
    return (unsigned int)__nv_fpx_i_to_uint(__nv_fpx_i_to_float(__x, FMT));                          \
  }                                                                                                  \
  explicit __NV6_CTOR operator unsigned long int() const {                                           \
    return (unsigned long)__nv_fpx_i_to_uint(__nv_fpx_i_to_float(__x, FMT));                         \
  }                                                                                                  \
  explicit __NV6_CTOR operator unsigned long long int() const {                                      \
    return __nv_fpx_i_to_uint(__nv_fpx_i_to_float(__x, FMT));                                        \
  }                                                                                                  \
  explicit __NV6_CTOR operator signed char() const {                                                 \
    return (signed char)__nv_fpx_i_to_int(__nv_fpx_i_to_float(__x, FMT), -128, 127);                 \
  }                                                                                                  \
  explicit __NV6_CTOR operator char() const {                                                        \
    return ((char)-1 < (char)0) ? (char)static_cast<signed char>(*this)                              \
                                : (char)static_cast<unsigned char>(*this);                           \
  }                                                                                                  \
  explicit __NV6_CTOR operator short int() const {                                                   \
    return (short)__nv_fpx_i_to_int(__nv_fpx_i_to_float(__x, FMT), -32768, 32767);                   \
  }                                                                                                  \
  explicit __NV6_CTOR operator int() const { return (int)(long long)__nv_fpx_i_to_float(__x, FMT); } \
  explicit __NV6_CTOR operator long int() const { return (long)__nv_fpx_i_to_float(__x, FMT); }      \
  explicit __NV6_CTOR operator long long int() const { return (long long)__nv_fpx_i_to_float(__x, FMT); } \
  explicit __NV6_CTOR operator bool() const {                                                        \
    return (__x & (__nv_fpx_i_signbit(FMT) - 1u)) != 0u;                                             \
  }

#if !defined(__CUDA_NO_FP6_CONVERSIONS__)
#if !defined(__CUDA_NO_FP6_CONVERSION_OPERATORS__)
#define __NV6_SCALAR_OPS(FMT) __NV_FPX_SCALAR_OPS(FMT)
#if __NV_FPX_CUDA_MODE
#define __NV6_X2_HALF_OPS(K)                                                                         \
  explicit __NV6_CTOR operator __half2() const { return __half2(__nv_cvt_fp6x2_to_halfraw2(__x, K)); }
#else
#define __NV6_X2_HALF_OPS(K)
#endif
#define __NV6_X2_OPS(K)                                                                              \
  __NV6_X2_HALF_OPS(K)                                                                               \
  explicit __NV6_CTOR operator float2() const {                                                      \
    float2 __r;                                                                                      \
    __r.x = __nv_fpx_i_to_float(__x & 0xFFu, (int)K);                                                \
    __r.y = __nv_fpx_i_to_float((unsigned int)__x >> 8, (int)K);                                     \
    return __r;                                                                                      \
  }
#define __NV6_X4_OPS(K)                                                                              \
  explicit __NV6_CTOR operator float4() const {                                                      \
    float4 __r;                                                                                      \
    __r.x = __nv_fpx_i_to_float(__x & 0xFFu, (int)K);                                                \
    __r.y = __nv_fpx_i_to_float((__x >> 8) & 0xFFu, (int)K);                                         \
    __r.z = __nv_fpx_i_to_float((__x >> 16) & 0xFFu, (int)K);                                        \
    __r.w = __nv_fpx_i_to_float(__x >> 24, (int)K);                                                  \
    return __r;                                                                                      \
  }
#else
#define __NV6_SCALAR_OPS(FMT)
#define __NV6_X2_OPS(K)
#define __NV6_X4_OPS(K)
#endif

#if __NV_FPX_CUDA_MODE
#define __NV6_X2_HALF_BF16(T, K)                                                                     \
  explicit __NV6_CTOR T(const __half2 f) {                                                           \
    __x = __nv_cvt_halfraw2_to_fp6x2(static_cast<__half2_raw>(f), K, cudaRoundNearest);              \
  }                                                                                                  \
  explicit __NV6_CTOR T(const __nv_bfloat162 f) {                                                    \
    __x = __nv_cvt_bfloat16raw2_to_fp6x2(static_cast<__nv_bfloat162_raw>(f), K, cudaRoundNearest);   \
  }
#define __NV6_X4_HALF_BF16(T, K)                                                                     \
  explicit __NV6_CTOR T(const __half2 flo, const __half2 fhi) {                                      \
    __x = (unsigned int)__nv_cvt_halfraw2_to_fp6x2(static_cast<__half2_raw>(flo), K, cudaRoundNearest) | \
          ((unsigned int)__nv_cvt_halfraw2_to_fp6x2(static_cast<__half2_raw>(fhi), K, cudaRoundNearest) << 16); \
  }                                                                                                  \
  explicit __NV6_CTOR T(const __nv_bfloat162 flo, const __nv_bfloat162 fhi) {                        \
    __x = (unsigned int)__nv_cvt_bfloat16raw2_to_fp6x2(static_cast<__nv_bfloat162_raw>(flo), K, cudaRoundNearest) | \
          ((unsigned int)__nv_cvt_bfloat16raw2_to_fp6x2(static_cast<__nv_bfloat162_raw>(fhi), K, cudaRoundNearest) << 16); \
  }
#else
#define __NV6_X2_HALF_BF16(T, K)
#define __NV6_X4_HALF_BF16(T, K)
#endif
#define __NV6_SCALAR_CTORS(T, K) __NV_FPX_SCALAR_CTORS(T, fp6, K)
#define __NV6_X2_CTORS(T, K)                                                                         \
  __NV6_X2_HALF_BF16(T, K)                                                                           \
  explicit __NV6_CTOR T(const float2 f) { __x = __nv_cvt_float2_to_fp6x2(f, K, cudaRoundNearest); }  \
  explicit __NV6_CTOR T(const double2 f) { __x = __nv_cvt_double2_to_fp6x2(f, K, cudaRoundNearest); }
#define __NV6_X4_FROM4(T, K, V4, CVT)                                                                \
  explicit __NV6_CTOR T(const V4 f) {                                                                \
    __x = (unsigned int)CVT(f.x, K, cudaRoundNearest) | ((unsigned int)CVT(f.y, K, cudaRoundNearest) << 8) | \
          ((unsigned int)CVT(f.z, K, cudaRoundNearest) << 16) | ((unsigned int)CVT(f.w, K, cudaRoundNearest) << 24); \
  }
#define __NV6_X4_CTORS(T, K)                                                                         \
  __NV6_X4_HALF_BF16(T, K)                                                                           \
  __NV6_X4_FROM4(T, K, float4, __nv_cvt_float_to_fp6)                                               \
  __NV6_X4_FROM4(T, K, double4, __nv_cvt_double_to_fp6)                                             \
  __NV6_X4_FROM4(T, K, double4_16a, __nv_cvt_double_to_fp6)                                         \
  __NV6_X4_FROM4(T, K, double4_32a, __nv_cvt_double_to_fp6)
#else
#define __NV6_SCALAR_CTORS(T, K)
#define __NV6_SCALAR_OPS(FMT)
#define __NV6_X2_CTORS(T, K)
#define __NV6_X2_OPS(K)
#define __NV6_X4_CTORS(T, K)
#define __NV6_X4_OPS(K)
#endif /* !__CUDA_NO_FP6_CONVERSIONS__ */

/* The classes: the storage as public member __x, trivially default-constructible, aligned
 * to their size (CUDA Math API, "C++ struct for handling fp6 data type"). */
#define __NV6_CLASSES(KIND, K)                                                                       \
  struct __attribute__((aligned(1))) __nv_fp6_##KIND {                                               \
    __nv_fp6_storage_t __x;                                                                          \
    __nv_fp6_##KIND() = default;                                                                     \
    __NV6_SCALAR_CTORS(__nv_fp6_##KIND, K)                                                           \
    __NV6_SCALAR_OPS((int)K)                                                                         \
  };                                                                                                 \
  struct __attribute__((aligned(2))) __nv_fp6x2_##KIND {                                             \
    __nv_fp6x2_storage_t __x;                                                                        \
    __nv_fp6x2_##KIND() = default;                                                                   \
    __NV6_X2_CTORS(__nv_fp6x2_##KIND, K)                                                             \
    __NV6_X2_OPS(K)                                                                                  \
  };                                                                                                 \
  struct __attribute__((aligned(4))) __nv_fp6x4_##KIND {                                             \
    __nv_fp6x4_storage_t __x;                                                                        \
    __nv_fp6x4_##KIND() = default;                                                                   \
    __NV6_X4_CTORS(__nv_fp6x4_##KIND, K)                                                             \
    __NV6_X4_OPS(K)                                                                                  \
  };
__NV6_CLASSES(e3m2, __NV_E3M2)
__NV6_CLASSES(e2m3, __NV_E2M3)

#undef __NV6_CLASSES
#undef __NV6_SCALAR_CTORS
#undef __NV6_SCALAR_OPS
#undef __NV6_X2_CTORS
#undef __NV6_X2_OPS
#undef __NV6_X2_HALF_OPS
#undef __NV6_X4_CTORS
#undef __NV6_X4_OPS
#undef __NV6_X4_FROM4
#undef __NV6_X2_HALF_BF16
#undef __NV6_X4_HALF_BF16
#endif /* __cplusplus */

/* __NV6, __NV6_CTOR, __NV_FPX_CUDA_MODE and the __NV_FPX_SCALAR_* macros stay defined for
 * cuda_fp4.h (reserved names). */
#endif /* __CUDA_FP6_H__ */
