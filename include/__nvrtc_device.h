/*
 * Device functions available in every NVRTC program: barriers and fences, warp-level
 * intrinsics, atomics, integer intrinsics, cache-hinted loads and stores, clocks,
 * printf, __trap.
 *
 * Lane masks are cudaLaneMask_t: an unsigned integer as wide as the target's warp
 * (32 bits for NVIDIA and RDNA targets, 64 for GCN/CDNA). Functions that take or return
 * lane masks use it; the compiler warns when such a value is implicitly narrowed.
 * On wave64 targets the warp intrinsics are written as inline PTX with 64-bit lane-mask
 * operands (the PTX dialect our AMD path reads); on wave32 targets they are clang's
 * NVPTX builtins.
 */
#pragma clang system_header
#ifndef __NVRTC_DEVICE_H__
#define __NVRTC_DEVICE_H__

#if __SCALE_WARP_SIZE__ == 64
typedef unsigned long long cudaLaneMask_t;
#define __NV_WAVE64 1
#define __NV_FULL_MASK 0xffffffffffffffffull
#else
typedef unsigned int cudaLaneMask_t;
#define __NV_WAVE64 0
#define __NV_FULL_MASK 0xffffffffu
#endif

/* ---- barriers and fences --------------------------------------------------------- */

__NVD int __syncthreads_count(int __p) { return __nvvm_bar0_popc(__p); }
__NVD int __syncthreads_and(int __p) { return __nvvm_bar0_and(__p); }
__NVD int __syncthreads_or(int __p) { return __nvvm_bar0_or(__p); }
__NVD void __barrier_sync(unsigned int __id) { __nvvm_barrier_sync(__id); }
__NVD void __barrier_sync_count(unsigned int __id, unsigned int __n) { __nvvm_barrier_sync_cnt(__id, __n); }
__NVD void __threadfence(void) { __nvvm_membar_gl(); }
__NVD void __threadfence_block(void) { __nvvm_membar_cta(); }
__NVD void __threadfence_system(void) { __nvvm_membar_sys(); }

#if __NV_WAVE64
__NVD void __syncwarp(cudaLaneMask_t __m = __NV_FULL_MASK) { asm volatile("bar.warp.sync %0;" ::"l"(__m) : "memory"); }
#else
__NVD void __syncwarp(cudaLaneMask_t __m = __NV_FULL_MASK) { __nvvm_bar_warp_sync(__m); }
#endif

/* ---- lanes ------------------------------------------------------------------------- */

__NVD unsigned int __nv_laneid(void) { return __nvvm_read_ptx_sreg_laneid(); }
#if __NV_WAVE64
#define __NV_LANEMASK(NAME, REG)                                                        \
  __NVD cudaLaneMask_t NAME(void) {                                                     \
    cudaLaneMask_t __r;                                                                 \
    asm("mov.u64 %0, %%" REG ";" : "=l"(__r));                                          \
    return __r;                                                                         \
  }
__NV_LANEMASK(__nv_lanemask_eq, "lanemask_eq")
__NV_LANEMASK(__nv_lanemask_lt, "lanemask_lt")
__NV_LANEMASK(__nv_lanemask_le, "lanemask_le")
__NV_LANEMASK(__nv_lanemask_gt, "lanemask_gt")
__NV_LANEMASK(__nv_lanemask_ge, "lanemask_ge")
#undef __NV_LANEMASK
#else
__NVD cudaLaneMask_t __nv_lanemask_eq(void) { return __nvvm_read_ptx_sreg_lanemask_eq(); }
__NVD cudaLaneMask_t __nv_lanemask_lt(void) { return __nvvm_read_ptx_sreg_lanemask_lt(); }
__NVD cudaLaneMask_t __nv_lanemask_le(void) { return __nvvm_read_ptx_sreg_lanemask_le(); }
__NVD cudaLaneMask_t __nv_lanemask_gt(void) { return __nvvm_read_ptx_sreg_lanemask_gt(); }
__NVD cudaLaneMask_t __nv_lanemask_ge(void) { return __nvvm_read_ptx_sreg_lanemask_ge(); }
#endif

/* ---- votes --------------------------------------------------------------------------- */

#if __NV_WAVE64
__NVD cudaLaneMask_t __activemask(void) {
  cudaLaneMask_t __r;
  asm volatile("activemask.b32 %0;" : "=l"(__r));
  return __r;
}
__NVD cudaLaneMask_t __ballot_sync(cudaLaneMask_t __m, int __p) {
  cudaLaneMask_t __r;
  asm volatile("{ .reg .pred %%p; setp.ne.u32 %%p, %2, 0; vote.sync.ballot.b32 %0, %%p, %1; }" : "=l"(__r) : "l"(__m), "r"(__p));
  return __r;
}
#define __NV_VOTE(NAME, MODE)                                                            \
  __NVD int NAME(cudaLaneMask_t __m, int __p) {                                         \
    int __r;                                                                            \
    asm volatile("{ .reg .pred %%p, %%q; setp.ne.u32 %%p, %2, 0; vote.sync." MODE        \
                 ".pred %%q, %%p, %1; selp.s32 %0, 1, 0, %%q; }"                        \
                 : "=r"(__r) : "l"(__m), "r"(__p));                                     \
    return __r;                                                                         \
  }
