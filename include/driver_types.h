/*
 * driver_types.h (ours): the types, enumerations and flag values of the CUDA runtime API,
 * as this project's libcudart exchanges them with programs (CUDA 13 layouts, LP64).
 *
 * Serves three compilers: plain C/C++ host compilers (with cuda_runtime_api.h), clang in
 * CUDA mode, and our NVRTC, whose implicit prelude includes this file (so nothing here may
 * need a system header in an NVRTC compile). Values, sizes and field offsets are checked
 * against NVIDIA's CUDA 13.0 headers by crates/cudart-abi/tools/compare_runtime_headers.py
 * (docs/HEADERS.md, "Runtime API headers").
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__

#include "__cudart_defines.h"
#if !defined(__CUDACC_RTC__)
#include <stddef.h>
#endif
/* dim3 (launch configurations, kernel nodes): CUDA compilers take vector_types.h, plain
 * host compilers an attribute-free copy of it. */
#if defined(__CUDACC__) || defined(__CUDACC_RTC__) || defined(__CUDA__)
#include "vector_types.h"
#else
#include "__cudart_host_vector_types.h"
#endif

/* ---- Flag values ---------------------------------------------------------------------- */

/* cudaHostAlloc */
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
/* cudaHostRegister */
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
/* cudaDeviceEnablePeerAccess */
#define cudaPeerAccessDefault 0x00
/* cudaStreamCreateWithFlags; the two special stream handles the driver also accepts */
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
/* The device runtime's special streams (CUDA C++ Programming Guide, "Named Streams"). */
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)
/* cudaEventCreateWithFlags, cudaEventRecordWithFlags, cudaStreamWaitEvent */
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaEventRecordDefault 0x00
#define cudaEventRecordExternal 0x01
#define cudaEventWaitDefault 0x00
#define cudaEventWaitExternal 0x01
/* cudaSetDeviceFlags / cudaGetDeviceFlags */
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaDeviceSyncMemops 0x80
#define cudaDeviceMask 0xff
/* CUDA array creation */
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08
#define cudaArrayColorAttachment 0x20
#define cudaArraySparse 0x40
#define cudaArrayDeferredMapping 0x80
#define cudaArraySparsePropertiesSingleMipTail 0x1
/* IPC */
#define cudaIpcMemLazyEnablePeerAccess 0x01
#define CUDA_IPC_HANDLE_SIZE 64
/* cudaMallocManaged, cudaStreamAttachMemAsync */
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
/* cudaOccupancy*WithFlags */
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01
/* Device ids with a special meaning (cudaMemLocation::id, cudaMemAdvise) */
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
/* cudaInitDevice */
#define cudaInitDeviceFlagsAreValid 0x01
/* cudaMemPoolProps::usage */
#define cudaMemPoolCreateUsageHwDecompress 0x2
/* External memory and semaphores */
#define cudaExternalMemoryDedicated 0x1
#define cudaExternalSemaphoreSignalSkipNvSciBufMemSync 0x01
#define cudaExternalSemaphoreWaitSkipNvSciBufMemSync 0x02
#define cudaNvSciSyncAttrSignal 0x1
#define cudaNvSciSyncAttrWait 0x2
/* Kernel-node ports of graph edges (cudaGraphEdgeData::from_port) */
#define cudaGraphKernelNodePortDefault 0
#define cudaGraphKernelNodePortProgrammatic 1
#define cudaGraphKernelNodePortLaunchCompletion 2

/* ---- Opaque handles --------------------------------------------------------------------- */
/* The runtime's handles are the driver's (a cudaStream_t is a CUstream), which is why they
 * point to the driver's struct tags. */

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphDeviceUpdatableNode_st *cudaGraphDeviceNode_t;
typedef struct CUuserObject_st *cudaUserObject_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUlib_st *cudaLibrary_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUexternalMemory_st *cudaExternalMemory_t;
typedef struct CUexternalSemaphore_st *cudaExternalSemaphore_t;
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;
typedef struct cudaAsyncCallbackEntry *cudaAsyncCallbackHandle_t;
typedef struct CUlogsCallbackEntry_st *cudaLogsCallbackHandle;
typedef unsigned long long cudaGraphConditionalHandle;
typedef unsigned int cudaLogIterator;

/* A host function queued in stream order (cudaLaunchHostFunc, host graph nodes). */
typedef void(CUDART_CB *cudaHostFn_t)(void *userData);

/* ---- Enumerations ----------------------------------------------------------------------- */

