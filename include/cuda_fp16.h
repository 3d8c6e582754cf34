/*
 * Half precision (ours): __half and __half2 with conversions, arithmetic, comparisons,
 * math functions, warp shuffles and atomics. Arithmetic is done in _Float16 (native f16
 * instructions on NVIDIA GPUs), conversions round as CUDA documents.
 */
#pragma clang system_header
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
#define __CUDA_FP16_TYPES_EXIST__

#define __NVH __host__ __device__ __forceinline__

typedef struct __half_raw { unsigned short x; } __half_raw;
typedef struct __half2_raw { unsigned short x, y; } __half2_raw;

struct __attribute__((aligned(2))) __half {
 protected:
  unsigned short __x;

 public:
  __half() = default;
  __NVH __half(const __half_raw &__r) : __x(__r.x) {}
  __NVH __half &operator=(const __half_raw &__r) { __x = __r.x; return *this; }
  __NVH operator __half_raw() const { __half_raw __r; __r.x = __x; return __r; }
  __NVH __half(_Float16 __v) : __x(__builtin_bit_cast(unsigned short, __v)) {}
  __NVH __half(float __v) : __x(__builtin_bit_cast(unsigned short, (_Float16)__v)) {}
  __NVH __half(double __v) : __x(__builtin_bit_cast(unsigned short, (_Float16)__v)) {}
  __NVH __half(int __v) : __x(__builtin_bit_cast(unsigned short, (_Float16)__v)) {}
  __NVH __half(unsigned int __v) : __x(__builtin_bit_cast(unsigned short, (_Float16)__v)) {}
  __NVH __half(short __v) : __x(__builtin_bit_cast(unsigned short, (_Float16)__v)) {}
  __NVH __half(unsigned short __v) : __x(__builtin_bit_cast(unsigned short, (_Float16)__v)) {}
  __NVH __half(long long __v) : __x(__builtin_bit_cast(unsigned short, (_Float16)__v)) {}
  __NVH __half(unsigned long long __v) : __x(__builtin_bit_cast(unsigned short, (_Float16)__v)) {}
  __NVH _Float16 __f() const { return __builtin_bit_cast(_Float16, __x); }
  __NVH operator float() const { return (float)__f(); }
  __NVH __half &operator=(float __v) { __x = __builtin_bit_cast(unsigned short, (_Float16)__v); return *this; }
  __NVH __half &operator=(double __v) { __x = __builtin_bit_cast(unsigned short, (_Float16)__v); return *this; }
  __NVH __half &operator=(short __v) { __x = __builtin_bit_cast(unsigned short, (_Float16)__v); return *this; }
  __NVH __half &operator=(unsigned short __v) { __x = __builtin_bit_cast(unsigned short, (_Float16)__v); return *this; }
  __NVH __half &operator=(int __v) { __x = __builtin_bit_cast(unsigned short, (_Float16)__v); return *this; }
  __NVH __half &operator=(unsigned int __v) { __x = __builtin_bit_cast(unsigned short, (_Float16)__v); return *this; }
  __NVH __half &operator=(long long __v) { __x = __builtin_bit_cast(unsigned short, (_Float16)__v); return *this; }
  __NVH __half &operator=(unsigned long long __v) { __x = __builtin_bit_cast(unsigned short, (_Float16)__v); return *this; }
  __NVH explicit operator bool() const { return (__x & 0x7fff) != 0; }
  __NVH explicit operator short() const { return (short)__f(); }
  __NVH explicit operator unsigned short() const { return (unsigned short)__f(); }
  __NVH explicit operator int() const { return (int)__f(); }
  __NVH explicit operator unsigned int() const { return (unsigned int)__f(); }
  __NVH explicit operator long long() const { return (long long)__f(); }
  __NVH explicit operator unsigned long long() const { return (unsigned long long)__f(); }
  __NVH explicit operator double() const { return (double)__f(); }
};

struct __attribute__((aligned(4))) __half2 {
  __half x, y;
  __half2() = default;
  __NVH __half2(const __half &__a, const __half &__b) : x(__a), y(__b) {}
  __NVH __half2(const __half2_raw &__r) : x(__half_raw{__r.x}), y(__half_raw{__r.y}) {}
  __NVH operator __half2_raw() const { __half2_raw __r; __r.x = ((__half_raw)x).x; __r.y = ((__half_raw)y).x; return __r; }
};
typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;

