/*
 * CUDA vector types (char1 .. double4, dim3) and their make_* constructors, with the
 * alignments CUDA gives them.
 */
#pragma clang system_header
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__
#ifndef __NVRTC_CORE_H__
#include "__nvrtc_core.h"
#endif

struct __attribute__((aligned(1))) char1 { signed char x; };

struct __attribute__((aligned(2))) char2 { signed char x, y; };

struct __attribute__((aligned(1))) char3 { signed char x, y, z; };

struct __attribute__((aligned(4))) char4 { signed char x, y, z, w; };

struct __attribute__((aligned(1))) uchar1 { unsigned char x; };

struct __attribute__((aligned(2))) uchar2 { unsigned char x, y; };

struct __attribute__((aligned(1))) uchar3 { unsigned char x, y, z; };

struct __attribute__((aligned(4))) uchar4 { unsigned char x, y, z, w; };

struct __attribute__((aligned(2))) short1 { short x; };

struct __attribute__((aligned(4))) short2 { short x, y; };

struct __attribute__((aligned(2))) short3 { short x, y, z; };

struct __attribute__((aligned(8))) short4 { short x, y, z, w; };

struct __attribute__((aligned(2))) ushort1 { unsigned short x; };

struct __attribute__((aligned(4))) ushort2 { unsigned short x, y; };

struct __attribute__((aligned(2))) ushort3 { unsigned short x, y, z; };

struct __attribute__((aligned(8))) ushort4 { unsigned short x, y, z, w; };

struct __attribute__((aligned(4))) int1 { int x; };

struct __attribute__((aligned(8))) int2 { int x, y; };

struct __attribute__((aligned(4))) int3 { int x, y, z; };

struct __attribute__((aligned(16))) int4 { int x, y, z, w; };

struct __attribute__((aligned(4))) uint1 { unsigned int x; };

struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };

struct __attribute__((aligned(4))) uint3 { unsigned int x, y, z; };

struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };

struct __attribute__((aligned(8))) long1 { long x; };

struct __attribute__((aligned(16))) long2 { long x, y; };

struct __attribute__((aligned(8))) long3 { long x, y, z; };

struct __attribute__((aligned(16))) long4 { long x, y, z, w; };

struct __attribute__((aligned(8))) ulong1 { unsigned long x; };

struct __attribute__((aligned(16))) ulong2 { unsigned long x, y; };

struct __attribute__((aligned(8))) ulong3 { unsigned long x, y, z; };

struct __attribute__((aligned(16))) ulong4 { unsigned long x, y, z, w; };

struct __attribute__((aligned(8))) longlong1 { long long x; };

struct __attribute__((aligned(16))) longlong2 { long long x, y; };

struct __attribute__((aligned(8))) longlong3 { long long x, y, z; };

struct __attribute__((aligned(16))) longlong4 { long long x, y, z, w; };

struct __attribute__((aligned(8))) ulonglong1 { unsigned long long x; };

struct __attribute__((aligned(16))) ulonglong2 { unsigned long long x, y; };

struct __attribute__((aligned(8))) ulonglong3 { unsigned long long x, y, z; };

struct __attribute__((aligned(16))) ulonglong4 { unsigned long long x, y, z, w; };

struct __attribute__((aligned(4))) float1 { float x; };

struct __attribute__((aligned(8))) float2 { float x, y; };

struct __attribute__((aligned(4))) float3 { float x, y, z; };

struct __attribute__((aligned(16))) float4 { float x, y, z, w; };

struct __attribute__((aligned(8))) double1 { double x; };

struct __attribute__((aligned(16))) double2 { double x, y; };

struct __attribute__((aligned(8))) double3 { double x, y, z; };

struct __attribute__((aligned(16))) double4 { double x, y, z, w; };

