/*
 * cuda_device_runtime_api.h (ours): the device runtime (CUDA C++ Programming Guide, "CUDA
 * Dynamic Parallelism", CDP2), for device code compiled by a CUDA compiler.
 *
 * The functions are declared `extern "C" __device__` beside the host functions of the same
 * names; device code calls them with C linkage and the driver's device-runtime unit defines
 * them (the same names nvcc's PTX calls). Events, 2D/3D copies and occupancy are declared
 * because device code may name them; the device runtime answers cudaErrorNotSupported for
 * them.
 *
 * Kernel launches in device code: clang refuses `kernel<<<...>>>(...)` inside device
 * functions, so our nvcc rewrites such a launch to
 *     ::__scale_device_launch<&kernel>(grid, block, shared, stream)(args...)
 * which this header defines over cudaGetParameterBuffer and cudaLaunchDevice (the
 * programming guide's "Parameter Buffer Layout": each argument at an offset that is a
 * multiple of its alignment, converted to the kernel's parameter type). A template
 * argument is the one place clang lets device code name a __global__ function; it becomes
 * the `mov.u64 %rd, kernel;` NVIDIA's PTX has.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CUDA_DEVICE_RUNTIME_API_H__
#define __CUDA_DEVICE_RUNTIME_API_H__

#include "driver_types.h"
#include "vector_types.h"

#if defined(__CUDA__) && !defined(__CUDACC_RTC__)

extern "C" {
__device__ const char *cudaGetErrorName(cudaError_t error);
__device__ const char *cudaGetErrorString(cudaError_t error);
__device__ cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
__device__ cudaError_t cudaGetDevice(int *device);
__device__ cudaError_t cudaGetDeviceCount(int *count);
__device__ cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__device__ cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
__device__ cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config);
__device__ cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config);
__device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
__device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__device__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
__device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
__device__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
__device__ cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags);
__device__ cudaError_t cudaEventDestroy(cudaEvent_t event);
__device__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
__device__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__device__ cudaError_t cudaFree(void *devPtr);
__device__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                       cudaStream_t stream);
__device__ cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                         size_t height, enum cudaMemcpyKind kind, cudaStream_t stream);
__device__ cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
__device__ cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream);
__device__ cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                         cudaStream_t stream);
__device__ cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                         cudaStream_t stream);
__device__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                                     size_t dynamicSmemSize);
__device__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                              int blockSize, size_t dynamicSmemSize,
                                                                              unsigned int flags);
/* The launch itself: a buffer for the arguments, then the launch that consumes it. */
__device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
__device__ cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer, dim3 gridDimension, dim3 blockDimension,
                                        unsigned int sharedMemSize, cudaStream_t stream);
}

/* The kernel's parameter types, from its function type. */
template <class __F> struct __scale_kernel_signature;
template <class... __P> struct __scale_kernel_signature<void (*)(__P...)> {
  static constexpr __SIZE_TYPE__ __align_up(__SIZE_TYPE__ __n, __SIZE_TYPE__ __a) { return (__n + __a - 1) & ~(__a - 1); }
  template <class... __Q> struct __layout;
  template <class __Q0, class... __Q> struct __layout<__Q0, __Q...> {
    static constexpr __SIZE_TYPE__ __size(__SIZE_TYPE__ __at) {
      return __layout<__Q...>::__size(__align_up(__at, alignof(__Q0)) + sizeof(__Q0));
    }
    static constexpr __SIZE_TYPE__ __align() {
      return alignof(__Q0) > __layout<__Q...>::__align() ? alignof(__Q0) : __layout<__Q...>::__align();
    }
  };
  template <class... __Q> struct __layout {
    static constexpr __SIZE_TYPE__ __size(__SIZE_TYPE__ __at) { return __at; }
    static constexpr __SIZE_TYPE__ __align() { return 1; }
  };
  static constexpr __SIZE_TYPE__ size = __layout<__P...>::__size(0);
  static constexpr __SIZE_TYPE__ alignment = __layout<__P...>::__align();

  /* Stores each argument, converted to its parameter's type, at its offset. */
  template <class... __A> static __device__ void __store(char *__buf, __A &&...__args) {
    __SIZE_TYPE__ __at = 0;
    (void)__at;
    ((__at = __align_up(__at, alignof(__P)), __store_one<__P>(__buf + __at, static_cast<__A &&>(__args)),
      __at += sizeof(__P)),
     ...);
  }
  template <class __Q, class __A> static __device__ void __store_one(char *__dst, __A &&__arg) {
    __Q __value = static_cast<__A &&>(__arg);
    __builtin_memcpy(__dst, &__value, sizeof(__Q));
  }
};

/* `kernel<<<grid, block, shared, stream>>>(args...)` in device code (see the top). */
template <auto __kernel> struct __scale_device_launch {
  /* Naming the kernel through a constant member is what clang accepts in device code. */
  static constexpr auto __address = __kernel;
  dim3 __grid, __block;
  unsigned int __shared;
  cudaStream_t __stream;
  __device__ __scale_device_launch(dim3 __g, dim3 __b, __SIZE_TYPE__ __s = 0, cudaStream_t __st = 0)
      : __grid(__g), __block(__b), __shared((unsigned int)__s), __stream(__st) {}
  template <class... __A> __device__ void operator()(__A &&...__args) const {
    using __sig = __scale_kernel_signature<decltype(__kernel)>;
    void *__buf = cudaGetParameterBuffer(__sig::alignment, __sig::size);
    if (__buf == nullptr) return; /* the runtime recorded the error */
    __sig::__store(static_cast<char *>(__buf), static_cast<__A &&>(__args)...);
    cudaLaunchDevice((void *)__address, __buf, __grid, __block, __shared, __stream);
  }
};

/*
 * `__managed__` variables: clang's CUDA mode has no managed attribute, so a managed variable
 * is a `__device__` variable, and our nvcc rewrites each use of it in the .cu file it
 * compiles to `__scale_managed_ref(var)`: the variable itself in device code, and on the
 * host the variable's storage in device memory (found through cudaGetSymbolAddress, which
 * loads the module), which the host can address on a device with unified memory. The
 * deprecation is how nvcc finds the uses (clang reports each with its position); a use it
 * did not rewrite (one in a header) warns that the host reads a copy there.
 */
#undef __managed__
#define __managed__                                                                                                   \
  __device__ __attribute__((deprecated("__managed__ variable: this use is outside the .cu file nvcc compiles, so the "\
                                       "host sees a copy here, not the managed storage")))
template <class __T> __host__ __device__ inline __T &__scale_managed_ref(__T &__v) {
#if defined(__CUDA_ARCH__)
  return __v;
#else
  /* One translation per thread and type, remembered: host loops over a managed array. */
  static thread_local const void *__shadow = nullptr;
  static thread_local void *__storage = nullptr;
  if (__shadow != (const void *)&__v) {
    void *__p = nullptr;
    if (cudaGetSymbolAddress(&__p, (const void *)&__v) != cudaSuccess || __p == nullptr) return __v;
    __shadow = (const void *)&__v;
    __storage = __p;
  }
  return *static_cast<__T *>(__storage);
#endif
}

#endif /* __CUDA__ && !__CUDACC_RTC__ */
#endif
