/*
 * texture_indirect_functions.h (ours): texture fetches through texture objects
 * (CUDA C++ Programming Guide, "Texture Object API"): tex1Dfetch, tex1D, tex2D, tex3D, the
 * layered and cubemap forms, their Lod and Grad variants, and tex2Dgather. Each is one
 * PTX `tex`/`tld4` instruction (PTX ISA 9.7.10.3, 9.7.10.4) returning four 32-bit
 * components, of the kind the result type asks for (float, signed or unsigned integers),
 * narrowed to that type. Device code, C++ only.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __TEXTURE_INDIRECT_FUNCTIONS_H__
#define __TEXTURE_INDIRECT_FUNCTIONS_H__

#if defined(__cplusplus) && (defined(__CUDA__) || defined(__CUDACC_RTC__))

#include "texture_types.h"
#include "vector_types.h"

/* The four components a fetch returns, by PTX result type. */
struct __nv_tex4_f32 { float x, y, z, w; };
struct __nv_tex4_s32 { int x, y, z, w; };
struct __nv_tex4_u32 { unsigned int x, y, z, w; };

/* What a result type T reads (`raw`) and how it is built from the four components. */
template <class T> struct __nv_tex_result;
#define __NV_TEX_SCALAR(T, RAW)                                                            \
  template <> struct __nv_tex_result<T> {                                                  \
    typedef RAW raw;                                                                       \
    static __device__ __forceinline__ T make(const RAW &r) { return (T)r.x; }              \
  };
#define __NV_TEX_VECTORS(T, B, RAW)                                                        \
  template <> struct __nv_tex_result<T##1> {                                               \
    typedef RAW raw;                                                                       \
    static __device__ __forceinline__ T##1 make(const RAW &r) { T##1 v; v.x = (B)r.x; return v; } \
  };                                                                                       \
  template <> struct __nv_tex_result<T##2> {                                               \
    typedef RAW raw;                                                                       \
    static __device__ __forceinline__ T##2 make(const RAW &r) {                            \
      T##2 v; v.x = (B)r.x; v.y = (B)r.y; return v;                                        \
    }                                                                                      \
  };                                                                                       \
  template <> struct __nv_tex_result<T##4> {                                               \
    typedef RAW raw;                                                                       \
    static __device__ __forceinline__ T##4 make(const RAW &r) {                            \
      T##4 v; v.x = (B)r.x; v.y = (B)r.y; v.z = (B)r.z; v.w = (B)r.w; return v;            \
    }                                                                                      \
  };
__NV_TEX_SCALAR(char, __nv_tex4_s32)
__NV_TEX_SCALAR(signed char, __nv_tex4_s32)
__NV_TEX_SCALAR(unsigned char, __nv_tex4_u32)
__NV_TEX_SCALAR(short, __nv_tex4_s32)
__NV_TEX_SCALAR(unsigned short, __nv_tex4_u32)
__NV_TEX_SCALAR(int, __nv_tex4_s32)
__NV_TEX_SCALAR(unsigned int, __nv_tex4_u32)
__NV_TEX_SCALAR(float, __nv_tex4_f32)
__NV_TEX_VECTORS(char, signed char, __nv_tex4_s32)
__NV_TEX_VECTORS(uchar, unsigned char, __nv_tex4_u32)
__NV_TEX_VECTORS(short, short, __nv_tex4_s32)
__NV_TEX_VECTORS(ushort, unsigned short, __nv_tex4_u32)
__NV_TEX_VECTORS(int, int, __nv_tex4_s32)
__NV_TEX_VECTORS(uint, unsigned int, __nv_tex4_u32)
__NV_TEX_VECTORS(float, float, __nv_tex4_f32)
#undef __NV_TEX_SCALAR
#undef __NV_TEX_VECTORS

/* One fetch per (instruction form, result type): OP is the PTX instruction up to the
 * result type, COORDS the coordinate vector, ARGS what follows it. */
#define __NV_TEX_OUT_f32 "=f"
#define __NV_TEX_OUT_s32 "=r"
#define __NV_TEX_OUT_u32 "=r"
#define __NV_TEX_FETCH(NAME, OP, CTYPE, COORDS, SUFFIX, PARAMS, ...)                        \
  static __device__ __forceinline__ void NAME(__nv_tex4_f32 &r, cudaTextureObject_t t PARAMS) { \
    asm volatile(OP ".v4.f32." CTYPE " {%0, %1, %2, %3}, [%4, " COORDS "]" SUFFIX ";"      \
                 : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), __VA_ARGS__);      \
  }                                                                                        \
  static __device__ __forceinline__ void NAME(__nv_tex4_s32 &r, cudaTextureObject_t t PARAMS) { \
    asm volatile(OP ".v4.s32." CTYPE " {%0, %1, %2, %3}, [%4, " COORDS "]" SUFFIX ";"      \
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), __VA_ARGS__);      \
  }                                                                                        \
  static __device__ __forceinline__ void NAME(__nv_tex4_u32 &r, cudaTextureObject_t t PARAMS) { \
    asm volatile(OP ".v4.u32." CTYPE " {%0, %1, %2, %3}, [%4, " COORDS "]" SUFFIX ";"      \
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), __VA_ARGS__);      \
  }
