/* cooperative_groups::memcpy_async / wait (ours): the group copies, then waits. */
#pragma clang system_header
#ifndef __COOPERATIVE_GROUPS_MEMCPY_ASYNC_H__
#define __COOPERATIVE_GROUPS_MEMCPY_ASYNC_H__
#include "../cooperative_groups.h"
namespace cooperative_groups {
namespace __v1 {
template <class _G> __device__ __forceinline__ void memcpy_async(const _G &__g, void *__dst, const void *__src, size_t __bytes) {
  unsigned long long __n = __g.size(), __r = __g.thread_rank();
  for (size_t __i = __r; __i < __bytes; __i += __n) ((char *)__dst)[__i] = ((const char *)__src)[__i];
}
template <class _G> __device__ __forceinline__ void wait(const _G &__g) { __g.sync(); }
template <class _G> __device__ __forceinline__ void wait_prior(const _G &__g) { __g.sync(); }
}  // namespace __v1
}  // namespace cooperative_groups
#endif