/* Every status a runtime call can return (cudaGetErrorName/String name and describe them). */
enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3, cudaErrorCudartUnloading = 4, cudaErrorProfilerDisabled = 5,
  cudaErrorProfilerNotInitialized = 6, cudaErrorProfilerAlreadyStarted = 7,
  cudaErrorProfilerAlreadyStopped = 8, cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12, cudaErrorInvalidSymbol = 13, cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17, cudaErrorInvalidTexture = 18,
  cudaErrorInvalidTextureBinding = 19, cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21, cudaErrorAddressOfConstant = 22,
  cudaErrorTextureFetchFailed = 23, cudaErrorTextureNotBound = 24,
  cudaErrorSynchronizationError = 25, cudaErrorInvalidFilterSetting = 26,
  cudaErrorInvalidNormSetting = 27, cudaErrorMixedDeviceExecution = 28,
  cudaErrorNotYetImplemented = 31, cudaErrorMemoryValueTooLarge = 32, cudaErrorStubLibrary = 34,
  cudaErrorInsufficientDriver = 35, cudaErrorCallRequiresNewerDriver = 36,
  cudaErrorInvalidSurface = 37, cudaErrorDuplicateVariableName = 43,
  cudaErrorDuplicateTextureName = 44, cudaErrorDuplicateSurfaceName = 45,
  cudaErrorDevicesUnavailable = 46, cudaErrorIncompatibleDriverContext = 49,
  cudaErrorMissingConfiguration = 52, cudaErrorPriorLaunchFailure = 53,
  cudaErrorLaunchMaxDepthExceeded = 65, cudaErrorLaunchFileScopedTex = 66,
  cudaErrorLaunchFileScopedSurf = 67, cudaErrorSyncDepthExceeded = 68,
  cudaErrorLaunchPendingCountExceeded = 69, cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100, cudaErrorInvalidDevice = 101, cudaErrorDeviceNotLicensed = 102,
  cudaErrorSoftwareValidityNotEstablished = 103, cudaErrorStartupFailure = 127,
  cudaErrorInvalidKernelImage = 200, cudaErrorDeviceUninitialized = 201,
  cudaErrorMapBufferObjectFailed = 205, cudaErrorUnmapBufferObjectFailed = 206,
  cudaErrorArrayIsMapped = 207, cudaErrorAlreadyMapped = 208,
  cudaErrorNoKernelImageForDevice = 209, cudaErrorAlreadyAcquired = 210, cudaErrorNotMapped = 211,
  cudaErrorNotMappedAsArray = 212, cudaErrorNotMappedAsPointer = 213,
  cudaErrorECCUncorrectable = 214, cudaErrorUnsupportedLimit = 215,
  cudaErrorDeviceAlreadyInUse = 216, cudaErrorPeerAccessUnsupported = 217,
  cudaErrorInvalidPtx = 218, cudaErrorInvalidGraphicsContext = 219,
  cudaErrorNvlinkUncorrectable = 220, cudaErrorJitCompilerNotFound = 221,
  cudaErrorUnsupportedPtxVersion = 222, cudaErrorJitCompilationDisabled = 223,
  cudaErrorUnsupportedExecAffinity = 224, cudaErrorUnsupportedDevSideSync = 225,
  cudaErrorContained = 226, cudaErrorInvalidSource = 300, cudaErrorFileNotFound = 301,
  cudaErrorSharedObjectSymbolNotFound = 302, cudaErrorSharedObjectInitFailed = 303,
  cudaErrorOperatingSystem = 304, cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401, cudaErrorLossyQuery = 402, cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600, cudaErrorIllegalAddress = 700, cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702, cudaErrorLaunchIncompatibleTexturing = 703,
  cudaErrorPeerAccessAlreadyEnabled = 704, cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorSetOnActiveProcess = 708, cudaErrorContextIsDestroyed = 709, cudaErrorAssert = 710,
  cudaErrorTooManyPeers = 711, cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713, cudaErrorHardwareStackError = 714,
  cudaErrorIllegalInstruction = 715, cudaErrorMisalignedAddress = 716,
  cudaErrorInvalidAddressSpace = 717, cudaErrorInvalidPc = 718, cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720, cudaErrorTensorMemoryLeak = 721,
  cudaErrorNotPermitted = 800, cudaErrorNotSupported = 801, cudaErrorSystemNotReady = 802,
  cudaErrorSystemDriverMismatch = 803, cudaErrorCompatNotSupportedOnDevice = 804,
  cudaErrorMpsConnectionFailed = 805, cudaErrorMpsRpcFailure = 806,
  cudaErrorMpsServerNotReady = 807, cudaErrorMpsMaxClientsReached = 808,
  cudaErrorMpsMaxConnectionsReached = 809, cudaErrorMpsClientTerminated = 810,
  cudaErrorCdpNotSupported = 811, cudaErrorCdpVersionMismatch = 812,
  cudaErrorStreamCaptureUnsupported = 900, cudaErrorStreamCaptureInvalidated = 901,
  cudaErrorStreamCaptureMerge = 902, cudaErrorStreamCaptureUnmatched = 903,
  cudaErrorStreamCaptureUnjoined = 904, cudaErrorStreamCaptureIsolation = 905,
  cudaErrorStreamCaptureImplicit = 906, cudaErrorCapturedEvent = 907,
  cudaErrorStreamCaptureWrongThread = 908, cudaErrorTimeout = 909,
  cudaErrorGraphExecUpdateFailure = 910, cudaErrorExternalDevice = 911,
  cudaErrorInvalidClusterSize = 912, cudaErrorFunctionNotLoaded = 913,
  cudaErrorInvalidResourceType = 914, cudaErrorInvalidResourceConfiguration = 915,
  cudaErrorUnknown = 999, cudaErrorApiFailureBase = 10000
};
typedef enum cudaError cudaError_t;

/* How a texel channel is interpreted (cudaChannelFormatDesc::f); the later values are
 * block-compressed and packed-YUV formats. */
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3, cudaChannelFormatKindNV12 = 4,
  cudaChannelFormatKindUnsignedNormalized8X1 = 5, cudaChannelFormatKindUnsignedNormalized8X2 = 6,
  cudaChannelFormatKindUnsignedNormalized8X4 = 7, cudaChannelFormatKindUnsignedNormalized16X1 = 8,
  cudaChannelFormatKindUnsignedNormalized16X2 = 9,
  cudaChannelFormatKindUnsignedNormalized16X4 = 10, cudaChannelFormatKindSignedNormalized8X1 = 11,
  cudaChannelFormatKindSignedNormalized8X2 = 12, cudaChannelFormatKindSignedNormalized8X4 = 13,
  cudaChannelFormatKindSignedNormalized16X1 = 14, cudaChannelFormatKindSignedNormalized16X2 = 15,
  cudaChannelFormatKindSignedNormalized16X4 = 16,
  cudaChannelFormatKindUnsignedBlockCompressed1 = 17,
  cudaChannelFormatKindUnsignedBlockCompressed1SRGB = 18,
  cudaChannelFormatKindUnsignedBlockCompressed2 = 19,
  cudaChannelFormatKindUnsignedBlockCompressed2SRGB = 20,
  cudaChannelFormatKindUnsignedBlockCompressed3 = 21,
  cudaChannelFormatKindUnsignedBlockCompressed3SRGB = 22,
  cudaChannelFormatKindUnsignedBlockCompressed4 = 23,
  cudaChannelFormatKindSignedBlockCompressed4 = 24,
  cudaChannelFormatKindUnsignedBlockCompressed5 = 25,
  cudaChannelFormatKindSignedBlockCompressed5 = 26,
  cudaChannelFormatKindUnsignedBlockCompressed6H = 27,
  cudaChannelFormatKindSignedBlockCompressed6H = 28,
  cudaChannelFormatKindUnsignedBlockCompressed7 = 29,
  cudaChannelFormatKindUnsignedBlockCompressed7SRGB = 30,
  cudaChannelFormatKindUnsignedNormalized1010102 = 31
};

/* Where memory lives (cudaPointerAttributes::type). */
enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

/* Copy direction; cudaMemcpyDefault infers it from the pointers (unified addressing). */
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};

/* Cache behaviour for an access-policy window (cudaAccessPolicyWindow). */
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0, cudaAccessPropertyStreaming = 1, cudaAccessPropertyPersisting = 2
};

/* State of stream capture into a graph. */
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};

/* Which unsafe calls a capture forbids in other threads. */
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};

/* How a host thread waits for a stream (launch attribute). */
enum cudaSynchronizationPolicy {
  cudaSyncPolicyAuto = 1, cudaSyncPolicySpin = 2, cudaSyncPolicyYield = 3,
  cudaSyncPolicyBlockingSync = 4
};

/* Placement of thread-block clusters. */
enum cudaClusterSchedulingPolicy {
  cudaClusterSchedulingPolicyDefault = 0, cudaClusterSchedulingPolicySpread = 1,
  cudaClusterSchedulingPolicyLoadBalancing = 2
};

