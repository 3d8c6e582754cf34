/*
 * Cooperative groups (ours): thread_block, grid_group (grid-wide sync for cooperative
 * launches), thread_block_tile<N> and tiled_partition, coalesced_group, and the
 * collectives of cooperative_groups/reduce.h and scan.h.
 *
 * Lane masks of tiles and coalesced groups are cudaLaneMask_t (warps of 32 or 64 lanes).
 */
#pragma clang system_header
#ifndef __COOPERATIVE_GROUPS_H__
#define __COOPERATIVE_GROUPS_H__

#define __NVCG __device__ __forceinline__

/* NVIDIA's layout: everything in cooperative_groups::__v1, which libcu++ forward-declares
   (cuda/__memcpy_async/group_traits.h: thread_block, thread_block_tile<Size, Parent>). */
namespace cooperative_groups {
namespace __v1 {
namespace __details {
__NVCG unsigned int __block_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__NVCG unsigned int __block_size() { return blockDim.x * blockDim.y * blockDim.z; }
/* Grid-wide barrier: an arrival counter and a generation word per module. */
static __device__ unsigned int __grid_arrived;
static __device__ volatile unsigned int __grid_generation;
__device__ __attribute__((noinline)) static void __grid_sync() {
  __syncthreads();
  if (__block_rank() == 0) {
    unsigned int __blocks = gridDim.x * gridDim.y * gridDim.z;
    unsigned int __gen = __grid_generation;
    __threadfence();
    if (atomicAdd(&__grid_arrived, 1u) == __blocks - 1) {
      __grid_arrived = 0;
      __threadfence();
      __grid_generation = __gen + 1;
    } else {
      while (__grid_generation == __gen) {
#if __CUDA_ARCH__ >= 700
        __nanosleep(32);
#endif
      }
    }
    __threadfence();
  }
  __syncthreads();
}
}  // namespace __details

namespace __details {
__NVCG void __large_tile_sync(unsigned int __n);
}

/* The type-erased group: what tiled_partition(parent, n) returns. */
class thread_group {
 protected:
  unsigned int __size_;
  unsigned int __rank_;
  cudaLaneMask_t __mask_; /* lanes of the group within the warp (tiles); 0 for blocks */
  int __kind_;            /* 0 block, 1 tile, 2 coalesced, 3 grid, 4 tile larger than a warp */
 public:
  __NVCG thread_group(int __k, unsigned int __s, unsigned int __r, cudaLaneMask_t __m)
      : __size_(__s), __rank_(__r), __mask_(__m), __kind_(__k) {}
  __NVCG unsigned long long size() const { return __size_; }
  __NVCG unsigned long long num_threads() const { return __size_; }
  __NVCG unsigned long long thread_rank() const { return __rank_; }
  __NVCG void sync() const {
    if (__kind_ == 0) __syncthreads();
    else if (__kind_ == 3) __details::__grid_sync();
    else if (__kind_ == 4) __details::__large_tile_sync(__size_);
    else __syncwarp(__mask_);
  }
  __NVCG cudaLaneMask_t __lane_mask() const { return __mask_; }
};

class thread_block : public thread_group {
 public:
  __NVCG thread_block() : thread_group(0, __details::__block_size(), __details::__block_rank(), 0) {}
  static __NVCG void sync() { __syncthreads(); }
  static __NVCG unsigned int thread_rank() { return __details::__block_rank(); }
  static __NVCG unsigned int size() { return __details::__block_size(); }
  static __NVCG unsigned int num_threads() { return __details::__block_size(); }
  static __NVCG dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static __NVCG dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static __NVCG dim3 group_dim() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  static __NVCG dim3 dim_threads() { return group_dim(); }
};
__NVCG thread_block this_thread_block() { return thread_block(); }

class grid_group : public thread_group {
 public:
  __NVCG grid_group() : thread_group(3, 0, 0, 0) {}
  static __NVCG bool is_valid() { return true; }
  static __NVCG void sync() { __details::__grid_sync(); }
  static __NVCG unsigned long long num_blocks() { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
  static __NVCG unsigned long long block_rank() { return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x; }
  static __NVCG unsigned long long num_threads() { return num_blocks() * __details::__block_size(); }
  static __NVCG unsigned long long size() { return num_threads(); }
  static __NVCG unsigned long long thread_rank() { return block_rank() * __details::__block_size() + __details::__block_rank(); }
  static __NVCG dim3 group_dim() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  static __NVCG dim3 dim_blocks() { return group_dim(); }
  static __NVCG dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};
__NVCG grid_group this_grid() { return grid_group(); }

namespace __details {
/* Tile shuffles of any trivially copyable type (CUDA C++ Programming Guide, "Cooperative
   Groups": shfl takes any such T): the shuffle intrinsic where one takes T, else 32-bit
   words, each shuffled. */
struct __shfl_idx_op {
  template <class _T> __NVCG auto operator()(cudaLaneMask_t __m, _T __v, int __a, int __w) const -> decltype(__shfl_sync(__m, __v, __a, __w)) {
    return __shfl_sync(__m, __v, __a, __w);
  }
};
struct __shfl_up_op {
  template <class _T> __NVCG auto operator()(cudaLaneMask_t __m, _T __v, int __a, int __w) const -> decltype(__shfl_up_sync(__m, __v, (unsigned int)__a, __w)) {
    return __shfl_up_sync(__m, __v, (unsigned int)__a, __w);
  }
};
struct __shfl_down_op {
  template <class _T> __NVCG auto operator()(cudaLaneMask_t __m, _T __v, int __a, int __w) const -> decltype(__shfl_down_sync(__m, __v, (unsigned int)__a, __w)) {
    return __shfl_down_sync(__m, __v, (unsigned int)__a, __w);
  }
};
struct __shfl_xor_op {
  template <class _T> __NVCG auto operator()(cudaLaneMask_t __m, _T __v, int __a, int __w) const -> decltype(__shfl_xor_sync(__m, __v, __a, __w)) {
    return __shfl_xor_sync(__m, __v, __a, __w);
  }
};
template <class _Op, class _T>
__NVCG auto __shfl_pick(_Op __op, cudaLaneMask_t __m, _T __v, int __a, int __w, int) -> decltype(__op(__m, __v, __a, __w)) {
  return __op(__m, __v, __a, __w);
}
template <class _Op, class _T> __NVCG _T __shfl_pick(_Op __op, cudaLaneMask_t __m, _T __v, int __a, int __w, long) {
  unsigned int __words[(sizeof(_T) + 3) / 4] = {};
  __builtin_memcpy(__words, &__v, sizeof(_T));
  for (unsigned int __i = 0; __i < (sizeof(_T) + 3) / 4; ++__i) __words[__i] = __op(__m, __words[__i], __a, __w);
  _T __r;
  __builtin_memcpy(&__r, __words, sizeof(_T));
  return __r;
}
template <class _Op, class _T> __NVCG _T __shfl_any(_Op __op, cudaLaneMask_t __m, _T __v, int __a, int __w) {
  return (_T)__shfl_pick(__op, __m, __v, __a, __w, 0);
}
}  // namespace __details

/* A statically sized tile of a warp (N a power of two, at most the warp size). */
template <unsigned int _N, class _Parent = void> class thread_block_tile;

template <unsigned int _N> class __static_tile {
  static_assert(_N > 0 && (_N & (_N - 1)) == 0 && _N <= __SCALE_WARP_SIZE__, "tile size must be a power of two up to the warp size");

 protected:
  __NVCG static cudaLaneMask_t __tile_mask() {
    unsigned int __lane = __nvvm_read_ptx_sreg_laneid();
    cudaLaneMask_t __base = (_N == __SCALE_WARP_SIZE__) ? ~(cudaLaneMask_t)0 : (((cudaLaneMask_t)1 << _N) - 1);
    return __base << (__lane & ~(_N - 1));
  }

 public:
  static constexpr unsigned int num_threads_value = _N;
  __NVCG static unsigned int thread_rank() { return __nvvm_read_ptx_sreg_laneid() & (_N - 1); }
  __NVCG static unsigned int size() { return _N; }
  __NVCG static unsigned int num_threads() { return _N; }
  __NVCG static unsigned int meta_group_rank() { return __details::__block_rank() / _N; }
  __NVCG static unsigned int meta_group_size() { return (__details::__block_size() + _N - 1) / _N; }
  __NVCG static void sync() { __syncwarp(__tile_mask()); }
  __NVCG static cudaLaneMask_t __lane_mask() { return __tile_mask(); }
  template <class _T> __NVCG _T shfl(_T __v, unsigned int __src) const {
    return __details::__shfl_any(__details::__shfl_idx_op(), __tile_mask(), __v, (int)__src, _N);
  }
  template <class _T> __NVCG _T shfl_up(_T __v, unsigned int __d) const {
    return __details::__shfl_any(__details::__shfl_up_op(), __tile_mask(), __v, (int)__d, _N);
  }
  template <class _T> __NVCG _T shfl_down(_T __v, unsigned int __d) const {
    return __details::__shfl_any(__details::__shfl_down_op(), __tile_mask(), __v, (int)__d, _N);
  }
  template <class _T> __NVCG _T shfl_xor(_T __v, unsigned int __m) const {
    return __details::__shfl_any(__details::__shfl_xor_op(), __tile_mask(), __v, (int)__m, _N);
  }
  __NVCG int any(int __p) const { return (__ballot_sync(__tile_mask(), __p) & __tile_mask()) != 0; }
  __NVCG int all(int __p) const { return (__ballot_sync(__tile_mask(), __p) & __tile_mask()) == __tile_mask(); }
  __NVCG cudaLaneMask_t ballot(int __p) const {
    cudaLaneMask_t __b = __ballot_sync(__tile_mask(), __p) & __tile_mask();
    return __b >> (__nvvm_read_ptx_sreg_laneid() & ~(_N - 1));
  }
  template <class _T> __NVCG cudaLaneMask_t match_any(_T __v) const {
    return (__match_any_sync(__tile_mask(), __v) & __tile_mask()) >> (__nvvm_read_ptx_sreg_laneid() & ~(_N - 1));
  }
  template <class _T> __NVCG cudaLaneMask_t match_all(_T __v, int &__pred) const {
    cudaLaneMask_t __r = __match_all_sync(__tile_mask(), __v, &__pred);
    return (__r & __tile_mask()) >> (__nvvm_read_ptx_sreg_laneid() & ~(_N - 1));
  }
  __NVCG operator thread_group() const { return thread_group(1, _N, thread_rank(), __tile_mask()); }
};

/* Tiles of more than a warp (CUDA C++ Programming Guide, "Cooperative Groups":
   thread_block_tile<N> for N up to 1024, made by every thread of the block). Their threads
   meet in shared memory: per tile an arrival counter and a generation for sync(), and per
   warp one 8-byte slot for shfl(), reduce() and the scans. */
namespace __details {
struct __large_tile_scratch {
  unsigned int __arrived[32];
  volatile unsigned int __generation[32];
  unsigned long long __slot[32];
};
__NVCG __large_tile_scratch *__large_scratch() {
  __shared__ __large_tile_scratch __s;
  return &__s;
}
}  // namespace __details

template <unsigned int _N> class __large_tile {
  static_assert((_N & (_N - 1)) == 0 && _N <= 1024, "tile size must be a power of two up to 1024");
  static constexpr unsigned int __warps = _N / __SCALE_WARP_SIZE__;

 protected:
  __NVCG static unsigned int __tile() { return __details::__block_rank() / _N; }
  __NVCG static unsigned int __warp() { return (__details::__block_rank() % _N) / __SCALE_WARP_SIZE__; }
  __NVCG static unsigned int __lane() { return __nvvm_read_ptx_sreg_laneid(); }
  /* The tile's slots: one per warp of the tile. */
  __NVCG static unsigned long long *__slots() {
    return __details::__large_scratch()->__slot + __tile() * __warps;
  }
  template <class _T> __NVCG static void __put(unsigned int __w, _T __v) {
    static_assert(sizeof(_T) <= 8, "tiles larger than a warp exchange values of at most 8 bytes");
    __builtin_memcpy((void *)(__slots() + __w), &__v, sizeof(_T));
  }
  template <class _T> __NVCG static _T __get(unsigned int __w) {
    _T __v;
    __builtin_memcpy(&__v, (const void *)(__slots() + __w), sizeof(_T));
    return __v;
  }

 public:
  static constexpr unsigned int num_threads_value = _N;
  /* Every thread of the block constructs its tile (tiled_partition), before any use. */
  __NVCG static void __init() {
    __details::__large_tile_scratch *__s = __details::__large_scratch();
    unsigned int __r = __details::__block_rank();
    if (__r < 32) __s->__arrived[__r] = 0;
    __syncthreads();
  }
  __NVCG static unsigned int thread_rank() { return __details::__block_rank() % _N; }
  __NVCG static unsigned int size() { return _N; }
  __NVCG static unsigned int num_threads() { return _N; }
  __NVCG static unsigned int meta_group_rank() { return __tile(); }
  __NVCG static unsigned int meta_group_size() { return (__details::__block_size() + _N - 1) / _N; }
  __NVCG static void sync() { __details::__large_tile_sync(_N); }
  template <class _T> __NVCG _T shfl(_T __v, unsigned int __src) const {
    __src %= _N;
    if (thread_rank() == __src) __put(0, __v);
    sync();
    _T __r = __get<_T>(0);
    sync();
    return __r;
  }
  __NVCG int any(int __p) const { return __reduce((unsigned int)(__p != 0), [](unsigned int __a, unsigned int __b) { return __a | __b; }) != 0; }
  __NVCG int all(int __p) const { return __reduce((unsigned int)(__p != 0), [](unsigned int __a, unsigned int __b) { return __a & __b; }) != 0; }
  /* A butterfly in each warp, then every thread combines the warps' results in order. */
  template <class _T, class _Op> __NVCG _T __reduce(_T __v, _Op __op) const {
#pragma unroll
    for (unsigned int __o = __SCALE_WARP_SIZE__ / 2; __o > 0; __o /= 2) __v = __op(__v, __shfl_xor_sync(__NV_FULL_MASK, __v, __o));
    if (__lane() == 0) __put(__warp(), __v);
    sync();
    _T __r = __get<_T>(0);
    for (unsigned int __w = 1; __w < __warps; ++__w) __r = __op(__r, __get<_T>(__w));
    sync();
    return __r;
  }
  /* A scan in each warp, then the totals of the warps before. */
  template <class _T, class _Op> __NVCG _T __inclusive_scan(_T __v, _Op __op) const {
    unsigned int __l = __lane();
#pragma unroll
    for (unsigned int __o = 1; __o < __SCALE_WARP_SIZE__; __o *= 2) {
      _T __t = __shfl_up_sync(__NV_FULL_MASK, __v, __o);
      if (__l >= __o) __v = __op(__t, __v);
    }
    if (__l == __SCALE_WARP_SIZE__ - 1) __put(__warp(), __v);
    sync();
    unsigned int __w = __warp();
    if (__w > 0) {
      _T __before = __get<_T>(0);
      for (unsigned int __i = 1; __i < __w; ++__i) __before = __op(__before, __get<_T>(__i));
      __v = __op(__before, __v);
    }
    sync();
    return __v;
  }
  template <class _T, class _Op> __NVCG _T __exclusive_scan(_T __v, _Op __op) const {
    _T __inc = __inclusive_scan(__v, __op);
    _T __prev = __shfl_up_sync(__NV_FULL_MASK, __inc, 1);
    unsigned int __l = __lane(), __w = __warp();
    if (__l == __SCALE_WARP_SIZE__ - 1) __put(__w, __inc);
    sync();
    if (__l == 0) __prev = __w > 0 ? __get<_T>(__w - 1) : _T();
    sync();
    return __prev;
  }
  __NVCG operator thread_group() const { return thread_group(4, _N, thread_rank(), 0); }
};

namespace __details {
/* Lane 0 of each warp arrives for its warp; the last one opens the next generation (an
   atomic store: a volatile one in lane 0's branch would be a warp meeting there). */
__NVCG void __large_tile_sync(unsigned int __n) {
  __large_tile_scratch *__s = __large_scratch();
  unsigned int __t = __block_rank() / __n;
  __syncwarp();
  if (__nvvm_read_ptx_sreg_laneid() == 0) {
    unsigned int __gen = __s->__generation[__t];
    __threadfence_block();
    if (atomicAdd(&__s->__arrived[__t], 1u) == __n / __SCALE_WARP_SIZE__ - 1) {
      __s->__arrived[__t] = 0;
      __threadfence_block();
      atomicExch((unsigned int *)&__s->__generation[__t], __gen + 1);
    } else {
      while (__s->__generation[__t] == __gen) {
      }
    }
    __threadfence_block();
  }
  __syncwarp();
}

template <unsigned int _N, bool = (_N > __SCALE_WARP_SIZE__)> struct __tile_impl { using type = __static_tile<_N>; };
template <unsigned int _N> struct __tile_impl<_N, true> { using type = __large_tile<_N>; };
}  // namespace __details

/* thread_block_tile<N> (no parent type) is what every thread_block_tile<N, Parent>
   converts to, as in NVIDIA's header: `thread_block_tile<16> t = tiled_partition<16>(b);`. */
template <unsigned int _N> class thread_block_tile<_N, void> : public __details::__tile_impl<_N>::type {
 public:
  __NVCG thread_block_tile() {}
};

template <unsigned int _N, class _Parent> class thread_block_tile : public thread_block_tile<_N, void> {
 public:
  __NVCG thread_block_tile() {}
};

template <unsigned int _N, class _Parent> __NVCG thread_block_tile<_N, _Parent> tiled_partition(const _Parent &) {
  if constexpr (_N > __SCALE_WARP_SIZE__) __large_tile<_N>::__init();
  return thread_block_tile<_N, _Parent>();
}

/* Scratch for tiles larger than a warp (CUDA 12's form). Devices of compute capability 8.0
   and later need none, and neither does this implementation: the type is accepted, its
   storage unused. */
template <unsigned int _MaxBlockSize = 1024> struct block_tile_memory {
  unsigned long long __reserved;
};
template <unsigned int _M> __NVCG thread_block this_thread_block(block_tile_memory<_M> &) { return thread_block(); }

/* Dynamic tiling: a thread_group of n threads (n a power of two up to the warp size). */
__NVCG thread_group tiled_partition(const thread_group &__parent, unsigned int __n) {
  unsigned int __lane = __nvvm_read_ptx_sreg_laneid();
  cudaLaneMask_t __base = (__n >= (unsigned int)warpSize) ? ~(cudaLaneMask_t)0 : (((cudaLaneMask_t)1 << __n) - 1);
  cudaLaneMask_t __m = __base << (__lane & ~(__n - 1));
  return thread_group(1, __n, (unsigned int)__parent.thread_rank() % __n, __m);
}

/* The active threads of a warp, at the point of the call. */
class coalesced_group : public thread_group {
  __NVCG static unsigned int __lane_of_rank(cudaLaneMask_t __m, unsigned int __r) {
    for (unsigned int __l = 0; __l < (unsigned int)warpSize; ++__l)
      if ((__m >> __l) & 1) {
        if (__r == 0) return __l;
        --__r;
      }
    return 0;
  }

