/*
 * bfloat16 (ours): __nv_bfloat16 and __nv_bfloat162 with conversions, arithmetic,
 * comparisons, math functions, warp shuffles and atomics. Arithmetic is done in float
 * and rounded once (exact for +, -, *, /, sqrt: float carries more than 2p+2 bits).
 */
#pragma clang system_header
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
#define __CUDA_BF16_TYPES_EXIST__
#include "cuda_fp16.h"

#define __NVB __host__ __device__ __forceinline__

typedef struct __nv_bfloat16_raw { unsigned short x; } __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw { unsigned short x, y; } __nv_bfloat162_raw;

/* float -> bf16, round to nearest even (NaN stays NaN). */
__NVB unsigned short __nv_f2bf_bits(float __f) {
  unsigned int __u = __builtin_bit_cast(unsigned int, __f);
  if ((__u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((__u >> 16) | 0x40);
  __u += 0x7fffu + ((__u >> 16) & 1u);
  return (unsigned short)(__u >> 16);
}
__NVB float __nv_bf2f(unsigned short __b) { return __builtin_bit_cast(float, (unsigned int)__b << 16); }

struct __attribute__((aligned(2))) __nv_bfloat16 {
 protected:
  unsigned short __x;

 public:
  __nv_bfloat16() = default;
  __NVB __nv_bfloat16(const __nv_bfloat16_raw &__r) : __x(__r.x) {}
  __NVB __nv_bfloat16 &operator=(const __nv_bfloat16_raw &__r) { __x = __r.x; return *this; }
  __NVB operator __nv_bfloat16_raw() const { __nv_bfloat16_raw __r; __r.x = __x; return __r; }
  __NVB __nv_bfloat16(float __v) : __x(__nv_f2bf_bits(__v)) {}
  __NVB __nv_bfloat16(double __v) : __x(__nv_f2bf_bits((float)__v)) {}
  __NVB __nv_bfloat16(int __v) : __x(__nv_f2bf_bits((float)__v)) {}
  __NVB __nv_bfloat16(unsigned int __v) : __x(__nv_f2bf_bits((float)__v)) {}
  __NVB __nv_bfloat16(short __v) : __x(__nv_f2bf_bits((float)__v)) {}
  __NVB __nv_bfloat16(unsigned short __v) : __x(__nv_f2bf_bits((float)__v)) {}
  __NVB __nv_bfloat16(long long __v) : __x(__nv_f2bf_bits((float)__v)) {}
  __NVB __nv_bfloat16(unsigned long long __v) : __x(__nv_f2bf_bits((float)__v)) {}
  __NVB __nv_bfloat16(const __half &__h) : __x(__nv_f2bf_bits((float)__h)) {}
  __NVB operator float() const { return __nv_bf2f(__x); }
  __NVB __nv_bfloat16 &operator=(float __v) { __x = __nv_f2bf_bits(__v); return *this; }
  __NVB __nv_bfloat16 &operator=(double __v) { __x = __nv_f2bf_bits((float)__v); return *this; }
  __NVB __nv_bfloat16 &operator=(short __v) { __x = __nv_f2bf_bits((float)__v); return *this; }
  __NVB __nv_bfloat16 &operator=(unsigned short __v) { __x = __nv_f2bf_bits((float)__v); return *this; }
  __NVB __nv_bfloat16 &operator=(int __v) { __x = __nv_f2bf_bits((float)__v); return *this; }
  __NVB __nv_bfloat16 &operator=(unsigned int __v) { __x = __nv_f2bf_bits((float)__v); return *this; }
  __NVB __nv_bfloat16 &operator=(long long __v) { __x = __nv_f2bf_bits((float)__v); return *this; }
  __NVB __nv_bfloat16 &operator=(unsigned long long __v) { __x = __nv_f2bf_bits((float)__v); return *this; }
  __NVB explicit operator bool() const { return (__x & 0x7fff) != 0; }
  __NVB explicit operator short() const { return (short)__nv_bf2f(__x); }
  __NVB explicit operator unsigned short() const { return (unsigned short)__nv_bf2f(__x); }
  __NVB explicit operator int() const { return (int)__nv_bf2f(__x); }
  __NVB explicit operator unsigned int() const { return (unsigned int)__nv_bf2f(__x); }
  __NVB explicit operator long long() const { return (long long)__nv_bf2f(__x); }
  __NVB explicit operator unsigned long long() const { return (unsigned long long)__nv_bf2f(__x); }
  __NVB explicit operator double() const { return (double)__nv_bf2f(__x); }
};

struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __NVB __nv_bfloat162(const __nv_bfloat16 &__a, const __nv_bfloat16 &__b) : x(__a), y(__b) {}
  __NVB __nv_bfloat162(const __nv_bfloat162_raw &__r) : x(__nv_bfloat16_raw{__r.x}), y(__nv_bfloat16_raw{__r.y}) {}
  __NVB operator __nv_bfloat162_raw() const {
    __nv_bfloat162_raw __r;
    __r.x = ((__nv_bfloat16_raw)x).x;
    __r.y = ((__nv_bfloat16_raw)y).x;
    return __r;
  }
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#define __NV_BF __nv_bfloat16
#define __NV_BF2 __nv_bfloat162

/* ---- conversions ---------------------------------------------------------------------- */
__NVB float __bfloat162float(__NV_BF __a) { return (float)__a; }
__NVB __NV_BF __float2bfloat16(float __a) { return __NV_BF(__a); }
__NVB __NV_BF __float2bfloat16_rn(float __a) { return __NV_BF(__a); }
__NVB __NV_BF __double2bfloat16(double __a) { return __NV_BF((float)__a); }
__NVB __NV_BF __nv_f2bf_dir(float __a, int __mode /* 1 toward zero, 2 down, 3 up */) {
  unsigned int __u = __builtin_bit_cast(unsigned int, __a);
  if ((__u & 0x7fffffffu) > 0x7f800000u || (__u & 0xffffu) == 0) return __NV_BF(__nv_bfloat16_raw{(unsigned short)(__u >> 16)});
  unsigned short __t = (unsigned short)(__u >> 16); /* truncated: toward zero */
  bool __neg = __u >> 31;
  bool __away = (__mode == 2 && __neg) || (__mode == 3 && !__neg);
  return __NV_BF(__nv_bfloat16_raw{(unsigned short)(__away ? __t + 1 : __t)});
}
__NVB __NV_BF __float2bfloat16_rz(float __a) { return __nv_f2bf_dir(__a, 1); }
__NVB __NV_BF __float2bfloat16_rd(float __a) { return __nv_f2bf_dir(__a, 2); }
__NVB __NV_BF __float2bfloat16_ru(float __a) { return __nv_f2bf_dir(__a, 3); }
__NVB __NV_BF2 __float2bfloat162_rn(float __a) { return __NV_BF2(__NV_BF(__a), __NV_BF(__a)); }
__NVB __NV_BF2 __floats2bfloat162_rn(float __a, float __b) { return __NV_BF2(__NV_BF(__a), __NV_BF(__b)); }
__NVB __NV_BF2 __float22bfloat162_rn(float2 __a) { return __NV_BF2(__NV_BF(__a.x), __NV_BF(__a.y)); }
__NVB float2 __bfloat1622float2(__NV_BF2 __a) { return make_float2((float)__a.x, (float)__a.y); }
__NVB float __low2float(__NV_BF2 __a) { return (float)__a.x; }
__NVB float __high2float(__NV_BF2 __a) { return (float)__a.y; }
__NVB __NV_BF __low2bfloat16(__NV_BF2 __a) { return __a.x; }
__NVB __NV_BF __high2bfloat16(__NV_BF2 __a) { return __a.y; }
__NVB __NV_BF2 __halves2bfloat162(__NV_BF __a, __NV_BF __b) { return __NV_BF2(__a, __b); }
__NVB __NV_BF2 __bfloat162bfloat162(__NV_BF __a) { return __NV_BF2(__a, __a); }
__NVB __NV_BF2 __low2bfloat162(__NV_BF2 __a) { return __NV_BF2(__a.x, __a.x); }
__NVB __NV_BF2 __high2bfloat162(__NV_BF2 __a) { return __NV_BF2(__a.y, __a.y); }
__NVB __NV_BF2 __lows2bfloat162(__NV_BF2 __a, __NV_BF2 __b) { return __NV_BF2(__a.x, __b.x); }
__NVB __NV_BF2 __highs2bfloat162(__NV_BF2 __a, __NV_BF2 __b) { return __NV_BF2(__a.y, __b.y); }
__NVB __NV_BF2 __lowhigh2highlow(__NV_BF2 __a) { return __NV_BF2(__a.y, __a.x); }
__NVB short __bfloat16_as_short(__NV_BF __a) { return (short)((__nv_bfloat16_raw)__a).x; }
__NVB unsigned short __bfloat16_as_ushort(__NV_BF __a) { return ((__nv_bfloat16_raw)__a).x; }
__NVB __NV_BF __short_as_bfloat16(short __a) { return __NV_BF(__nv_bfloat16_raw{(unsigned short)__a}); }
__NVB __NV_BF __ushort_as_bfloat16(unsigned short __a) { return __NV_BF(__nv_bfloat16_raw{__a}); }
#define __NV_BF_FROM_INT(NAME, T)                                                     \
  __NVB __NV_BF NAME##_rn(T __a) { return __NV_BF((float)__a); }                     \
  __NVB __NV_BF NAME##_rz(T __a) { return __float2bfloat16_rz((float)__a); }         \
  __NVB __NV_BF NAME##_rd(T __a) { return __float2bfloat16_rd((float)__a); }         \
  __NVB __NV_BF NAME##_ru(T __a) { return __float2bfloat16_ru((float)__a); }
__NV_BF_FROM_INT(__int2bfloat16, int)
__NV_BF_FROM_INT(__uint2bfloat16, unsigned int)
__NV_BF_FROM_INT(__short2bfloat16, short)
__NV_BF_FROM_INT(__ushort2bfloat16, unsigned short)
__NV_BF_FROM_INT(__ll2bfloat16, long long)
__NV_BF_FROM_INT(__ull2bfloat16, unsigned long long)
#undef __NV_BF_FROM_INT
#define __NV_BF_TO_INT(NAME, T)                                                      \
  __NVB T NAME##_rz(__NV_BF __a) { return (T)(float)__a; }                          \
  __NVB T NAME##_rn(__NV_BF __a) { return (T)__builtin_rintf((float)__a); }         \
  __NVB T NAME##_rd(__NV_BF __a) { return (T)__builtin_floorf((float)__a); }        \
  __NVB T NAME##_ru(__NV_BF __a) { return (T)__builtin_ceilf((float)__a); }
__NV_BF_TO_INT(__bfloat162int, int)
__NV_BF_TO_INT(__bfloat162uint, unsigned int)
__NV_BF_TO_INT(__bfloat162short, short)
__NV_BF_TO_INT(__bfloat162ushort, unsigned short)
__NV_BF_TO_INT(__bfloat162ll, long long)
__NV_BF_TO_INT(__bfloat162ull, unsigned long long)
#undef __NV_BF_TO_INT

/* ---- arithmetic (overloads of the half-precision names) --------------------------------- */
__NVB __NV_BF __hadd(__NV_BF __a, __NV_BF __b) { return __NV_BF((float)__a + (float)__b); }
__NVB __NV_BF __hsub(__NV_BF __a, __NV_BF __b) { return __NV_BF((float)__a - (float)__b); }
__NVB __NV_BF __hmul(__NV_BF __a, __NV_BF __b) { return __NV_BF((float)__a * (float)__b); }
__NVB __NV_BF __hdiv(__NV_BF __a, __NV_BF __b) { return __NV_BF((float)__a / (float)__b); }
__NVB __NV_BF __hadd_rn(__NV_BF __a, __NV_BF __b) { return __hadd(__a, __b); }
__NVB __NV_BF __hsub_rn(__NV_BF __a, __NV_BF __b) { return __hsub(__a, __b); }
__NVB __NV_BF __hmul_rn(__NV_BF __a, __NV_BF __b) { return __hmul(__a, __b); }
__NVB __NV_BF __hfma(__NV_BF __a, __NV_BF __b, __NV_BF __c) { return __NV_BF(__builtin_fmaf((float)__a, (float)__b, (float)__c)); }
__NVB __NV_BF __hneg(__NV_BF __a) { return __ushort_as_bfloat16(__bfloat16_as_ushort(__a) ^ 0x8000); }
__NVB __NV_BF __habs(__NV_BF __a) { return __ushort_as_bfloat16(__bfloat16_as_ushort(__a) & 0x7fff); }
__NVB __NV_BF __nv_bfsat(float __f) { return __NV_BF(__f != __f ? 0.0f : __f < 0.0f ? 0.0f : __f > 1.0f ? 1.0f : __f); }
__NVB __NV_BF __hadd_sat(__NV_BF __a, __NV_BF __b) { return __nv_bfsat((float)__hadd(__a, __b)); }
__NVB __NV_BF __hsub_sat(__NV_BF __a, __NV_BF __b) { return __nv_bfsat((float)__hsub(__a, __b)); }
__NVB __NV_BF __hmul_sat(__NV_BF __a, __NV_BF __b) { return __nv_bfsat((float)__hmul(__a, __b)); }
__NVB __NV_BF __hfma_sat(__NV_BF __a, __NV_BF __b, __NV_BF __c) { return __nv_bfsat((float)__hfma(__a, __b, __c)); }
__NVB __NV_BF __hfma_relu(__NV_BF __a, __NV_BF __b, __NV_BF __c) {
  __NV_BF __r = __hfma(__a, __b, __c);
  return (float)__r < 0.0f ? __NV_BF(0.0f) : __r;
}
__NVB bool __hisnan(__NV_BF __a) { return (__bfloat16_as_ushort(__a) & 0x7fff) > 0x7f80; }
__NVB int __hisinf(__NV_BF __a) {
  unsigned short __u = __bfloat16_as_ushort(__a);
  return __u == 0x7f80 ? 1 : __u == 0xff80 ? -1 : 0;
}
__NVB __NV_BF __hmin(__NV_BF __a, __NV_BF __b) { return __NV_BF(__builtin_fminf((float)__a, (float)__b)); }
__NVB __NV_BF __hmax(__NV_BF __a, __NV_BF __b) { return __NV_BF(__builtin_fmaxf((float)__a, (float)__b)); }
__NVB __NV_BF __hmin_nan(__NV_BF __a, __NV_BF __b) { return (__hisnan(__a) || __hisnan(__b)) ? __ushort_as_bfloat16(0x7fff) : __hmin(__a, __b); }
__NVB __NV_BF __hmax_nan(__NV_BF __a, __NV_BF __b) { return (__hisnan(__a) || __hisnan(__b)) ? __ushort_as_bfloat16(0x7fff) : __hmax(__a, __b); }
#define __NV_BF2_BIN(NAME, SCALAR)                                                     \
  __NVB __NV_BF2 NAME(__NV_BF2 __a, __NV_BF2 __b) { return __NV_BF2(SCALAR(__a.x, __b.x), SCALAR(__a.y, __b.y)); }
__NV_BF2_BIN(__hadd2, __hadd)
__NV_BF2_BIN(__hsub2, __hsub)
__NV_BF2_BIN(__hmul2, __hmul)
__NV_BF2_BIN(__h2div, __hdiv)
__NV_BF2_BIN(__hadd2_sat, __hadd_sat)
__NV_BF2_BIN(__hsub2_sat, __hsub_sat)
__NV_BF2_BIN(__hmul2_sat, __hmul_sat)
__NV_BF2_BIN(__hmin2, __hmin)
__NV_BF2_BIN(__hmax2, __hmax)
__NV_BF2_BIN(__hmin2_nan, __hmin_nan)
__NV_BF2_BIN(__hmax2_nan, __hmax_nan)
__NV_BF2_BIN(__hadd2_rn, __hadd)
__NV_BF2_BIN(__hsub2_rn, __hsub)
__NV_BF2_BIN(__hmul2_rn, __hmul)
#undef __NV_BF2_BIN
__NVB __NV_BF2 __hfma2(__NV_BF2 __a, __NV_BF2 __b, __NV_BF2 __c) { return __NV_BF2(__hfma(__a.x, __b.x, __c.x), __hfma(__a.y, __b.y, __c.y)); }
__NVB __NV_BF2 __hfma2_sat(__NV_BF2 __a, __NV_BF2 __b, __NV_BF2 __c) { return __NV_BF2(__hfma_sat(__a.x, __b.x, __c.x), __hfma_sat(__a.y, __b.y, __c.y)); }
__NVB __NV_BF2 __hfma2_relu(__NV_BF2 __a, __NV_BF2 __b, __NV_BF2 __c) { return __NV_BF2(__hfma_relu(__a.x, __b.x, __c.x), __hfma_relu(__a.y, __b.y, __c.y)); }
__NVB __NV_BF2 __hneg2(__NV_BF2 __a) { return __NV_BF2(__hneg(__a.x), __hneg(__a.y)); }
__NVB __NV_BF2 __habs2(__NV_BF2 __a) { return __NV_BF2(__habs(__a.x), __habs(__a.y)); }

#define __NV_BFCMP(NAME, OP, UNORD)                                                                  \
  __NVB bool NAME(__NV_BF __a, __NV_BF __b) {                                                       \
    float __x = (float)__a, __y = (float)__b;                                                       \
    return (UNORD && (__x != __x || __y != __y)) || (__x OP __y);                                  \
  }                                                                                                 \
  __NVB __NV_BF2 NAME##2(__NV_BF2 __a, __NV_BF2 __b) {                                              \
    return __NV_BF2(__NV_BF(NAME(__a.x, __b.x) ? 1.0f : 0.0f), __NV_BF(NAME(__a.y, __b.y) ? 1.0f : 0.0f)); \
  }                                                                                                 \
  __NVB bool __hb##NAME##2(__NV_BF2 __a, __NV_BF2 __b) { return NAME(__a.x, __b.x) && NAME(__a.y, __b.y); }
__NV_BFCMP(__heq, ==, 0)
__NV_BFCMP(__hne, !=, 0)
__NV_BFCMP(__hlt, <, 0)
__NV_BFCMP(__hle, <=, 0)
__NV_BFCMP(__hgt, >, 0)
__NV_BFCMP(__hge, >=, 0)
__NV_BFCMP(__hequ, ==, 1)
__NV_BFCMP(__hneu, !=, 1)
__NV_BFCMP(__hltu, <, 1)
__NV_BFCMP(__hleu, <=, 1)
__NV_BFCMP(__hgtu, >, 1)
__NV_BFCMP(__hgeu, >=, 1)
#undef __NV_BFCMP

__NVB __NV_BF operator+(const __NV_BF &__a, const __NV_BF &__b) { return __hadd(__a, __b); }
__NVB __NV_BF operator-(const __NV_BF &__a, const __NV_BF &__b) { return __hsub(__a, __b); }
__NVB __NV_BF operator*(const __NV_BF &__a, const __NV_BF &__b) { return __hmul(__a, __b); }
__NVB __NV_BF operator/(const __NV_BF &__a, const __NV_BF &__b) { return __hdiv(__a, __b); }
__NVB __NV_BF &operator+=(__NV_BF &__a, const __NV_BF &__b) { return __a = __hadd(__a, __b); }
__NVB __NV_BF &operator-=(__NV_BF &__a, const __NV_BF &__b) { return __a = __hsub(__a, __b); }
__NVB __NV_BF &operator*=(__NV_BF &__a, const __NV_BF &__b) { return __a = __hmul(__a, __b); }
__NVB __NV_BF &operator/=(__NV_BF &__a, const __NV_BF &__b) { return __a = __hdiv(__a, __b); }
__NVB __NV_BF operator-(const __NV_BF &__a) { return __hneg(__a); }
__NVB __NV_BF operator+(const __NV_BF &__a) { return __a; }
__NVB bool operator==(const __NV_BF &__a, const __NV_BF &__b) { return __heq(__a, __b); }
__NVB bool operator!=(const __NV_BF &__a, const __NV_BF &__b) { return __hneu(__a, __b); }
__NVB bool operator<(const __NV_BF &__a, const __NV_BF &__b) { return __hlt(__a, __b); }
__NVB bool operator<=(const __NV_BF &__a, const __NV_BF &__b) { return __hle(__a, __b); }
__NVB bool operator>(const __NV_BF &__a, const __NV_BF &__b) { return __hgt(__a, __b); }
__NVB bool operator>=(const __NV_BF &__a, const __NV_BF &__b) { return __hge(__a, __b); }
__NVB __NV_BF2 operator+(const __NV_BF2 &__a, const __NV_BF2 &__b) { return __hadd2(__a, __b); }
__NVB __NV_BF2 operator-(const __NV_BF2 &__a, const __NV_BF2 &__b) { return __hsub2(__a, __b); }
__NVB __NV_BF2 operator*(const __NV_BF2 &__a, const __NV_BF2 &__b) { return __hmul2(__a, __b); }
__NVB __NV_BF2 operator/(const __NV_BF2 &__a, const __NV_BF2 &__b) { return __h2div(__a, __b); }
__NVB __NV_BF2 &operator+=(__NV_BF2 &__a, const __NV_BF2 &__b) { return __a = __hadd2(__a, __b); }
__NVB __NV_BF2 &operator*=(__NV_BF2 &__a, const __NV_BF2 &__b) { return __a = __hmul2(__a, __b); }
__NVB __NV_BF2 operator-(const __NV_BF2 &__a) { return __hneg2(__a); }

#define __NV_BFMATH(NAME, EXPR)                                                                   \
  __device__ __forceinline__ __NV_BF NAME(__NV_BF __a) { float __x = (float)__a; return __NV_BF(EXPR); } \
  __device__ __forceinline__ __NV_BF2 NAME##2(__NV_BF2 __a) { return __NV_BF2(NAME(__a.x), NAME(__a.y)); }
__NV_BFMATH(hsqrt, sqrtf(__x))
__NV_BFMATH(hrsqrt, rsqrtf(__x))
__NV_BFMATH(hrcp, 1.0f / __x)
__NV_BFMATH(hexp, expf(__x))
__NV_BFMATH(hexp2, exp2f(__x))
__NV_BFMATH(hexp10, exp10f(__x))
__NV_BFMATH(hlog, logf(__x))
__NV_BFMATH(hlog2, log2f(__x))
__NV_BFMATH(hlog10, log10f(__x))
__NV_BFMATH(hsin, sinf(__x))
__NV_BFMATH(hcos, cosf(__x))
__NV_BFMATH(htanh, tanhf(__x))
__NV_BFMATH(htrunc, __builtin_truncf(__x))
__NV_BFMATH(hceil, __builtin_ceilf(__x))
__NV_BFMATH(hfloor, __builtin_floorf(__x))
__NV_BFMATH(hrint, __builtin_rintf(__x))
#undef __NV_BFMATH

#define __NV_BFSHFL(NAME, LANE_T)                                                                  \
  __device__ __forceinline__ __NV_BF NAME(cudaLaneMask_t __m, __NV_BF __v, LANE_T __l, int __w = warpSize) { \
    return __ushort_as_bfloat16((unsigned short)NAME(__m, (unsigned int)__bfloat16_as_ushort(__v), __l, __w)); \
  }                                                                                                \
  __device__ __forceinline__ __NV_BF2 NAME(cudaLaneMask_t __m, __NV_BF2 __v, LANE_T __l, int __w = warpSize) { \
    return __builtin_bit_cast(__NV_BF2, NAME(__m, __builtin_bit_cast(unsigned int, __v), __l, __w)); \
  }
__NV_BFSHFL(__shfl_sync, int)
__NV_BFSHFL(__shfl_up_sync, unsigned int)
__NV_BFSHFL(__shfl_down_sync, unsigned int)
__NV_BFSHFL(__shfl_xor_sync, int)
#undef __NV_BFSHFL
__device__ __forceinline__ __NV_BF __ldg(const __NV_BF *__p) { return __ushort_as_bfloat16(__ldg((const unsigned short *)__p)); }
__device__ __forceinline__ __NV_BF2 __ldg(const __NV_BF2 *__p) { return __builtin_bit_cast(__NV_BF2, __ldg((const unsigned int *)__p)); }
__device__ __forceinline__ __NV_BF2 atomicAdd(__NV_BF2 *__a, __NV_BF2 __v) {
  unsigned int *__w = (unsigned int *)__a;
  unsigned int __old = *(volatile unsigned int *)__w;
  while (true) {
    unsigned int __nw = __builtin_bit_cast(unsigned int, __hadd2(__builtin_bit_cast(__NV_BF2, __old), __v));
    unsigned int __seen = atomicCAS(__w, __old, __nw);
    if (__seen == __old) return __builtin_bit_cast(__NV_BF2, __old);
    __old = __seen;
  }
}
__device__ __forceinline__ __NV_BF atomicAdd(__NV_BF *__a, __NV_BF __v) {
  unsigned short *__p = (unsigned short *)__a;
  unsigned short __old = *(volatile unsigned short *)__p;
  while (true) {
    unsigned short __nw = __bfloat16_as_ushort(__hadd(__ushort_as_bfloat16(__old), __v));
    unsigned short __seen = atomicCAS(__p, __old, __nw);
    if (__seen == __old) return __ushort_as_bfloat16(__old);
    __old = __seen;
  }
}

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)

#undef __NV_BF
#undef __NV_BF2
#undef __NVB
#endif
