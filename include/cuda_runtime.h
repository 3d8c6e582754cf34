/*
 * cuda_runtime.h (ours): what every CUDA source sees. nvcc includes it implicitly in both
 * passes of a .cu file; host programs include it for the runtime API.
 *
 *   NVRTC (device code only)     the implicit prelude has the device API; this adds the
 *                                types kernels name (cudaError_t, dim3, vector types)
 *   a CUDA compiler (our nvcc,   the runtime API, then the device API our NVRTC has
 *   clang -x cuda)               (builtin variables, intrinsics, math), so a .cu file
 *                                sees the same device functions whichever compiles it
 *   a plain host compiler        the runtime API and, in C++, its template conveniences
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

#if defined(__CUDACC_RTC__)
#include "driver_types.h"
#include "vector_types.h"
#include "math_constants.h"
#else

#if defined(__CUDA__) || defined(__CUDACC__)
/* Attribute macros and vector types in their CUDA form, before the runtime API's
 * declarations would give them their plain host form. */
#include "__nvrtc_core.h"
#include "vector_types.h"
#endif

#include "cuda_runtime_api.h"
#include "driver_functions.h"

#if defined(__CUDA__)
#include "__nvrtc_builtin_vars.h"
#include "__nvrtc_device.h"
#include "cuda_device_runtime_api.h"
#include "__nvrtc_math.h"
#include "__nvcc_host_math.h"
#include "math_constants.h"
#include "texture_indirect_functions.h"
#include "surface_indirect_functions.h"
#endif

#if defined(__CUDA__) || defined(__CUDACC__)
/* The C and C++ library headers nvcc's implicit include brings with it (CUDA sources call
 * memset, malloc, printf, exit, sqrt, std::function... without including them), after the
 * device math: <cmath>'s `using ::exp;` then brings the device overloads into std::. */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__cplusplus)
#include <cmath>
#include <cstdlib>
#include <functional>
#include <new>
#include <utility>
#endif
#endif

#if defined(__cplusplus)
#include "cuda_runtime_templates.h"
#endif

#endif /* !__CUDACC_RTC__ */
#endif