__NV_VOTE(__all_sync, "all")
__NV_VOTE(__any_sync, "any")
__NV_VOTE(__uni_sync, "uni")
#undef __NV_VOTE
#else
__NVD cudaLaneMask_t __activemask(void) { return __nvvm_activemask(); }
__NVD cudaLaneMask_t __ballot_sync(cudaLaneMask_t __m, int __p) { return __nvvm_vote_ballot_sync(__m, __p != 0); }
__NVD int __all_sync(cudaLaneMask_t __m, int __p) { return __nvvm_vote_all_sync(__m, __p != 0); }
__NVD int __any_sync(cudaLaneMask_t __m, int __p) { return __nvvm_vote_any_sync(__m, __p != 0); }
__NVD int __uni_sync(cudaLaneMask_t __m, int __p) { return __nvvm_vote_uni_sync(__m, __p != 0); }
#endif
/* Pre-Volta forms: the whole warp. */
__NVD cudaLaneMask_t __ballot(int __p) { return __ballot_sync(__activemask(), __p); }
__NVD int __all(int __p) { return __all_sync(__activemask(), __p); }
__NVD int __any(int __p) { return __any_sync(__activemask(), __p); }

/* ---- shuffles ------------------------------------------------------------------------
 * The c operand packs the clamp value (bits 0-7) and the segment mask (bits 8-15).
 */
#define __NV_SHFL_C_UP(w) ((int)((__SCALE_WARP_SIZE__ - (w)) << 8))
#define __NV_SHFL_C(w) ((int)(((__SCALE_WARP_SIZE__ - (w)) << 8) | (__SCALE_WARP_SIZE__ - 1)))

#if __NV_WAVE64
#define __NV_SHFL32(NAME, MODE)                                                          \
  __NVD unsigned int NAME(cudaLaneMask_t __m, unsigned int __v, int __l, int __c) {      \
    unsigned int __r;                                                                   \
    asm volatile("shfl.sync." MODE ".b32 %0, %1, %2, %3, %4;" : "=r"(__r) : "r"(__v), "r"(__l), "r"(__c), "l"(__m)); \
    return __r;                                                                         \
  }
__NV_SHFL32(__nv_shfl_idx32, "idx")
__NV_SHFL32(__nv_shfl_up32, "up")
__NV_SHFL32(__nv_shfl_down32, "down")
__NV_SHFL32(__nv_shfl_bfly32, "bfly")
#undef __NV_SHFL32
#else
__NVD unsigned int __nv_shfl_idx32(cudaLaneMask_t __m, unsigned int __v, int __l, int __c) { return __nvvm_shfl_sync_idx_i32(__m, __v, __l, __c); }
__NVD unsigned int __nv_shfl_up32(cudaLaneMask_t __m, unsigned int __v, int __l, int __c) { return __nvvm_shfl_sync_up_i32(__m, __v, __l, __c); }
__NVD unsigned int __nv_shfl_down32(cudaLaneMask_t __m, unsigned int __v, int __l, int __c) { return __nvvm_shfl_sync_down_i32(__m, __v, __l, __c); }
__NVD unsigned int __nv_shfl_bfly32(cudaLaneMask_t __m, unsigned int __v, int __l, int __c) { return __nvvm_shfl_sync_bfly_i32(__m, __v, __l, __c); }
#endif