/* cudaStreamUpdateCaptureDependencies modes. */
enum cudaStreamUpdateCaptureDependenciesFlags {
  cudaStreamAddCaptureDependencies = 0, cudaStreamSetCaptureDependencies = 1
};

/* cudaUserObjectCreate flags. */
enum cudaUserObjectFlags {
  cudaUserObjectNoDestructorSync = 1
};

/* cudaGraphRetainUserObject flags. */
enum cudaUserObjectRetainFlags {
  cudaGraphUserObjectMove = 1
};

/* Graphics-interop registration flags. */
enum cudaGraphicsRegisterFlags {
  cudaGraphicsRegisterFlagsNone = 0, cudaGraphicsRegisterFlagsReadOnly = 1,
  cudaGraphicsRegisterFlagsWriteDiscard = 2, cudaGraphicsRegisterFlagsSurfaceLoadStore = 4,
  cudaGraphicsRegisterFlagsTextureGather = 8
};

/* Graphics-interop mapping flags. */
enum cudaGraphicsMapFlags {
  cudaGraphicsMapFlagsNone = 0, cudaGraphicsMapFlagsReadOnly = 1,
  cudaGraphicsMapFlagsWriteDiscard = 2
};

/* Cube-map faces of graphics-interop arrays. */
enum cudaGraphicsCubeFace {
  cudaGraphicsCubeFacePositiveX = 0, cudaGraphicsCubeFaceNegativeX = 1,
  cudaGraphicsCubeFacePositiveY = 2, cudaGraphicsCubeFaceNegativeY = 3,
  cudaGraphicsCubeFacePositiveZ = 4, cudaGraphicsCubeFaceNegativeZ = 5
};

/* What a cudaResourceDesc describes. */
enum cudaResourceType {
  cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};

/* Element format of a resource view. */
enum cudaResourceViewFormat {
  cudaResViewFormatNone = 0, cudaResViewFormatUnsignedChar1 = 1,
  cudaResViewFormatUnsignedChar2 = 2, cudaResViewFormatUnsignedChar4 = 3,
  cudaResViewFormatSignedChar1 = 4, cudaResViewFormatSignedChar2 = 5,
  cudaResViewFormatSignedChar4 = 6, cudaResViewFormatUnsignedShort1 = 7,
  cudaResViewFormatUnsignedShort2 = 8, cudaResViewFormatUnsignedShort4 = 9,
  cudaResViewFormatSignedShort1 = 10, cudaResViewFormatSignedShort2 = 11,
  cudaResViewFormatSignedShort4 = 12, cudaResViewFormatUnsignedInt1 = 13,
  cudaResViewFormatUnsignedInt2 = 14, cudaResViewFormatUnsignedInt4 = 15,
  cudaResViewFormatSignedInt1 = 16, cudaResViewFormatSignedInt2 = 17,
  cudaResViewFormatSignedInt4 = 18, cudaResViewFormatHalf1 = 19, cudaResViewFormatHalf2 = 20,
  cudaResViewFormatHalf4 = 21, cudaResViewFormatFloat1 = 22, cudaResViewFormatFloat2 = 23,
  cudaResViewFormatFloat4 = 24, cudaResViewFormatUnsignedBlockCompressed1 = 25,
  cudaResViewFormatUnsignedBlockCompressed2 = 26, cudaResViewFormatUnsignedBlockCompressed3 = 27,
  cudaResViewFormatUnsignedBlockCompressed4 = 28, cudaResViewFormatSignedBlockCompressed4 = 29,
  cudaResViewFormatUnsignedBlockCompressed5 = 30, cudaResViewFormatSignedBlockCompressed5 = 31,
  cudaResViewFormatUnsignedBlockCompressed6H = 32, cudaResViewFormatSignedBlockCompressed6H = 33,
  cudaResViewFormatUnsignedBlockCompressed7 = 34
};

/* Kernel attributes settable with cudaFuncSetAttribute. */
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9, cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11, cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13, cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15, cudaFuncAttributeMax = 16
};

/* L1 / shared memory preference. */
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

/* Shared-memory bank width (deprecated by NVIDIA, kept for source compatibility). */
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};

/* Named shared-memory carveout percentages (cudaFuncAttributePreferredSharedMemoryCarveout). */
enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxL1 = 0,
  cudaSharedmemCarveoutMaxShared = 100
};

/* Device compute modes (cudaDevAttrComputeMode). */
enum cudaComputeMode {
  cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};

/* Per-context limits (cudaDeviceGetLimit / cudaDeviceSetLimit). */
enum cudaLimit {
  cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
  cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
  cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6
};

/* cudaMemAdvise advice. */
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3, cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5, cudaMemAdviseUnsetAccessedBy = 6
};

/* cudaMemRangeGetAttribute queries. */
enum cudaMemRangeAttribute {
  cudaMemRangeAttributeReadMostly = 1, cudaMemRangeAttributePreferredLocation = 2,
  cudaMemRangeAttributeAccessedBy = 3, cudaMemRangeAttributeLastPrefetchLocation = 4,
  cudaMemRangeAttributePreferredLocationType = 5, cudaMemRangeAttributePreferredLocationId = 6,
  cudaMemRangeAttributeLastPrefetchLocationType = 7,
  cudaMemRangeAttributeLastPrefetchLocationId = 8
};

/* Bits of cudaDeviceProp::gpuDirectRDMAFlushWritesOptions. */
enum cudaFlushGPUDirectRDMAWritesOptions {
  cudaFlushGPUDirectRDMAWritesOptionHost = 1, cudaFlushGPUDirectRDMAWritesOptionMemOps = 2
};

/* Values of cudaDeviceProp::gpuDirectRDMAWritesOrdering. */
enum cudaGPUDirectRDMAWritesOrdering {
  cudaGPUDirectRDMAWritesOrderingNone = 0, cudaGPUDirectRDMAWritesOrderingOwner = 100,
  cudaGPUDirectRDMAWritesOrderingAllDevices = 200
};

/* Scope of cudaDeviceFlushGPUDirectRDMAWrites. */
enum cudaFlushGPUDirectRDMAWritesScope {
  cudaFlushGPUDirectRDMAWritesToOwner = 100, cudaFlushGPUDirectRDMAWritesToAllDevices = 200
};

/* Target of cudaDeviceFlushGPUDirectRDMAWrites. */
enum cudaFlushGPUDirectRDMAWritesTarget {
  cudaFlushGPUDirectRDMAWritesTargetCurrentDevice = 0
};

