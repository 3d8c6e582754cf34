/* EGL interop through the driver API's C entry points, against our include/cuda.h and
 * include/cudaEGL.h alone: an EGL image of a GL_RGBA8 texture registered, its frame read,
 * changed by a PTX kernel through a surface object as a program written for NVIDIA's
 * driver does (register, frame, kernel, synchronize, unregister), then changed by GL and
 * by CUDA around a map and an unmap, each result read back through GL and compared with
 * values computed here; and the codes for a process with no EGL library loaded
 * (CUDA_ERROR_UNKNOWN, as an H200 with driver 580.159 answers). The GL context is Mesa's
 * surfaceless EGL platform (llvmpipe), opened at run time; where EGL makes no context the
 * program says why and passes. Prints "PASS egl_interop" on success. */
#include <cuda.h>

#include "host_check.h"
#include <cudaEGL.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A function pointer from dlsym / GetProcAddress without ISO C's object-to-function cast. */
#define AS_FN(dst, ptr) memcpy(&(dst), &(ptr), sizeof(dst))

enum { W = 8, H = 4, BYTES = W * H * 4 };

/* GL values (OpenGL 4.6) and functions, through eglGetProcAddress so that nothing links
   libGL or libEGL. */
#define GL_TEXTURE_2D_ 0x0DE1
#define GL_RGBA_ 0x1908
#define GL_RGBA8_ 0x8058
#define GL_UNSIGNED_BYTE_ 0x1401
#define GL_PACK_ALIGNMENT_ 0x0D05
#define GL_UNPACK_ALIGNMENT_ 0x0CF5
static void (*gen_textures)(int, unsigned *);
static void (*bind_texture)(unsigned, unsigned);
static void (*pixel_storei)(unsigned, int);
static void (*tex_image_2d)(unsigned, int, int, int, int, int, unsigned, unsigned, const void *);
static void (*tex_sub_image_2d)(unsigned, int, int, int, int, int, unsigned, unsigned, const void *);
static void (*get_tex_image)(unsigned, int, unsigned, unsigned, void *);
static unsigned (*get_error)(void);
static PFNEGLCREATEIMAGEKHRPROC create_image;
static EGLDisplay display;
static EGLContext context;

/* Each texel's four bytes inverted, through a surface: one thread per texel, a block per row. */
static const char invert_ptx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry invert(.param .u64 surf)\n"
    "{\n"
    "  .reg .b32 %r<5>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [surf];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  shl.b32 %r3, %r1, 2;\n"
    "  suld.b.2d.b32.trap {%r4}, [%rd1, {%r3, %r2}];\n"
    "  not.b32 %r4, %r4;\n"
    "  sust.b.2d.b32.trap [%rd1, {%r3, %r2}], {%r4};\n"
    "  ret;\n"
    "}\n";

/* An EGL or GL function by name (eglGetProcAddress answers a function pointer). */
#define GL_FN(dst, name)                        \
  do {                                          \
    void (*gl_fn_)(void) = get_proc(name);      \
    AS_FN(dst, gl_fn_);                         \
  } while (0)

/* A current surfaceless desktop GL context on Mesa's EGL, or 0 with the reason in why. */
static int make_gl_context(const char **why) {
  void *egl = dlopen("libEGL.so.1", RTLD_NOW);
  void *sym;
  PFNEGLGETPROCADDRESSPROC get_proc;
  PFNEGLGETPLATFORMDISPLAYPROC get_display;
  PFNEGLINITIALIZEPROC initialize;
  PFNEGLBINDAPIPROC bind_api;
  PFNEGLCHOOSECONFIGPROC choose;
  PFNEGLCREATECONTEXTPROC create;
  PFNEGLMAKECURRENTPROC make_current;
  EGLConfig config = NULL;
  EGLint major, minor, count = 0;
  const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  /* OpenGL 3.3 core profile */
  const EGLint ctx_attribs[] = {0x3098, 3, 0x30FB, 3, 0x30FD, 1, EGL_NONE};
  if (!egl) {
    *why = "no libEGL.so.1";
    return 0;
  }
  sym = dlsym(egl, "eglGetProcAddress");
  AS_FN(get_proc, sym);
  sym = dlsym(egl, "eglGetPlatformDisplay");
  AS_FN(get_display, sym);
  sym = dlsym(egl, "eglInitialize");
  AS_FN(initialize, sym);
  sym = dlsym(egl, "eglBindAPI");
  AS_FN(bind_api, sym);
  sym = dlsym(egl, "eglChooseConfig");
  AS_FN(choose, sym);
  sym = dlsym(egl, "eglCreateContext");
  AS_FN(create, sym);
  sym = dlsym(egl, "eglMakeCurrent");
  AS_FN(make_current, sym);
  if (!get_proc || !get_display || !initialize || !bind_api || !choose || !create || !make_current) {
    *why = "libEGL.so.1 lacks EGL 1.5 entry points";
    return 0;
  }
  display = get_display(0x31DD /* EGL_PLATFORM_SURFACELESS_MESA */, NULL, NULL);
  if (!display || !initialize(display, &major, &minor) || !bind_api(EGL_OPENGL_API)) {
    *why = "no surfaceless EGL display";
    return 0;
  }
  if (!choose(display, attribs, &config, 1, &count) || count == 0) {
    *why = "no EGL config for desktop OpenGL";
    return 0;
  }
  context = create(display, config, NULL, ctx_attribs);
  if (!context || !make_current(display, NULL, NULL, context)) {
    *why = "no OpenGL 3.3 core context";
    return 0;
  }
  GL_FN(create_image, "eglCreateImageKHR");
  GL_FN(gen_textures, "glGenTextures");
  GL_FN(bind_texture, "glBindTexture");
  GL_FN(pixel_storei, "glPixelStorei");
  GL_FN(tex_image_2d, "glTexImage2D");
  GL_FN(tex_sub_image_2d, "glTexSubImage2D");
  GL_FN(get_tex_image, "glGetTexImage");
  GL_FN(get_error, "glGetError");
  if (!create_image) {
    *why = "no eglCreateImageKHR (EGL_KHR_image_base)";
    return 0;
  }
  return 1;
}

