/*
 * Vector types for plain host compilers (gcc, g++, clang without CUDA): the same types,
 * members and alignments as vector_types.h, which is written for CUDA compilers (it uses
 * __host__/__device__ attributes). cuda_runtime_api.h includes this file only when no CUDA
 * compiler is in use; it defines vector_types.h's guard, so the two never both apply.
 * Valid C (each struct also has a typedef) and C++ (dim3 has its constructors).
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__
#define __CUDART_HOST_VECTOR_TYPES_H__

struct __attribute__((aligned(1))) char1 { signed char x; };
typedef struct char1 char1;
struct __attribute__((aligned(2))) char2 { signed char x, y; };
typedef struct char2 char2;
struct __attribute__((aligned(1))) char3 { signed char x, y, z; };
typedef struct char3 char3;
struct __attribute__((aligned(4))) char4 { signed char x, y, z, w; };
typedef struct char4 char4;
struct __attribute__((aligned(1))) uchar1 { unsigned char x; };
typedef struct uchar1 uchar1;
struct __attribute__((aligned(2))) uchar2 { unsigned char x, y; };
typedef struct uchar2 uchar2;
struct __attribute__((aligned(1))) uchar3 { unsigned char x, y, z; };
typedef struct uchar3 uchar3;
struct __attribute__((aligned(4))) uchar4 { unsigned char x, y, z, w; };
typedef struct uchar4 uchar4;
struct __attribute__((aligned(2))) short1 { short x; };
typedef struct short1 short1;
struct __attribute__((aligned(4))) short2 { short x, y; };
typedef struct short2 short2;
struct __attribute__((aligned(2))) short3 { short x, y, z; };
typedef struct short3 short3;
struct __attribute__((aligned(8))) short4 { short x, y, z, w; };
typedef struct short4 short4;
struct __attribute__((aligned(2))) ushort1 { unsigned short x; };
typedef struct ushort1 ushort1;
struct __attribute__((aligned(4))) ushort2 { unsigned short x, y; };
typedef struct ushort2 ushort2;
struct __attribute__((aligned(2))) ushort3 { unsigned short x, y, z; };
typedef struct ushort3 ushort3;
struct __attribute__((aligned(8))) ushort4 { unsigned short x, y, z, w; };
typedef struct ushort4 ushort4;
struct __attribute__((aligned(4))) int1 { int x; };
typedef struct int1 int1;
struct __attribute__((aligned(8))) int2 { int x, y; };
typedef struct int2 int2;
struct __attribute__((aligned(4))) int3 { int x, y, z; };
typedef struct int3 int3;
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
typedef struct int4 int4;
struct __attribute__((aligned(4))) uint1 { unsigned int x; };
typedef struct uint1 uint1;
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
typedef struct uint2 uint2;
struct __attribute__((aligned(4))) uint3 { unsigned int x, y, z; };
typedef struct uint3 uint3;
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };
typedef struct uint4 uint4;
struct __attribute__((aligned(8))) long1 { long x; };
typedef struct long1 long1;
struct __attribute__((aligned(16))) long2 { long x, y; };
typedef struct long2 long2;
struct __attribute__((aligned(8))) long3 { long x, y, z; };
typedef struct long3 long3;
struct __attribute__((aligned(16))) long4 { long x, y, z, w; };
typedef struct long4 long4;
struct __attribute__((aligned(8))) ulong1 { unsigned long x; };
typedef struct ulong1 ulong1;
struct __attribute__((aligned(16))) ulong2 { unsigned long x, y; };
typedef struct ulong2 ulong2;
struct __attribute__((aligned(8))) ulong3 { unsigned long x, y, z; };
typedef struct ulong3 ulong3;
struct __attribute__((aligned(16))) ulong4 { unsigned long x, y, z, w; };
typedef struct ulong4 ulong4;
struct __attribute__((aligned(8))) longlong1 { long long x; };
typedef struct longlong1 longlong1;
struct __attribute__((aligned(16))) longlong2 { long long x, y; };
typedef struct longlong2 longlong2;
struct __attribute__((aligned(8))) longlong3 { long long x, y, z; };
typedef struct longlong3 longlong3;
struct __attribute__((aligned(16))) longlong4 { long long x, y, z, w; };
typedef struct longlong4 longlong4;
struct __attribute__((aligned(8))) ulonglong1 { unsigned long long x; };
typedef struct ulonglong1 ulonglong1;
struct __attribute__((aligned(16))) ulonglong2 { unsigned long long x, y; };
typedef struct ulonglong2 ulonglong2;
struct __attribute__((aligned(8))) ulonglong3 { unsigned long long x, y, z; };
typedef struct ulonglong3 ulonglong3;
struct __attribute__((aligned(16))) ulonglong4 { unsigned long long x, y, z, w; };
typedef struct ulonglong4 ulonglong4;
struct __attribute__((aligned(4))) float1 { float x; };
typedef struct float1 float1;
struct __attribute__((aligned(8))) float2 { float x, y; };
typedef struct float2 float2;
struct __attribute__((aligned(4))) float3 { float x, y, z; };
typedef struct float3 float3;
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
typedef struct float4 float4;
struct __attribute__((aligned(8))) double1 { double x; };
typedef struct double1 double1;
struct __attribute__((aligned(16))) double2 { double x, y; };
typedef struct double2 double2;
struct __attribute__((aligned(8))) double3 { double x, y, z; };
typedef struct double3 double3;
struct __attribute__((aligned(16))) double4 { double x, y, z, w; };
typedef struct double4 double4;
struct __attribute__((aligned(16))) long4_16a { long x, y, z, w; };
typedef struct long4_16a long4_16a;
struct __attribute__((aligned(32))) long4_32a { long x, y, z, w; };
typedef struct long4_32a long4_32a;
struct __attribute__((aligned(16))) ulong4_16a { unsigned long x, y, z, w; };
typedef struct ulong4_16a ulong4_16a;
struct __attribute__((aligned(32))) ulong4_32a { unsigned long x, y, z, w; };
typedef struct ulong4_32a ulong4_32a;
struct __attribute__((aligned(16))) longlong4_16a { long long x, y, z, w; };
typedef struct longlong4_16a longlong4_16a;
struct __attribute__((aligned(32))) longlong4_32a { long long x, y, z, w; };
typedef struct longlong4_32a longlong4_32a;
struct __attribute__((aligned(16))) ulonglong4_16a { unsigned long long x, y, z, w; };
typedef struct ulonglong4_16a ulonglong4_16a;
struct __attribute__((aligned(32))) ulonglong4_32a { unsigned long long x, y, z, w; };
typedef struct ulonglong4_32a ulonglong4_32a;
struct __attribute__((aligned(16))) double4_16a { double x, y, z, w; };
typedef struct double4_16a double4_16a;
struct __attribute__((aligned(32))) double4_32a { double x, y, z, w; };
typedef struct double4_32a double4_32a;

/* dim3: three unsigned extents, missing ones 1 (kernel launch geometry). */
struct dim3 {
  unsigned int x, y, z;
#if defined(__cplusplus)
#if __cplusplus >= 201103L
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
#else
  dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
#endif
  operator uint3() const { uint3 r; r.x = x; r.y = y; r.z = z; return r; }
#endif
};
typedef struct dim3 dim3;