/* Device attributes (cudaDeviceGetAttribute); the values are the driver's CUdevice_attribute
 * numbers. */
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10, cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14, cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16, cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19, cudaDevAttrComputeMode = 20,
  cudaDevAttrMaxTexture1DWidth = 21, cudaDevAttrMaxTexture2DWidth = 22,
  cudaDevAttrMaxTexture2DHeight = 23, cudaDevAttrMaxTexture3DWidth = 24,
  cudaDevAttrMaxTexture3DHeight = 25, cudaDevAttrMaxTexture3DDepth = 26,
  cudaDevAttrMaxTexture2DLayeredWidth = 27, cudaDevAttrMaxTexture2DLayeredHeight = 28,
  cudaDevAttrMaxTexture2DLayeredLayers = 29, cudaDevAttrSurfaceAlignment = 30,
  cudaDevAttrConcurrentKernels = 31, cudaDevAttrEccEnabled = 32, cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34, cudaDevAttrTccDriver = 35, cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41, cudaDevAttrMaxTexture1DLayeredWidth = 42,
  cudaDevAttrMaxTexture1DLayeredLayers = 43, cudaDevAttrMaxTexture2DGatherWidth = 45,
  cudaDevAttrMaxTexture2DGatherHeight = 46, cudaDevAttrMaxTexture3DWidthAlt = 47,
  cudaDevAttrMaxTexture3DHeightAlt = 48, cudaDevAttrMaxTexture3DDepthAlt = 49,
  cudaDevAttrPciDomainId = 50, cudaDevAttrTexturePitchAlignment = 51,
  cudaDevAttrMaxTextureCubemapWidth = 52, cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
  cudaDevAttrMaxTextureCubemapLayeredLayers = 54, cudaDevAttrMaxSurface1DWidth = 55,
  cudaDevAttrMaxSurface2DWidth = 56, cudaDevAttrMaxSurface2DHeight = 57,
  cudaDevAttrMaxSurface3DWidth = 58, cudaDevAttrMaxSurface3DHeight = 59,
  cudaDevAttrMaxSurface3DDepth = 60, cudaDevAttrMaxSurface1DLayeredWidth = 61,
  cudaDevAttrMaxSurface1DLayeredLayers = 62, cudaDevAttrMaxSurface2DLayeredWidth = 63,
  cudaDevAttrMaxSurface2DLayeredHeight = 64, cudaDevAttrMaxSurface2DLayeredLayers = 65,
  cudaDevAttrMaxSurfaceCubemapWidth = 66, cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
  cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68, cudaDevAttrMaxTexture1DLinearWidth = 69,
  cudaDevAttrMaxTexture2DLinearWidth = 70, cudaDevAttrMaxTexture2DLinearHeight = 71,
  cudaDevAttrMaxTexture2DLinearPitch = 72, cudaDevAttrMaxTexture2DMipmappedWidth = 73,
  cudaDevAttrMaxTexture2DMipmappedHeight = 74, cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxTexture1DMipmappedWidth = 77,
  cudaDevAttrStreamPrioritiesSupported = 78, cudaDevAttrGlobalL1CacheSupported = 79,
  cudaDevAttrLocalL1CacheSupported = 80, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83,
  cudaDevAttrIsMultiGpuBoard = 84, cudaDevAttrMultiGpuBoardGroupID = 85,
  cudaDevAttrHostNativeAtomicSupported = 86, cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
  cudaDevAttrPageableMemoryAccess = 88, cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrComputePreemptionSupported = 90, cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
  cudaDevAttrReserved92 = 92, cudaDevAttrReserved93 = 93, cudaDevAttrReserved94 = 94,
  cudaDevAttrCooperativeLaunch = 95, cudaDevAttrReserved96 = 96,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrCanFlushRemoteWrites = 98,
  cudaDevAttrHostRegisterSupported = 99, cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
  cudaDevAttrDirectManagedMemAccessFromHost = 101, cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108, cudaDevAttrMaxAccessPolicyWindowSize = 109,
  cudaDevAttrReservedSharedMemoryPerBlock = 111, cudaDevAttrSparseCudaArraySupported = 112,
  cudaDevAttrHostRegisterReadOnlySupported = 113,
  cudaDevAttrTimelineSemaphoreInteropSupported = 114, cudaDevAttrMemoryPoolsSupported = 115,
  cudaDevAttrGPUDirectRDMASupported = 116, cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
  cudaDevAttrGPUDirectRDMAWritesOrdering = 118, cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
  cudaDevAttrClusterLaunch = 120, cudaDevAttrDeferredMappingCudaArraySupported = 121,
  cudaDevAttrReserved122 = 122, cudaDevAttrReserved123 = 123, cudaDevAttrReserved124 = 124,
  cudaDevAttrIpcEventSupport = 125, cudaDevAttrMemSyncDomainCount = 126,
  cudaDevAttrReserved127 = 127, cudaDevAttrReserved128 = 128, cudaDevAttrReserved129 = 129,
  cudaDevAttrNumaConfig = 130, cudaDevAttrNumaId = 131, cudaDevAttrReserved132 = 132,
  cudaDevAttrMpsEnabled = 133, cudaDevAttrHostNumaId = 134, cudaDevAttrD3D12CigSupported = 135,
  cudaDevAttrVulkanCigSupported = 138, cudaDevAttrGpuPciDeviceId = 139,
  cudaDevAttrGpuPciSubsystemId = 140, cudaDevAttrReserved141 = 141,
  cudaDevAttrHostNumaMemoryPoolsSupported = 142, cudaDevAttrHostNumaMultinodeIpcSupported = 143,
  cudaDevAttrHostMemoryPoolsSupported = 144, cudaDevAttrReserved145 = 145,
  cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147, cudaDevAttrMax = 148
};

/* Memory-pool attributes (cudaMemPoolGetAttribute / cudaMemPoolSetAttribute). */
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic = 2,
  cudaMemPoolReuseAllowInternalDependencies = 3, cudaMemPoolAttrReleaseThreshold = 4,
  cudaMemPoolAttrReservedMemCurrent = 5, cudaMemPoolAttrReservedMemHigh = 6,
  cudaMemPoolAttrUsedMemCurrent = 7, cudaMemPoolAttrUsedMemHigh = 8
};

/* Kinds of memory location (cudaMemLocation::type). */
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeNone = 0, cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2, cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};

/* Access a location is granted to a pool's memory. */
enum cudaMemAccessFlags {
  cudaMemAccessFlagsProtNone = 0, cudaMemAccessFlagsProtRead = 1,
  cudaMemAccessFlagsProtReadWrite = 3
};

/* Kinds of pool allocation. */
enum cudaMemAllocationType {
  cudaMemAllocationTypeInvalid = 0, cudaMemAllocationTypePinned = 1,
  cudaMemAllocationTypeManaged = 2, cudaMemAllocationTypeMax = 2147483647
};

/* Shareable handle kinds a pool can export (bit set). */
enum cudaMemAllocationHandleType {
  cudaMemHandleTypeNone = 0, cudaMemHandleTypePosixFileDescriptor = 1, cudaMemHandleTypeWin32 = 2,
  cudaMemHandleTypeWin32Kmt = 4, cudaMemHandleTypeFabric = 8
};