static void read_texture(unsigned tex, unsigned char *out) {
  bind_texture(GL_TEXTURE_2D_, tex);
  pixel_storei(GL_PACK_ALIGNMENT_, 1);
  get_tex_image(GL_TEXTURE_2D_, 0, GL_RGBA_, GL_UNSIGNED_BYTE_, out);
}

/* Copies between a W x H RGBA8 array and host memory. */
static void copy_array(CUarray array, unsigned char *host, int to_host) {
  CUDA_MEMCPY2D m;
  memset(&m, 0, sizeof m);
  if (to_host) {
    m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    m.srcArray = array;
    m.dstMemoryType = CU_MEMORYTYPE_HOST;
    m.dstHost = host;
    m.dstPitch = W * 4;
  } else {
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = host;
    m.srcPitch = W * 4;
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    m.dstArray = array;
  }
  m.WidthInBytes = W * 4;
  m.Height = H;
  CHECK(cuMemcpy2D(&m));
}

static void same(const char *what, const unsigned char *got, const unsigned char *want) {
  if (memcmp(got, want, BYTES) != 0) {
    fprintf(stderr, "%s: the texels differ\n", what);
    exit(1);
  }
}

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction invert;
  CUgraphicsResource res;
  CUeglFrame frame;
  CUeglStreamConnection conn = NULL;
  CUarray array;
  CUDA_RESOURCE_DESC desc;
  CUsurfObject surf;
  EGLImageKHR image;
  unsigned tex;
  unsigned char texels[BYTES], want[BYTES], back[BYTES];
  const char *why = "";
  void *args[1];
  int i;

  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  /* No EGL library loaded yet: what an H200 (driver 580.159) answered in such a process. */
  EXPECT(cuGraphicsEGLRegisterImage(&res, (EGLImageKHR)(uintptr_t)0x1234, CU_GRAPHICS_REGISTER_FLAGS_NONE), CUDA_ERROR_UNKNOWN);
  EXPECT(cuGraphicsEGLRegisterImage(&res, EGL_NO_IMAGE_KHR, CU_GRAPHICS_REGISTER_FLAGS_NONE), CUDA_ERROR_UNKNOWN);
  EXPECT(cuGraphicsEGLRegisterImage(NULL, EGL_NO_IMAGE_KHR, CU_GRAPHICS_REGISTER_FLAGS_NONE), CUDA_ERROR_INVALID_VALUE);
  EXPECT(cuGraphicsEGLRegisterImage(&res, EGL_NO_IMAGE_KHR, CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST), CUDA_ERROR_INVALID_VALUE);
  EXPECT(cuGraphicsResourceGetMappedEglFrame(&frame, NULL, 0, 0), CUDA_ERROR_INVALID_HANDLE);
  EXPECT(cuGraphicsResourceGetMappedEglFrame(NULL, NULL, 0, 0), CUDA_ERROR_INVALID_VALUE);
  /* EGL streams are NVIDIA's EGL's alone. */
  EXPECT(cuEGLStreamConsumerConnect(&conn, EGL_NO_STREAM_KHR), CUDA_ERROR_NOT_SUPPORTED);
  if (!make_gl_context(&why)) {
    printf("egl_interop: skipped, EGL makes no context here: %s\n", why);
    printf("PASS egl_interop\n");
    return 0;
  }

  for (i = 0; i < BYTES; i++) {
    texels[i] = (unsigned char)(i * 5 + 1);
  }
  gen_textures(1, &tex);
  bind_texture(GL_TEXTURE_2D_, tex);
  pixel_storei(GL_UNPACK_ALIGNMENT_, 1);
  tex_image_2d(GL_TEXTURE_2D_, 0, GL_RGBA8_, W, H, 0, GL_RGBA_, GL_UNSIGNED_BYTE_, texels);
  image = create_image(display, context, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex, NULL);
  if (image == EGL_NO_IMAGE_KHR) {
    fprintf(stderr, "eglCreateImageKHR failed\n");
    return 1;
  }

  /* Registered, the image is accessible at once; its frame is one RGBA8 array. */
  CHECK(cuGraphicsEGLRegisterImage(&res, image, CU_GRAPHICS_REGISTER_FLAGS_NONE));
  memset(&frame, 0xFF, sizeof frame);
  CHECK(cuGraphicsResourceGetMappedEglFrame(&frame, res, 0, 0));
  if (frame.frameType != CU_EGL_FRAME_TYPE_ARRAY || frame.width != W || frame.height != H || frame.depth != 0 ||
      frame.pitch != 0 || frame.planeCount != 1 || frame.numChannels != 4 ||
      frame.eglColorFormat != CU_EGL_COLOR_FORMAT_ABGR || frame.cuFormat != CU_AD_FORMAT_UNSIGNED_INT8 ||
      frame.frame.pArray[1] != NULL || frame.frame.pArray[2] != NULL) {
    fprintf(stderr, "frame: type %d %ux%ux%u pitch %u planes %u channels %u color %d format %d\n", (int)frame.frameType,
            frame.width, frame.height, frame.depth, frame.pitch, frame.planeCount, frame.numChannels,
            (int)frame.eglColorFormat, (int)frame.cuFormat);
    return 1;
  }
  CHECK(cuGraphicsSubResourceGetMappedArray(&array, res, 0, 0));
  if (array != frame.frame.pArray[0]) {
    fprintf(stderr, "cuGraphicsSubResourceGetMappedArray gives another array than the frame\n");
    return 1;
  }
  copy_array(frame.frame.pArray[0], back, 1);
  same("the frame's array", back, texels);

  /* A kernel inverts the texels through a surface; synchronized and unregistered, the image
     holds them. */
  CHECK(cuModuleLoadData(&mod, invert_ptx));
  CHECK(cuModuleGetFunction(&invert, mod, "invert"));
  memset(&desc, 0, sizeof desc);
  desc.resType = CU_RESOURCE_TYPE_ARRAY;
  desc.res.array.hArray = frame.frame.pArray[0];
  CHECK(cuSurfObjectCreate(&surf, &desc));
  args[0] = &surf;
  CHECK(cuLaunchKernel(invert, H, 1, 1, W, 1, 1, 0, 0, args, NULL));
  CHECK(cuCtxSynchronize());
  CHECK(cuSurfObjectDestroy(surf));
  CHECK(cuGraphicsUnregisterResource(res));
  EXPECT(cuGraphicsResourceGetMappedEglFrame(&frame, res, 0, 0), CUDA_ERROR_INVALID_HANDLE);
  for (i = 0; i < BYTES; i++) {
    want[i] = (unsigned char)~texels[i];
  }
  read_texture(tex, back);
  same("the texture after the kernel", back, want);

  /* GL changes the image; a map brings the change to CUDA, an unmap CUDA's to GL. */
  CHECK(cuGraphicsEGLRegisterImage(&res, image, CU_GRAPHICS_REGISTER_FLAGS_NONE));
  CHECK(cuGraphicsResourceGetMappedEglFrame(&frame, res, 0, 0));
  bind_texture(GL_TEXTURE_2D_, tex);
  tex_sub_image_2d(GL_TEXTURE_2D_, 0, 0, 0, W, H, GL_RGBA_, GL_UNSIGNED_BYTE_, texels);
  CHECK(cuGraphicsMapResources(1, &res, 0));
  EXPECT(cuGraphicsMapResources(1, &res, 0), CUDA_ERROR_ALREADY_MAPPED);
  copy_array(frame.frame.pArray[0], back, 1);
  same("the array after the map", back, texels);
  for (i = 0; i < BYTES; i++) {
    want[i] = (unsigned char)(texels[i] + 3);
  }
  copy_array(frame.frame.pArray[0], want, 0);
  CHECK(cuGraphicsUnmapResources(1, &res, 0));
  EXPECT(cuGraphicsUnmapResources(1, &res, 0), CUDA_ERROR_NOT_MAPPED);
  read_texture(tex, back);
  same("the texture after the unmap", back, want);
  CHECK(cuGraphicsUnregisterResource(res));
  if (get_error() != 0) {
    fprintf(stderr, "GL error\n");
    return 1;
  }
  CHECK(cuModuleUnload(mod));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  printf("PASS egl_interop\n");
  return 0;
}
