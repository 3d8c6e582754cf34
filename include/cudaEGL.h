/* cudaEGL.h (ours): the EGL interoperability part of the CUDA driver API, as our
 * libcuda.so.1 exports it (CUDA Driver API, "EGL Interoperability").  Type names,
 * enumerator values, the CUeglFrame layout and the signatures are those of NVIDIA's CUDA 13
 * driver.  Mapping, unmapping and unregistering a CUgraphicsResource are in cuda.h
 * ("Graphics Interoperability").
 *
 * On the CPU device a registered EGL image is a copy of the image's texels, made at
 * registration and brought up to date at map, unmap and unregistration, read and written
 * through the current EGL context's OpenGL (ARCHITECTURE.md, "OpenGL interop"; the module
 * doc of crates/cuda-driver/src/gl/egl.rs says when the texels move).  The EGLStream calls
 * are declared, and answer CUDA_ERROR_NOT_SUPPORTED: EGL streams are an extension of
 * NVIDIA's EGL alone.  cuEventCreateFromEGLSync is not exported (NVIDIA's x86-64 driver
 * does not export it either).  crates/cuda-abi/tests/header_decls.rs compares these
 * declarations with the library's exports. */
#ifndef __cuda_egl_h__
#define __cuda_egl_h__

#include "cuda.h"

/* EGLImageKHR, EGLStreamKHR and EGLint, from the system's EGL headers, which a program
 * using EGL interop has. */
#include <EGL/egl.h>
#include <EGL/eglext.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most planes a frame has. */
#define MAX_PLANES 3

/* cuEGLStreamConsumerAcquireFrame's timeout that never expires. */
#define CUDA_EGL_INFINITE_TIMEOUT 0xFFFFFFFF

/* What a CUeglFrame's planes are: CUDA arrays or pitched device pointers. */
typedef enum CUeglFrameType_enum {
  CU_EGL_FRAME_TYPE_ARRAY = 0,
  CU_EGL_FRAME_TYPE_PITCH = 1
} CUeglFrameType;

/* Where an EGLStream consumer wants a frame's memory (a hint). */
typedef enum CUeglResourceLocationFlags_enum {
  CU_EGL_RESOURCE_LOCATION_SYSMEM = 0x00,
  CU_EGL_RESOURCE_LOCATION_VIDMEM = 0x01
} CUeglResourceLocationFlags;

/* The layout of a frame's color data.  A registered GL_RGBA8 or RGBA16F image is
 * CU_EGL_COLOR_FORMAT_ABGR (R, G, B, A in memory order), a one-channel image
 * CU_EGL_COLOR_FORMAT_Y, as NVIDIA's driver reports them. */
