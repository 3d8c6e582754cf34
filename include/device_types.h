/*
 * device_types.h (ours): the rounding modes named by device conversion functions. NVRTC's
 * prelude (__nvrtc_core.h) declares the same enumeration, so it is declared here only when
 * that is absent.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __DEVICE_TYPES_H__
#define __DEVICE_TYPES_H__

#if !defined(__NVRTC_CORE_H__)
enum cudaRoundMode { cudaRoundNearest = 0, cudaRoundZero = 1, cudaRoundPosInf = 2, cudaRoundMinInf = 3 };
#endif

#endif
