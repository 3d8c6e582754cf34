/*
 * surface_indirect_functions.h (ours): surface loads and stores through surface objects
 * (CUDA C++ Programming Guide, "Surface Object API"): surf1Dread/write, surf2D, surf3D and
 * the layered forms. x is in bytes; y, z and the layer in elements. Each access is one
 * PTX `suld.b`/`sust.b` (PTX ISA 9.7.10.6, 9.7.10.7) of the value's raw bytes (1, 2, 4, 8
 * or 16), with the boundary mode's `.zero`, `.clamp` or `.trap`. Device code, C++ only.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __SURFACE_INDIRECT_FUNCTIONS_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__

#if defined(__cplusplus) && (defined(__CUDA__) || defined(__CUDACC_RTC__))

#include "surface_types.h"

/* The raw bytes of a surface element, as 32-bit words (or one 16-bit half-word). */
struct __nv_surf_words { unsigned int w[4]; unsigned short h; };

/* Operand numbering differs by the number of result registers, so the coordinates are
 * placed with named operands instead: %[s] the surface, %[x], %[y], %[z], %[l] the layer. */
#define __NV_SULD(GEOM, MODE, COORDS, ...)                                                   \
  switch (size) {                                                                            \
    case 1: asm volatile("suld.b." GEOM ".b8." MODE " {%[a]}, [%[s], " COORDS "];" : [a] "=h"(v.h) : [s] "l"(s), __VA_ARGS__ : "memory"); return; \
    case 2: asm volatile("suld.b." GEOM ".b16." MODE " {%[a]}, [%[s], " COORDS "];" : [a] "=h"(v.h) : [s] "l"(s), __VA_ARGS__ : "memory"); return; \
    case 4: asm volatile("suld.b." GEOM ".b32." MODE " {%[a]}, [%[s], " COORDS "];" : [a] "=r"(v.w[0]) : [s] "l"(s), __VA_ARGS__ : "memory"); return; \
    case 8: asm volatile("suld.b." GEOM ".v2.b32." MODE " {%[a], %[b]}, [%[s], " COORDS "];" : [a] "=r"(v.w[0]), [b] "=r"(v.w[1]) : [s] "l"(s), __VA_ARGS__ : "memory"); return; \
    default: asm volatile("suld.b." GEOM ".v4.b32." MODE " {%[a], %[b], %[c], %[d]}, [%[s], " COORDS "];" : [a] "=r"(v.w[0]), [b] "=r"(v.w[1]), [c] "=r"(v.w[2]), [d] "=r"(v.w[3]) : [s] "l"(s), __VA_ARGS__ : "memory"); return; \
  }
#define __NV_SUST(GEOM, MODE, COORDS, ...)                                                   \
  switch (size) {                                                                            \
    case 1: asm volatile("sust.b." GEOM ".b8." MODE " [%[s], " COORDS "], {%[a]};" :: [s] "l"(s), [a] "h"(v.h), __VA_ARGS__ : "memory"); return; \
    case 2: asm volatile("sust.b." GEOM ".b16." MODE " [%[s], " COORDS "], {%[a]};" :: [s] "l"(s), [a] "h"(v.h), __VA_ARGS__ : "memory"); return; \
    case 4: asm volatile("sust.b." GEOM ".b32." MODE " [%[s], " COORDS "], {%[a]};" :: [s] "l"(s), [a] "r"(v.w[0]), __VA_ARGS__ : "memory"); return; \
    case 8: asm volatile("sust.b." GEOM ".v2.b32." MODE " [%[s], " COORDS "], {%[a], %[b]};" :: [s] "l"(s), [a] "r"(v.w[0]), [b] "r"(v.w[1]), __VA_ARGS__ : "memory"); return; \
    default: asm volatile("sust.b." GEOM ".v4.b32." MODE " [%[s], " COORDS "], {%[a], %[b], %[c], %[d]};" :: [s] "l"(s), [a] "r"(v.w[0]), [b] "r"(v.w[1]), [c] "r"(v.w[2]), [d] "r"(v.w[3]), __VA_ARGS__ : "memory"); return; \
  }

