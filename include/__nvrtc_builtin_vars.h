/*
 * threadIdx, blockIdx, blockDim, gridDim (read-only objects whose members read the PTX
 * special registers) and warpSize (a constant: usable in constant expressions and in
 * "n" asm operands).
 */
#pragma clang system_header
#ifndef __NVRTC_BUILTIN_VARS_H__
#define __NVRTC_BUILTIN_VARS_H__

#define __NV_BUILTIN_VAR(TYPE, CONV, X, Y, Z)                                              \
  struct TYPE {                                                                            \
    __declspec(property(get = __get_x)) unsigned int x;                                    \
    __declspec(property(get = __get_y)) unsigned int y;                                    \
    __declspec(property(get = __get_z)) unsigned int z;                                    \
    static __device__ __forceinline__ unsigned int __get_x() { return X(); }               \
    static __device__ __forceinline__ unsigned int __get_y() { return Y(); }               \
    static __device__ __forceinline__ unsigned int __get_z() { return Z(); }               \
    __device__ __forceinline__ operator CONV() const { CONV __r; __r.x = X(); __r.y = Y(); __r.z = Z(); return __r; } \
   private:                                                                                \
    __device__ TYPE();                                                                     \
    __device__ TYPE(const TYPE &);                                                         \
    __device__ void operator=(const TYPE &) const;                                         \
    __device__ TYPE *operator&() const;                                                    \
  };

__NV_BUILTIN_VAR(__nv_builtin_threadIdx_t, uint3, __nvvm_read_ptx_sreg_tid_x, __nvvm_read_ptx_sreg_tid_y, __nvvm_read_ptx_sreg_tid_z)
__NV_BUILTIN_VAR(__nv_builtin_blockIdx_t, uint3, __nvvm_read_ptx_sreg_ctaid_x, __nvvm_read_ptx_sreg_ctaid_y, __nvvm_read_ptx_sreg_ctaid_z)
__NV_BUILTIN_VAR(__nv_builtin_blockDim_t, dim3, __nvvm_read_ptx_sreg_ntid_x, __nvvm_read_ptx_sreg_ntid_y, __nvvm_read_ptx_sreg_ntid_z)
__NV_BUILTIN_VAR(__nv_builtin_gridDim_t, dim3, __nvvm_read_ptx_sreg_nctaid_x, __nvvm_read_ptx_sreg_nctaid_y, __nvvm_read_ptx_sreg_nctaid_z)
#undef __NV_BUILTIN_VAR

extern const __device__ __nv_builtin_threadIdx_t threadIdx;
extern const __device__ __nv_builtin_blockIdx_t blockIdx;
extern const __device__ __nv_builtin_blockDim_t blockDim;
extern const __device__ __nv_builtin_gridDim_t gridDim;

#if __cplusplus >= 201103L
static constexpr int warpSize = __SCALE_WARP_SIZE__;
#else
static const int warpSize = __SCALE_WARP_SIZE__;
#endif

#endif