#define __NV_SHFL_ALL_TYPES(NAME, IMPL, CEXPR, LANE_T)                                   \
  __NVD int NAME(cudaLaneMask_t __m, int __v, LANE_T __l, int __w = warpSize) {         \
    return (int)IMPL(__m, (unsigned int)__v, (int)__l, CEXPR);                          \
  }                                                                                     \
  __NVD unsigned int NAME(cudaLaneMask_t __m, unsigned int __v, LANE_T __l, int __w = warpSize) { \
    return IMPL(__m, __v, (int)__l, CEXPR);                                             \
  }                                                                                     \
  __NVD float NAME(cudaLaneMask_t __m, float __v, LANE_T __l, int __w = warpSize) {     \
    return __builtin_bit_cast(float, IMPL(__m, __builtin_bit_cast(unsigned int, __v), (int)__l, CEXPR)); \
  }                                                                                     \
  __NVD unsigned long long NAME(cudaLaneMask_t __m, unsigned long long __v, LANE_T __l, int __w = warpSize) { \
    unsigned int __lo = IMPL(__m, (unsigned int)__v, (int)__l, CEXPR);                  \
    unsigned int __hi = IMPL(__m, (unsigned int)(__v >> 32), (int)__l, CEXPR);          \
    return ((unsigned long long)__hi << 32) | __lo;                                     \
  }                                                                                     \
  __NVD long long NAME(cudaLaneMask_t __m, long long __v, LANE_T __l, int __w = warpSize) { \
    return (long long)NAME(__m, (unsigned long long)__v, __l, __w);                     \
  }                                                                                     \
  __NVD unsigned long NAME(cudaLaneMask_t __m, unsigned long __v, LANE_T __l, int __w = warpSize) { \
    return (unsigned long)NAME(__m, (unsigned long long)__v, __l, __w);                 \
  }                                                                                     \
  __NVD long NAME(cudaLaneMask_t __m, long __v, LANE_T __l, int __w = warpSize) {       \
    return (long)NAME(__m, (unsigned long long)__v, __l, __w);                          \
  }                                                                                     \
  __NVD double NAME(cudaLaneMask_t __m, double __v, LANE_T __l, int __w = warpSize) {   \
    return __builtin_bit_cast(double, NAME(__m, __builtin_bit_cast(unsigned long long, __v), __l, __w)); \
  }

__NV_SHFL_ALL_TYPES(__shfl_sync, __nv_shfl_idx32, __NV_SHFL_C(__w), int)
__NV_SHFL_ALL_TYPES(__shfl_up_sync, __nv_shfl_up32, __NV_SHFL_C_UP(__w), unsigned int)
__NV_SHFL_ALL_TYPES(__shfl_down_sync, __nv_shfl_down32, __NV_SHFL_C(__w), unsigned int)
__NV_SHFL_ALL_TYPES(__shfl_xor_sync, __nv_shfl_bfly32, __NV_SHFL_C(__w), int)
#undef __NV_SHFL_ALL_TYPES

/* Pre-Volta forms. */
template <class _T> __NVD _T __shfl(_T __v, int __l, int __w = warpSize) { return __shfl_sync(__activemask(), __v, __l, __w); }
template <class _T> __NVD _T __shfl_up(_T __v, unsigned int __d, int __w = warpSize) { return __shfl_up_sync(__activemask(), __v, __d, __w); }
template <class _T> __NVD _T __shfl_down(_T __v, unsigned int __d, int __w = warpSize) { return __shfl_down_sync(__activemask(), __v, __d, __w); }
template <class _T> __NVD _T __shfl_xor(_T __v, int __l, int __w = warpSize) { return __shfl_xor_sync(__activemask(), __v, __l, __w); }

/* ---- match and reduce ------------------------------------------------------------------ */

#if !__NV_WAVE64 && __CUDA_ARCH__ >= 700
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, unsigned int __v) { return __nvvm_match_any_sync_i32(__m, __v); }
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, unsigned long long __v) { return __nvvm_match_any_sync_i64(__m, __v); }
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, unsigned int __v, int *__pred) { return __nvvm_match_all_sync_i32p(__m, __v, __pred); }
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, unsigned long long __v, int *__pred) { return __nvvm_match_all_sync_i64p(__m, __v, __pred); }
#else
/* Built from shuffles: each lane compares its value with every other active lane's. */
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, unsigned long long __v) {
  cudaLaneMask_t __r = 0;
  for (int __i = 0; __i < warpSize; ++__i) {
    if (!((__m >> __i) & 1)) continue;
    unsigned long long __o = __shfl_sync(__m, __v, __i);
    if (__o == __v) __r |= (cudaLaneMask_t)1 << __i;
  }
  return __r;
}
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, unsigned int __v) { return __match_any_sync(__m, (unsigned long long)__v); }
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, unsigned long long __v, int *__pred) {
  cudaLaneMask_t __same = __match_any_sync(__m, __v);
  *__pred = __same == __m;
  return __same == __m ? __m : (cudaLaneMask_t)0;
}
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, unsigned int __v, int *__pred) { return __match_all_sync(__m, (unsigned long long)__v, __pred); }
#endif
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, int __v) { return __match_any_sync(__m, (unsigned int)__v); }
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, long long __v) { return __match_any_sync(__m, (unsigned long long)__v); }
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, unsigned long __v) { return __match_any_sync(__m, (unsigned long long)__v); }
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, long __v) { return __match_any_sync(__m, (unsigned long long)__v); }
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, float __v) { return __match_any_sync(__m, __builtin_bit_cast(unsigned int, __v)); }
__NVD cudaLaneMask_t __match_any_sync(cudaLaneMask_t __m, double __v) { return __match_any_sync(__m, __builtin_bit_cast(unsigned long long, __v)); }
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, int __v, int *__p) { return __match_all_sync(__m, (unsigned int)__v, __p); }
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, long long __v, int *__p) { return __match_all_sync(__m, (unsigned long long)__v, __p); }
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, unsigned long __v, int *__p) { return __match_all_sync(__m, (unsigned long long)__v, __p); }
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, long __v, int *__p) { return __match_all_sync(__m, (unsigned long long)__v, __p); }
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, float __v, int *__p) { return __match_all_sync(__m, __builtin_bit_cast(unsigned int, __v), __p); }
__NVD cudaLaneMask_t __match_all_sync(cudaLaneMask_t __m, double __v, int *__p) { return __match_all_sync(__m, __builtin_bit_cast(unsigned long long, __v), __p); }

