/* cudaGL.h (ours): the OpenGL interoperability part of the CUDA driver API, as our
 * libcuda.so.1 exports it (CUDA Driver API, "OpenGL Interoperability" and its deprecated
 * section).  Signatures, enumerator values and the ABI names the plain names bind are
 * those of NVIDIA's CUDA 13 driver.  Mapping, unmapping and the other calls on a
 * CUgraphicsResource are in cuda.h ("Graphics Interoperability").
 *
 * On the CPU device a mapped resource is a copy of the GL object's contents, made at map
 * and written back at unmap (ARCHITECTURE.md, "OpenGL interop"); GL_TEXTURE_2D is the
 * image target supported.  crates/cuda-abi/tests/header_decls.rs compares these
 * declarations with the library's exports. */
#ifndef __cuda_gl_h__
#define __cuda_gl_h__

#include "cuda.h"

/* GLuint and GLenum, from the system's OpenGL header, which a program using GL interop
 * has; include a loader's header (GLEW, glad) before this one where a loader is used. */
#if defined(__APPLE__)
#include <OpenGL/gl.h>
#else
#include <GL/gl.h>
#endif

#if defined(__CUDA_API_VERSION_INTERNAL) || defined(CUDA_ENABLE_DEPRECATED)
#define __CUDA_GL_DEPRECATED
#elif defined(__GNUC__)
#define __CUDA_GL_DEPRECATED __attribute__((deprecated))
#else
#define __CUDA_GL_DEPRECATED
#endif

#if defined(__CUDA_API_VERSION_INTERNAL) || defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define __CUDA_GL_PTDS(api) api##_ptds
#define __CUDA_GL_PTSZ(api) api##_ptsz
#else
#define __CUDA_GL_PTDS(api) api
#define __CUDA_GL_PTSZ(api) api
#endif

/* The ABI each plain name binds. */
#define cuGLCtxCreate            cuGLCtxCreate_v2
#define cuGLMapBufferObject      __CUDA_GL_PTDS(cuGLMapBufferObject_v2)
#define cuGLMapBufferObjectAsync __CUDA_GL_PTSZ(cuGLMapBufferObjectAsync_v2)
#define cuGLGetDevices           cuGLGetDevices_v2

#ifdef __cplusplus
extern "C" {
#endif

/* Which devices of the current GL context cuGLGetDevices reports. */
typedef enum CUGLDeviceList_enum {
  CU_GL_DEVICE_LIST_ALL = 0x01,
  CU_GL_DEVICE_LIST_CURRENT_FRAME = 0x02,
  CU_GL_DEVICE_LIST_NEXT_FRAME = 0x03
} CUGLDeviceList;

/* Map flags of the deprecated buffer-object calls (the values of CU_GRAPHICS_MAP_RESOURCE_FLAGS_*). */
typedef enum CUGLmap_flags_enum {
  CU_GL_MAP_RESOURCE_FLAGS_NONE = 0x00,
  CU_GL_MAP_RESOURCE_FLAGS_READ_ONLY = 0x01,
  CU_GL_MAP_RESOURCE_FLAGS_WRITE_DISCARD = 0x02
} CUGLmap_flags;

CUresult CUDAAPI cuGraphicsGLRegisterBuffer(CUgraphicsResource *pCudaResource, GLuint buffer, unsigned int Flags);
CUresult CUDAAPI cuGraphicsGLRegisterImage(CUgraphicsResource *pCudaResource, GLuint image, GLenum target, unsigned int Flags);
CUresult CUDAAPI cuGLGetDevices(unsigned int *pCudaDeviceCount, CUdevice *pCudaDevices, unsigned int cudaDeviceCount, CUGLDeviceList deviceList);

/* Deprecated since CUDA 3.0 (cuGLCtxCreate since 5.0); still exported. */
__CUDA_GL_DEPRECATED CUresult CUDAAPI cuGLCtxCreate(CUcontext *pCtx, unsigned int Flags, CUdevice device);
__CUDA_GL_DEPRECATED CUresult CUDAAPI cuGLInit(void);
__CUDA_GL_DEPRECATED CUresult CUDAAPI cuGLRegisterBufferObject(GLuint buffer);
__CUDA_GL_DEPRECATED CUresult CUDAAPI cuGLMapBufferObject(CUdeviceptr *dptr, size_t *size, GLuint buffer);
__CUDA_GL_DEPRECATED CUresult CUDAAPI cuGLUnmapBufferObject(GLuint buffer);
__CUDA_GL_DEPRECATED CUresult CUDAAPI cuGLUnregisterBufferObject(GLuint buffer);
__CUDA_GL_DEPRECATED CUresult CUDAAPI cuGLSetBufferObjectMapFlags(GLuint buffer, unsigned int Flags);
__CUDA_GL_DEPRECATED CUresult CUDAAPI cuGLMapBufferObjectAsync(CUdeviceptr *dptr, size_t *size, GLuint buffer, CUstream hStream);
__CUDA_GL_DEPRECATED CUresult CUDAAPI cuGLUnmapBufferObjectAsync(GLuint buffer, CUstream hStream);

/* ---- Legacy ABI: the older symbols, for code that defines __CUDA_API_VERSION_INTERNAL.
 * cuGLMapBufferObject and cuGLMapBufferObjectAsync of CUDA 2.x (32-bit device pointers)
 * answer CUDA_ERROR_INVALID_CONTEXT, as NVIDIA's 64-bit driver does. */
#if defined(__CUDA_API_VERSION_INTERNAL)
#undef cuGLCtxCreate
#undef cuGLMapBufferObject
#undef cuGLMapBufferObjectAsync
#undef cuGLGetDevices
CUresult CUDAAPI cuGLGetDevices(unsigned int *pCudaDeviceCount, CUdevice *pCudaDevices, unsigned int cudaDeviceCount, CUGLDeviceList deviceList);
CUresult CUDAAPI cuGLCtxCreate(CUcontext *pCtx, unsigned int Flags, CUdevice device);
CUresult CUDAAPI cuGLMapBufferObject_v2(CUdeviceptr *dptr, size_t *size, GLuint buffer);
CUresult CUDAAPI cuGLMapBufferObjectAsync_v2(CUdeviceptr *dptr, size_t *size, GLuint buffer, CUstream hStream);
CUresult CUDAAPI cuGLMapBufferObject(CUdeviceptr_v1 *dptr, unsigned int *size, GLuint buffer);
CUresult CUDAAPI cuGLMapBufferObjectAsync(CUdeviceptr_v1 *dptr, unsigned int *size, GLuint buffer, CUstream hStream);
#endif

#ifdef __cplusplus
}
#endif

#undef __CUDA_GL_DEPRECATED

#endif /* __cuda_gl_h__ */
