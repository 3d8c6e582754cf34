/*
 * cuda_profiler_api.h (ours): the runtime's profiler switches, exported by libcudart but,
 * as in NVIDIA's headers, declared here and not in cuda_runtime_api.h.
 */
#ifndef __CUDA_PROFILER_API_H__
#define __CUDA_PROFILER_API_H__

#include "cuda_runtime_api.h"

#if !defined(__CUDACC_RTC__)
#if defined(__cplusplus)
extern "C" {
#endif

/* Starts and stops collection by an attached profiler for the current context. */
extern __host__ cudaError_t CUDARTAPI cudaProfilerStart(void);
extern __host__ cudaError_t CUDARTAPI cudaProfilerStop(void);

#if defined(__cplusplus)
}
#endif
#endif /* !__CUDACC_RTC__ */

#endif /* __CUDA_PROFILER_API_H__ */
