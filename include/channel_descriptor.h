/*
 * channel_descriptor.h (ours): cudaCreateChannelDesc<T>(), the channel format of an
 * element type T (bits per channel and their kind) for CUDA arrays and textures. C++ only.
 *
 * The descriptors are built inline: the result depends only on T. The runtime's
 * cudaCreateChannelDesc(x, y, z, w, kind) function is declared in cuda_runtime_api.h.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CHANNEL_DESCRIPTOR_H__
#define __CHANNEL_DESCRIPTOR_H__

#include "driver_types.h"

#if defined(__cplusplus)

static __inline__ __host__ cudaChannelFormatDesc __cudartChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  cudaChannelFormatDesc d;
  d.x = x;
  d.y = y;
  d.z = z;
  d.w = w;
  d.f = f;
  return d;
}

/* Types without a channel format: all zero, kind None. */
template <class T> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return __cudartChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}

/* 16-bit floats (cuda_fp16.h's __half is not needed to name the format). */
static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDescHalf(void) {
  return __cudartChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDescHalf1(void) {
  return __cudartChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDescHalf2(void) {
  return __cudartChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDescHalf4(void) {
  return __cudartChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}

/* One specialization per scalar and vector type: n channels of the scalar's width. The
 * plain char's kind follows its signedness on this platform. */
#define __CUDART_CHANNEL_1(T, K, B) \
  template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<T>(void) { return __cudartChannelDesc(B, 0, 0, 0, K); }
#define __CUDART_CHANNEL_2(T, K, B) \
  template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<T>(void) { return __cudartChannelDesc(B, B, 0, 0, K); }
#define __CUDART_CHANNEL_4(T, K, B) \
  template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<T>(void) { return __cudartChannelDesc(B, B, B, B, K); }
#define __CUDART_CHANNEL_FAMILY(S, V, K, B) \
  __CUDART_CHANNEL_1(S, K, B)               \
  __CUDART_CHANNEL_1(V##1, K, B)            \
  __CUDART_CHANNEL_2(V##2, K, B)            \
  __CUDART_CHANNEL_4(V##4, K, B)

#if defined(__CHAR_UNSIGNED__)
__CUDART_CHANNEL_1(char, cudaChannelFormatKindUnsigned, 8)
#else
__CUDART_CHANNEL_1(char, cudaChannelFormatKindSigned, 8)
#endif
__CUDART_CHANNEL_FAMILY(signed char, char, cudaChannelFormatKindSigned, 8)
__CUDART_CHANNEL_FAMILY(unsigned char, uchar, cudaChannelFormatKindUnsigned, 8)
__CUDART_CHANNEL_FAMILY(short, short, cudaChannelFormatKindSigned, 16)
__CUDART_CHANNEL_FAMILY(unsigned short, ushort, cudaChannelFormatKindUnsigned, 16)
__CUDART_CHANNEL_FAMILY(int, int, cudaChannelFormatKindSigned, 32)
__CUDART_CHANNEL_FAMILY(unsigned int, uint, cudaChannelFormatKindUnsigned, 32)
__CUDART_CHANNEL_FAMILY(float, float, cudaChannelFormatKindFloat, 32)

#undef __CUDART_CHANNEL_FAMILY
#undef __CUDART_CHANNEL_4
#undef __CUDART_CHANNEL_2
#undef __CUDART_CHANNEL_1

#endif /* __cplusplus */
#endif /* __CHANNEL_DESCRIPTOR_H__ */
