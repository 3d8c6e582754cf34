/*
 * texture_types.h (ours): texture objects, their descriptor and enumerations (CUDA 13
 * values and layout).
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __TEXTURE_TYPES_H__
#define __TEXTURE_TYPES_H__

#include "driver_types.h"

/* Texture kinds (layered and cubemap kinds have the high bits set). */
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC

/* Out-of-range texture coordinate handling. */
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};

/* Texture filtering. */
enum cudaTextureFilterMode {
  cudaFilterModePoint = 0, cudaFilterModeLinear = 1
};

/* Whether integer texels are returned as read or normalized to float. */
enum cudaTextureReadMode {
  cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1
};

/* How a texture object samples its resource (cudaCreateTextureObject). */
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

/* A texture object (cudaCreateTextureObject); device code passes it by value. */
typedef unsigned long long cudaTextureObject_t;

#endif /* __TEXTURE_TYPES_H__ */