__NVH _Float16 __nv_hf(__half __a) { return __a.__f(); }
__NVH __half __nv_mkh(_Float16 __v) { return __half(__v); }

/* ---- conversions ---------------------------------------------------------------------- */
__NVH __half __float2half(float __a) { return __half(__a); }
__NVH __half __float2half_rn(float __a) { return __half(__a); }
__NVH __half __double2half(double __a) { return __half(__a); }
__NVH float __half2float(__half __a) { return (float)__nv_hf(__a); }
__NVH __half2 __float2half2_rn(float __a) { return __half2(__half(__a), __half(__a)); }
__NVH __half2 __floats2half2_rn(float __a, float __b) { return __half2(__half(__a), __half(__b)); }
__NVH __half2 __float22half2_rn(float2 __a) { return __half2(__half(__a.x), __half(__a.y)); }
__NVH float2 __half22float2(__half2 __a) { return make_float2(__half2float(__a.x), __half2float(__a.y)); }
__NVH float __low2float(__half2 __a) { return __half2float(__a.x); }
__NVH float __high2float(__half2 __a) { return __half2float(__a.y); }
__NVH __half __low2half(__half2 __a) { return __a.x; }
__NVH __half __high2half(__half2 __a) { return __a.y; }
__NVH __half2 __halves2half2(__half __a, __half __b) { return __half2(__a, __b); }
__NVH __half2 __half2half2(__half __a) { return __half2(__a, __a); }
__NVH __half2 __low2half2(__half2 __a) { return __half2(__a.x, __a.x); }
__NVH __half2 __high2half2(__half2 __a) { return __half2(__a.y, __a.y); }
__NVH __half2 __lows2half2(__half2 __a, __half2 __b) { return __half2(__a.x, __b.x); }
__NVH __half2 __highs2half2(__half2 __a, __half2 __b) { return __half2(__a.y, __b.y); }
__NVH __half2 __lowhigh2highlow(__half2 __a) { return __half2(__a.y, __a.x); }
__NVH short __half_as_short(__half __a) { return (short)((__half_raw)__a).x; }
__NVH unsigned short __half_as_ushort(__half __a) { return ((__half_raw)__a).x; }
__NVH __half __short_as_half(short __a) { return __half(__half_raw{(unsigned short)__a}); }
__NVH __half __ushort_as_half(unsigned short __a) { return __half(__half_raw{__a}); }

/* Directed rounding from float: exact rounding by inspecting the float-to-half error. */
__NVH __half __nv_f2h_dir(float __a, int __mode /* 1 toward zero, 2 down, 3 up */) {
  _Float16 __h = (_Float16)__a;
  float __back = (float)__h;
  if (__back == __a || __a != __a || __back != __back) return __half(__h);
  unsigned short __b = __builtin_bit_cast(unsigned short, __h);
  bool __toward_zero = (__mode == 1) || (__mode == 2 && __a > 0) || (__mode == 3 && __a < 0);
  bool __rounded_away = __builtin_fabsf(__back) > __builtin_fabsf(__a);
  if (__toward_zero && __rounded_away) __b -= 1;
  else if (!__toward_zero && !__rounded_away) __b += 1;
  if ((__b & 0x7fff) == 0x7c00 && __toward_zero) __b -= 1; /* no overflow to inf toward zero */
  return __half(__half_raw{__b});
}
__NVH __half __float2half_rz(float __a) { return __nv_f2h_dir(__a, 1); }
__NVH __half __float2half_rd(float __a) { return __nv_f2h_dir(__a, 2); }
__NVH __half __float2half_ru(float __a) { return __nv_f2h_dir(__a, 3); }

#define __NV_H_FROM_INT(NAME, T)                                          \
  __NVH __half NAME##_rn(T __a) { return __half((_Float16)__a); }         \
  __NVH __half NAME##_rz(T __a) { return __float2half_rz((float)__a); }   \
  __NVH __half NAME##_rd(T __a) { return __float2half_rd((float)__a); }   \
  __NVH __half NAME##_ru(T __a) { return __float2half_ru((float)__a); }
