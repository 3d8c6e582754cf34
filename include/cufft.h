/*
 * cufft.h: the cuFFT host API of this project's libcufft (crates/cufft), with the names,
 * types and values of NVIDIA's documented cuFFT API. Written for this project.
 *
 * Implemented on devices whose memory the host addresses (the CPU device): every plan and
 * execution function below. Not implemented (they answer CUFFT_NOT_SUPPORTED): the plan
 * properties (cufftSetPlanPropertyInt64 and friends), and in cufftXt.h multi-GPU plans,
 * descriptors and callbacks. The work size of every plan is 0.
 */
#ifndef CUFFT_H_
#define CUFFT_H_

#include <stddef.h>
#include <cuComplex.h>
#include <driver_types.h>
#include <library_types.h>

#define CUFFT_VER_MAJOR 12
#define CUFFT_VER_MINOR 0
#define CUFFT_VER_PATCH 0
#define CUFFT_VERSION (CUFFT_VER_MAJOR * 1000 + CUFFT_VER_MINOR * 100 + CUFFT_VER_PATCH)

#ifndef CUFFTAPI
#define CUFFTAPI
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cufftResult_t {
  CUFFT_SUCCESS = 0x0,
  CUFFT_INVALID_PLAN = 0x1,
  CUFFT_ALLOC_FAILED = 0x2,
  CUFFT_INVALID_TYPE = 0x3,
  CUFFT_INVALID_VALUE = 0x4,
  CUFFT_INTERNAL_ERROR = 0x5,
  CUFFT_EXEC_FAILED = 0x6,
  CUFFT_SETUP_FAILED = 0x7,
  CUFFT_INVALID_SIZE = 0x8,
  CUFFT_UNALIGNED_DATA = 0x9,
  CUFFT_INCOMPLETE_PARAMETER_LIST = 0xA,
  CUFFT_INVALID_DEVICE = 0xB,
  CUFFT_PARSE_ERROR = 0xC,
  CUFFT_NO_WORKSPACE = 0xD,
  CUFFT_NOT_IMPLEMENTED = 0xE,
  CUFFT_LICENSE_ERROR = 0x0F,
  CUFFT_NOT_SUPPORTED = 0x10
} cufftResult;

#define MAX_CUFFT_ERROR 0x11

typedef float cufftReal;
typedef double cufftDoubleReal;
typedef cuComplex cufftComplex;
typedef cuDoubleComplex cufftDoubleComplex;

#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1

typedef enum cufftType_t {
  CUFFT_R2C = 0x2a, /* real to complex (interleaved) */
  CUFFT_C2R = 0x2c, /* complex (interleaved) to real */
  CUFFT_C2C = 0x29, /* complex to complex, interleaved */
  CUFFT_D2Z = 0x6a, /* double to double-complex */
  CUFFT_Z2D = 0x6c, /* double-complex to double */
  CUFFT_Z2Z = 0x69  /* double-complex to double-complex */
} cufftType;

typedef enum cufftCompatibility_t {
  CUFFT_COMPATIBILITY_FFTW_PADDING = 0x01
} cufftCompatibility;

#define CUFFT_COMPATIBILITY_DEFAULT CUFFT_COMPATIBILITY_FFTW_PADDING

typedef int cufftHandle;

/* Plans: create, make (sizes n[0] slowest .. n[rank-1] fastest), destroy. */
cufftResult CUFFTAPI cufftCreate(cufftHandle *handle);
cufftResult CUFFTAPI cufftDestroy(cufftHandle plan);

cufftResult CUFFTAPI cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch);
cufftResult CUFFTAPI cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type);
cufftResult CUFFTAPI cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz, cufftType type);
cufftResult CUFFTAPI cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist,
                                   int *onembed, int ostride, int odist, cufftType type, int batch);

cufftResult CUFFTAPI cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize);
cufftResult CUFFTAPI cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize);
cufftResult CUFFTAPI cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t *workSize);
cufftResult CUFFTAPI cufftMakePlanMany(cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist,
                                       int *onembed, int ostride, int odist, cufftType type, int batch,
                                       size_t *workSize);
cufftResult CUFFTAPI cufftMakePlanMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                         long long int istride, long long int idist, long long int *onembed,
                                         long long int ostride, long long int odist, cufftType type,
                                         long long int batch, size_t *workSize);

/* Work sizes (always 0 here). */
cufftResult CUFFTAPI cufftGetSizeMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                        long long int istride, long long int idist, long long int *onembed,
                                        long long int ostride, long long int odist, cufftType type,
                                        long long int batch, size_t *workSize);
cufftResult CUFFTAPI cufftEstimate1d(int nx, cufftType type, int batch, size_t *workSize);
cufftResult CUFFTAPI cufftEstimate2d(int nx, int ny, cufftType type, size_t *workSize);
cufftResult CUFFTAPI cufftEstimate3d(int nx, int ny, int nz, cufftType type, size_t *workSize);
cufftResult CUFFTAPI cufftEstimateMany(int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                                       int ostride, int odist, cufftType type, int batch, size_t *workSize);
cufftResult CUFFTAPI cufftGetSize1d(cufftHandle handle, int nx, cufftType type, int batch, size_t *workSize);
cufftResult CUFFTAPI cufftGetSize2d(cufftHandle handle, int nx, int ny, cufftType type, size_t *workSize);
cufftResult CUFFTAPI cufftGetSize3d(cufftHandle handle, int nx, int ny, int nz, cufftType type, size_t *workSize);
cufftResult CUFFTAPI cufftGetSizeMany(cufftHandle handle, int rank, int *n, int *inembed, int istride, int idist,
                                      int *onembed, int ostride, int odist, cufftType type, int batch,
                                      size_t *workArea);
cufftResult CUFFTAPI cufftGetSize(cufftHandle handle, size_t *workSize);

/* Settings. */
cufftResult CUFFTAPI cufftSetWorkArea(cufftHandle plan, void *workArea);
cufftResult CUFFTAPI cufftSetAutoAllocation(cufftHandle plan, int autoAllocate);
cufftResult CUFFTAPI cufftSetStream(cufftHandle plan, cudaStream_t stream);

/* Execution, queued on the plan's stream; unnormalized. */
cufftResult CUFFTAPI cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata, int direction);
cufftResult CUFFTAPI cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata);
cufftResult CUFFTAPI cufftExecC2R(cufftHandle plan, cufftComplex *idata, cufftReal *odata);
cufftResult CUFFTAPI cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata,
                                  int direction);
cufftResult CUFFTAPI cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata);
cufftResult CUFFTAPI cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata);

/* Versions. */
cufftResult CUFFTAPI cufftGetVersion(int *version);
cufftResult CUFFTAPI cufftGetProperty(libraryPropertyType type, int *value);

/* Plan properties (not implemented: CUFFT_NOT_SUPPORTED). */
typedef enum cufftProperty_t {
  NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT = 0x1,
  NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS = 0x2
} cufftProperty;
cufftResult CUFFTAPI cufftSetPlanPropertyInt64(cufftHandle plan, cufftProperty property, const long long int inputValueInt);
cufftResult CUFFTAPI cufftGetPlanPropertyInt64(cufftHandle plan, cufftProperty property, long long int *returnPtrValue);
cufftResult CUFFTAPI cufftResetPlanProperty(cufftHandle plan, cufftProperty property);

#ifdef __cplusplus
}
#endif

#endif /* CUFFT_H_ */