/* cudaDeviceGetGraphMemAttribute queries. */
enum cudaGraphMemAttributeType {
  cudaGraphMemAttrUsedMemCurrent = 0, cudaGraphMemAttrUsedMemHigh = 1,
  cudaGraphMemAttrReservedMemCurrent = 2, cudaGraphMemAttrReservedMemHigh = 3
};

/* Batched-copy flags. */
enum cudaMemcpyFlags {
  cudaMemcpyFlagDefault = 0, cudaMemcpyFlagPreferOverlapWithCompute = 1
};

/* When a batched copy may read its source. */
enum cudaMemcpySrcAccessOrder {
  cudaMemcpySrcAccessOrderInvalid = 0, cudaMemcpySrcAccessOrderStream = 1,
  cudaMemcpySrcAccessOrderDuringApiCall = 2, cudaMemcpySrcAccessOrderAny = 3,
  cudaMemcpySrcAccessOrderMax = 2147483647
};

/* Operand kinds of a batched 3D copy. */
enum cudaMemcpy3DOperandType {
  cudaMemcpyOperandTypePointer = 1, cudaMemcpyOperandTypeArray = 2,
  cudaMemcpyOperandTypeMax = 2147483647
};

/* Peer-to-peer attributes (cudaDeviceGetP2PAttribute). */
enum cudaDeviceP2PAttr {
  cudaDevP2PAttrPerformanceRank = 1, cudaDevP2PAttrAccessSupported = 2,
  cudaDevP2PAttrNativeAtomicSupported = 3, cudaDevP2PAttrCudaArrayAccessSupported = 4,
  cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5
};

/* Atomic operations whose peer support can be queried. */
enum cudaAtomicOperation {
  cudaAtomicOperationIntegerAdd = 0, cudaAtomicOperationIntegerMin = 1,
  cudaAtomicOperationIntegerMax = 2, cudaAtomicOperationIntegerIncrement = 3,
  cudaAtomicOperationIntegerDecrement = 4, cudaAtomicOperationAnd = 5, cudaAtomicOperationOr = 6,
  cudaAtomicOperationXOR = 7, cudaAtomicOperationExchange = 8, cudaAtomicOperationCAS = 9,
  cudaAtomicOperationFloatAdd = 10, cudaAtomicOperationFloatMin = 11,
  cudaAtomicOperationFloatMax = 12
};

/* Operand capabilities of those atomics (bit set). */
enum cudaAtomicOperationCapability {
  cudaAtomicCapabilitySigned = 1, cudaAtomicCapabilityUnsigned = 2,
  cudaAtomicCapabilityReduction = 4, cudaAtomicCapabilityScalar32 = 8,
  cudaAtomicCapabilityScalar64 = 16, cudaAtomicCapabilityScalar128 = 32,
  cudaAtomicCapabilityVector32x4 = 64
};

/* External memory handle kinds. */
enum cudaExternalMemoryHandleType {
  cudaExternalMemoryHandleTypeOpaqueFd = 1, cudaExternalMemoryHandleTypeOpaqueWin32 = 2,
  cudaExternalMemoryHandleTypeOpaqueWin32Kmt = 3, cudaExternalMemoryHandleTypeD3D12Heap = 4,
  cudaExternalMemoryHandleTypeD3D12Resource = 5, cudaExternalMemoryHandleTypeD3D11Resource = 6,
  cudaExternalMemoryHandleTypeD3D11ResourceKmt = 7, cudaExternalMemoryHandleTypeNvSciBuf = 8
};

/* External semaphore handle kinds. */
enum cudaExternalSemaphoreHandleType {
  cudaExternalSemaphoreHandleTypeOpaqueFd = 1, cudaExternalSemaphoreHandleTypeOpaqueWin32 = 2,
  cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt = 3, cudaExternalSemaphoreHandleTypeD3D12Fence = 4,
  cudaExternalSemaphoreHandleTypeD3D11Fence = 5, cudaExternalSemaphoreHandleTypeNvSciSync = 6,
  cudaExternalSemaphoreHandleTypeKeyedMutex = 7, cudaExternalSemaphoreHandleTypeKeyedMutexKmt = 8,
  cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9,
  cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32 = 10
};

/* Options for loading code through the runtime's library API. */
enum cudaJitOption {
  cudaJitMaxRegisters = 0, cudaJitThreadsPerBlock = 1, cudaJitWallTime = 2,
  cudaJitInfoLogBuffer = 3, cudaJitInfoLogBufferSizeBytes = 4, cudaJitErrorLogBuffer = 5,
  cudaJitErrorLogBufferSizeBytes = 6, cudaJitOptimizationLevel = 7, cudaJitFallbackStrategy = 10,
  cudaJitGenerateDebugInfo = 11, cudaJitLogVerbose = 12, cudaJitGenerateLineInfo = 13,
  cudaJitCacheMode = 14, cudaJitPositionIndependentCode = 30, cudaJitMinCtaPerSm = 31,
  cudaJitMaxThreadsPerBlock = 32, cudaJitOverrideDirectiveValues = 33
};

/* Library-load options. */
enum cudaLibraryOption {
  cudaLibraryHostUniversalFunctionAndDataTable = 0, cudaLibraryBinaryIsPreserved = 1
};

/* Global-load cache mode option value. */
enum cudaJit_CacheMode {
  cudaJitCacheOptionNone = 0, cudaJitCacheOptionCG = 1, cudaJitCacheOptionCA = 2
};

/* PTX / binary preference option value. */
enum cudaJit_Fallback {
  cudaPreferPtx = 0, cudaPreferBinary = 1
};

/* Cooperative-groups scope. */
enum cudaCGScope {
  cudaCGScopeInvalid = 0, cudaCGScopeGrid = 1, cudaCGScopeReserved = 2
};

/* cudaGraphConditionalHandleCreate flags. */
enum cudaGraphConditionalHandleFlags {
  cudaGraphCondAssignDefault = 1
};

/* Kinds of conditional graph node. */
enum cudaGraphConditionalNodeType {
  cudaGraphCondTypeIf = 0, cudaGraphCondTypeWhile = 1, cudaGraphCondTypeSwitch = 2
};

/* Kinds of graph node. */
enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0, cudaGraphNodeTypeMemcpy = 1, cudaGraphNodeTypeMemset = 2,
  cudaGraphNodeTypeHost = 3, cudaGraphNodeTypeGraph = 4, cudaGraphNodeTypeEmpty = 5,
  cudaGraphNodeTypeWaitEvent = 6, cudaGraphNodeTypeEventRecord = 7,
  cudaGraphNodeTypeExtSemaphoreSignal = 8, cudaGraphNodeTypeExtSemaphoreWait = 9,
  cudaGraphNodeTypeMemAlloc = 10, cudaGraphNodeTypeMemFree = 11, cudaGraphNodeTypeConditional = 13,
  cudaGraphNodeTypeCount = 14
};