#define __NV_P(...) , __VA_ARGS__
__NV_TEX_FETCH(__nv_tex_1dfetch, "tex.1d", "s32", "{%5}", "", __NV_P(int x), "r"(x))
__NV_TEX_FETCH(__nv_tex_1d, "tex.1d", "f32", "{%5}", "", __NV_P(float x), "f"(x))
__NV_TEX_FETCH(__nv_tex_2d, "tex.2d", "f32", "{%5, %6}", "", __NV_P(float x, float y), "f"(x), "f"(y))
__NV_TEX_FETCH(__nv_tex_3d, "tex.3d", "f32", "{%5, %6, %7, %7}", "", __NV_P(float x, float y, float z), "f"(x), "f"(y), "f"(z))
__NV_TEX_FETCH(__nv_tex_a1d, "tex.a1d", "f32", "{%5, %6}", "", __NV_P(float x, int l), "r"(l), "f"(x))
__NV_TEX_FETCH(__nv_tex_a2d, "tex.a2d", "f32", "{%5, %6, %7, %7}", "", __NV_P(float x, float y, int l), "r"(l), "f"(x), "f"(y))
__NV_TEX_FETCH(__nv_tex_cube, "tex.cube", "f32", "{%5, %6, %7, %7}", "", __NV_P(float x, float y, float z), "f"(x), "f"(y), "f"(z))
__NV_TEX_FETCH(__nv_tex_acube, "tex.acube", "f32", "{%5, %6, %7, %8}", "", __NV_P(float x, float y, float z, int l), "r"(l), "f"(x), "f"(y), "f"(z))
__NV_TEX_FETCH(__nv_tex_1d_lod, "tex.level.1d", "f32", "{%5}", ", %6", __NV_P(float x, float lod), "f"(x), "f"(lod))
__NV_TEX_FETCH(__nv_tex_2d_lod, "tex.level.2d", "f32", "{%5, %6}", ", %7", __NV_P(float x, float y, float lod), "f"(x), "f"(y), "f"(lod))
__NV_TEX_FETCH(__nv_tex_3d_lod, "tex.level.3d", "f32", "{%5, %6, %7, %7}", ", %8", __NV_P(float x, float y, float z, float lod), "f"(x), "f"(y), "f"(z), "f"(lod))
__NV_TEX_FETCH(__nv_tex_a1d_lod, "tex.level.a1d", "f32", "{%5, %6}", ", %7", __NV_P(float x, int l, float lod), "r"(l), "f"(x), "f"(lod))
__NV_TEX_FETCH(__nv_tex_a2d_lod, "tex.level.a2d", "f32", "{%5, %6, %7, %7}", ", %8", __NV_P(float x, float y, int l, float lod), "r"(l), "f"(x), "f"(y), "f"(lod))
__NV_TEX_FETCH(__nv_tex_cube_lod, "tex.level.cube", "f32", "{%5, %6, %7, %7}", ", %8", __NV_P(float x, float y, float z, float lod), "f"(x), "f"(y), "f"(z), "f"(lod))
__NV_TEX_FETCH(__nv_tex_1d_grad, "tex.grad.1d", "f32", "{%5}", ", {%6}, {%7}", __NV_P(float x, float dx, float dy), "f"(x), "f"(dx), "f"(dy))
__NV_TEX_FETCH(__nv_tex_2d_grad, "tex.grad.2d", "f32", "{%5, %6}", ", {%7, %8}, {%9, %10}",
               __NV_P(float x, float y, float2 dx, float2 dy), "f"(x), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y))
__NV_TEX_FETCH(__nv_tex_3d_grad, "tex.grad.3d", "f32", "{%5, %6, %7, %7}", ", {%8, %9, %10, %10}, {%11, %12, %13, %13}",
               __NV_P(float x, float y, float z, float4 dx, float4 dy), "f"(x), "f"(y), "f"(z), "f"(dx.x), "f"(dx.y), "f"(dx.z),
               "f"(dy.x), "f"(dy.y), "f"(dy.z))
__NV_TEX_FETCH(__nv_tex_a2d_grad, "tex.grad.a2d", "f32", "{%5, %6, %7, %7}", ", {%8, %9}, {%10, %11}",
               __NV_P(float x, float y, int l, float2 dx, float2 dy), "r"(l), "f"(x), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y))
__NV_TEX_FETCH(__nv_tex_gather0, "tld4.r.2d", "f32", "{%5, %6}", "", __NV_P(float x, float y), "f"(x), "f"(y))
__NV_TEX_FETCH(__nv_tex_gather1, "tld4.g.2d", "f32", "{%5, %6}", "", __NV_P(float x, float y), "f"(x), "f"(y))
__NV_TEX_FETCH(__nv_tex_gather2, "tld4.b.2d", "f32", "{%5, %6}", "", __NV_P(float x, float y), "f"(x), "f"(y))
__NV_TEX_FETCH(__nv_tex_gather3, "tld4.a.2d", "f32", "{%5, %6}", "", __NV_P(float x, float y), "f"(x), "f"(y))
#undef __NV_P
#undef __NV_TEX_FETCH