__NVHD char1 make_char1(signed char x) { char1 __r; __r.x = x; return __r; }
__NVHD char2 make_char2(signed char x, signed char y) { char2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD char3 make_char3(signed char x, signed char y, signed char z) { char3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD char4 make_char4(signed char x, signed char y, signed char z, signed char w) { char4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD uchar1 make_uchar1(unsigned char x) { uchar1 __r; __r.x = x; return __r; }
__NVHD uchar2 make_uchar2(unsigned char x, unsigned char y) { uchar2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) { uchar3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) { uchar4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD short1 make_short1(short x) { short1 __r; __r.x = x; return __r; }
__NVHD short2 make_short2(short x, short y) { short2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD short3 make_short3(short x, short y, short z) { short3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD short4 make_short4(short x, short y, short z, short w) { short4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD ushort1 make_ushort1(unsigned short x) { ushort1 __r; __r.x = x; return __r; }
__NVHD ushort2 make_ushort2(unsigned short x, unsigned short y) { ushort2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) { ushort3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w) { ushort4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD int1 make_int1(int x) { int1 __r; __r.x = x; return __r; }
__NVHD int2 make_int2(int x, int y) { int2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD int3 make_int3(int x, int y, int z) { int3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD int4 make_int4(int x, int y, int z, int w) { int4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD uint1 make_uint1(unsigned int x) { uint1 __r; __r.x = x; return __r; }
__NVHD uint2 make_uint2(unsigned int x, unsigned int y) { uint2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { uint3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { uint4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD long1 make_long1(long x) { long1 __r; __r.x = x; return __r; }
__NVHD long2 make_long2(long x, long y) { long2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD long3 make_long3(long x, long y, long z) { long3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD long4 make_long4(long x, long y, long z, long w) { long4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD ulong1 make_ulong1(unsigned long x) { ulong1 __r; __r.x = x; return __r; }
__NVHD ulong2 make_ulong2(unsigned long x, unsigned long y) { ulong2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z) { ulong3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { ulong4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD longlong1 make_longlong1(long long x) { longlong1 __r; __r.x = x; return __r; }
__NVHD longlong2 make_longlong2(long long x, long long y) { longlong2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD longlong3 make_longlong3(long long x, long long y, long long z) { longlong3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD longlong4 make_longlong4(long long x, long long y, long long z, long long w) { longlong4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD ulonglong1 make_ulonglong1(unsigned long long x) { ulonglong1 __r; __r.x = x; return __r; }
__NVHD ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { ulonglong2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y, unsigned long long z) { ulonglong3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w) { ulonglong4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD float1 make_float1(float x) { float1 __r; __r.x = x; return __r; }
__NVHD float2 make_float2(float x, float y) { float2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD float3 make_float3(float x, float y, float z) { float3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD float4 make_float4(float x, float y, float z, float w) { float4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD double1 make_double1(double x) { double1 __r; __r.x = x; return __r; }
__NVHD double2 make_double2(double x, double y) { double2 __r; __r.x = x; __r.y = y; return __r; }
__NVHD double3 make_double3(double x, double y, double z) { double3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
__NVHD double4 make_double4(double x, double y, double z, double w) { double4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }

/* CUDA 13's explicitly aligned 4-vectors of 8-byte elements (CCCL uses them when the
 * toolkit version is 13 or later). */
struct __attribute__((aligned(16))) long4_16a { long x, y, z, w; };
struct __attribute__((aligned(32))) long4_32a { long x, y, z, w; };
struct __attribute__((aligned(16))) ulong4_16a { unsigned long x, y, z, w; };
struct __attribute__((aligned(32))) ulong4_32a { unsigned long x, y, z, w; };
struct __attribute__((aligned(16))) longlong4_16a { long long x, y, z, w; };
struct __attribute__((aligned(32))) longlong4_32a { long long x, y, z, w; };
struct __attribute__((aligned(16))) ulonglong4_16a { unsigned long long x, y, z, w; };
struct __attribute__((aligned(32))) ulonglong4_32a { unsigned long long x, y, z, w; };
struct __attribute__((aligned(16))) double4_16a { double x, y, z, w; };
struct __attribute__((aligned(32))) double4_32a { double x, y, z, w; };
__NVHD long4_16a make_long4_16a(long x, long y, long z, long w) { long4_16a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD long4_32a make_long4_32a(long x, long y, long z, long w) { long4_32a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD ulong4_16a make_ulong4_16a(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { ulong4_16a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD ulong4_32a make_ulong4_32a(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { ulong4_32a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD double4_16a make_double4_16a(double x, double y, double z, double w) { double4_16a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
__NVHD double4_32a make_double4_32a(double x, double y, double z, double w) { double4_32a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ __NV_CONSTEXPR dim3(unsigned int __x = 1, unsigned int __y = 1, unsigned int __z = 1) : x(__x), y(__y), z(__z) {}
  __host__ __device__ __NV_CONSTEXPR dim3(uint3 __v) : x(__v.x), y(__v.y), z(__v.z) {}
  __host__ __device__ operator uint3() const { uint3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
};
typedef struct dim3 dim3;

#endif
