/* cuda_gl_interop.h (ours): the OpenGL interoperability part of the CUDA runtime API, as
 * our libcudart exports it ("OpenGL Interoperability" and its deprecated section of the
 * CUDA Runtime API reference). Each call is the driver's of the same meaning (cudaGL.h);
 * mapping, unmapping and the getters of a registered resource are in cuda_runtime_api.h.
 * On the CPU device a mapped resource is a copy of the GL object's contents, made at map
 * and written back at unmap; GL_TEXTURE_2D is the image target supported. */
#ifndef __CUDA_GL_INTEROP_H__
#define __CUDA_GL_INTEROP_H__

#include "cuda_runtime_api.h"

/* GLuint and GLenum, from the system's OpenGL header, which a program using GL interop
 * has; include a loader's header (GLEW, glad) before this one where a loader is used. */
#if defined(__APPLE__)
#include <OpenGL/gl.h>
#else
#include <GL/gl.h>
#endif

#if defined(__GNUC__) && !defined(CUDA_ENABLE_DEPRECATED)
#define __CUDA_GL_INTEROP_DEPRECATED __attribute__((deprecated))
#else
#define __CUDA_GL_INTEROP_DEPRECATED
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* Which devices of the current GL context cudaGLGetDevices reports. */
enum cudaGLDeviceList {
  cudaGLDeviceListAll = 1,
  cudaGLDeviceListCurrentFrame = 2,
  cudaGLDeviceListNextFrame = 3
};

/* Map flags of the deprecated buffer-object calls. */
enum cudaGLMapFlags {
  cudaGLMapFlagsNone = 0,
  cudaGLMapFlagsReadOnly = 1,
  cudaGLMapFlagsWriteDiscard = 2
};

extern __host__ cudaError_t CUDARTAPI cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices, unsigned int cudaDeviceCount, enum cudaGLDeviceList deviceList);
extern __host__ cudaError_t CUDARTAPI cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource, GLuint image, GLenum target, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **resource, GLuint buffer, unsigned int flags);

/* Deprecated since CUDA 3.0 (cudaGLSetGLDevice since 5.0); still exported. */
extern __CUDA_GL_INTEROP_DEPRECATED __host__ cudaError_t CUDARTAPI cudaGLSetGLDevice(int device);
extern __CUDA_GL_INTEROP_DEPRECATED __host__ cudaError_t CUDARTAPI cudaGLRegisterBufferObject(GLuint bufObj);
extern __CUDA_GL_INTEROP_DEPRECATED __host__ cudaError_t CUDARTAPI cudaGLMapBufferObject(void **devPtr, GLuint bufObj);
extern __CUDA_GL_INTEROP_DEPRECATED __host__ cudaError_t CUDARTAPI cudaGLUnmapBufferObject(GLuint bufObj);
extern __CUDA_GL_INTEROP_DEPRECATED __host__ cudaError_t CUDARTAPI cudaGLUnregisterBufferObject(GLuint bufObj);
extern __CUDA_GL_INTEROP_DEPRECATED __host__ cudaError_t CUDARTAPI cudaGLSetBufferObjectMapFlags(GLuint bufObj, unsigned int flags);
extern __CUDA_GL_INTEROP_DEPRECATED __host__ cudaError_t CUDARTAPI cudaGLMapBufferObjectAsync(void **devPtr, GLuint bufObj, cudaStream_t stream);
extern __CUDA_GL_INTEROP_DEPRECATED __host__ cudaError_t CUDARTAPI cudaGLUnmapBufferObjectAsync(GLuint bufObj, cudaStream_t stream);

#if defined(__cplusplus)
}
#endif

#endif /* __CUDA_GL_INTEROP_H__ */
