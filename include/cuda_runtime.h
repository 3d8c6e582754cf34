/* cuda_runtime.h for device code (ours): the device API is in the implicit prelude; the
   host runtime API is not available in NVRTC programs. Types commonly named by kernels
   (cudaError_t, dim3, vector types) are declared. */
#pragma clang system_header
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#include "driver_types.h"
#include "vector_types.h"
#include "math_constants.h"
#endif
