/*
 * curand_kernel_dist.h: the distributions of cuRAND's device API over the generators
 * of curand_kernel.h (included by it; not meant to be included alone).
 */
#ifndef CURAND_KERNEL_DIST_H_
#define CURAND_KERNEL_DIST_H_

/* ---- transformations of raw values ---- */

QUALIFIERS float _curand_uniform(unsigned int x) { return x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f); }

/* 53 bits of two values. */
QUALIFIERS double _curand_uniform_double_hq(unsigned int x, unsigned int y) {
  unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
  return z * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}

/* One value as a double in (0, 1]. */
QUALIFIERS double _curand_uniform_double(unsigned int x) { return x * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE; }

QUALIFIERS double _curand_uniform_double_64(unsigned long long x) {
  return (x >> 11) * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}

QUALIFIERS float2 _curand_box_muller(unsigned int x, unsigned int y) {
  float2 r;
  float u = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
  float v = y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2.0f);
  float s = sqrtf(-2.0f * logf(u));
  __sincosf(v, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}

QUALIFIERS double2 _curand_box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  double2 r;
  double u = _curand_uniform_double_hq(x0, x1);
  unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << (53 - 32));
  double v = zy * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE;
  double s = sqrt(-2.0 * log(u));
  sincospi(v, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}