/* The make_* constructors (vector_functions.h's, which CUDA compilers get from
 * vector_types.h). */
static __inline__ char1 make_char1(signed char x) { char1 __r; __r.x = x; return __r; }
static __inline__ char2 make_char2(signed char x, signed char y) { char2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ char3 make_char3(signed char x, signed char y, signed char z) { char3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ char4 make_char4(signed char x, signed char y, signed char z, signed char w) { char4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ uchar1 make_uchar1(unsigned char x) { uchar1 __r; __r.x = x; return __r; }
static __inline__ uchar2 make_uchar2(unsigned char x, unsigned char y) { uchar2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) { uchar3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) { uchar4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ short1 make_short1(short x) { short1 __r; __r.x = x; return __r; }
static __inline__ short2 make_short2(short x, short y) { short2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ short3 make_short3(short x, short y, short z) { short3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ short4 make_short4(short x, short y, short z, short w) { short4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ ushort1 make_ushort1(unsigned short x) { ushort1 __r; __r.x = x; return __r; }
static __inline__ ushort2 make_ushort2(unsigned short x, unsigned short y) { ushort2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) { ushort3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w) { ushort4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ int1 make_int1(int x) { int1 __r; __r.x = x; return __r; }
static __inline__ int2 make_int2(int x, int y) { int2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ int3 make_int3(int x, int y, int z) { int3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ int4 make_int4(int x, int y, int z, int w) { int4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ uint1 make_uint1(unsigned int x) { uint1 __r; __r.x = x; return __r; }
static __inline__ uint2 make_uint2(unsigned int x, unsigned int y) { uint2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { uint3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { uint4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ long1 make_long1(long x) { long1 __r; __r.x = x; return __r; }
static __inline__ long2 make_long2(long x, long y) { long2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ long3 make_long3(long x, long y, long z) { long3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ long4 make_long4(long x, long y, long z, long w) { long4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ ulong1 make_ulong1(unsigned long x) { ulong1 __r; __r.x = x; return __r; }
static __inline__ ulong2 make_ulong2(unsigned long x, unsigned long y) { ulong2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z) { ulong3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { ulong4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ longlong1 make_longlong1(long long x) { longlong1 __r; __r.x = x; return __r; }
static __inline__ longlong2 make_longlong2(long long x, long long y) { longlong2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ longlong3 make_longlong3(long long x, long long y, long long z) { longlong3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ longlong4 make_longlong4(long long x, long long y, long long z, long long w) { longlong4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ ulonglong1 make_ulonglong1(unsigned long long x) { ulonglong1 __r; __r.x = x; return __r; }
static __inline__ ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { ulonglong2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y, unsigned long long z) { ulonglong3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w) { ulonglong4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ float1 make_float1(float x) { float1 __r; __r.x = x; return __r; }
static __inline__ float2 make_float2(float x, float y) { float2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ float3 make_float3(float x, float y, float z) { float3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ float4 make_float4(float x, float y, float z, float w) { float4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ double1 make_double1(double x) { double1 __r; __r.x = x; return __r; }
static __inline__ double2 make_double2(double x, double y) { double2 __r; __r.x = x; __r.y = y; return __r; }
static __inline__ double3 make_double3(double x, double y, double z) { double3 __r; __r.x = x; __r.y = y; __r.z = z; return __r; }
static __inline__ double4 make_double4(double x, double y, double z, double w) { double4 __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ long4_16a make_long4_16a(long x, long y, long z, long w) { long4_16a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ long4_32a make_long4_32a(long x, long y, long z, long w) { long4_32a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ ulong4_16a make_ulong4_16a(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { ulong4_16a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ ulong4_32a make_ulong4_32a(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { ulong4_32a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ longlong4_16a make_longlong4_16a(long long x, long long y, long long z, long long w) { longlong4_16a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ longlong4_32a make_longlong4_32a(long long x, long long y, long long z, long long w) { longlong4_32a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ ulonglong4_16a make_ulonglong4_16a(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w) { ulonglong4_16a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ ulonglong4_32a make_ulonglong4_32a(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w) { ulonglong4_32a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ double4_16a make_double4_16a(double x, double y, double z, double w) { double4_16a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }
static __inline__ double4_32a make_double4_32a(double x, double y, double z, double w) { double4_32a __r; __r.x = x; __r.y = y; __r.z = z; __r.w = w; return __r; }

#endif
