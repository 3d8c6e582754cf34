/*
 * Attribute macros, basic types and the few std:: pieces NVRTC provides without headers
 * (std::initializer_list, std::move, std::forward) plus placement new.
 */
#pragma clang system_header
#ifndef __NVRTC_CORE_H__
#define __NVRTC_CORE_H__

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __inline_hint__ __attribute__((nv_inline_hint))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __thread__ __thread
#define __import__
#define __export__
#define __cdecl
#define __annotate__(a) __attribute__((a))
#define __location__(a) __attribute__((a))
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define __nv_pure__ __attribute__((pure))
#define CUDARTAPI
#define CUDA_CB
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
/* nvcc spells this for function templates it must not check on the host side. */
#define __nv_exec_check_disable__

#if __cplusplus >= 201103L
/* nvcc's extended-lambda closure-type traits (CUDA C++ Programming Guide, "Extended Lambda
   Type Traits"). The front-end gives the closure type of each extended lambda (annotated
   __device__ or __host__ __device__, defined in a __host__ or __host__ __device__ function)
   the member __nv_extended_lambda_kind_marker, char[K] with K a bit set: 1 __device__,
   2 __host__ __device__, 4 __device__ with a trailing return type (shim/extended_lambda.cpp).
   Named function objects, other lambdas and other types have no marker: all false. */
template <class _T, class = void> struct __nv_extended_lambda_kind { static constexpr int value = 0; };
template <class _T>
struct __nv_extended_lambda_kind<_T, decltype((void)sizeof(typename _T::__nv_extended_lambda_kind_marker))> {
  static constexpr int value = (int)sizeof(typename _T::__nv_extended_lambda_kind_marker);
};
#define __nv_is_extended_device_lambda_closure_type(...) ((__nv_extended_lambda_kind<__VA_ARGS__>::value & 1) != 0)
#define __nv_is_extended_host_device_lambda_closure_type(...) ((__nv_extended_lambda_kind<__VA_ARGS__>::value & 2) != 0)
#define __nv_is_extended_device_lambda_with_preserved_return_type(...) ((__nv_extended_lambda_kind<__VA_ARGS__>::value & 4) != 0)
#endif

/* Our language extensions (see ARCHITECTURE.md, "NVRTC"). */
#define __builtin_provable(x) (__builtin_constant_p((bool)(x)) && (bool)(x))

#if __cplusplus >= 201103L
#define __NV_CONSTEXPR constexpr
#define __NV_NOEXCEPT noexcept
#else
#define __NV_CONSTEXPR
#define __NV_NOEXCEPT
#endif

#define __NVD __device__ __forceinline__
#define __NVHD __host__ __device__ __forceinline__

#ifdef __CUDACC_RTC__
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
/* NVRTC declares clock_t without <time.h> (crt/common_functions.h declares `clock_t
   clock(void)` for device code and includes <time.h> only outside NVRTC); it is the
   host's type, `long` on LP64 Linux. */
typedef long clock_t;
#else
#include <stddef.h>
#endif

/* device_types.h's rounding modes, which NVRTC declares implicitly (cuda_fp8.h uses them). */
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
#ifndef NULL
#define NULL 0
#endif

/* NVRTC has no standard library; in nvcc mode (host and device passes of a .cu file) the
   system's <initializer_list>, <utility> and <new> serve, and these would redefine them. */
#if defined(__CUDACC_RTC__) && __cplusplus >= 201103L
namespace std {
template <class _E> class initializer_list {
  const _E *__begin_;
  size_t __size_;
  __host__ __device__ constexpr initializer_list(const _E *__b, size_t __s) noexcept : __begin_(__b), __size_(__s) {}
 public:
  typedef _E value_type;
  typedef const _E &reference;
  typedef const _E &const_reference;
  typedef size_t size_type;
  typedef const _E *iterator;
  typedef const _E *const_iterator;
  __host__ __device__ constexpr initializer_list() noexcept : __begin_(0), __size_(0) {}
  __host__ __device__ constexpr size_t size() const noexcept { return __size_; }
  __host__ __device__ constexpr const _E *begin() const noexcept { return __begin_; }
  __host__ __device__ constexpr const _E *end() const noexcept { return __begin_ + __size_; }
};
template <class _E> __host__ __device__ constexpr const _E *begin(initializer_list<_E> __l) noexcept { return __l.begin(); }
template <class _E> __host__ __device__ constexpr const _E *end(initializer_list<_E> __l) noexcept { return __l.end(); }

template <class _T> struct __nv_remove_reference { typedef _T type; };
template <class _T> struct __nv_remove_reference<_T &> { typedef _T type; };
template <class _T> struct __nv_remove_reference<_T &&> { typedef _T type; };
template <class _T>
__host__ __device__ constexpr typename __nv_remove_reference<_T>::type &&move(_T &&__t) noexcept {
  return static_cast<typename __nv_remove_reference<_T>::type &&>(__t);
}
template <class _T>
__host__ __device__ constexpr _T &&forward(typename __nv_remove_reference<_T>::type &__t) noexcept {
  return static_cast<_T &&>(__t);
}
template <class _T>
__host__ __device__ constexpr _T &&forward(typename __nv_remove_reference<_T>::type &&__t) noexcept {
  return static_cast<_T &&>(__t);
}
}  // namespace std
#endif

#if defined(__CUDACC_RTC__) && !defined(__NV_PLACEMENT_NEW_DEFINED)
#define __NV_PLACEMENT_NEW_DEFINED
__host__ __device__ inline void *operator new(size_t, void *__p) __NV_NOEXCEPT { return __p; }
__host__ __device__ inline void *operator new[](size_t, void *__p) __NV_NOEXCEPT { return __p; }
__host__ __device__ inline void operator delete(void *, void *) __NV_NOEXCEPT {}
__host__ __device__ inline void operator delete[](void *, void *) __NV_NOEXCEPT {}
#endif

/* Device heap (cudaDeviceSetLimit(cudaLimitMallocHeapSize)). */
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
/* Defined here, not declared: PTX has no memcpy/memset to call (nvcc inlines them), and a
 * copy or fill of run-time length would otherwise leave a call nothing defines. */
extern "C" __device__ inline void *memcpy(void *__d, const void *__s, size_t __n) { return __builtin_memcpy(__d, __s, __n); }
extern "C" __device__ inline void *memset(void *__d, int __c, size_t __n) { return __builtin_memset(__d, __c, __n); }

#endif
