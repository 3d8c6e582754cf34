/*
 * cuda_runtime_templates.h (ours): the C++ conveniences over the runtime API that CUDA
 * programs expect from cuda_runtime.h: typed overloads (cudaMalloc(T **, size_t), ...),
 * kernel and symbol arguments taken by reference or as function pointers, and the
 * occupancy-based block-size search. Every function here is inline and calls only
 * functions libcudart exports (cuda_runtime_api.h), so nothing new has to be linked.
 * Host C++ only (C++11 or later); cuda_runtime.h includes it.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CUDA_RUNTIME_TEMPLATES_H__
#define __CUDA_RUNTIME_TEMPLATES_H__

#include "cuda_runtime_api.h"
#include "channel_descriptor.h"

#if defined(__cplusplus) && !defined(__CUDACC_RTC__)

/* ---- CUDA 11's cudaGraphInstantiate(exec, graph, errorNode, log, logSize), kept as
   NVIDIA's cuda_runtime.h keeps it: the CUDA 12 form with no flags. ------------------- */
static __inline__ __host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                            cudaGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize) {
  (void)pErrorNode;
  (void)pLogBuffer;
  (void)bufferSize;
  return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}

/* CUDA 11's cudaGraphExecUpdate(exec, graph, errorNode, result), over CUDA 12's form. */
static __inline__ __host__ cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                                           cudaGraphNode_t *hErrorNode_out,
                                                           enum cudaGraphExecUpdateResult *updateResult_out) {
  cudaGraphExecUpdateResultInfo __info;
  cudaError_t __status = ::cudaGraphExecUpdate(hGraphExec, hGraph, &__info);
  if (hErrorNode_out) *hErrorNode_out = __info.errorNode;
  if (updateResult_out) *updateResult_out = __info.result;
  return __status;
}

/* ---- Typed allocation ----------------------------------------------------------------- */

template <class T> static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}

template <class T> static __inline__ __host__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}

/* cudaMallocHost with flags is cudaHostAlloc. */
static __inline__ __host__ cudaError_t cudaMallocHost(void **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc(ptr, size, flags);
}

template <class T> static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T> static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T> static __inline__ __host__ cudaError_t cudaHostGetDevicePointer(T **devPtr, void *hostPtr, unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)devPtr, hostPtr, flags);
}

/* Stream-ordered allocation, from the device's current pool or from a given one. */
template <class T> static __inline__ __host__ cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)devPtr, size, stream);
}

static __inline__ __host__ cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync(devPtr, size, pool, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)devPtr, size, pool, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocFromPoolAsync(T **devPtr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)devPtr, size, pool, stream);
}

/* ---- Events -------------------------------------------------------------------------------- */

/* cudaEventCreate with flags is cudaEventCreateWithFlags. */
static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
  return ::cudaEventCreateWithFlags(event, flags);
}

/* ---- Device variables, named by the variable itself --------------------------------------- */

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                                          enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                                            enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                               cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                                 cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}

template <class T> static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}

template <class T> static __inline__ __host__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

/* ---- Kernels, named by their function -------------------------------------------------- */

template <class T>
static __inline__ __host__ cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0,
                                                        cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                                                   size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}

template <class T> static __inline__ __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}

template <class T> static __inline__ __host__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}

template <class T> static __inline__ __host__ cudaError_t cudaGetKernel(cudaKernel_t *kernel, T *entry) {
  return ::cudaGetKernel(kernel, (const void *)entry);
}

template <class T> static __inline__ __host__ cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}

template <class T> static __inline__ __host__ cudaError_t cudaFuncGetName(const char **name, T *func) {
  return ::cudaFuncGetName(name, (const void *)func);
}

/* cudaLaunchKernelExC with the kernel's arguments as C++ arguments: each is converted to
 * the kernel's parameter type first, so the argument array points at values of exactly
 * those types. */
template <typename... ExpTypes, typename... ActTypes>
static __inline__ __host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(ExpTypes...),
                                                          ActTypes &&...args) {
  return [&](ExpTypes... coercedArgs) {
    void *pArgs[] = {&coercedArgs..., (void *)0};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
  }(static_cast<ActTypes &&>(args)...);
}

/* The same for a kernel handle (cudaGetKernel); the arguments must already have the
 * parameters' types. */
