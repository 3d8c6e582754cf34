/*
 * cuComplex.h: single and double precision complex numbers for host and device code, with
 * the names, types and semantics of the CUDA toolkit's documented header. Written for this
 * project.
 *
 * cuFloatComplex is float2 and cuDoubleComplex double2 (the layout cuBLAS and cuFFT take);
 * division and absolute value scale their operands first, so that intermediate squares
 * neither overflow nor underflow where the result is representable.
 */
#ifndef CU_COMPLEX_H_
#define CU_COMPLEX_H_

#if !defined(__CUDACC_RTC__)
#include <math.h>
#endif

#include "vector_types.h"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define __CUCOMPLEX_QUALIFIER__ __host__ __device__ static __inline__
#else
#define __CUCOMPLEX_QUALIFIER__ static __inline__
#endif

#define __CUCOMPLEX_FABSF(x) fabsf(x)
#define __CUCOMPLEX_FABS(x) fabs(x)
#define __CUCOMPLEX_SQRTF(x) sqrtf(x)
#define __CUCOMPLEX_SQRT(x) sqrt(x)

#ifdef __cplusplus
extern "C" {
#endif

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

__CUCOMPLEX_QUALIFIER__ float cuCrealf(cuFloatComplex x) { return x.x; }
__CUCOMPLEX_QUALIFIER__ float cuCimagf(cuFloatComplex x) { return x.y; }
__CUCOMPLEX_QUALIFIER__ cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex res;
  res.x = r;
  res.y = i;
  return res;
}
__CUCOMPLEX_QUALIFIER__ cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
__CUCOMPLEX_QUALIFIER__ cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x + y.x, x.y + y.y);
}
__CUCOMPLEX_QUALIFIER__ cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x - y.x, x.y - y.y);
}
__CUCOMPLEX_QUALIFIER__ cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
__CUCOMPLEX_QUALIFIER__ cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  float s = __CUCOMPLEX_FABSF(y.x) + __CUCOMPLEX_FABSF(y.y);
  float oos = 1.0f / s;
  float ars = x.x * oos, ais = x.y * oos;
  float brs = y.x * oos, bis = y.y * oos;
  float oos2 = 1.0f / (brs * brs + bis * bis);
  return make_cuFloatComplex((ars * brs + ais * bis) * oos2, (ais * brs - ars * bis) * oos2);
}
__CUCOMPLEX_QUALIFIER__ float cuCabsf(cuFloatComplex x) {
  float a = __CUCOMPLEX_FABSF(x.x), b = __CUCOMPLEX_FABSF(x.y);
  float v = a > b ? a : b, w = a > b ? b : a;
  if (v == 0.0f || v > 3.402823466e38f || w > 3.402823466e38f) {
    return v + w;
  }
  float q = w / v;
  return v * __CUCOMPLEX_SQRTF(1.0f + q * q);
}

__CUCOMPLEX_QUALIFIER__ double cuCreal(cuDoubleComplex x) { return x.x; }
__CUCOMPLEX_QUALIFIER__ double cuCimag(cuDoubleComplex x) { return x.y; }
__CUCOMPLEX_QUALIFIER__ cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex res;
  res.x = r;
  res.y = i;
  return res;
}
__CUCOMPLEX_QUALIFIER__ cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
__CUCOMPLEX_QUALIFIER__ cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x + y.x, x.y + y.y);
}
__CUCOMPLEX_QUALIFIER__ cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x - y.x, x.y - y.y);
}
__CUCOMPLEX_QUALIFIER__ cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
__CUCOMPLEX_QUALIFIER__ cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  double s = __CUCOMPLEX_FABS(y.x) + __CUCOMPLEX_FABS(y.y);
  double oos = 1.0 / s;
  double ars = x.x * oos, ais = x.y * oos;
  double brs = y.x * oos, bis = y.y * oos;
  double oos2 = 1.0 / (brs * brs + bis * bis);
  return make_cuDoubleComplex((ars * brs + ais * bis) * oos2, (ais * brs - ars * bis) * oos2);
}
__CUCOMPLEX_QUALIFIER__ double cuCabs(cuDoubleComplex x) {
  double a = __CUCOMPLEX_FABS(x.x), b = __CUCOMPLEX_FABS(x.y);
  double v = a > b ? a : b, w = a > b ? b : a;
  if (v == 0.0 || v > 1.79769313486231570e308 || w > 1.79769313486231570e308) {
    return v + w;
  }
  double q = w / v;
  return v * __CUCOMPLEX_SQRT(1.0 + q * q);
}

#ifdef __cplusplus
}
#endif

__CUCOMPLEX_QUALIFIER__ cuComplex make_cuComplex(float x, float y) { return make_cuFloatComplex(x, y); }
__CUCOMPLEX_QUALIFIER__ cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex((double)cuCrealf(c), (double)cuCimagf(c));
}
__CUCOMPLEX_QUALIFIER__ cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)cuCreal(c), (float)cuCimag(c));
}
/* x * y + d */
__CUCOMPLEX_QUALIFIER__ cuComplex cuCfmaf(cuComplex x, cuComplex y, cuComplex d) {
  float real = (cuCrealf(x) * cuCrealf(y)) + cuCrealf(d);
  float imag = (cuCrealf(x) * cuCimagf(y)) + cuCimagf(d);
  real = -(cuCimagf(x) * cuCimagf(y)) + real;
  imag = (cuCimagf(x) * cuCrealf(y)) + imag;
  return make_cuComplex(real, imag);
}
__CUCOMPLEX_QUALIFIER__ cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  double real = (cuCreal(x) * cuCreal(y)) + cuCreal(d);
  double imag = (cuCreal(x) * cuCimag(y)) + cuCimag(d);
  real = -(cuCimag(x) * cuCimag(y)) + real;
  imag = (cuCimag(x) * cuCreal(y)) + imag;
  return make_cuDoubleComplex(real, imag);
}

#undef __CUCOMPLEX_FABSF
#undef __CUCOMPLEX_FABS
#undef __CUCOMPLEX_SQRTF
#undef __CUCOMPLEX_SQRT

#endif /* CU_COMPLEX_H_ */
