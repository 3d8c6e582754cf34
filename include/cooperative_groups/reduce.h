/* cooperative_groups::reduce and the function objects it takes (ours). */
#pragma clang system_header
#ifndef __COOPERATIVE_GROUPS_REDUCE_H__
#define __COOPERATIVE_GROUPS_REDUCE_H__
#include "../cooperative_groups.h"

namespace cooperative_groups {
namespace __v1 {
template <class _T> struct plus { __device__ __forceinline__ _T operator()(const _T &__a, const _T &__b) const { return __a + __b; } };
template <class _T> struct less { __device__ __forceinline__ _T operator()(const _T &__a, const _T &__b) const { return __b < __a ? __b : __a; } };
template <class _T> struct greater { __device__ __forceinline__ _T operator()(const _T &__a, const _T &__b) const { return __a < __b ? __b : __a; } };
template <class _T> struct bit_and { __device__ __forceinline__ _T operator()(const _T &__a, const _T &__b) const { return __a & __b; } };
template <class _T> struct bit_or { __device__ __forceinline__ _T operator()(const _T &__a, const _T &__b) const { return __a | __b; } };
template <class _T> struct bit_xor { __device__ __forceinline__ _T operator()(const _T &__a, const _T &__b) const { return __a ^ __b; } };

/* Tiles: a butterfly leaves the result in every lane. */
template <unsigned int _N, class _P, class _T, class _Op>
__device__ __forceinline__ _T reduce(const thread_block_tile<_N, _P> &__g, _T __v, _Op __op) {
  if constexpr (_N > __SCALE_WARP_SIZE__) {
    return __g.__reduce(__v, __op);
  } else {
#pragma unroll
    for (unsigned int __o = _N / 2; __o > 0; __o /= 2) __v = __op(__v, __g.shfl_xor(__v, __o));
    return __v;
  }
}
/* Coalesced groups: a tree over ranks, then a broadcast from rank 0. */
template <class _T, class _Op> __device__ __forceinline__ _T reduce(const coalesced_group &__g, _T __v, _Op __op) {
  unsigned int __n = (unsigned int)__g.size(), __r = (unsigned int)__g.thread_rank();
  for (unsigned int __o = 1; __o < __n; __o *= 2) {
    _T __other = __g.shfl_down(__v, __o);
    if (__r % (2 * __o) == 0 && __r + __o < __n) __v = __op(__v, __other);
  }
  return __g.shfl(__v, 0);
}
/* Dynamic tiles (tiled_partition(parent, n)). */
template <class _T, class _Op> __device__ __forceinline__ _T reduce(const thread_group &__g, _T __v, _Op __op) {
  int __n = (int)__g.size();
  for (int __o = __n / 2; __o > 0; __o /= 2) __v = __op(__v, __shfl_xor_sync(__g.__lane_mask(), __v, __o, __n));
  return __v;
}

/* Inclusive and exclusive scans over tiles. */
template <unsigned int _N, class _P, class _T, class _Op>
__device__ __forceinline__ _T inclusive_scan(const thread_block_tile<_N, _P> &__g, _T __v, _Op __op) {
  if constexpr (_N > __SCALE_WARP_SIZE__) return __g.__inclusive_scan(__v, __op);
  unsigned int __r = __g.thread_rank();
#pragma unroll
  for (unsigned int __o = 1; __o < _N; __o *= 2) {
    _T __t = __g.shfl_up(__v, __o);
    if (__r >= __o) __v = __op(__v, __t);
  }
  return __v;
}
template <unsigned int _N, class _P, class _T>
__device__ __forceinline__ _T inclusive_scan(const thread_block_tile<_N, _P> &__g, _T __v) { return inclusive_scan(__g, __v, plus<_T>()); }
template <unsigned int _N, class _P, class _T, class _Op>
__device__ __forceinline__ _T exclusive_scan(const thread_block_tile<_N, _P> &__g, _T __v, _Op __op) {
  if constexpr (_N > __SCALE_WARP_SIZE__) return __g.__exclusive_scan(__v, __op);
  _T __inc = inclusive_scan(__g, __v, __op);
  _T __prev = __g.shfl_up(__inc, 1);
  return __g.thread_rank() == 0 ? _T() : __prev;
}
template <unsigned int _N, class _P, class _T>
__device__ __forceinline__ _T exclusive_scan(const thread_block_tile<_N, _P> &__g, _T __v) { return exclusive_scan(__g, __v, plus<_T>()); }
}  // namespace __v1
}  // namespace cooperative_groups
#endif
