/*
 * 4-bit floating point (ours): the storage types, the conversion functions and the C++ types
 * __nv_fp4_e2m1, __nv_fp4x2_e2m1 and __nv_fp4x4_e2m1 of the CUDA Math API's "FP4
 * Intrinsics" section, computed in software with cuda_fp6.h's helpers (which this header
 * includes, as NVIDIA's does), identically in host and device code, for the same three
 * compilers (our NVRTC, a CUDA compiler, a plain C / C++ host compiler).
 *
 * The format (OCP Microscaling formats; CUDA Math API, "FP4 Intrinsics"): E2M1, 1 sign,
 * 2 exponent (bias 1), 1 mantissa bit; no infinities, no NaN. Values 0, 0.5, 1, 1.5, 2, 3,
 * 4, 6 (codes 0..7) and their negatives (8..15).
 * Storage: one value in the low nibble of a byte (conversions return the upper nibble clear
 * and ignore it on input); x2 in one byte and x4 in two, element 0 in the least significant
 * nibble.
 *
 * Narrowing: cudaRoundNearest (ties to the even code) or cudaRoundZero; we also honour
 * cudaRoundPosInf / cudaRoundMinInf as directed rounding (NVIDIA's header accepts only the
 * first two, asserting otherwise). Out-of-range values and infinities saturate to +-6, NaN
 * gives +6 (0x7), a zero or a magnitude rounded to zero keeps its sign. Widening is exact.
 * The classes' constructors round to nearest and saturate; integer constructors go through
 * float; integer operators truncate toward zero (negative values give 0 for unsigned types).
 * __CUDA_NO_FP4_CONVERSIONS__ removes the classes' converting constructors and operators,
 * __CUDA_NO_FP4_CONVERSION_OPERATORS__ only the operators.
 */
#if defined(__clang__)
#pragma clang system_header
#elif defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CUDA_FP4_H__
#define __CUDA_FP4_H__
#define __CUDA_FP4_HPP__
#define __CUDA_FP4_TYPES_EXIST__

#include "cuda_fp6.h"

/* Storage: a byte holds one value (x1, low nibble) or two (x2); x4 is 16 bits. */
typedef __nv_fp8_storage_t __nv_fp4_storage_t;
typedef __nv_fp8_storage_t __nv_fp4x2_storage_t;
typedef __nv_fp8x2_storage_t __nv_fp4x4_storage_t;

typedef enum __nv_fp4_interpretation_t {
  __NV_E2M1,
} __nv_fp4_interpretation_t;

/* format 2 of cuda_fp6.h's helpers is E2M1 (the only interpretation) */
#define __NV4_FMT(K) ((int)(K) + 2)

