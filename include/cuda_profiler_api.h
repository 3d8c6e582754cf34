/*
 * cuda_profiler_api.h (ours): cudaProfilerStart/cudaProfilerStop, which
 * cuda_runtime_api.h declares with the rest of libcudart's exports.
 */
#ifndef __CUDA_PROFILER_API_H__
#define __CUDA_PROFILER_API_H__

#include "cuda_runtime_api.h"

#endif /* __CUDA_PROFILER_API_H__ */
