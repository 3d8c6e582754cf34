/*
 * device_types.h (ours): the rounding modes named by device conversion functions. For CUDA
 * compilers (our NVRTC, clang's CUDA mode) __nvrtc_core.h declares them with the other
 * built-in declarations; plain host compilers get them here.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __DEVICE_TYPES_H__
#define __DEVICE_TYPES_H__

#if defined(__CUDACC__) || defined(__CUDACC_RTC__) || defined(__CUDA__)
#include "__nvrtc_core.h"
#else
enum cudaRoundMode { cudaRoundNearest = 0, cudaRoundZero = 1, cudaRoundPosInf = 2, cudaRoundMinInf = 3 };
#endif

#endif
