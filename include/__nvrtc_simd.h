/*
 * SIMD-within-a-word intrinsics (CUDA Math API, "SIMD Intrinsics"): two 16-bit or four
 * 8-bit lanes of an unsigned int, signed (s) or unsigned (u), wrapping or saturating (ss,
 * us). Each is written once, lane by lane; LLVM unrolls the loops.
 */
#pragma clang system_header
#ifndef __NVRTC_SIMD_H__
#define __NVRTC_SIMD_H__

/* Lane `__i` (bit offset) of width `__bits`, sign- or zero-extended. */
__NVD int __nv_simd_lane(unsigned int __w, int __i, int __bits, bool __sgn) {
  unsigned int __v = __w >> __i;
  if (__sgn) return (int)(__v << (32 - __bits)) >> (32 - __bits);
  return (int)(__v & ((1u << __bits) - 1u));
}
__NVD int __nv_simd_sat(int __v, int __bits, bool __sgn) {
  int __lo = __sgn ? -(1 << (__bits - 1)) : 0;
  int __hi = __sgn ? (1 << (__bits - 1)) - 1 : (1 << __bits) - 1;
  return __v < __lo ? __lo : (__v > __hi ? __hi : __v);
}

#define __NV_SIMD_BINARY(NAME, BITS, SIGNED, EXPR)                                          \
  __NVD unsigned int NAME(unsigned int __a, unsigned int __b) {                              \
    unsigned int __r = 0;                                                                    \
    for (int __i = 0; __i < 32; __i += BITS) {                                               \
      int __x = __nv_simd_lane(__a, __i, BITS, SIGNED), __y = __nv_simd_lane(__b, __i, BITS, SIGNED); \
      (void)__x; (void)__y;                                                                  \
      __r |= ((unsigned int)(EXPR) & ((1u << BITS) - 1u)) << __i;                            \
    }                                                                                        \
    return __r;                                                                              \
  }
#define __NV_SIMD_UNARY(NAME, BITS, EXPR)                                                   \
  __NVD unsigned int NAME(unsigned int __a) {                                                \
    unsigned int __r = 0;                                                                    \
    for (int __i = 0; __i < 32; __i += BITS) {                                               \
      int __x = __nv_simd_lane(__a, __i, BITS, true);                                        \
      __r |= ((unsigned int)(EXPR) & ((1u << BITS) - 1u)) << __i;                            \
    }                                                                                        \
    return __r;                                                                              \
  }
/* Sum of absolute differences over the lanes. */
#define __NV_SIMD_SAD(NAME, BITS, SIGNED)                                                   \
  __NVD unsigned int NAME(unsigned int __a, unsigned int __b) {                              \
    unsigned int __s = 0;                                                                    \
    for (int __i = 0; __i < 32; __i += BITS) {                                               \
      int __x = __nv_simd_lane(__a, __i, BITS, SIGNED), __y = __nv_simd_lane(__b, __i, BITS, SIGNED); \
      __s += (unsigned int)(__x > __y ? __x - __y : __y - __x);                              \
    }                                                                                        \
    return __s;                                                                              \
  }