template <typename... ActTypes>
static __inline__ __host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, const cudaKernel_t kernel,
                                                          ActTypes &&...args) {
  void *pArgs[] = {(void *)&args..., (void *)0};
  return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
}

template <class T>
static __inline__ __host__ cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0,
                                                                unsigned int flags = cudaMemAttachSingle) {
  return ::cudaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
}

/* ---- Occupancy ------------------------------------------------------------------------------ */

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize,
                                                                                     size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize, dynamicSMemSize,
                                                                  cudaOccupancyDefault);
}

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func, int blockSize,
                                                                                              size_t dynamicSMemSize,
                                                                                              unsigned int flags) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize, dynamicSMemSize, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, T *func, int numBlocks,
                                                                                int blockSize) {
  return ::cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, (const void *)func, numBlocks, blockSize);
}

/* The block size that keeps the most threads resident per multiprocessor, and the grid
 * size that fills the device with such blocks. Candidates are the multiples of the warp
 * size up to the smallest of the device's, the kernel's and the caller's (blockSizeLimit,
 * 0: none) limits, the limit itself included; the largest wins a tie, and the search stops
 * early at full occupancy. smemForBlock(blockSize) gives each candidate's dynamic shared
 * memory. */
template <class SMemForBlock, class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int *minGridSize, int *blockSize, T func,
                                                                                               SMemForBlock smemForBlock,
                                                                                               int blockSizeLimit = 0,
                                                                                               unsigned int flags = 0) {
  if (minGridSize == 0 || blockSize == 0 || func == 0) {
    return cudaErrorInvalidValue;
  }
  int device = 0, maxPerBlock = 0, maxPerSM = 0, warp = 0, smCount = 0;
  cudaError_t err = ::cudaGetDevice(&device);
  if (err == cudaSuccess) err = ::cudaDeviceGetAttribute(&maxPerBlock, cudaDevAttrMaxThreadsPerBlock, device);
  if (err == cudaSuccess) err = ::cudaDeviceGetAttribute(&maxPerSM, cudaDevAttrMaxThreadsPerMultiProcessor, device);
  if (err == cudaSuccess) err = ::cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err == cudaSuccess) err = ::cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, device);
  struct cudaFuncAttributes attr;
  if (err == cudaSuccess) err = ::cudaFuncGetAttributes(&attr, (const void *)func);
  if (err != cudaSuccess) {
    return err;
  }
  if (warp <= 0) {
    return cudaErrorInvalidValue;
  }
  int limit = maxPerBlock < attr.maxThreadsPerBlock ? maxPerBlock : attr.maxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit) {
    limit = blockSizeLimit;
  }
  int bestBlocks = 0, bestSize = 0, bestThreads = 0;
  for (int rounded = (limit + warp - 1) / warp * warp; rounded > 0; rounded -= warp) {
    const int size = rounded < limit ? rounded : limit;
    int blocks = 0;
    err = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, (const void *)func, size, (size_t)smemForBlock(size), flags);
    if (err != cudaSuccess) {
      return err;
    }
    if (blocks * size > bestThreads) {
      bestThreads = blocks * size;
      bestBlocks = blocks;
      bestSize = size;
    }
    if (bestThreads == maxPerSM) {
      break;
    }
  }
  *minGridSize = bestBlocks * smCount;
  *blockSize = bestSize;
  return cudaSuccess;
}

template <class SMemForBlock, class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize, int *blockSize, T func,
                                                                                      SMemForBlock smemForBlock, int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func, smemForBlock, blockSizeLimit,
                                                                 cudaOccupancyDefault);
}

/* The same dynamic shared memory for every candidate block size. */
class __cudartConstantSMem {
 public:
  explicit __cudartConstantSMem(size_t bytes) : bytes_(bytes) {}
  size_t operator()(int) const { return bytes_; }

 private:
  size_t bytes_;
};

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, T func,
                                                                                   size_t dynamicSMemSize = 0, int blockSizeLimit = 0,
                                                                                   unsigned int flags = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func, __cudartConstantSMem(dynamicSMemSize),
                                                                 blockSizeLimit, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                                          size_t dynamicSMemSize = 0, int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func, __cudartConstantSMem(dynamicSMemSize),
                                                                 blockSizeLimit, cudaOccupancyDefault);
}

#endif /* __cplusplus && !__CUDACC_RTC__ */
#endif /* __CUDA_RUNTIME_TEMPLATES_H__ */
