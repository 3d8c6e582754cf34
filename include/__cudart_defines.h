/*
 * The declaration macros of the runtime API headers (the host_defines.h kind), for the
 * compilers that have not defined them already: our NVRTC's prelude and a CUDA compiler
 * give __host__/__device__ their CUDA meaning first; a plain host compiler gets them empty.
 * Each macro is defined only if absent, so whichever definition comes first stays.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CUDART_DEFINES_H__
#define __CUDART_DEFINES_H__

#ifndef __host__
#if defined(__CUDA__) || defined(__CUDACC__)
#define __host__ __attribute__((host))
#else
#define __host__
#endif
#endif
#ifndef __device__
#if defined(__CUDA__) || defined(__CUDACC__)
#define __device__ __attribute__((device))
#else
#define __device__
#endif
#endif
/* NVIDIA marks runtime calls that device code may also make; this library has no device
 * runtime beyond cudaGetLastError/cudaPeekAtLastError (see ARCHITECTURE.md), so the mark
 * changes nothing. */
#ifndef __cudart_builtin__
#define __cudart_builtin__
#endif
#ifndef __device_builtin__
#define __device_builtin__
#endif
/* Calling convention of the exported functions and of callbacks: the platform's default
 * on Linux. */
#ifndef CUDARTAPI
#define CUDARTAPI
#endif
#ifndef CUDART_CB
#define CUDART_CB
#endif
/* C++ default arguments of the runtime API (`cudaStream_t stream = 0`); none in C. */
#ifndef __CUDART_DEFAULT
#if defined(__cplusplus)
#define __CUDART_DEFAULT(value) = value
#else
#define __CUDART_DEFAULT(value)
#endif
#endif

#endif
