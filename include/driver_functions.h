/*
 * driver_functions.h (ours): the runtime API's small constructors of pitched pointers,
 * positions and extents (make_cudaPitchedPtr, make_cudaPos, make_cudaExtent), inline in
 * host and device code.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __DRIVER_FUNCTIONS_H__
#define __DRIVER_FUNCTIONS_H__

#include "driver_types.h"

#if defined(__CUDA__) || defined(__CUDACC__)
#define __DRIVER_FUNCTIONS_DECL static __inline__ __host__ __device__
#else
#define __DRIVER_FUNCTIONS_DECL static __inline__
#endif

__DRIVER_FUNCTIONS_DECL struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
  struct cudaPitchedPtr s;
  s.ptr = d;
  s.pitch = p;
  s.xsize = xsz;
  s.ysize = ysz;
  return s;
}

__DRIVER_FUNCTIONS_DECL struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos p;
  p.x = x;
  p.y = y;
  p.z = z;
  return p;
}

__DRIVER_FUNCTIONS_DECL struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

#undef __DRIVER_FUNCTIONS_DECL
#endif /* __DRIVER_FUNCTIONS_H__ */
