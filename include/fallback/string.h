#pragma clang system_header
#ifndef __NV_STRING_H
#define __NV_STRING_H
/* memcpy and memset are in the implicit prelude. */
__device__ __forceinline__ int memcmp(const void *__a, const void *__b, size_t __n) {
  const unsigned char *__x = (const unsigned char *)__a, *__y = (const unsigned char *)__b;
  for (size_t __i = 0; __i < __n; ++__i) if (__x[__i] != __y[__i]) return __x[__i] < __y[__i] ? -1 : 1;
  return 0;
}
__device__ __forceinline__ size_t strlen(const char *__s) { size_t __n = 0; while (__s[__n]) ++__n; return __n; }
#endif