/* Whether a child-graph node copies or takes its graph. */
enum cudaGraphChildGraphNodeOwnership {
  cudaGraphChildGraphOwnershipClone = 0, cudaGraphChildGraphOwnershipMove = 1
};

/* Kinds of graph edge. */
typedef enum cudaGraphDependencyType_enum {
  cudaGraphDependencyTypeDefault = 0, cudaGraphDependencyTypeProgrammatic = 1
} cudaGraphDependencyType;

/* Outcome of cudaGraphExecUpdate. */
enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0, cudaGraphExecUpdateError = 1,
  cudaGraphExecUpdateErrorTopologyChanged = 2, cudaGraphExecUpdateErrorNodeTypeChanged = 3,
  cudaGraphExecUpdateErrorFunctionChanged = 4, cudaGraphExecUpdateErrorParametersChanged = 5,
  cudaGraphExecUpdateErrorNotSupported = 6, cudaGraphExecUpdateErrorUnsupportedFunctionChange = 7,
  cudaGraphExecUpdateErrorAttributesChanged = 8
};

/* Outcome of cudaGraphInstantiateWithParams. */
typedef enum cudaGraphInstantiateResult {
  cudaGraphInstantiateSuccess = 0, cudaGraphInstantiateError = 1,
  cudaGraphInstantiateInvalidStructure = 2, cudaGraphInstantiateNodeOperationNotSupported = 3,
  cudaGraphInstantiateMultipleDevicesNotSupported = 4,
  cudaGraphInstantiateConditionalHandleUnused = 5
} cudaGraphInstantiateResult;

/* cudaGraphInstantiateWithParams: flags and upload stream in, the failing node and the
 * outcome out. */
typedef struct cudaGraphInstantiateParams_st {
  unsigned long long flags;
  cudaStream_t uploadStream;
  cudaGraphNode_t errNode_out;
  cudaGraphInstantiateResult result_out;
} cudaGraphInstantiateParams;

/* Field a device-side kernel-node update changes. */
enum cudaGraphKernelNodeField {
  cudaGraphKernelNodeFieldInvalid = 0, cudaGraphKernelNodeFieldGridDim = 1,
  cudaGraphKernelNodeFieldParam = 2, cudaGraphKernelNodeFieldEnabled = 3
};

/* cudaGetDriverEntryPoint flags. */
enum cudaGetDriverEntryPointFlags {
  cudaEnableDefault = 0, cudaEnableLegacyStream = 1, cudaEnablePerThreadDefaultStream = 2
};

/* Outcome of a driver entry-point query. */
enum cudaDriverEntryPointQueryResult {
  cudaDriverEntryPointSuccess = 0, cudaDriverEntryPointSymbolNotFound = 1,
  cudaDriverEntryPointVersionNotSufficent = 2
};

/* cudaGraphDebugDotPrint detail bits. */
enum cudaGraphDebugDotFlags {
  cudaGraphDebugDotFlagsVerbose = 1, cudaGraphDebugDotFlagsKernelNodeParams = 4,
  cudaGraphDebugDotFlagsMemcpyNodeParams = 8, cudaGraphDebugDotFlagsMemsetNodeParams = 16,
  cudaGraphDebugDotFlagsHostNodeParams = 32, cudaGraphDebugDotFlagsEventNodeParams = 64,
  cudaGraphDebugDotFlagsExtSemasSignalNodeParams = 128,
  cudaGraphDebugDotFlagsExtSemasWaitNodeParams = 256,
  cudaGraphDebugDotFlagsKernelNodeAttributes = 512, cudaGraphDebugDotFlagsHandles = 1024,
  cudaGraphDebugDotFlagsConditionalNodeParams = 32768
};

/* cudaGraphInstantiate flags (bit set). */
enum cudaGraphInstantiateFlags {
  cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
  cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8
};

/* Memory-synchronization domains of a launch. */
typedef enum cudaLaunchMemSyncDomain {
  cudaLaunchMemSyncDomainDefault = 0, cudaLaunchMemSyncDomainRemote = 1
} cudaLaunchMemSyncDomain;

/* Launch attributes (cudaLaunchAttribute::id; stream and kernel-node attributes share them). */
typedef enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2, cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6, cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8, cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10, cudaLaunchAttributePreferredClusterDimension = 11,
  cudaLaunchAttributeLaunchCompletionEvent = 12, cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
  cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
  cudaLaunchAttributeNvlinkUtilCentricScheduling = 16
} cudaLaunchAttributeID;

/* cudaDeviceProp::deviceNumaConfig values. */
enum cudaDeviceNumaConfig {
  cudaDeviceNumaConfigNone = 0, cudaDeviceNumaConfigNumaNode = 1
};

/* Asynchronous notifications a device can send. */
typedef enum cudaAsyncNotificationType_enum {
  cudaAsyncNotificationTypeOverBudget = 1
} cudaAsyncNotificationType;

/* Severity of driver log messages. */
typedef enum CUDAlogLevel_enum {
  cudaLogLevelError = 0, cudaLogLevelWarning = 1
} cudaLogLevel;

/* What an asynchronous notification callback receives (cudaDeviceRegisterAsyncNotification). */
typedef struct cudaAsyncNotificationInfo {
  cudaAsyncNotificationType type;
  union {
    struct {
      unsigned long long bytesOverBudget;
    } overBudget;
  } info;
} cudaAsyncNotificationInfo_t;
typedef void (*cudaAsyncCallback)(cudaAsyncNotificationInfo_t *, void *, cudaAsyncCallbackHandle_t);

/* A log message callback (cudaLogsRegisterCallback): user data, level, message, its length. */
typedef void (*cudaLogsCallback_t)(void *data, cudaLogLevel logLevel, char *message, size_t length);

/* The memory a CUDA array created for deferred mapping needs (cudaArrayGetMemoryRequirements). */
struct cudaArrayMemoryRequirements {
  size_t size;
  size_t alignment;
  unsigned int reserved[4];
};

/* The tile layout of a sparse CUDA array (cudaArrayGetSparseProperties). */
struct cudaArraySparseProperties {
  struct {
    unsigned int width;
    unsigned int height;
    unsigned int depth;
  } tileExtent;
  unsigned int miptailFirstLevel;
  unsigned long long miptailSize;
  unsigned int flags;
  unsigned int reserved[4];
};


/* ---- Structures ------------------------------------------------------------------------ */