 public:
  __NVCG explicit coalesced_group(cudaLaneMask_t __m)
      : thread_group(2, (unsigned int)__popc(__m), (unsigned int)__popc(__m & __nv_lanemask_lt()), __m) {}
  __NVCG unsigned long long size() const { return __size_; }
  __NVCG unsigned long long num_threads() const { return __size_; }
  __NVCG unsigned long long thread_rank() const { return __rank_; }
  __NVCG unsigned int meta_group_rank() const { return 0; }
  __NVCG unsigned int meta_group_size() const { return 1; }
  __NVCG void sync() const { __syncwarp(__mask_); }
  template <class _T> __NVCG _T shfl(_T __v, unsigned int __rank) const { return __shfl_sync(__mask_, __v, (int)__lane_of_rank(__mask_, __rank)); }
  template <class _T> __NVCG _T shfl_down(_T __v, unsigned int __d) const {
    unsigned int __r = __rank_ + __d;
    _T __o = __shfl_sync(__mask_, __v, (int)__lane_of_rank(__mask_, __r < __size_ ? __r : __rank_));
    return __o;
  }
  template <class _T> __NVCG _T shfl_up(_T __v, unsigned int __d) const {
    unsigned int __r = __rank_ >= __d ? __rank_ - __d : __rank_;
    return __shfl_sync(__mask_, __v, (int)__lane_of_rank(__mask_, __r));
  }
  __NVCG int any(int __p) const { return __ballot_sync(__mask_, __p) != 0; }
  __NVCG int all(int __p) const { return __ballot_sync(__mask_, __p) == __mask_; }
  __NVCG cudaLaneMask_t ballot(int __p) const {
    /* Compress the bits of the group's lanes into rank order. */
    cudaLaneMask_t __b = __ballot_sync(__mask_, __p), __r = 0;
    unsigned int __k = 0;
    for (unsigned int __l = 0; __l < (unsigned int)warpSize; ++__l)
      if ((__mask_ >> __l) & 1) {
        if ((__b >> __l) & 1) __r |= (cudaLaneMask_t)1 << __k;
        ++__k;
      }
    return __r;
  }
};
__NVCG coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* The threads of a tile or coalesced group with the same predicate (binary_partition) or
   label (labeled_partition), CUDA C++ Programming Guide, "Cooperative Groups". */
template <class _G> __NVCG coalesced_group binary_partition(const _G &__g, bool __pred) {
  cudaLaneMask_t __m = (cudaLaneMask_t)__g.__lane_mask();
  if (__m == 0) __m = __activemask();
  cudaLaneMask_t __yes = __ballot_sync(__m, __pred) & __m;
  return coalesced_group(__pred ? __yes : (__m & ~__yes));
}
template <class _G> __NVCG coalesced_group labeled_partition(const _G &__g, int __label) {
  cudaLaneMask_t __m = (cudaLaneMask_t)__g.__lane_mask();
  if (__m == 0) __m = __activemask();
  return coalesced_group(__match_any_sync(__m, __label) & __m);
}
template <class _G> __NVCG coalesced_group labeled_partition(const _G &__g, unsigned int __label) {
  return labeled_partition(__g, (int)__label);
}

template <class _G> __NVCG void sync(const _G &__g) { __g.sync(); }
template <class _G> __NVCG unsigned long long thread_rank(const _G &__g) { return __g.thread_rank(); }
template <class _G> __NVCG unsigned long long group_size(const _G &__g) { return __g.size(); }

}  // namespace __v1
using namespace __v1;
}  // namespace cooperative_groups

#include "cooperative_groups/reduce.h"
#undef __NVCG
#endif