__NV_H_FROM_INT(__int2half, int)
__NV_H_FROM_INT(__uint2half, unsigned int)
__NV_H_FROM_INT(__short2half, short)
__NV_H_FROM_INT(__ushort2half, unsigned short)
__NV_H_FROM_INT(__ll2half, long long)
__NV_H_FROM_INT(__ull2half, unsigned long long)
#undef __NV_H_FROM_INT
#define __NV_H_TO_INT(NAME, T)                                                                  \
  __NVH T NAME##_rz(__half __a) { return (T)__half2float(__a); }                               \
  __NVH T NAME##_rn(__half __a) { return (T)__builtin_rintf(__half2float(__a)); }              \
  __NVH T NAME##_rd(__half __a) { return (T)__builtin_floorf(__half2float(__a)); }             \
  __NVH T NAME##_ru(__half __a) { return (T)__builtin_ceilf(__half2float(__a)); }
__NV_H_TO_INT(__half2int, int)
__NV_H_TO_INT(__half2uint, unsigned int)
__NV_H_TO_INT(__half2short, short)
__NV_H_TO_INT(__half2ushort, unsigned short)
__NV_H_TO_INT(__half2ll, long long)
__NV_H_TO_INT(__half2ull, unsigned long long)
#undef __NV_H_TO_INT

/* ---- arithmetic ---------------------------------------------------------------------------- */
__NVH __half __hadd(__half __a, __half __b) { return __nv_mkh(__nv_hf(__a) + __nv_hf(__b)); }
__NVH __half __hsub(__half __a, __half __b) { return __nv_mkh(__nv_hf(__a) - __nv_hf(__b)); }
__NVH __half __hmul(__half __a, __half __b) { return __nv_mkh(__nv_hf(__a) * __nv_hf(__b)); }
__NVH __half __hdiv(__half __a, __half __b) { return __half(__half2float(__a) / __half2float(__b)); }
__NVH __half __hadd_rn(__half __a, __half __b) { return __hadd(__a, __b); }
__NVH __half __hsub_rn(__half __a, __half __b) { return __hsub(__a, __b); }
__NVH __half __hmul_rn(__half __a, __half __b) { return __hmul(__a, __b); }
__NVH __half __hfma(__half __a, __half __b, __half __c) {
  return __half((float)((double)__half2float(__a) * __half2float(__b) + __half2float(__c)));
}
__NVH __half __hneg(__half __a) { return __ushort_as_half(__half_as_ushort(__a) ^ 0x8000); }
__NVH __half __habs(__half __a) { return __ushort_as_half(__half_as_ushort(__a) & 0x7fff); }
__NVH __half __nv_hsat(__half __a) {
  float __f = __half2float(__a);
  return __f != __f ? __half(0.0f) : __half(__f < 0.0f ? 0.0f : __f > 1.0f ? 1.0f : __f);
}
__NVH __half __hadd_sat(__half __a, __half __b) { return __nv_hsat(__hadd(__a, __b)); }
__NVH __half __hsub_sat(__half __a, __half __b) { return __nv_hsat(__hsub(__a, __b)); }
__NVH __half __hmul_sat(__half __a, __half __b) { return __nv_hsat(__hmul(__a, __b)); }
__NVH __half __hfma_sat(__half __a, __half __b, __half __c) { return __nv_hsat(__hfma(__a, __b, __c)); }
__NVH __half __hfma_relu(__half __a, __half __b, __half __c) {
  __half __r = __hfma(__a, __b, __c);
  return __half2float(__r) < 0.0f ? __half(0.0f) : __r;
}
__NVH bool __hisnan(__half __a) { return (__half_as_ushort(__a) & 0x7fff) > 0x7c00; }
__NVH int __hisinf(__half __a) {
  unsigned short __u = __half_as_ushort(__a);
  return __u == 0x7c00 ? 1 : __u == 0xfc00 ? -1 : 0;
}
__NVH __half __hmin(__half __a, __half __b) { return __half(__builtin_fminf(__half2float(__a), __half2float(__b))); }
__NVH __half __hmax(__half __a, __half __b) { return __half(__builtin_fmaxf(__half2float(__a), __half2float(__b))); }
__NVH __half __hmin_nan(__half __a, __half __b) { return (__hisnan(__a) || __hisnan(__b)) ? __ushort_as_half(0x7fff) : __hmin(__a, __b); }
__NVH __half __hmax_nan(__half __a, __half __b) { return (__hisnan(__a) || __hisnan(__b)) ? __ushort_as_half(0x7fff) : __hmax(__a, __b); }