/* A device's UUID (cudaDeviceProp::uuid). cuda.h declares the same struct; the guard
 * macro, shared with cuda.h, lets both headers be included. */
#ifndef CU_UUID_HAS_BEEN_DEFINED
#define CU_UUID_HAS_BEEN_DEFINED
struct CUuuid_st {
  char bytes[16];
};
#endif
typedef struct CUuuid_st CUuuid;
typedef struct CUuuid_st cudaUUID_t;

/* Opaque inter-process handles: an exported event, a memory allocation, a fabric handle. */
typedef struct cudaIpcEventHandle_st {
  char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcEventHandle_t;
typedef struct cudaIpcMemHandle_st {
  char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcMemHandle_t;
typedef struct cudaMemFabricHandle_st {
  char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaMemFabricHandle_t;

/* Bits per channel (x, y, z, w) and their interpretation, of a texel. */
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};

/* 3D geometry in elements or bytes: a position, an extent, and a pitched allocation
 * (pitch: bytes between rows; xsize/ysize: the logical row width and row count). */
struct cudaPos {
  size_t x, y, z;
};
struct cudaExtent {
  size_t width, height, depth;
};
struct cudaPitchedPtr {
  void *ptr;
  size_t pitch, xsize, ysize;
};

/* cudaMemcpy3D: each side is an array or a pitched pointer, at a position. */
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};
/* cudaMemcpy3DPeer: the same between devices. */
struct cudaMemcpy3DPeerParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  int srcDevice;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  int dstDevice;
  struct cudaExtent extent;
};

/* A memset graph node: rows of elementSize-byte elements (1, 2 or 4) set to value. */
struct cudaMemsetParams {
  void *dst;
  size_t pitch;
  unsigned int value, elementSize;
  size_t width, height;
};

/* A host graph node: the function and its argument. */
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void *userData;
};

/* A kernel graph node. */
struct cudaKernelNodeParams {
  void *func;
  dim3 gridDim, blockDim;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};

/* An L2 access-policy window: hitRatio of the accesses to [base_ptr, base_ptr+num_bytes)
 * get hitProp, the others missProp. */
struct cudaAccessPolicyWindow {
  void *base_ptr;
  size_t num_bytes;
  float hitRatio;
  enum cudaAccessProperty hitProp, missProp;
};

/* What cudaPointerGetAttributes reports. The trailing reserved words are CUDA 13's. */
struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
  long reserved[8];
};

/* What cudaFuncGetAttributes reports about a kernel. */
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;
  int maxDynamicSharedSizeBytes, preferredShmemCarveout, clusterDimMustBeSet;
  int requiredClusterWidth, requiredClusterHeight, requiredClusterDepth;
  int clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
  int reserved[16];
};

/* Stream-ordered memory pools. */
struct cudaMemLocation {
  enum cudaMemLocationType type;
  int id; /* device ordinal or host NUMA node, per type */
};
struct cudaMemAccessDesc {
  struct cudaMemLocation location;
  enum cudaMemAccessFlags flags;
};
struct cudaMemPoolProps {
  enum cudaMemAllocationType allocType;
  enum cudaMemAllocationHandleType handleTypes;
  struct cudaMemLocation location;
  void *win32SecurityAttributes;
  size_t maxSize;     /* 0: no limit */
  unsigned short usage; /* cudaMemPoolCreateUsage* bits */
  unsigned char reserved[54];
};
/* What an allocation node allocates (cudaGraphAddMemAllocNode); dptr is its output. */
struct cudaMemAllocNodeParams {
  struct cudaMemPoolProps poolProps;
  const struct cudaMemAccessDesc *accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void *dptr;
};
struct cudaMemPoolPtrExportData {
  unsigned char reserved[64];
};

/* cudaImportExternalMemory: what to import (a descriptor, a Win32 handle or name, an
 * NvSciBuf object) and how many bytes; cudaExternalMemoryGetMappedBuffer: which range. */
struct cudaExternalMemoryHandleDesc {
  enum cudaExternalMemoryHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciBufObject;
  } handle;
  unsigned long long size;
  unsigned int flags; /* cudaExternalMemoryDedicated */
  unsigned int reserved[16];
};
struct cudaExternalMemoryBufferDesc {
  unsigned long long offset;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
};

/* Resources behind texture and surface objects. */
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
};
struct cudaResourceViewDesc {
  enum cudaResourceViewFormat format;
  size_t width, height, depth;
  unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
  unsigned int reserved[16];
};

/* External semaphores (cudaImportExternalSemaphore): the handle to import, by type. */
struct cudaExternalSemaphoreHandleDesc {
  enum cudaExternalSemaphoreHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciSyncObj;
  } handle;
  unsigned int flags;
  unsigned int reserved[16];
};
/* What one semaphore is signaled with (a fence value, an NvSciSync fence or a keyed-mutex
 * key) and what a wait waits for (the same, and a keyed-mutex timeout). */
struct cudaExternalSemaphoreSignalParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
    } keyedMutex;
    unsigned int reserved[12];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
};
struct cudaExternalSemaphoreWaitParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
      unsigned int timeoutMs;
    } keyedMutex;
    unsigned int reserved[10];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
};
/* External semaphore signal and wait nodes: parallel arrays of numExtSems entries. */
struct cudaExternalSemaphoreSignalNodeParams {
  cudaExternalSemaphore_t *extSemArray;
  const struct cudaExternalSemaphoreSignalParams *paramsArray;
  unsigned int numExtSems;
};
struct cudaExternalSemaphoreWaitNodeParams {
  cudaExternalSemaphore_t *extSemArray;
  const struct cudaExternalSemaphoreWaitParams *paramsArray;
  unsigned int numExtSems;
};
#define cudaExternalSemaphoreSignalNodeParamsV2 cudaExternalSemaphoreSignalNodeParams
#define cudaExternalSemaphoreWaitNodeParamsV2 cudaExternalSemaphoreWaitNodeParams

/* The per-type parameters of cudaGraphAddNode / cudaGraphNodeSetParams (cudaGraphNodeParams). */
struct cudaKernelNodeParamsV2 {
  void *func;
#if !defined(__cplusplus) || __cplusplus >= 201103L
  dim3 gridDim, blockDim;
#else
  /* Before C++11 a union member may not have dim3's constructor: the same layout. */
  uint3 gridDim, blockDim;
#endif
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};
struct cudaMemcpyNodeParams {
  int flags;
  int reserved[3];
  struct cudaMemcpy3DParms copyParams;
};
struct cudaMemsetParamsV2 {
  void *dst;
  size_t pitch;
  unsigned int value, elementSize;
  size_t width, height;
};
struct cudaHostNodeParamsV2 {
  cudaHostFn_t fn;
  void *userData;
};
struct cudaChildGraphNodeParams {
  cudaGraph_t graph;
  enum cudaGraphChildGraphNodeOwnership ownership;
};
struct cudaEventRecordNodeParams {
  cudaEvent_t event;
};
struct cudaEventWaitNodeParams {
  cudaEvent_t event;
};
#define cudaMemAllocNodeParamsV2 cudaMemAllocNodeParams
struct cudaMemFreeNodeParams {
  void *dptr;
};
/* A conditional node (Programming Guide, "Conditional Graph Nodes"): the handle whose value
 * device code sets with cudaGraphSetConditional, the kind, the number of bodies, and
 * phGraph_out, which cudaGraphAddNode points to the node's own body graphs. */
