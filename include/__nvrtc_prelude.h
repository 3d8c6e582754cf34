/*
 * The implicit header of every NVRTC compile (ours): what NVIDIA's NVRTC makes available
 * without any #include. Written for clang's CUDA device compilation (nvptx64).
 *
 * Contents, by file:
 *   __nvrtc_core.h        execution-space and other attribute macros, basic types,
 *                         std::initializer_list / std::move / std::forward, placement new
 *   driver_types.h        the runtime API's types and enumerations (cudaError_t, ...)
 *   surface_types.h, texture_types.h   surface and texture objects
 *   vector_types.h        char1..double4, dim3, make_* (vector_functions.h)
 *   __nvrtc_builtin_vars.h threadIdx, blockIdx, blockDim, gridDim, warpSize
 *   __nvrtc_device.h      barriers and fences, warp intrinsics (cudaLaneMask_t), atomics,
 *                         integer intrinsics, cache-hinted loads/stores, clocks, printf,
 *                         assert, __trap
 *   __nvrtc_math.h        the CUDA math API for float and double, fast intrinsics,
 *                         rounding-mode intrinsics and conversions
 *   texture_indirect_functions.h, surface_indirect_functions.h
 *                         tex2D<T>(obj, ...) and friends, surf2Dread/write and friends
 */
#pragma clang system_header
#ifndef __NVRTC_PRELUDE_H__
#define __NVRTC_PRELUDE_H__

/* The runtime version NVRTC's implicit cuda_runtime_api.h defines; CCCL checks it against
 * __CUDACC_VER_MAJOR__/MINOR__. (NVRTC does not define CUDA_VERSION: that is cuda.h's.) */
#ifndef CUDART_VERSION
#define CUDART_VERSION (__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10)
#endif

#include "__nvrtc_core.h"
#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"
#include "vector_types.h"
#include "__nvrtc_builtin_vars.h"
#include "__nvrtc_device.h"
#include "__nvrtc_math.h"
#include "texture_indirect_functions.h"
#include "surface_indirect_functions.h"

#endif