/* ---- conversion functions (CUDA Math API, "FP4 Conversion and Data Movement") ----------- */
__NV6 __nv_fp4_storage_t __nv_cvt_double_to_fp4(const double x, const __nv_fp4_interpretation_t fp4_interpretation,
                                               const enum cudaRoundMode rounding) {
  return (__nv_fp4_storage_t)__nv_fpx_i_from_dbits(__nv_fpx_i_dbits(x), __NV4_FMT(fp4_interpretation), (int)rounding);
}
__NV6 __nv_fp4x2_storage_t __nv_cvt_double2_to_fp4x2(const double2 x, const __nv_fp4_interpretation_t fp4_interpretation,
                                                     const enum cudaRoundMode rounding) {
  return (__nv_fp4x2_storage_t)(__nv_cvt_double_to_fp4(x.x, fp4_interpretation, rounding) |
                                ((unsigned int)__nv_cvt_double_to_fp4(x.y, fp4_interpretation, rounding) << 4));
}
__NV6 __nv_fp4_storage_t __nv_cvt_float_to_fp4(const float x, const __nv_fp4_interpretation_t fp4_interpretation,
                                              const enum cudaRoundMode rounding) {
  return (__nv_fp4_storage_t)__nv_fpx_i_from_dbits(__nv_fpx_i_f32bits_to_dbits(__nv_fpx_i_fbits(x)),
                                                   __NV4_FMT(fp4_interpretation), (int)rounding);
}
__NV6 __nv_fp4x2_storage_t __nv_cvt_float2_to_fp4x2(const float2 x, const __nv_fp4_interpretation_t fp4_interpretation,
                                                   const enum cudaRoundMode rounding) {
  return (__nv_fp4x2_storage_t)(__nv_cvt_float_to_fp4(x.x, fp4_interpretation, rounding) |
                                ((unsigned int)__nv_cvt_float_to_fp4(x.y, fp4_interpretation, rounding) << 4));
}
__NV6 __nv_fp4_storage_t __nv_cvt_halfraw_to_fp4(const __half_raw x, const __nv_fp4_interpretation_t fp4_interpretation,
                                                const enum cudaRoundMode rounding) {
  return __nv_cvt_double_to_fp4(__nv_fpx_i_hbits_to_double(x.x), fp4_interpretation, rounding);
}
__NV6 __nv_fp4x2_storage_t __nv_cvt_halfraw2_to_fp4x2(const __half2_raw x, const __nv_fp4_interpretation_t fp4_interpretation,
                                                     const enum cudaRoundMode rounding) {
  return (__nv_fp4x2_storage_t)(
      __nv_cvt_double_to_fp4(__nv_fpx_i_hbits_to_double(x.x), fp4_interpretation, rounding) |
      ((unsigned int)__nv_cvt_double_to_fp4(__nv_fpx_i_hbits_to_double(x.y), fp4_interpretation, rounding) << 4));
}
__NV6 __nv_fp4_storage_t __nv_cvt_bfloat16raw_to_fp4(const __nv_bfloat16_raw x,
                                                    const __nv_fp4_interpretation_t fp4_interpretation,
                                                    const enum cudaRoundMode rounding) {
  return (__nv_fp4_storage_t)__nv_fpx_i_from_dbits(__nv_fpx_i_f32bits_to_dbits((unsigned int)x.x << 16),
                                                   __NV4_FMT(fp4_interpretation), (int)rounding);
}
__NV6 __nv_fp4x2_storage_t __nv_cvt_bfloat16raw2_to_fp4x2(const __nv_bfloat162_raw x,
                                                         const __nv_fp4_interpretation_t fp4_interpretation,
                                                         const enum cudaRoundMode rounding) {
  __nv_bfloat16_raw __lo, __hi;
  __lo.x = x.x;
  __hi.x = x.y;
  return (__nv_fp4x2_storage_t)(__nv_cvt_bfloat16raw_to_fp4(__lo, fp4_interpretation, rounding) |
                                ((unsigned int)__nv_cvt_bfloat16raw_to_fp4(__hi, fp4_interpretation, rounding) << 4));
}
__NV6 __half_raw __nv_cvt_fp4_to_halfraw(const __nv_fp4_storage_t x, const __nv_fp4_interpretation_t fp4_interpretation) {
  __half_raw __r;
  __r.x = __nv_fpx_i_to_hbits(x, __NV4_FMT(fp4_interpretation));
  return __r;
}
__NV6 __half2_raw __nv_cvt_fp4x2_to_halfraw2(const __nv_fp4x2_storage_t x,
                                             const __nv_fp4_interpretation_t fp4_interpretation) {
  __half2_raw __r;
  __r.x = __nv_fpx_i_to_hbits(x & 0xFu, __NV4_FMT(fp4_interpretation));
  __r.y = __nv_fpx_i_to_hbits((unsigned int)x >> 4, __NV4_FMT(fp4_interpretation));
  return __r;
}

#if defined(__cplusplus)
#if !defined(__CUDA_NO_FP4_CONVERSIONS__)
#if !defined(__CUDA_NO_FP4_CONVERSION_OPERATORS__)
#define __NV4_SCALAR_OPS __NV_FPX_SCALAR_OPS(2)
#if __NV_FPX_CUDA_MODE
#define __NV4_X2_HALF_OPS                                                                            \
  explicit __NV6_CTOR operator __half2() const { return __half2(__nv_cvt_fp4x2_to_halfraw2(__x, __NV_E2M1)); }
#else
#define __NV4_X2_HALF_OPS
#endif
#define __NV4_X2_OPS                                                                                 \
  __NV4_X2_HALF_OPS                                                                                  \
  explicit __NV6_CTOR operator float2() const {                                                      \
    float2 __r;                                                                                      \
    __r.x = __nv_fpx_i_to_float(__x & 0xFu, 2);                                                      \
    __r.y = __nv_fpx_i_to_float((unsigned int)__x >> 4, 2);                                          \
    return __r;                                                                                      \
  }
#define __NV4_X4_OPS                                                                                 \
  explicit __NV6_CTOR operator float4() const {                                                      \
    float4 __r;                                                                                      \
    __r.x = __nv_fpx_i_to_float(__x & 0xFu, 2);                                                      \
    __r.y = __nv_fpx_i_to_float((__x >> 4) & 0xFu, 2);                                               \
    __r.z = __nv_fpx_i_to_float((__x >> 8) & 0xFu, 2);                                               \
    __r.w = __nv_fpx_i_to_float((unsigned int)__x >> 12, 2);                                         \
    return __r;                                                                                      \
  }
#else
#define __NV4_SCALAR_OPS
#define __NV4_X2_OPS
#define __NV4_X4_OPS
#endif

#if __NV_FPX_CUDA_MODE
#define __NV4_X2_HALF_BF16(T)                                                                        \
  explicit __NV6_CTOR T(const __half2 f) {                                                           \
    __x = __nv_cvt_halfraw2_to_fp4x2(static_cast<__half2_raw>(f), __NV_E2M1, cudaRoundNearest);      \
  }                                                                                                  \
  explicit __NV6_CTOR T(const __nv_bfloat162 f) {                                                    \
    __x = __nv_cvt_bfloat16raw2_to_fp4x2(static_cast<__nv_bfloat162_raw>(f), __NV_E2M1, cudaRoundNearest); \
  }