#define __NV_H2_BIN(NAME, SCALAR)                                                       \
  __NVH __half2 NAME(__half2 __a, __half2 __b) { return __half2(SCALAR(__a.x, __b.x), SCALAR(__a.y, __b.y)); }
__NV_H2_BIN(__hadd2, __hadd)
__NV_H2_BIN(__hsub2, __hsub)
__NV_H2_BIN(__hmul2, __hmul)
__NV_H2_BIN(__h2div, __hdiv)
__NV_H2_BIN(__hadd2_sat, __hadd_sat)
__NV_H2_BIN(__hsub2_sat, __hsub_sat)
__NV_H2_BIN(__hmul2_sat, __hmul_sat)
__NV_H2_BIN(__hmin2, __hmin)
__NV_H2_BIN(__hmax2, __hmax)
__NV_H2_BIN(__hmin2_nan, __hmin_nan)
__NV_H2_BIN(__hmax2_nan, __hmax_nan)
__NV_H2_BIN(__hadd2_rn, __hadd)
__NV_H2_BIN(__hsub2_rn, __hsub)
__NV_H2_BIN(__hmul2_rn, __hmul)
#undef __NV_H2_BIN
__NVH __half2 __hfma2(__half2 __a, __half2 __b, __half2 __c) { return __half2(__hfma(__a.x, __b.x, __c.x), __hfma(__a.y, __b.y, __c.y)); }
__NVH __half2 __hfma2_sat(__half2 __a, __half2 __b, __half2 __c) { return __half2(__hfma_sat(__a.x, __b.x, __c.x), __hfma_sat(__a.y, __b.y, __c.y)); }
__NVH __half2 __hfma2_relu(__half2 __a, __half2 __b, __half2 __c) { return __half2(__hfma_relu(__a.x, __b.x, __c.x), __hfma_relu(__a.y, __b.y, __c.y)); }
__NVH __half2 __hneg2(__half2 __a) { return __half2(__hneg(__a.x), __hneg(__a.y)); }
__NVH __half2 __habs2(__half2 __a) { return __half2(__habs(__a.x), __habs(__a.y)); }
__NVH __half2 __hisnan2(__half2 __a) { return __half2(__half(__hisnan(__a.x) ? 1.0f : 0.0f), __half(__hisnan(__a.y) ? 1.0f : 0.0f)); }
__NVH __half2 __hcmadd(__half2 __a, __half2 __b, __half2 __c) {
  /* complex multiply-add: (a.x + i a.y)(b.x + i b.y) + c */
  float __re = __half2float(__a.x) * __half2float(__b.x) - __half2float(__a.y) * __half2float(__b.y) + __half2float(__c.x);
  float __im = __half2float(__a.x) * __half2float(__b.y) + __half2float(__a.y) * __half2float(__b.x) + __half2float(__c.y);
  return __half2(__half(__re), __half(__im));
}

/* ---- comparisons ---------------------------------------------------------------------------- */
#define __NV_HCMP(NAME, OP, UNORD)                                                                     \
  __NVH bool NAME(__half __a, __half __b) {                                                           \
    float __x = __half2float(__a), __y = __half2float(__b);                                           \
    return (UNORD && (__x != __x || __y != __y)) || (__x OP __y);                                    \
  }                                                                                                   \
  __NVH __half2 NAME##2(__half2 __a, __half2 __b) {                                                   \
    return __half2(__half(NAME(__a.x, __b.x) ? 1.0f : 0.0f), __half(NAME(__a.y, __b.y) ? 1.0f : 0.0f)); \
  }                                                                                                   \
  __NVH bool __hb##NAME##2(__half2 __a, __half2 __b) { return NAME(__a.x, __b.x) && NAME(__a.y, __b.y); }