/* The public functions: T tex...<T>(obj, ...) and void tex...(T *out, obj, ...). */
#define __NV_TEX_API(NAME, FETCH, PARAMS, ARGS)                                            \
  template <class T> static __device__ __forceinline__ T NAME(cudaTextureObject_t t PARAMS) { \
    typename __nv_tex_result<T>::raw r;                                                    \
    FETCH(r, t ARGS);                                                                      \
    return __nv_tex_result<T>::make(r);                                                    \
  }                                                                                        \
  template <class T> static __device__ __forceinline__ void NAME(T *out, cudaTextureObject_t t PARAMS) { \
    *out = NAME<T>(t ARGS);                                                                \
  }
#define __NV_P(...) , __VA_ARGS__
__NV_TEX_API(tex1Dfetch, __nv_tex_1dfetch, __NV_P(int x), __NV_P(x))
__NV_TEX_API(tex1D, __nv_tex_1d, __NV_P(float x), __NV_P(x))
__NV_TEX_API(tex2D, __nv_tex_2d, __NV_P(float x, float y), __NV_P(x, y))
__NV_TEX_API(tex3D, __nv_tex_3d, __NV_P(float x, float y, float z), __NV_P(x, y, z))
__NV_TEX_API(tex1DLayered, __nv_tex_a1d, __NV_P(float x, int layer), __NV_P(x, layer))
__NV_TEX_API(tex2DLayered, __nv_tex_a2d, __NV_P(float x, float y, int layer), __NV_P(x, y, layer))
__NV_TEX_API(texCubemap, __nv_tex_cube, __NV_P(float x, float y, float z), __NV_P(x, y, z))
__NV_TEX_API(texCubemapLayered, __nv_tex_acube, __NV_P(float x, float y, float z, int layer), __NV_P(x, y, z, layer))
__NV_TEX_API(tex1DLod, __nv_tex_1d_lod, __NV_P(float x, float level), __NV_P(x, level))
__NV_TEX_API(tex2DLod, __nv_tex_2d_lod, __NV_P(float x, float y, float level), __NV_P(x, y, level))
__NV_TEX_API(tex3DLod, __nv_tex_3d_lod, __NV_P(float x, float y, float z, float level), __NV_P(x, y, z, level))
__NV_TEX_API(tex1DLayeredLod, __nv_tex_a1d_lod, __NV_P(float x, int layer, float level), __NV_P(x, layer, level))
__NV_TEX_API(tex2DLayeredLod, __nv_tex_a2d_lod, __NV_P(float x, float y, int layer, float level), __NV_P(x, y, layer, level))
__NV_TEX_API(texCubemapLod, __nv_tex_cube_lod, __NV_P(float x, float y, float z, float level), __NV_P(x, y, z, level))
__NV_TEX_API(tex1DGrad, __nv_tex_1d_grad, __NV_P(float x, float dPdx, float dPdy), __NV_P(x, dPdx, dPdy))
__NV_TEX_API(tex2DGrad, __nv_tex_2d_grad, __NV_P(float x, float y, float2 dPdx, float2 dPdy), __NV_P(x, y, dPdx, dPdy))
__NV_TEX_API(tex3DGrad, __nv_tex_3d_grad, __NV_P(float x, float y, float z, float4 dPdx, float4 dPdy), __NV_P(x, y, z, dPdx, dPdy))
__NV_TEX_API(tex2DLayeredGrad, __nv_tex_a2d_grad, __NV_P(float x, float y, int layer, float2 dPdx, float2 dPdy),
             __NV_P(x, y, layer, dPdx, dPdy))
#undef __NV_TEX_API

/* tex2Dgather: component `comp` (0..3) of the four texels bilinear filtering would use. */
template <class T> static __device__ __forceinline__ T tex2Dgather(cudaTextureObject_t t, float x, float y, int comp = 0) {
  typename __nv_tex_result<T>::raw r;
  switch (comp) {
    case 1: __nv_tex_gather1(r, t, x, y); break;
    case 2: __nv_tex_gather2(r, t, x, y); break;
    case 3: __nv_tex_gather3(r, t, x, y); break;
    default: __nv_tex_gather0(r, t, x, y); break;
  }
  return __nv_tex_result<T>::make(r);
}
template <class T> static __device__ __forceinline__ void tex2Dgather(T *out, cudaTextureObject_t t, float x, float y, int comp = 0) {
  *out = tex2Dgather<T>(t, x, y, comp);
}
#undef __NV_P

#endif /* C++ device compilation */
#endif /* __TEXTURE_INDIRECT_FUNCTIONS_H__ */