/* Box-Muller of two doubles in (0, 1] (MRG32k3a). */
QUALIFIERS float2 _curand_box_muller_mrg(double a, double b) {
  float2 r;
  float x = (float)a;
  float y = (float)b * CURAND_2PI;
  float s = sqrtf(-2.0f * logf(x));
  __sincosf(y, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}

QUALIFIERS double2 _curand_box_muller_mrg_double(double u, double v) {
  double2 r;
  double s = sqrt(-2.0 * log(u));
  sincospi(2.0 * v, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}

/* The normal quantile of a 32-bit (64-bit) value (quasi-random generators). */
QUALIFIERS float _curand_normal_icdf(unsigned int x) {
  float u = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
  return CURAND_SQRT2 * erfcinvf(2.0f * u);
}
QUALIFIERS double _curand_normal_icdf_double(unsigned int x) {
  double u = x * CURAND_2POW32_INV_DOUBLE + (CURAND_2POW32_INV_DOUBLE / 2.0);
  return CURAND_SQRT2_DOUBLE * erfcinv(2.0 * u);
}
QUALIFIERS double _curand_normal_icdf_double_64(unsigned long long x) {
  return CURAND_SQRT2_DOUBLE * erfcinv(2.0 * _curand_uniform_double_64(x));
}

/* ---- per generator: uniform, pairs of normals ---- */

#define __CURAND_RAW32_DISTS(STATE_T)                                                                  \
  QUALIFIERS float curand_uniform(STATE_T *state) { return _curand_uniform(curand(state)); }           \
  QUALIFIERS float2 curand_normal2(STATE_T *state) {                                                   \
    unsigned int x = curand(state);                                                                    \
    unsigned int y = curand(state);                                                                    \
    return _curand_box_muller(x, y);                                                                   \
  }                                                                                                    \
  QUALIFIERS double2 curand_normal2_double(STATE_T *state) {                                           \
    unsigned int x0 = curand(state);                                                                   \
    unsigned int x1 = curand(state);                                                                   \
    unsigned int y0 = curand(state);                                                                   \
    unsigned int y1 = curand(state);                                                                   \
    return _curand_box_muller_double(x0, x1, y0, y1);                                                  \
  }

__CURAND_RAW32_DISTS(curandStateXORWOW_t)
__CURAND_RAW32_DISTS(curandStatePhilox4_32_10_t)
#undef __CURAND_RAW32_DISTS

QUALIFIERS double curand_uniform_double(curandStateXORWOW_t *state) {
  unsigned int x = curand(state);
  unsigned int y = curand(state);
  return _curand_uniform_double_hq(x, y);
}
QUALIFIERS double curand_uniform_double(curandStatePhilox4_32_10_t *state) { return _curand_uniform_double(curand(state)); }

QUALIFIERS float curand_uniform(curandStateMRG32k3a_t *state) { return (float)curand_MRG32k3a(state); }
QUALIFIERS double curand_uniform_double(curandStateMRG32k3a_t *state) { return curand_MRG32k3a(state); }
QUALIFIERS float2 curand_normal2(curandStateMRG32k3a_t *state) {
  double a = curand_MRG32k3a(state);
  double b = curand_MRG32k3a(state);
  return _curand_box_muller_mrg(a, b);
}
QUALIFIERS double2 curand_normal2_double(curandStateMRG32k3a_t *state) {
  double a = curand_MRG32k3a(state);
  double b = curand_MRG32k3a(state);
  return _curand_box_muller_mrg_double(a, b);
}

/* ---- one normal at a time: the second of each pair is kept in the state ---- */

#define __CURAND_CACHED_NORMALS(STATE_T)                                                             \
  QUALIFIERS float curand_normal(STATE_T *state) {                                                   \
    if (state->boxmuller_flag != EXTRA_FLAG_NORMAL) {                                                \
      float2 v = curand_normal2(state);                                                              \
      state->boxmuller_extra = v.y;                                                                  \
      state->boxmuller_flag = EXTRA_FLAG_NORMAL;                                                     \
      return v.x;                                                                                    \
    }                                                                                                \
    state->boxmuller_flag = 0;                                                                       \
    return state->boxmuller_extra;                                                                   \
  }                                                                                                  \
  QUALIFIERS double curand_normal_double(STATE_T *state) {                                           \
    if (state->boxmuller_flag_double != EXTRA_FLAG_NORMAL) {                                         \
      double2 v = curand_normal2_double(state);                                                      \
      state->boxmuller_extra_double = v.y;                                                           \
      state->boxmuller_flag_double = EXTRA_FLAG_NORMAL;                                              \
      return v.x;                                                                                    \
    }                                                                                                \
    state->boxmuller_flag_double = 0;                                                                \
    return state->boxmuller_extra_double;                                                            \
  }                                                                                                  \
  QUALIFIERS float curand_log_normal(STATE_T *state, float mean, float stddev) {                     \
    return expf(mean + stddev * curand_normal(state));                                               \
  }                                                                                                  \
  QUALIFIERS double curand_log_normal_double(STATE_T *state, double mean, double stddev) {           \
    return exp(mean + stddev * curand_normal_double(state));                                         \
  }                                                                                                  \
  QUALIFIERS float2 curand_log_normal2(STATE_T *state, float mean, float stddev) {                   \
    float2 v = curand_normal2(state);                                                                \
    v.x = expf(mean + stddev * v.x);                                                                 \
    v.y = expf(mean + stddev * v.y);                                                                 \
    return v;                                                                                        \
  }                                                                                                  \
  QUALIFIERS double2 curand_log_normal2_double(STATE_T *state, double mean, double stddev) {         \
    double2 v = curand_normal2_double(state);                                                        \
    v.x = exp(mean + stddev * v.x);                                                                  \
    v.y = exp(mean + stddev * v.y);                                                                  \
    return v;                                                                                        \
  }                                                                                                  \
  QUALIFIERS unsigned int curand_poisson(STATE_T *state, double lambda) {                            \
    if (lambda < 64) return __curand_poisson_knuth(state, (float)lambda);                            \
    if (lambda > 4000)                                                                               \
      return (unsigned int)((sqrt(lambda) * curand_normal_double(state)) + lambda + 0.5);            \
    return __curand_poisson_ptrs(state, lambda);                                                     \
  }

/* Knuth's multiplication of uniforms (lambda < 64). */
template <class S>
QUALIFIERS unsigned int __curand_poisson_knuth(S *state, float lambda) {
  unsigned int k = 0;
  float p = expf(lambda);
  do {
    k++;
    p *= curand_uniform(state);
  } while (p > 1.0f);
  return k - 1;
}

/* Hormann's transformed rejection (PTRS) for 64 <= lambda <= 4000. */
template <class S>
QUALIFIERS unsigned int __curand_poisson_ptrs(S *state, double lambda) {
  double slam = sqrt(lambda), loglam = log(lambda);
  double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    double u = curand_uniform_double(state) - 0.5;
    double v = curand_uniform_double(state);
    double us = 0.5 - fabs(u);
    double k = floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return (unsigned int)k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lambda + k * loglam - lgamma(k + 1)) return (unsigned int)k;
  }
}