__NV_HCMP(__heq, ==, 0)
__NV_HCMP(__hne, !=, 0)
__NV_HCMP(__hlt, <, 0)
__NV_HCMP(__hle, <=, 0)
__NV_HCMP(__hgt, >, 0)
__NV_HCMP(__hge, >=, 0)
__NV_HCMP(__hequ, ==, 1)
__NV_HCMP(__hneu, !=, 1)
__NV_HCMP(__hltu, <, 1)
__NV_HCMP(__hleu, <=, 1)
__NV_HCMP(__hgtu, >, 1)
__NV_HCMP(__hgeu, >=, 1)
#undef __NV_HCMP
/* CUDA's names for the all-lanes forms. */
#define __hbeq2 __hb__heq2
#define __hbne2 __hb__hne2
#define __hblt2 __hb__hlt2
#define __hble2 __hb__hle2
#define __hbgt2 __hb__hgt2
#define __hbge2 __hb__hge2
#define __hbequ2 __hb__hequ2
#define __hbneu2 __hb__hneu2
#define __hbltu2 __hb__hltu2
#define __hbleu2 __hb__hleu2
#define __hbgtu2 __hb__hgtu2
#define __hbgeu2 __hb__hgeu2

/* ---- operators ---------------------------------------------------------------------------------- */
__NVH __half operator+(const __half &__a, const __half &__b) { return __hadd(__a, __b); }
__NVH __half operator-(const __half &__a, const __half &__b) { return __hsub(__a, __b); }
__NVH __half operator*(const __half &__a, const __half &__b) { return __hmul(__a, __b); }
__NVH __half operator/(const __half &__a, const __half &__b) { return __hdiv(__a, __b); }
__NVH __half &operator+=(__half &__a, const __half &__b) { return __a = __hadd(__a, __b); }
__NVH __half &operator-=(__half &__a, const __half &__b) { return __a = __hsub(__a, __b); }
__NVH __half &operator*=(__half &__a, const __half &__b) { return __a = __hmul(__a, __b); }
__NVH __half &operator/=(__half &__a, const __half &__b) { return __a = __hdiv(__a, __b); }
__NVH __half &operator++(__half &__a) { return __a = __hadd(__a, __half(1.0f)); }
__NVH __half &operator--(__half &__a) { return __a = __hsub(__a, __half(1.0f)); }
__NVH __half operator++(__half &__a, int) { __half __t = __a; ++__a; return __t; }
__NVH __half operator--(__half &__a, int) { __half __t = __a; --__a; return __t; }
__NVH __half operator+(const __half &__a) { return __a; }
__NVH __half operator-(const __half &__a) { return __hneg(__a); }
__NVH bool operator==(const __half &__a, const __half &__b) { return __heq(__a, __b); }
__NVH bool operator!=(const __half &__a, const __half &__b) { return __hneu(__a, __b); }
__NVH bool operator<(const __half &__a, const __half &__b) { return __hlt(__a, __b); }
__NVH bool operator<=(const __half &__a, const __half &__b) { return __hle(__a, __b); }
__NVH bool operator>(const __half &__a, const __half &__b) { return __hgt(__a, __b); }
__NVH bool operator>=(const __half &__a, const __half &__b) { return __hge(__a, __b); }
__NVH __half2 operator+(const __half2 &__a, const __half2 &__b) { return __hadd2(__a, __b); }
__NVH __half2 operator-(const __half2 &__a, const __half2 &__b) { return __hsub2(__a, __b); }
__NVH __half2 operator*(const __half2 &__a, const __half2 &__b) { return __hmul2(__a, __b); }
__NVH __half2 operator/(const __half2 &__a, const __half2 &__b) { return __h2div(__a, __b); }
__NVH __half2 &operator+=(__half2 &__a, const __half2 &__b) { return __a = __hadd2(__a, __b); }
__NVH __half2 &operator-=(__half2 &__a, const __half2 &__b) { return __a = __hsub2(__a, __b); }
__NVH __half2 &operator*=(__half2 &__a, const __half2 &__b) { return __a = __hmul2(__a, __b); }
__NVH __half2 &operator/=(__half2 &__a, const __half2 &__b) { return __a = __h2div(__a, __b); }
__NVH __half2 operator-(const __half2 &__a) { return __hneg2(__a); }
__NVH __half2 operator+(const __half2 &__a) { return __a; }
__NVH bool operator==(const __half2 &__a, const __half2 &__b) { return __hbeq2(__a, __b); }
__NVH bool operator!=(const __half2 &__a, const __half2 &__b) { return __hbneu2(__a, __b); }