#if !__NV_WAVE64 && __CUDA_ARCH__ >= 800
__NVD unsigned int __reduce_add_sync(cudaLaneMask_t __m, unsigned int __v) { return __nvvm_redux_sync_add(__v, __m); }
__NVD int __reduce_add_sync(cudaLaneMask_t __m, int __v) { return __nvvm_redux_sync_add(__v, __m); }
__NVD unsigned int __reduce_min_sync(cudaLaneMask_t __m, unsigned int __v) { return __nvvm_redux_sync_umin(__v, __m); }
__NVD int __reduce_min_sync(cudaLaneMask_t __m, int __v) { return __nvvm_redux_sync_min(__v, __m); }
__NVD unsigned int __reduce_max_sync(cudaLaneMask_t __m, unsigned int __v) { return __nvvm_redux_sync_umax(__v, __m); }
__NVD int __reduce_max_sync(cudaLaneMask_t __m, int __v) { return __nvvm_redux_sync_max(__v, __m); }
__NVD unsigned int __reduce_and_sync(cudaLaneMask_t __m, unsigned int __v) { return __nvvm_redux_sync_and(__v, __m); }
__NVD unsigned int __reduce_or_sync(cudaLaneMask_t __m, unsigned int __v) { return __nvvm_redux_sync_or(__v, __m); }
__NVD unsigned int __reduce_xor_sync(cudaLaneMask_t __m, unsigned int __v) { return __nvvm_redux_sync_xor(__v, __m); }
#else
/* Reductions over the lanes of the mask, built from shuffles (every lane of the mask
   gets the result). */
#define __NV_REDUCE(NAME, T, OP)                                                         \
  __NVD T NAME(cudaLaneMask_t __m, T __v) {                                             \
    T __r = __v;                                                                        \
    bool __first = true;                                                                \
    for (int __i = 0; __i < warpSize; ++__i) {                                          \
      if (!((__m >> __i) & 1)) continue;                                                \
      T __o = __shfl_sync(__m, __v, __i);                                               \
      if (__first) { __r = __o; __first = false; } else { __r = OP; }                   \
    }                                                                                   \
    return __r;                                                                         \
  }
__NV_REDUCE(__reduce_add_sync, unsigned int, __r + __o)
__NV_REDUCE(__reduce_add_sync, int, __r + __o)
__NV_REDUCE(__reduce_min_sync, unsigned int, (__o < __r ? __o : __r))
__NV_REDUCE(__reduce_min_sync, int, (__o < __r ? __o : __r))
__NV_REDUCE(__reduce_max_sync, unsigned int, (__o > __r ? __o : __r))
__NV_REDUCE(__reduce_max_sync, int, (__o > __r ? __o : __r))
__NV_REDUCE(__reduce_and_sync, unsigned int, __r & __o)
__NV_REDUCE(__reduce_or_sync, unsigned int, __r | __o)
__NV_REDUCE(__reduce_xor_sync, unsigned int, __r ^ __o)
#undef __NV_REDUCE
#endif

/* ---- atomics ------------------------------------------------------------------------------
 * Device scope (plain), block scope (_block) and system scope (_system).
 */
#define __NV_ATOMIC_SCOPES(RET, NAME, PARAMS, ARGS, GEN, CTA, SYS)                       \
  __NVD RET NAME PARAMS { return (RET)GEN ARGS; }                                        \
  __NVD RET NAME##_block PARAMS { return (RET)CTA ARGS; }                                \
  __NVD RET NAME##_system PARAMS { return (RET)SYS ARGS; }