__CURAND_CACHED_NORMALS(curandStateXORWOW_t)
__CURAND_CACHED_NORMALS(curandStatePhilox4_32_10_t)
__CURAND_CACHED_NORMALS(curandStateMRG32k3a_t)
#undef __CURAND_CACHED_NORMALS

/* ---- Philox: four at a time ---- */

QUALIFIERS float4 curand_uniform4(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  return make_float4(_curand_uniform(x.x), _curand_uniform(x.y), _curand_uniform(x.z), _curand_uniform(x.w));
}
QUALIFIERS double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  return make_double2(_curand_uniform_double_hq(x.x, x.y), _curand_uniform_double_hq(x.z, x.w));
}
QUALIFIERS float4 curand_normal4(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  float2 a = _curand_box_muller(x.x, x.y);
  float2 b = _curand_box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
QUALIFIERS float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev) {
  float4 v = curand_normal4(state);
  return make_float4(expf(mean + stddev * v.x), expf(mean + stddev * v.y), expf(mean + stddev * v.z),
                     expf(mean + stddev * v.w));
}
QUALIFIERS uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda) {
  uint4 r;
  r.x = curand_poisson(state, lambda);
  r.y = curand_poisson(state, lambda);
  r.z = curand_poisson(state, lambda);
  r.w = curand_poisson(state, lambda);
  return r;
}

/* ---- Sobol: quantiles rather than Box-Muller (keeps the dimension structure); as the
 * host API: Sobol32 doubles x * 2^-32 + 2^-32, Sobol64 floats from the upper 32 bits ---- */

#define __CURAND_SOBOL32_DISTS(STATE_T)                                                               \
  QUALIFIERS float curand_uniform(STATE_T *state) { return _curand_uniform(curand(state)); }          \
  QUALIFIERS double curand_uniform_double(STATE_T *state) { return _curand_uniform_double(curand(state)); } \
  QUALIFIERS float curand_normal(STATE_T *state) { return _curand_normal_icdf(curand(state)); }       \
  QUALIFIERS double curand_normal_double(STATE_T *state) { return _curand_normal_icdf_double(curand(state)); } \
  QUALIFIERS float curand_log_normal(STATE_T *state, float mean, float stddev) {                      \
    return expf(mean + stddev * _curand_normal_icdf(curand(state)));                                  \
  }                                                                                                   \
  QUALIFIERS double curand_log_normal_double(STATE_T *state, double mean, double stddev) {            \
    return exp(mean + stddev * _curand_normal_icdf_double(curand(state)));                            \
  }
#define __CURAND_SOBOL64_DISTS(STATE_T)                                                               \
  QUALIFIERS float curand_uniform(STATE_T *state) { return _curand_uniform((unsigned int)(curand(state) >> 32)); } \
  QUALIFIERS double curand_uniform_double(STATE_T *state) { return _curand_uniform_double_64(curand(state)); } \
  QUALIFIERS float curand_normal(STATE_T *state) { return _curand_normal_icdf((unsigned int)(curand(state) >> 32)); } \
  QUALIFIERS double curand_normal_double(STATE_T *state) { return _curand_normal_icdf_double_64(curand(state)); } \
  QUALIFIERS float curand_log_normal(STATE_T *state, float mean, float stddev) {                      \
    return expf(mean + stddev * _curand_normal_icdf((unsigned int)(curand(state) >> 32)));            \
  }                                                                                                   \
  QUALIFIERS double curand_log_normal_double(STATE_T *state, double mean, double stddev) {            \
    return exp(mean + stddev * _curand_normal_icdf_double_64(curand(state)));                         \
  }

__CURAND_SOBOL32_DISTS(curandStateSobol32_t)
__CURAND_SOBOL32_DISTS(curandStateScrambledSobol32_t)
__CURAND_SOBOL64_DISTS(curandStateSobol64_t)
__CURAND_SOBOL64_DISTS(curandStateScrambledSobol64_t)
#undef __CURAND_SOBOL32_DISTS
#undef __CURAND_SOBOL64_DISTS

#endif /* CURAND_KERNEL_DIST_H_ */
