#pragma clang system_header
#ifndef __NVRTC_MATH_H__
#define __NVRTC_MATH_H__
__NVD float sqrtf(float __x) { return __builtin_sqrtf(__x); }
#endif
