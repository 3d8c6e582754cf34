/*
 * Host versions of the CUDA math functions the C library lacks (CUDA Math API: rsqrt,
 * rcbrt, sinpi, cospi, normcdf, erfinv, ...; the set NVIDIA's nvcc 13.0 accepts in host
 * code, not norm3d/rhypot and the like; min/max are host-device in __nvrtc_math.h), for the host side
 * of .cu files built by our nvcc: nvcc's headers declare these for host code too, and CUDA
 * programs call min(a, b) or rsqrtf(x) from host functions. The device versions are in
 * __nvrtc_math.h; clang picks by execution space. Not part of NVRTC compiles.
 */
#pragma clang system_header
#ifndef __NVCC_HOST_MATH_H__
#define __NVCC_HOST_MATH_H__

#if defined(__CUDA__) && !defined(__CUDACC_RTC__) && defined(__cplusplus)
#include <math.h>

#define __NVHOST static inline __host__

__NVHOST double rsqrt(double __x) { return 1.0 / sqrt(__x); }
__NVHOST float rsqrtf(float __x) { return (float)(1.0 / sqrt((double)__x)); }
__NVHOST double rcbrt(double __x) { return 1.0 / cbrt(__x); }
__NVHOST float rcbrtf(float __x) { return (float)(1.0 / cbrt((double)__x)); }
/* sin(pi x) and cos(pi x), exact at integers and half-integers as CUDA's are. */
__NVHOST double sinpi(double __x) {
  if (__x == floor(__x)) return copysign(0.0, __x);
  double __r = remainder(__x, 2.0);
  if (fabs(__r) == 0.5) return __r > 0 ? 1.0 : -1.0;
  return sin(M_PI * __r);
}
__NVHOST double cospi(double __x) {
  double __r = fabs(remainder(__x, 2.0));
  if (__r == 0.5) return 0.0;
  if (__r == 0.0) return 1.0;
  if (__r == 1.0) return -1.0;
  return cos(M_PI * __r);
}
__NVHOST float sinpif(float __x) { return (float)sinpi(__x); }
__NVHOST float cospif(float __x) { return (float)cospi(__x); }
__NVHOST void sincospi(double __x, double *__s, double *__c) { *__s = sinpi(__x); *__c = cospi(__x); }
__NVHOST void sincospif(float __x, float *__s, float *__c) { *__s = sinpif(__x); *__c = cospif(__x); }
__NVHOST double normcdf(double __x) { return 0.5 * erfc(-__x * M_SQRT1_2); }
__NVHOST float normcdff(float __x) { return (float)normcdf(__x); }
/* erfc(x) e^(x^2); for large x, its asymptotic series, where erfc underflows. */
__NVHOST double erfcx(double __x) {
  if (__x < 25.0) return exp(__x * __x) * erfc(__x);
  double __i = 1.0 / (2.0 * __x * __x);
  return (1.0 - __i * (1.0 - 3.0 * __i * (1.0 - 5.0 * __i))) / (__x * 1.7724538509055160273);
}
__NVHOST float erfcxf(float __x) { return (float)erfcx(__x); }
/* Inverse error functions: a first guess refined by Newton steps on erf/erfc (the C
 * library's), d/dx erf(x) = 2/sqrt(pi) e^(-x^2). */
__NVHOST double erfinv(double __y) {
  if (__y <= -1.0) return __y == -1.0 ? -HUGE_VAL : NAN;
  if (__y >= 1.0) return __y == 1.0 ? HUGE_VAL : NAN;
  /* Winitzki's approximation, a = 0.147: ln(1 - y^2) = -w. */
  double __w = -log((1.0 - __y) * (1.0 + __y)), __b = 2.0 / (M_PI * 0.147) - __w / 2;
  double __x = copysign(sqrt(sqrt(__b * __b + __w / 0.147) - __b), __y);
  for (int __i = 0; __i < 3; ++__i) __x -= (erf(__x) - __y) / (1.1283791670955126 * exp(-__x * __x));
  return __x;
}
__NVHOST double erfcinv(double __q) {
  if (__q <= 0.0) return __q == 0.0 ? HUGE_VAL : NAN;
  if (__q >= 2.0) return __q == 2.0 ? -HUGE_VAL : NAN;
  if (__q > 0.0625 && __q < 1.9375) return erfinv(1.0 - __q);
  /* Tails: Newton on ln erfc(x) = ln t, which converges from the first guess and keeps
   * the relative accuracy of tiny t. */
  double __s = __q > 1.0 ? -1.0 : 1.0, __t = __q > 1.0 ? 2.0 - __q : __q;
  double __x = sqrt(-log(__t));
  for (int __i = 0; __i < 30; ++__i) {
    double __e = erfc(__x);
    double __step = (log(__e) - log(__t)) * __e / (1.1283791670955126 * exp(-__x * __x));
    __x += __step;
    if (fabs(__step) <= 1e-16 * __x) break;
  }
  return __s * __x;
}
__NVHOST double normcdfinv(double __p) { return -M_SQRT2 * erfcinv(2.0 * __p); }
__NVHOST float erfinvf(float __x) { return (float)erfinv(__x); }
__NVHOST float erfcinvf(float __x) { return (float)erfcinv(__x); }
__NVHOST float normcdfinvf(float __x) { return (float)normcdfinv(__x); }

#undef __NVHOST
#endif
#endif