/* One load and one store function per geometry, dispatching on the boundary mode. */
#define __NV_SURF_FUNCS(NAME, GEOM, COORDS, PARAMS, ...)                                     \
  static __device__ __forceinline__ void __nv_suld_##NAME(__nv_surf_words &v, int size, int mode, cudaSurfaceObject_t s PARAMS) { \
    if (mode == cudaBoundaryModeZero) { __NV_SULD(GEOM, "zero", COORDS, __VA_ARGS__) }      \
    else if (mode == cudaBoundaryModeClamp) { __NV_SULD(GEOM, "clamp", COORDS, __VA_ARGS__) } \
    else { __NV_SULD(GEOM, "trap", COORDS, __VA_ARGS__) }                                   \
  }                                                                                          \
  static __device__ __forceinline__ void __nv_sust_##NAME(const __nv_surf_words &v, int size, int mode, cudaSurfaceObject_t s PARAMS) { \
    if (mode == cudaBoundaryModeZero) { __NV_SUST(GEOM, "zero", COORDS, __VA_ARGS__) }      \
    else if (mode == cudaBoundaryModeClamp) { __NV_SUST(GEOM, "clamp", COORDS, __VA_ARGS__) } \
    else { __NV_SUST(GEOM, "trap", COORDS, __VA_ARGS__) }                                   \
  }
#define __NV_P(...) , __VA_ARGS__
__NV_SURF_FUNCS(1d, "1d", "{%[x]}", __NV_P(int x), [x] "r"(x))
__NV_SURF_FUNCS(2d, "2d", "{%[x], %[y]}", __NV_P(int x, int y), [x] "r"(x), [y] "r"(y))
__NV_SURF_FUNCS(3d, "3d", "{%[x], %[y], %[z], %[z]}", __NV_P(int x, int y, int z), [x] "r"(x), [y] "r"(y), [z] "r"(z))
__NV_SURF_FUNCS(a1d, "a1d", "{%[l], %[x]}", __NV_P(int x, int l), [x] "r"(x), [l] "r"(l))
__NV_SURF_FUNCS(a2d, "a2d", "{%[l], %[x], %[y], %[y]}", __NV_P(int x, int y, int l), [x] "r"(x), [y] "r"(y), [l] "r"(l))
#undef __NV_SURF_FUNCS
#undef __NV_SULD
#undef __NV_SUST

/* The public functions. */
#define __NV_SURF_API(READ, WRITE, NAME, PARAMS, ARGS)                                       \
  template <class T>                                                                         \
  static __device__ __forceinline__ T READ(cudaSurfaceObject_t s PARAMS, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) { \
    __nv_surf_words v;                                                                       \
    __nv_suld_##NAME(v, (int)sizeof(T), (int)mode, s ARGS);                                  \
    T out;                                                                                   \
    if (sizeof(T) <= 2) __builtin_memcpy(&out, &v.h, sizeof(T));                             \
    else __builtin_memcpy(&out, v.w, sizeof(T));                                             \
    return out;                                                                              \
  }                                                                                          \
  template <class T>                                                                         \
  static __device__ __forceinline__ void READ(T *out, cudaSurfaceObject_t s PARAMS, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) { \
    *out = READ<T>(s ARGS, mode);                                                            \
  }                                                                                          \
  template <class T>                                                                         \
  static __device__ __forceinline__ void WRITE(T value, cudaSurfaceObject_t s PARAMS, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) { \
    __nv_surf_words v;                                                                       \
    v.h = 0;                                                                                 \
    if (sizeof(T) <= 2) __builtin_memcpy(&v.h, &value, sizeof(T));                           \
    else __builtin_memcpy(v.w, &value, sizeof(T));                                           \
    __nv_sust_##NAME(v, (int)sizeof(T), (int)mode, s ARGS);                                  \
  }
__NV_SURF_API(surf1Dread, surf1Dwrite, 1d, __NV_P(int x), __NV_P(x))
__NV_SURF_API(surf2Dread, surf2Dwrite, 2d, __NV_P(int x, int y), __NV_P(x, y))
__NV_SURF_API(surf3Dread, surf3Dwrite, 3d, __NV_P(int x, int y, int z), __NV_P(x, y, z))
__NV_SURF_API(surf1DLayeredread, surf1DLayeredwrite, a1d, __NV_P(int x, int layer), __NV_P(x, layer))
__NV_SURF_API(surf2DLayeredread, surf2DLayeredwrite, a2d, __NV_P(int x, int y, int layer), __NV_P(x, y, layer))
#undef __NV_SURF_API
#undef __NV_P

#endif /* C++ device compilation */
#endif /* __SURFACE_INDIRECT_FUNCTIONS_H__ */