typedef enum CUeglColorFormat_enum {
  CU_EGL_COLOR_FORMAT_YUV420_PLANAR = 0x00,
  CU_EGL_COLOR_FORMAT_YUV420_SEMIPLANAR = 0x01,
  CU_EGL_COLOR_FORMAT_YUV422_PLANAR = 0x02,
  CU_EGL_COLOR_FORMAT_YUV422_SEMIPLANAR = 0x03,
  CU_EGL_COLOR_FORMAT_RGB = 0x04,
  CU_EGL_COLOR_FORMAT_BGR = 0x05,
  CU_EGL_COLOR_FORMAT_ARGB = 0x06,
  CU_EGL_COLOR_FORMAT_RGBA = 0x07,
  CU_EGL_COLOR_FORMAT_L = 0x08,
  CU_EGL_COLOR_FORMAT_R = 0x09,
  CU_EGL_COLOR_FORMAT_YUV444_PLANAR = 0x0a,
  CU_EGL_COLOR_FORMAT_YUV444_SEMIPLANAR = 0x0b,
  CU_EGL_COLOR_FORMAT_YUYV_422 = 0x0c,
  CU_EGL_COLOR_FORMAT_UYVY_422 = 0x0d,
  CU_EGL_COLOR_FORMAT_ABGR = 0x0e,
  CU_EGL_COLOR_FORMAT_BGRA = 0x0f,
  CU_EGL_COLOR_FORMAT_A = 0x10,
  CU_EGL_COLOR_FORMAT_RG = 0x11,
  CU_EGL_COLOR_FORMAT_AYUV = 0x12,
  CU_EGL_COLOR_FORMAT_YVU444_SEMIPLANAR = 0x13,
  CU_EGL_COLOR_FORMAT_YVU422_SEMIPLANAR = 0x14,
  CU_EGL_COLOR_FORMAT_YVU420_SEMIPLANAR = 0x15,
  CU_EGL_COLOR_FORMAT_Y10V10U10_444_SEMIPLANAR = 0x16,
  CU_EGL_COLOR_FORMAT_Y10V10U10_420_SEMIPLANAR = 0x17,
  CU_EGL_COLOR_FORMAT_Y12V12U12_444_SEMIPLANAR = 0x18,
  CU_EGL_COLOR_FORMAT_Y12V12U12_420_SEMIPLANAR = 0x19,
  CU_EGL_COLOR_FORMAT_VYUY_ER = 0x1a,
  CU_EGL_COLOR_FORMAT_UYVY_ER = 0x1b,
  CU_EGL_COLOR_FORMAT_YUYV_ER = 0x1c,
  CU_EGL_COLOR_FORMAT_YVYU_ER = 0x1d,
  CU_EGL_COLOR_FORMAT_YUV_ER = 0x1e,
  CU_EGL_COLOR_FORMAT_YUVA_ER = 0x1f,
  CU_EGL_COLOR_FORMAT_AYUV_ER = 0x20,
  CU_EGL_COLOR_FORMAT_YUV444_PLANAR_ER = 0x21,
  CU_EGL_COLOR_FORMAT_YUV422_PLANAR_ER = 0x22,
  CU_EGL_COLOR_FORMAT_YUV420_PLANAR_ER = 0x23,
  CU_EGL_COLOR_FORMAT_YUV444_SEMIPLANAR_ER = 0x24,
  CU_EGL_COLOR_FORMAT_YUV422_SEMIPLANAR_ER = 0x25,
  CU_EGL_COLOR_FORMAT_YUV420_SEMIPLANAR_ER = 0x26,
  CU_EGL_COLOR_FORMAT_YVU444_PLANAR_ER = 0x27,
  CU_EGL_COLOR_FORMAT_YVU422_PLANAR_ER = 0x28,
  CU_EGL_COLOR_FORMAT_YVU420_PLANAR_ER = 0x29,
  CU_EGL_COLOR_FORMAT_YVU444_SEMIPLANAR_ER = 0x2a,
  CU_EGL_COLOR_FORMAT_YVU422_SEMIPLANAR_ER = 0x2b,
  CU_EGL_COLOR_FORMAT_YVU420_SEMIPLANAR_ER = 0x2c,
  CU_EGL_COLOR_FORMAT_BAYER_RGGB = 0x2d,
  CU_EGL_COLOR_FORMAT_BAYER_BGGR = 0x2e,
  CU_EGL_COLOR_FORMAT_BAYER_GRBG = 0x2f,
  CU_EGL_COLOR_FORMAT_BAYER_GBRG = 0x30,
  CU_EGL_COLOR_FORMAT_BAYER10_RGGB = 0x31,
  CU_EGL_COLOR_FORMAT_BAYER10_BGGR = 0x32,
  CU_EGL_COLOR_FORMAT_BAYER10_GRBG = 0x33,
  CU_EGL_COLOR_FORMAT_BAYER10_GBRG = 0x34,
  CU_EGL_COLOR_FORMAT_BAYER12_RGGB = 0x35,
  CU_EGL_COLOR_FORMAT_BAYER12_BGGR = 0x36,
  CU_EGL_COLOR_FORMAT_BAYER12_GRBG = 0x37,
  CU_EGL_COLOR_FORMAT_BAYER12_GBRG = 0x38,
  CU_EGL_COLOR_FORMAT_BAYER14_RGGB = 0x39,
  CU_EGL_COLOR_FORMAT_BAYER14_BGGR = 0x3a,
  CU_EGL_COLOR_FORMAT_BAYER14_GRBG = 0x3b,
  CU_EGL_COLOR_FORMAT_BAYER14_GBRG = 0x3c,
  CU_EGL_COLOR_FORMAT_BAYER20_RGGB = 0x3d,
  CU_EGL_COLOR_FORMAT_BAYER20_BGGR = 0x3e,
  CU_EGL_COLOR_FORMAT_BAYER20_GRBG = 0x3f,
  CU_EGL_COLOR_FORMAT_BAYER20_GBRG = 0x40,
  CU_EGL_COLOR_FORMAT_YVU444_PLANAR = 0x41,
  CU_EGL_COLOR_FORMAT_YVU422_PLANAR = 0x42,
  CU_EGL_COLOR_FORMAT_YVU420_PLANAR = 0x43,
  CU_EGL_COLOR_FORMAT_BAYER_ISP_RGGB = 0x44,
  CU_EGL_COLOR_FORMAT_BAYER_ISP_BGGR = 0x45,
  CU_EGL_COLOR_FORMAT_BAYER_ISP_GRBG = 0x46,
  CU_EGL_COLOR_FORMAT_BAYER_ISP_GBRG = 0x47,
  CU_EGL_COLOR_FORMAT_BAYER_BCCR = 0x48,
  CU_EGL_COLOR_FORMAT_BAYER_RCCB = 0x49,
  CU_EGL_COLOR_FORMAT_BAYER_CRBC = 0x4a,
  CU_EGL_COLOR_FORMAT_BAYER_CBRC = 0x4b,
  CU_EGL_COLOR_FORMAT_BAYER10_CCCC = 0x4c,
  CU_EGL_COLOR_FORMAT_BAYER12_BCCR = 0x4d,
  CU_EGL_COLOR_FORMAT_BAYER12_RCCB = 0x4e,
  CU_EGL_COLOR_FORMAT_BAYER12_CRBC = 0x4f,
  CU_EGL_COLOR_FORMAT_BAYER12_CBRC = 0x50,
  CU_EGL_COLOR_FORMAT_BAYER12_CCCC = 0x51,
  CU_EGL_COLOR_FORMAT_Y = 0x52,
  CU_EGL_COLOR_FORMAT_YUV420_SEMIPLANAR_2020 = 0x53,
  CU_EGL_COLOR_FORMAT_YVU420_SEMIPLANAR_2020 = 0x54,
  CU_EGL_COLOR_FORMAT_YUV420_PLANAR_2020 = 0x55,
  CU_EGL_COLOR_FORMAT_YVU420_PLANAR_2020 = 0x56,
  CU_EGL_COLOR_FORMAT_YUV420_SEMIPLANAR_709 = 0x57,
  CU_EGL_COLOR_FORMAT_YVU420_SEMIPLANAR_709 = 0x58,
  CU_EGL_COLOR_FORMAT_YUV420_PLANAR_709 = 0x59,
  CU_EGL_COLOR_FORMAT_YVU420_PLANAR_709 = 0x5a,
  CU_EGL_COLOR_FORMAT_Y10V10U10_420_SEMIPLANAR_709 = 0x5b,
  CU_EGL_COLOR_FORMAT_Y10V10U10_420_SEMIPLANAR_2020 = 0x5c,
  CU_EGL_COLOR_FORMAT_Y10V10U10_422_SEMIPLANAR_2020 = 0x5d,
  CU_EGL_COLOR_FORMAT_Y10V10U10_422_SEMIPLANAR = 0x5e,
  CU_EGL_COLOR_FORMAT_Y10V10U10_422_SEMIPLANAR_709 = 0x5f,
  CU_EGL_COLOR_FORMAT_Y_ER = 0x60,
  CU_EGL_COLOR_FORMAT_Y_709_ER = 0x61,
  CU_EGL_COLOR_FORMAT_Y10_ER = 0x62,
  CU_EGL_COLOR_FORMAT_Y10_709_ER = 0x63,
  CU_EGL_COLOR_FORMAT_Y12_ER = 0x64,
  CU_EGL_COLOR_FORMAT_Y12_709_ER = 0x65,
  CU_EGL_COLOR_FORMAT_YUVA = 0x66,
  CU_EGL_COLOR_FORMAT_YUV = 0x67,
  CU_EGL_COLOR_FORMAT_YVYU = 0x68,
  CU_EGL_COLOR_FORMAT_VYUY = 0x69,
  CU_EGL_COLOR_FORMAT_Y10V10U10_420_SEMIPLANAR_ER = 0x6a,
  CU_EGL_COLOR_FORMAT_Y10V10U10_420_SEMIPLANAR_709_ER = 0x6b,
  CU_EGL_COLOR_FORMAT_Y10V10U10_444_SEMIPLANAR_ER = 0x6c,
  CU_EGL_COLOR_FORMAT_Y10V10U10_444_SEMIPLANAR_709_ER = 0x6d,
  CU_EGL_COLOR_FORMAT_Y12V12U12_420_SEMIPLANAR_ER = 0x6e,
  CU_EGL_COLOR_FORMAT_Y12V12U12_420_SEMIPLANAR_709_ER = 0x6f,
  CU_EGL_COLOR_FORMAT_Y12V12U12_444_SEMIPLANAR_ER = 0x70,
  CU_EGL_COLOR_FORMAT_Y12V12U12_444_SEMIPLANAR_709_ER = 0x71,
  CU_EGL_COLOR_FORMAT_UYVY_709 = 0x72,
  CU_EGL_COLOR_FORMAT_UYVY_709_ER = 0x73,
  CU_EGL_COLOR_FORMAT_UYVY_2020 = 0x74,
  CU_EGL_COLOR_FORMAT_MAX
} CUeglColorFormat;