#define __NV_ATOM2(NAME, RET, T, CT, OP, SUF)                                             \
  __NV_ATOMIC_SCOPES(RET, NAME, (T *__a, T __v), ((CT *)__a, (CT)__v),                   \
                     __nvvm_atom_##OP##_gen_##SUF, __nvvm_atom_cta_##OP##_gen_##SUF, __nvvm_atom_sys_##OP##_gen_##SUF)

__NV_ATOM2(atomicAdd, int, int, int, add, i)
__NV_ATOM2(atomicAdd, unsigned int, unsigned int, int, add, i)
__NV_ATOM2(atomicAdd, unsigned long long, unsigned long long, long long, add, ll)
__NV_ATOM2(atomicAdd, float, float, float, add, f)
__NV_ATOM2(atomicAdd, double, double, double, add, d)
__NV_ATOM2(atomicExch, int, int, int, xchg, i)
__NV_ATOM2(atomicExch, unsigned int, unsigned int, int, xchg, i)
__NV_ATOM2(atomicExch, unsigned long long, unsigned long long, long long, xchg, ll)
__NV_ATOM2(atomicMin, int, int, int, min, i)
__NV_ATOM2(atomicMin, unsigned int, unsigned int, unsigned int, min, ui)
__NV_ATOM2(atomicMin, long long, long long, long long, min, ll)
__NV_ATOM2(atomicMin, unsigned long long, unsigned long long, unsigned long long, min, ull)
__NV_ATOM2(atomicMax, int, int, int, max, i)
__NV_ATOM2(atomicMax, unsigned int, unsigned int, unsigned int, max, ui)
__NV_ATOM2(atomicMax, long long, long long, long long, max, ll)
__NV_ATOM2(atomicMax, unsigned long long, unsigned long long, unsigned long long, max, ull)
__NV_ATOM2(atomicInc, unsigned int, unsigned int, unsigned int, inc, ui)
__NV_ATOM2(atomicDec, unsigned int, unsigned int, unsigned int, dec, ui)
__NV_ATOM2(atomicAnd, int, int, int, and, i)
__NV_ATOM2(atomicAnd, unsigned int, unsigned int, int, and, i)
__NV_ATOM2(atomicAnd, unsigned long long, unsigned long long, long long, and, ll)
__NV_ATOM2(atomicOr, int, int, int, or, i)
__NV_ATOM2(atomicOr, unsigned int, unsigned int, int, or, i)
__NV_ATOM2(atomicOr, unsigned long long, unsigned long long, long long, or, ll)
__NV_ATOM2(atomicXor, int, int, int, xor, i)
__NV_ATOM2(atomicXor, unsigned int, unsigned int, int, xor, i)
__NV_ATOM2(atomicXor, unsigned long long, unsigned long long, long long, xor, ll)
#undef __NV_ATOM2

__NVD float atomicExch(float *__a, float __v) { return __builtin_bit_cast(float, atomicExch((int *)__a, __builtin_bit_cast(int, __v))); }
__NVD float atomicExch_block(float *__a, float __v) { return __builtin_bit_cast(float, atomicExch_block((int *)__a, __builtin_bit_cast(int, __v))); }
__NVD float atomicExch_system(float *__a, float __v) { return __builtin_bit_cast(float, atomicExch_system((int *)__a, __builtin_bit_cast(int, __v))); }
__NVD int atomicSub(int *__a, int __v) { return atomicAdd(__a, -__v); }
__NVD unsigned int atomicSub(unsigned int *__a, unsigned int __v) { return atomicAdd(__a, 0u - __v); }
__NVD int atomicSub_block(int *__a, int __v) { return atomicAdd_block(__a, -__v); }
__NVD unsigned int atomicSub_block(unsigned int *__a, unsigned int __v) { return atomicAdd_block(__a, 0u - __v); }
__NVD int atomicSub_system(int *__a, int __v) { return atomicAdd_system(__a, -__v); }
__NVD unsigned int atomicSub_system(unsigned int *__a, unsigned int __v) { return atomicAdd_system(__a, 0u - __v); }

#define __NV_CAS(RET, T, CT, SUF)                                                          \
  __NVD RET atomicCAS(T *__a, T __c, T __v) { return (RET)__nvvm_atom_cas_gen_##SUF((CT *)__a, (CT)__c, (CT)__v); } \
  __NVD RET atomicCAS_block(T *__a, T __c, T __v) { return (RET)__nvvm_atom_cta_cas_gen_##SUF((CT *)__a, (CT)__c, (CT)__v); } \
  __NVD RET atomicCAS_system(T *__a, T __c, T __v) { return (RET)__nvvm_atom_sys_cas_gen_##SUF((CT *)__a, (CT)__c, (CT)__v); }
__NV_CAS(int, int, int, i)
__NV_CAS(unsigned int, unsigned int, int, i)
__NV_CAS(unsigned long long, unsigned long long, long long, ll)
#undef __NV_CAS
__NVD unsigned short atomicCAS(unsigned short *__a, unsigned short __c, unsigned short __v) {
  /* 16-bit compare-and-swap on the containing aligned word. */
  unsigned int *__w = (unsigned int *)((size_t)__a & ~(size_t)3);
  unsigned int __sh = ((size_t)__a & 2) * 8;
  unsigned int __old = *(volatile unsigned int *)__w;
  while (true) {
    unsigned short __cur = (unsigned short)(__old >> __sh);
    if (__cur != __c) return __cur;
    unsigned int __nw = (__old & ~(0xffffu << __sh)) | ((unsigned int)__v << __sh);
    unsigned int __seen = atomicCAS(__w, __old, __nw);
    if (__seen == __old) return __c;
    __old = __seen;
  }
}
#undef __NV_ATOMIC_SCOPES

/* ---- integer intrinsics ------------------------------------------------------------------ */

#if __NV_WAVE64
__NVD int __popc(unsigned int __x) { return __builtin_popcount(__x); }
#else
/* Spelled with cudaLaneMask_t (the same type here) so a lane mask passed in is not narrowed. */
__NVD int __popc(cudaLaneMask_t __x) { return __builtin_popcount(__x); }
/* Lane-mask overloads next to the int ones. */
__NVD int __ffs(cudaLaneMask_t __x) { return __builtin_ffs((int)__x); }
__NVD int __clz(cudaLaneMask_t __x) { return __x ? __builtin_clz(__x) : 32; }
#endif
__NVD int __popcll(unsigned long long __x) { return __builtin_popcountll(__x); }
__NVD int __clz(int __x) { return __x ? __builtin_clz((unsigned int)__x) : 32; }
#if !__NV_WAVE64
/* NVIDIA declares only __clz(int): an argument of another integer type converts to int.
   With the lane-mask overload beside it, a long, say, would be ambiguous. */
template <class _T> __NVD int __clz(_T __x) { return __clz((int)__x); }
#endif
__NVD int __clzll(long long __x) { return __x ? __builtin_clzll((unsigned long long)__x) : 64; }
__NVD int __ffs(int __x) { return __builtin_ffs(__x); }
__NVD int __ffsll(long long __x) { return __builtin_ffsll(__x); }
#if __NV_WAVE64
/* Lane-mask overloads: all 64 lanes count. */
__NVD int __popc(unsigned long long __x) { return __builtin_popcountll(__x); }
__NVD int __clz(unsigned long long __x) { return __x ? __builtin_clzll(__x) : 64; }
__NVD int __ffs(unsigned long long __x) { return __builtin_ffsll((long long)__x); }
#endif
__NVD unsigned int __brev(unsigned int __x) { return __builtin_bitreverse32(__x); }
__NVD unsigned long long __brevll(unsigned long long __x) { return __builtin_bitreverse64(__x); }
__NVD unsigned int __byte_perm(unsigned int __x, unsigned int __y, unsigned int __s) { return __nvvm_prmt(__x, __y, __s); }
__NVD unsigned int __funnelshift_l(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  unsigned int __n = __s > 32 ? 32 : __s;
  return __n == 0 ? __hi : __n == 32 ? __lo : (__hi << __n) | (__lo >> (32 - __n));
}
__NVD unsigned int __funnelshift_lc(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  unsigned int __n = __s & 31;
  return __n == 0 ? __hi : (__hi << __n) | (__lo >> (32 - __n));
}
__NVD unsigned int __funnelshift_r(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  unsigned int __n = __s > 32 ? 32 : __s;
  return __n == 0 ? __lo : __n == 32 ? __hi : (__lo >> __n) | (__hi << (32 - __n));
}
__NVD unsigned int __funnelshift_rc(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  unsigned int __n = __s & 31;
  return __n == 0 ? __lo : (__lo >> __n) | (__hi << (32 - __n));
}
__NVD int __mul24(int __x, int __y) { return __nvvm_mul24_i(__x, __y); }
__NVD unsigned int __umul24(unsigned int __x, unsigned int __y) { return __nvvm_mul24_ui(__x, __y); }
__NVD int __mulhi(int __x, int __y) { return (int)(((long long)__x * __y) >> 32); }
__NVD unsigned int __umulhi(unsigned int __x, unsigned int __y) { return (unsigned int)(((unsigned long long)__x * __y) >> 32); }
__NVD long long __mul64hi(long long __x, long long __y) { return (long long)(((__int128)__x * __y) >> 64); }
__NVD unsigned long long __umul64hi(unsigned long long __x, unsigned long long __y) {
  return (unsigned long long)(((unsigned __int128)__x * __y) >> 64);
}
__NVD unsigned int __sad(int __x, int __y, unsigned int __z) { return __z + (unsigned int)(__x > __y ? (long long)__x - __y : (long long)__y - __x); }
__NVD unsigned int __usad(unsigned int __x, unsigned int __y, unsigned int __z) { return __z + (__x > __y ? __x - __y : __y - __x); }
__NVD int __hadd(int __x, int __y) { return (int)(((long long)__x + __y) >> 1); }
__NVD int __rhadd(int __x, int __y) { return (int)(((long long)__x + __y + 1) >> 1); }
__NVD unsigned int __uhadd(unsigned int __x, unsigned int __y) { return (unsigned int)(((unsigned long long)__x + __y) >> 1); }
__NVD unsigned int __urhadd(unsigned int __x, unsigned int __y) { return (unsigned int)(((unsigned long long)__x + __y + 1) >> 1); }
__NVD int __dp4a(int __a, int __b, int __c) {
  int __r = __c;
  for (int __i = 0; __i < 32; __i += 8) __r += (int)(signed char)(__a >> __i) * (int)(signed char)(__b >> __i);
  return __r;
}
__NVD unsigned int __dp4a(unsigned int __a, unsigned int __b, unsigned int __c) {
  unsigned int __r = __c;
  for (int __i = 0; __i < 32; __i += 8) __r += ((__a >> __i) & 0xff) * ((__b >> __i) & 0xff);
  return __r;
}
__NVD int __dp2a_lo(int __a, int __b, int __c) {
  return __c + (int)(short)__a * (int)(signed char)__b + (int)(short)(__a >> 16) * (int)(signed char)(__b >> 8);
}
__NVD int __dp2a_hi(int __a, int __b, int __c) {
  return __c + (int)(short)__a * (int)(signed char)(__b >> 16) + (int)(short)(__a >> 16) * (int)(signed char)(__b >> 24);
}
__NVD unsigned int __fns(unsigned int __m, unsigned int __base, int __offset) {
  /* Position of the n-th set bit from base (forward for offset > 0, backward for < 0). */
  if (__offset == 0) return 0xffffffffu;
  int __n = __offset > 0 ? __offset : -__offset;
  int __step = __offset > 0 ? 1 : -1;
  for (int __p = (int)__base; __p >= 0 && __p < 32; __p += __step) {
    if ((__m >> __p) & 1) {
      if (--__n == 0) return (unsigned int)__p;
    }
  }
  return 0xffffffffu;
}
#include "__nvrtc_simd.h"

/* ---- loads and stores with cache hints ----------------------------------------------------
 * __ldg is a non-coherent (read-only) global load; the other hints do not change meaning,
 * so they are plain loads and stores (__ldcv: a volatile load).
 */
#define __NV_LDG_SCALAR(T, SUF)                                                            \
  __NVD T __ldg(const T *__p) { return (T)__nvvm_ldg_##SUF((const __typeof__(__nvvm_ldg_##SUF(0)) *)__p); }
__NV_LDG_SCALAR(char, c)
__NV_LDG_SCALAR(signed char, sc)
__NV_LDG_SCALAR(short, s)
__NV_LDG_SCALAR(int, i)
__NV_LDG_SCALAR(long, l)
__NV_LDG_SCALAR(long long, ll)
__NV_LDG_SCALAR(unsigned char, uc)
__NV_LDG_SCALAR(unsigned short, us)
__NV_LDG_SCALAR(unsigned int, ui)
__NV_LDG_SCALAR(unsigned long, ul)
__NV_LDG_SCALAR(unsigned long long, ull)
__NV_LDG_SCALAR(float, f)
__NV_LDG_SCALAR(double, d)
#undef __NV_LDG_SCALAR
#define __NV_LDG_VEC2(VT, ET, SUF)                                                         \
  __NVD VT __ldg(const VT *__p) {                                                         \
    typedef ET __v2 __attribute__((ext_vector_type(2)));                                  \
    __v2 __v = __nvvm_ldg_##SUF((const __v2 *)__p);                                       \
    VT __r; __r.x = __v[0]; __r.y = __v[1]; return __r;                                   \
  }
#define __NV_LDG_VEC4(VT, ET, SUF)                                                         \
  __NVD VT __ldg(const VT *__p) {                                                         \
    typedef ET __v4 __attribute__((ext_vector_type(4)));                                  \
    __v4 __v = __nvvm_ldg_##SUF((const __v4 *)__p);                                       \
    VT __r; __r.x = __v[0]; __r.y = __v[1]; __r.z = __v[2]; __r.w = __v[3]; return __r;   \
  }
__NV_LDG_VEC2(char2, char, c2)
__NV_LDG_VEC4(char4, char, c4)
__NV_LDG_VEC2(short2, short, s2)
__NV_LDG_VEC4(short4, short, s4)
__NV_LDG_VEC2(int2, int, i2)
__NV_LDG_VEC4(int4, int, i4)
__NV_LDG_VEC2(longlong2, long long, ll2)
__NV_LDG_VEC2(uchar2, unsigned char, uc2)
__NV_LDG_VEC4(uchar4, unsigned char, uc4)
__NV_LDG_VEC2(ushort2, unsigned short, us2)
__NV_LDG_VEC4(ushort4, unsigned short, us4)
__NV_LDG_VEC2(uint2, unsigned int, ui2)
__NV_LDG_VEC4(uint4, unsigned int, ui4)
__NV_LDG_VEC2(ulonglong2, unsigned long long, ull2)
__NV_LDG_VEC2(float2, float, f2)
__NV_LDG_VEC4(float4, float, f4)
__NV_LDG_VEC2(double2, double, d2)
#undef __NV_LDG_VEC2
#undef __NV_LDG_VEC4
template <class _T> __NVD _T __ldcg(const _T *__p) { return *__p; }
template <class _T> __NVD _T __ldca(const _T *__p) { return *__p; }
template <class _T> __NVD _T __ldcs(const _T *__p) { return *__p; }
template <class _T> __NVD _T __ldlu(const _T *__p) { return *__p; }
template <class _T> __NVD _T __ldcv(const _T *__p) { return *(const volatile _T *)__p; }
template <class _T> __NVD void __stwb(_T *__p, _T __v) { *__p = __v; }
template <class _T> __NVD void __stcg(_T *__p, _T __v) { *__p = __v; }
template <class _T> __NVD void __stcs(_T *__p, _T __v) { *__p = __v; }
template <class _T> __NVD void __stwt(_T *__p, _T __v) { *__p = __v; }

/* ---- address spaces ------------------------------------------------------------------------ */

__NVD unsigned int __isGlobal(const void *__p) { return __nvvm_isspacep_global(__p); }
__NVD unsigned int __isShared(const void *__p) { return __nvvm_isspacep_shared(__p); }
__NVD unsigned int __isConstant(const void *__p) { return __nvvm_isspacep_const(__p); }
__NVD unsigned int __isLocal(const void *__p) { return __nvvm_isspacep_local(__p); }
/* Whether __p points to a __grid_constant__ kernel parameter (isspacep.param). */
__NVD unsigned int __isGridConstant(const void *__p) {
  unsigned int __r;
  asm("{\n\t.reg .pred %%p;\n\tisspacep.param %%p, %1;\n\tselp.u32 %0, 1, 0, %%p;\n\t}" : "=r"(__r) : "l"(__p));
  return __r;
}
__NVD size_t __cvta_generic_to_shared(const void *__p) { return (size_t)(__attribute__((address_space(3))) const void *)__p; }
__NVD size_t __cvta_generic_to_global(const void *__p) { return (size_t)(__attribute__((address_space(1))) const void *)__p; }
__NVD void *__cvta_shared_to_generic(size_t __a) { return (void *)(__attribute__((address_space(3))) void *)__a; }
__NVD void *__cvta_global_to_generic(size_t __a) { return (void *)(__attribute__((address_space(1))) void *)__a; }

/* ---- clocks, sleep, traps, printf ------------------------------------------------------------ */

__NVD long long clock64(void) { return __nvvm_read_ptx_sreg_clock64(); }
__NVD int clock(void) { return __nvvm_read_ptx_sreg_clock(); }
__NVD unsigned int __smid(void) { return __nvvm_read_ptx_sreg_smid(); }
__NVD unsigned int __warpid(void) { return __nvvm_read_ptx_sreg_warpid(); }
#if __CUDA_ARCH__ >= 700
__NVD void __nanosleep(unsigned int __ns) { __nvvm_nanosleep(__ns); }
#endif
__NVD void __trap(void) { asm volatile("trap;"); }
__NVD void __brkpt(void) { asm volatile("brkpt;"); }
__NVD void __prof_trigger(int) {}

extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ int vprintf(const char *, void *);
/* Sets a conditional graph node's value (CUDA Programming Guide, "Conditional Graph Nodes"):
 * a built-in of the driver, which lowers it to a store to the handle. */
extern "C" __device__ void cudaGraphSetConditional(unsigned long long __handle, unsigned int __value);
extern "C" __device__ void __assertfail(const char *__msg, const char *__file, unsigned int __line, const char *__func,
                                        size_t __char_size);
#if defined(__CUDACC_RTC__)
/* NVIDIA's NVRTC makes assert usable without #include <cassert> (CuPy's carray.cuh relies on
 * it); <cassert>/<assert.h> redefine it, honouring an NDEBUG defined by then. */
#ifndef assert
#include "fallback/assert.h"
#endif
#else
/* The device runtime's error queries (CUDA Programming Guide, "Device Runtime"), which the
 * driver's device-runtime unit defines: device code calls them with C linkage, beside the
 * host functions of the same names. */
extern "C" __device__ cudaError_t cudaGetLastError(void);
extern "C" __device__ cudaError_t cudaPeekAtLastError(void);
/* With a C library (nvcc mode), <assert.h>'s assert calls glibc's __assert_fail: device code
 * gets one that reports through __assertfail, as on NVIDIA's toolchain. */
extern "C" __device__ inline void __assert_fail(const char *__msg, const char *__file, unsigned int __line, const char *__func) {
  __assertfail(__msg, __file, __line, __func, sizeof(char));
}
#endif
#endif