/* Each operation for both lane widths: NAME##2 (16-bit) and NAME##4 (8-bit). */
#define __NV_SIMD_BOTH(NAME, SIGNED, EXPR)                                                  \
  __NV_SIMD_BINARY(NAME##2, 16, SIGNED, EXPR)                                                \
  __NV_SIMD_BINARY(NAME##4, 8, SIGNED, EXPR)

__NV_SIMD_BOTH(__vadd, false, __x + __y)
__NV_SIMD_BOTH(__vsub, false, __x - __y)
__NV_SIMD_BINARY(__vaddss2, 16, true, __nv_simd_sat(__x + __y, 16, true))
__NV_SIMD_BINARY(__vaddss4, 8, true, __nv_simd_sat(__x + __y, 8, true))
__NV_SIMD_BINARY(__vaddus2, 16, false, __nv_simd_sat(__x + __y, 16, false))
__NV_SIMD_BINARY(__vaddus4, 8, false, __nv_simd_sat(__x + __y, 8, false))
__NV_SIMD_BINARY(__vsubss2, 16, true, __nv_simd_sat(__x - __y, 16, true))
__NV_SIMD_BINARY(__vsubss4, 8, true, __nv_simd_sat(__x - __y, 8, true))
__NV_SIMD_BINARY(__vsubus2, 16, false, __nv_simd_sat(__x - __y, 16, false))
__NV_SIMD_BINARY(__vsubus4, 8, false, __nv_simd_sat(__x - __y, 8, false))
/* Rounded averages: unsigned ones round halves up; signed ones round halves away from zero
 * (as NVIDIA's H200 computes them); __vhaddu truncates. */
__NV_SIMD_BOTH(__vavgs, true, (__x + __y) >= 0 ? (__x + __y + 1) >> 1 : (__x + __y) >> 1)
__NV_SIMD_BOTH(__vavgu, false, (__x + __y + 1) >> 1)
__NV_SIMD_BOTH(__vhaddu, false, (__x + __y) >> 1)
__NV_SIMD_BOTH(__vabsdiffs, true, __x > __y ? __x - __y : __y - __x)
__NV_SIMD_BOTH(__vabsdiffu, false, __x > __y ? __x - __y : __y - __x)
__NV_SIMD_BOTH(__vmaxs, true, __x > __y ? __x : __y)
__NV_SIMD_BOTH(__vmaxu, false, __x > __y ? __x : __y)
__NV_SIMD_BOTH(__vmins, true, __x < __y ? __x : __y)
__NV_SIMD_BOTH(__vminu, false, __x < __y ? __x : __y)
/* Comparisons: __vcmp* give an all-ones lane for true, __vset* give 1. */
__NV_SIMD_BOTH(__vcmpeq, false, __x == __y ? -1 : 0)
__NV_SIMD_BOTH(__vcmpne, false, __x != __y ? -1 : 0)
__NV_SIMD_BOTH(__vcmpges, true, __x >= __y ? -1 : 0)
__NV_SIMD_BOTH(__vcmpgeu, false, __x >= __y ? -1 : 0)
__NV_SIMD_BOTH(__vcmpgts, true, __x > __y ? -1 : 0)
__NV_SIMD_BOTH(__vcmpgtu, false, __x > __y ? -1 : 0)
__NV_SIMD_BOTH(__vcmples, true, __x <= __y ? -1 : 0)
__NV_SIMD_BOTH(__vcmpleu, false, __x <= __y ? -1 : 0)
__NV_SIMD_BOTH(__vcmplts, true, __x < __y ? -1 : 0)
__NV_SIMD_BOTH(__vcmpltu, false, __x < __y ? -1 : 0)
__NV_SIMD_BOTH(__vseteq, false, __x == __y)
__NV_SIMD_BOTH(__vsetne, false, __x != __y)
__NV_SIMD_BOTH(__vsetges, true, __x >= __y)
__NV_SIMD_BOTH(__vsetgeu, false, __x >= __y)
__NV_SIMD_BOTH(__vsetgts, true, __x > __y)
__NV_SIMD_BOTH(__vsetgtu, false, __x > __y)
__NV_SIMD_BOTH(__vsetles, true, __x <= __y)
__NV_SIMD_BOTH(__vsetleu, false, __x <= __y)
__NV_SIMD_BOTH(__vsetlts, true, __x < __y)
__NV_SIMD_BOTH(__vsetltu, false, __x < __y)
__NV_SIMD_SAD(__vsads2, 16, true)
__NV_SIMD_SAD(__vsads4, 8, true)
__NV_SIMD_SAD(__vsadu2, 16, false)
__NV_SIMD_SAD(__vsadu4, 8, false)
__NV_SIMD_UNARY(__vabs2, 16, __x < 0 ? -__x : __x)
__NV_SIMD_UNARY(__vabs4, 8, __x < 0 ? -__x : __x)
__NV_SIMD_UNARY(__vabsss2, 16, __nv_simd_sat(__x < 0 ? -__x : __x, 16, true))
__NV_SIMD_UNARY(__vabsss4, 8, __nv_simd_sat(__x < 0 ? -__x : __x, 8, true))
__NV_SIMD_UNARY(__vneg2, 16, -__x)
__NV_SIMD_UNARY(__vneg4, 8, -__x)
__NV_SIMD_UNARY(__vnegss2, 16, __nv_simd_sat(-__x, 16, true))
__NV_SIMD_UNARY(__vnegss4, 8, __nv_simd_sat(-__x, 8, true))

#undef __NV_SIMD_BOTH
#undef __NV_SIMD_SAD
#undef __NV_SIMD_UNARY
#undef __NV_SIMD_BINARY
#endif