/* One frame: up to MAX_PLANES planes, and the extent and formats of the first. */
typedef struct CUeglFrame_st {
  union {
    CUarray pArray[MAX_PLANES];
    void *pPitch[MAX_PLANES];
  } frame;
  unsigned int width;
  unsigned int height;
  unsigned int depth;
  unsigned int pitch;
  unsigned int planeCount;
  unsigned int numChannels;
  CUeglFrameType frameType;
  CUeglColorFormat eglColorFormat;
  CUarray_format cuFormat;
} CUeglFrame_v1;
typedef CUeglFrame_v1 CUeglFrame;

/* A connection of CUDA to an EGLStream, as its producer or its consumer. */
typedef struct CUeglStreamConnection_st *CUeglStreamConnection;

CUresult CUDAAPI cuGraphicsEGLRegisterImage(CUgraphicsResource *pCudaResource, EGLImageKHR image, unsigned int flags);
CUresult CUDAAPI cuGraphicsResourceGetMappedEglFrame(CUeglFrame *eglFrame, CUgraphicsResource resource, unsigned int index,
                                                     unsigned int mipLevel);

/* EGLStreams: CUDA_ERROR_NOT_SUPPORTED here. */
CUresult CUDAAPI cuEGLStreamConsumerConnect(CUeglStreamConnection *conn, EGLStreamKHR stream);
CUresult CUDAAPI cuEGLStreamConsumerConnectWithFlags(CUeglStreamConnection *conn, EGLStreamKHR stream, unsigned int flags);
CUresult CUDAAPI cuEGLStreamConsumerDisconnect(CUeglStreamConnection *conn);
CUresult CUDAAPI cuEGLStreamConsumerAcquireFrame(CUeglStreamConnection *conn, CUgraphicsResource *pCudaResource,
                                                 CUstream *pStream, unsigned int timeout);
CUresult CUDAAPI cuEGLStreamConsumerReleaseFrame(CUeglStreamConnection *conn, CUgraphicsResource pCudaResource,
                                                 CUstream *pStream);
CUresult CUDAAPI cuEGLStreamProducerConnect(CUeglStreamConnection *conn, EGLStreamKHR stream, EGLint width, EGLint height);
CUresult CUDAAPI cuEGLStreamProducerDisconnect(CUeglStreamConnection *conn);
CUresult CUDAAPI cuEGLStreamProducerPresentFrame(CUeglStreamConnection *conn, CUeglFrame eglframe, CUstream *pStream);
CUresult CUDAAPI cuEGLStreamProducerReturnFrame(CUeglStreamConnection *conn, CUeglFrame *eglframe, CUstream *pStream);

#ifdef __cplusplus
}
#endif

#endif /* __cuda_egl_h__ */