struct cudaConditionalNodeParams {
  cudaGraphConditionalHandle handle;
  enum cudaGraphConditionalNodeType type;
  unsigned int size;
  cudaGraph_t *phGraph_out;
};
/* A node of any type: 256 bytes, the type and one union member. */
struct cudaGraphNodeParams {
  enum cudaGraphNodeType type;
  int reserved0[3];
  union {
    long long reserved1[29];
    struct cudaKernelNodeParamsV2 kernel;
    struct cudaMemcpyNodeParams memcpy;
    struct cudaMemsetParamsV2 memset;
    struct cudaHostNodeParamsV2 host;
    struct cudaChildGraphNodeParams graph;
    struct cudaEventWaitNodeParams eventWait;
    struct cudaEventRecordNodeParams eventRecord;
    struct cudaExternalSemaphoreSignalNodeParams extSemSignal;
    struct cudaExternalSemaphoreWaitNodeParams extSemWait;
    struct cudaMemAllocNodeParams alloc;
    struct cudaMemFreeNodeParams free;
    struct cudaConditionalNodeParams conditional;
  };
  long long reserved2;
};

/* What a graph edge carries (cudaGraphAddDependencies, cudaGraphGetEdges, stream capture):
 * the ports it leaves and enters and its cudaGraphDependencyType, as bytes so that the
 * layout does not depend on how a compiler packs bit-fields. All zero is a plain edge. */
typedef struct cudaGraphEdgeData_st {
  unsigned char from_port, to_port, type;
  unsigned char reserved[5];
} cudaGraphEdgeData;

/* Why cudaGraphExecUpdate refused an update, and the node (and, for a changed edge, the
 * node the edge comes from) it stopped at; NULL where the reason concerns no node. */
typedef struct cudaGraphExecUpdateResultInfo_st {
  enum cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;

/* Launch attributes: an id and its value (cudaLaunchKernelEx, stream and kernel-node
 * attributes). The value union is 64 bytes whatever member is used. */
typedef struct cudaLaunchMemSyncDomainMap_st {
  unsigned char default_, remote;
} cudaLaunchMemSyncDomainMap;

typedef union cudaLaunchAttributeValue {
  char pad[64];
  struct cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  enum cudaSynchronizationPolicy syncPolicy;
  struct {
    unsigned int x, y, z;
  } clusterDim;
  enum cudaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  struct {
    cudaEvent_t event;
    int flags, triggerAtBlockStart;
  } programmaticEvent;
  int priority;
  cudaLaunchMemSyncDomainMap memSyncDomainMap;
  cudaLaunchMemSyncDomain memSyncDomain;
  struct {
    unsigned int x, y, z;
  } preferredClusterDim;
  struct {
    cudaEvent_t event;
    int flags;
  } launchCompletionEvent;
  struct {
    int deviceUpdatable;
    cudaGraphDeviceNode_t devNode;
  } deviceUpdatableKernelNode;
  unsigned int sharedMemCarveout;
  unsigned int nvlinkUtilCentricScheduling;
} cudaLaunchAttributeValue;

typedef struct cudaLaunchAttribute_st {
  cudaLaunchAttributeID id;
  char pad[4]; /* the value is 8-byte aligned */
  cudaLaunchAttributeValue val;
} cudaLaunchAttribute;

/* cudaLaunchKernelEx's configuration. */
typedef struct cudaLaunchConfig_st {
  dim3 gridDim, blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;

/* Stream and kernel-node attributes are launch attributes under older names. */
#define cudaStreamAttrID cudaLaunchAttributeID
#define cudaStreamAttrValue cudaLaunchAttributeValue
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributeMemSyncDomainMap cudaLaunchAttributeMemSyncDomainMap
#define cudaStreamAttributeMemSyncDomain cudaLaunchAttributeMemSyncDomain
#define cudaStreamAttributePriority cudaLaunchAttributePriority
#define cudaKernelNodeAttrID cudaLaunchAttributeID
#define cudaKernelNodeAttrValue cudaLaunchAttributeValue
#define cudaKernelNodeAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaKernelNodeAttributeCooperative cudaLaunchAttributeCooperative
#define cudaKernelNodeAttributePriority cudaLaunchAttributePriority
#define cudaKernelNodeAttributeClusterDimension cudaLaunchAttributeClusterDimension
#define cudaKernelNodeAttributeClusterSchedulingPolicyPreference cudaLaunchAttributeClusterSchedulingPolicyPreference
#define cudaKernelNodeAttributeMemSyncDomainMap cudaLaunchAttributeMemSyncDomainMap
#define cudaKernelNodeAttributeMemSyncDomain cudaLaunchAttributeMemSyncDomain
#define cudaKernelNodeAttributePreferredSharedMemoryCarveout cudaLaunchAttributePreferredSharedMemoryCarveout
#define cudaKernelNodeAttributeDeviceUpdatableKernelNode cudaLaunchAttributeDeviceUpdatableKernelNode
#define cudaKernelNodeAttributeNvlinkUtilCentricScheduling cudaLaunchAttributeNvlinkUtilCentricScheduling

/* A device's properties (cudaGetDeviceProperties), CUDA 13's layout: CUDA 12's deprecated
 * fields (clockRate, computeMode, ...) are gone; crates/cudart-abi/src/props.rs fills it. */
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int multiProcessorCount, integrated, canMapHostMemory, maxTexture1D;
  int maxTexture1DMipmap, maxTexture2D[2], maxTexture2DMipmap[2];
  int maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3];
  int maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2];
  int maxTexture2DLayered[3], maxTextureCubemapLayered[2], maxSurface1D;
  int maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2];
  int maxSurface2DLayered[3], maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver;
  int asyncEngineCount, unifiedAddressing, memoryBusWidth, l2CacheSize;
  int persistingL2CacheMaxSize, maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID;
  int hostNativeAtomicSupported, pageableMemoryAccess, concurrentManagedAccess;
  int computePreemptionSupported, canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch;
  int unifiedFunctionPointers, deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
  unsigned int gpuPciDeviceID, gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported, reserved[56];
};

#endif /* __DRIVER_TYPES_H__ */
