/* cuda.h for device code (ours): the driver API types kernels sometimes name. */
#pragma clang system_header
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__
#define CUDA_VERSION 13000
typedef unsigned long long CUdeviceptr;
typedef int CUdevice;
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
#endif
