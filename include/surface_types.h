/*
 * surface_types.h (ours): surface objects and their enumerations (CUDA 13 values).
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __SURFACE_TYPES_H__
#define __SURFACE_TYPES_H__

#include "driver_types.h"

/* Surface kinds (layered and cubemap kinds have the high bits set). */
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

/* Out-of-range behaviour of surface accesses. */
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2
};

/* Surface format handling. */
enum cudaSurfaceFormatMode {
  cudaFormatModeForced = 0, cudaFormatModeAuto = 1
};

/* A surface object (cudaCreateSurfaceObject); device code passes it by value. */
typedef unsigned long long cudaSurfaceObject_t;

#endif /* __SURFACE_TYPES_H__ */