/* ---- math ------------------------------------------------------------------------------------------ */
#define __NV_HMATH(NAME, EXPR)                                                              \
  __device__ __forceinline__ __half NAME(__half __a) { float __x = __half2float(__a); return __half(EXPR); } \
  __device__ __forceinline__ __half2 NAME##2(__half2 __a) { return __half2(NAME(__a.x), NAME(__a.y)); }
__NV_HMATH(hsqrt, sqrtf(__x))
__NV_HMATH(hrsqrt, rsqrtf(__x))
__NV_HMATH(hrcp, 1.0f / __x)
__NV_HMATH(hexp, expf(__x))
__NV_HMATH(hexp2, exp2f(__x))
__NV_HMATH(hexp10, exp10f(__x))
__NV_HMATH(hlog, logf(__x))
__NV_HMATH(hlog2, log2f(__x))
__NV_HMATH(hlog10, log10f(__x))
__NV_HMATH(hsin, sinf(__x))
__NV_HMATH(hcos, cosf(__x))
__NV_HMATH(htanh, tanhf(__x))
__NV_HMATH(htrunc, __builtin_truncf(__x))
__NV_HMATH(hceil, __builtin_ceilf(__x))
__NV_HMATH(hfloor, __builtin_floorf(__x))
__NV_HMATH(hrint, __builtin_rintf(__x))
#undef __NV_HMATH

/* ---- warp shuffles, loads, atomics ------------------------------------------------------------------ */
#define __NV_HSHFL(NAME, LANE_T)                                                                 \
  __device__ __forceinline__ __half NAME(cudaLaneMask_t __m, __half __v, LANE_T __l, int __w = warpSize) { \
    return __ushort_as_half((unsigned short)NAME(__m, (unsigned int)__half_as_ushort(__v), __l, __w)); \
  }                                                                                              \
  __device__ __forceinline__ __half2 NAME(cudaLaneMask_t __m, __half2 __v, LANE_T __l, int __w = warpSize) { \
    unsigned int __u = __builtin_bit_cast(unsigned int, __v);                                    \
    return __builtin_bit_cast(__half2, NAME(__m, __u, __l, __w));                                \
  }
__NV_HSHFL(__shfl_sync, int)
__NV_HSHFL(__shfl_up_sync, unsigned int)
__NV_HSHFL(__shfl_down_sync, unsigned int)
__NV_HSHFL(__shfl_xor_sync, int)
#undef __NV_HSHFL
__device__ __forceinline__ __half __ldg(const __half *__p) { return __ushort_as_half(__ldg((const unsigned short *)__p)); }
__device__ __forceinline__ __half2 __ldg(const __half2 *__p) { return __builtin_bit_cast(__half2, __ldg((const unsigned int *)__p)); }
__device__ __forceinline__ __half2 atomicAdd(__half2 *__a, __half2 __v) {
  unsigned int *__w = (unsigned int *)__a;
  unsigned int __old = *(volatile unsigned int *)__w;
  while (true) {
    unsigned int __nw = __builtin_bit_cast(unsigned int, __hadd2(__builtin_bit_cast(__half2, __old), __v));
    unsigned int __seen = atomicCAS(__w, __old, __nw);
    if (__seen == __old) return __builtin_bit_cast(__half2, __old);
    __old = __seen;
  }
}
__device__ __forceinline__ __half atomicAdd(__half *__a, __half __v) {
  unsigned short *__p = (unsigned short *)__a;
  unsigned short __old = *(volatile unsigned short *)__p;
  while (true) {
    unsigned short __nw = __half_as_ushort(__hadd(__ushort_as_half(__old), __v));
    unsigned short __seen = atomicCAS(__p, __old, __nw);
    if (__seen == __old) return __ushort_as_half(__old);
    __old = __seen;
  }
}

/* CUDART constants (math_constants.h spells them for float/double). */
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7c00U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7bffU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7fffU)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3c00U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)

#undef __NVH
#endif