#define __NV4_X4_HALF_BF16(T)                                                                        \
  explicit __NV6_CTOR T(const __half2 flo, const __half2 fhi) {                                      \
    __x = (__nv_fp4x4_storage_t)(                                                                    \
        (unsigned int)__nv_cvt_halfraw2_to_fp4x2(static_cast<__half2_raw>(flo), __NV_E2M1, cudaRoundNearest) | \
        ((unsigned int)__nv_cvt_halfraw2_to_fp4x2(static_cast<__half2_raw>(fhi), __NV_E2M1, cudaRoundNearest) << 8)); \
  }                                                                                                  \
  explicit __NV6_CTOR T(const __nv_bfloat162 flo, const __nv_bfloat162 fhi) {                        \
    __x = (__nv_fp4x4_storage_t)(                                                                    \
        (unsigned int)__nv_cvt_bfloat16raw2_to_fp4x2(static_cast<__nv_bfloat162_raw>(flo), __NV_E2M1, cudaRoundNearest) | \
        ((unsigned int)__nv_cvt_bfloat16raw2_to_fp4x2(static_cast<__nv_bfloat162_raw>(fhi), __NV_E2M1, cudaRoundNearest) << 8)); \
  }
#else
#define __NV4_X2_HALF_BF16(T)
#define __NV4_X4_HALF_BF16(T)
#endif
#define __NV4_SCALAR_CTORS(T) __NV_FPX_SCALAR_CTORS(T, fp4, __NV_E2M1)
#define __NV4_X2_CTORS(T)                                                                            \
  __NV4_X2_HALF_BF16(T)                                                                              \
  explicit __NV6_CTOR T(const float2 f) { __x = __nv_cvt_float2_to_fp4x2(f, __NV_E2M1, cudaRoundNearest); } \
  explicit __NV6_CTOR T(const double2 f) { __x = __nv_cvt_double2_to_fp4x2(f, __NV_E2M1, cudaRoundNearest); }
#define __NV4_X4_FROM4(T, V4, CVT)                                                                   \
  explicit __NV6_CTOR T(const V4 f) {                                                                \
    __x = (__nv_fp4x4_storage_t)((unsigned int)CVT(f.x, __NV_E2M1, cudaRoundNearest) |               \
                                 ((unsigned int)CVT(f.y, __NV_E2M1, cudaRoundNearest) << 4) |        \
                                 ((unsigned int)CVT(f.z, __NV_E2M1, cudaRoundNearest) << 8) |        \
                                 ((unsigned int)CVT(f.w, __NV_E2M1, cudaRoundNearest) << 12));       \
  }
#define __NV4_X4_CTORS(T)                                                                            \
  __NV4_X4_HALF_BF16(T)                                                                              \
  __NV4_X4_FROM4(T, float4, __nv_cvt_float_to_fp4)                                                  \
  __NV4_X4_FROM4(T, double4, __nv_cvt_double_to_fp4)                                                \
  __NV4_X4_FROM4(T, double4_16a, __nv_cvt_double_to_fp4)                                            \
  __NV4_X4_FROM4(T, double4_32a, __nv_cvt_double_to_fp4)
#else
#define __NV4_SCALAR_CTORS(T)
#define __NV4_SCALAR_OPS
#define __NV4_X2_CTORS(T)
#define __NV4_X2_OPS
#define __NV4_X4_CTORS(T)
#define __NV4_X4_OPS
#endif /* !__CUDA_NO_FP4_CONVERSIONS__ */

/* The classes: the storage as public member __x, trivially default-constructible, aligned
 * to their size (CUDA Math API, "C++ struct for handling fp4 data type"). */
struct __attribute__((aligned(1))) __nv_fp4_e2m1 {
  __nv_fp4_storage_t __x;
  __nv_fp4_e2m1() = default;
  __NV4_SCALAR_CTORS(__nv_fp4_e2m1)
  __NV4_SCALAR_OPS
};
struct __attribute__((aligned(1))) __nv_fp4x2_e2m1 {
  __nv_fp4x2_storage_t __x;
  __nv_fp4x2_e2m1() = default;
  __NV4_X2_CTORS(__nv_fp4x2_e2m1)
  __NV4_X2_OPS
};
struct __attribute__((aligned(2))) __nv_fp4x4_e2m1 {
  __nv_fp4x4_storage_t __x;
  __nv_fp4x4_e2m1() = default;
  __NV4_X4_CTORS(__nv_fp4x4_e2m1)
  __NV4_X4_OPS
};

#undef __NV4_SCALAR_CTORS
#undef __NV4_SCALAR_OPS
#undef __NV4_X2_CTORS
#undef __NV4_X2_OPS
#undef __NV4_X2_HALF_OPS
#undef __NV4_X4_CTORS
#undef __NV4_X4_OPS
#undef __NV4_X4_FROM4
#undef __NV4_X2_HALF_BF16
#undef __NV4_X4_HALF_BF16
#endif /* __cplusplus */

#undef __NV4_FMT
#endif /* __CUDA_FP4_H__ */
