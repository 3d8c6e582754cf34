/* OpenGL interop through the driver API's C entry points, against our include/cuda.h
 * and include/cudaGL.h alone: a GL buffer changed by a PTX kernel while mapped, the
 * deprecated buffer-object calls, and a GL_RGBA8 texture changed through its CUDA array,
 * each read back through GL and compared with values computed here; and the codes for a
 * process with no GL library loaded (CUDA_ERROR_OPERATING_SYSTEM, as an H200 answers). The
 * GL context is Mesa's
 * surfaceless EGL platform (llvmpipe), opened at run time; where EGL makes no context the
 * program says why and passes. Prints "PASS gl_interop" on success. */
/* The deprecated buffer-object calls are exercised too. */
#define CUDA_ENABLE_DEPRECATED
#include <cuda.h>

#include "host_check.h"
#include <cudaGL.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* EGL 1.5 names and values (Khronos eglext.h), declared here so that no EGL header is needed. */
typedef void *EGLDisplay_;
typedef void *(*get_proc_fn)(const char *);
typedef EGLDisplay_ (*get_platform_display_fn)(unsigned int, void *, const intptr_t *);
typedef unsigned int (*initialize_fn)(EGLDisplay_, int *, int *);
typedef unsigned int (*bind_api_fn)(unsigned int);
typedef unsigned int (*choose_config_fn)(EGLDisplay_, const int *, void **, int, int *);
typedef void *(*create_context_fn)(EGLDisplay_, void *, void *, const int *);
typedef unsigned int (*make_current_fn)(EGLDisplay_, void *, void *, void *);

/* A function pointer from dlsym / GetProcAddress without ISO C's object-to-function cast. */
#define AS_FN(dst, ptr) memcpy(&(dst), &(ptr), sizeof(dst))

static PFNGLGENBUFFERSPROC gen_buffers;
static PFNGLBINDBUFFERPROC bind_buffer;
static PFNGLBUFFERDATAPROC buffer_data;
static PFNGLGETBUFFERSUBDATAPROC get_buffer_sub_data;
/* OpenGL 1.1 functions, also through eglGetProcAddress so that nothing links libGL. */
static void (*gen_textures)(GLsizei, GLuint *);
static void (*bind_texture)(GLenum, GLuint);
static void (*pixel_storei)(GLenum, GLint);
static void (*tex_image_2d)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void *);
static void (*get_tex_image)(GLenum, GLint, GLenum, GLenum, void *);
static GLenum (*get_error)(void);

/* dst[t] = src[t] * 2 + 1 (u32) for each thread of one block. */
static const char twice_ptx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry twice(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r2, [%rd3];\n"
    "  mad.lo.u32 %r2, %r2, 2, 1;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "  ret;\n"
    "}\n";

/* A current surfaceless desktop GL context, or NULL with the reason in why. */
static void *make_gl_context(const char **why) {
  void *egl = dlopen("libEGL.so.1", RTLD_NOW);
  void *sym;
  get_proc_fn get_proc;
  get_platform_display_fn get_display;
  initialize_fn initialize;
  bind_api_fn bind_api;
  choose_config_fn choose;
  create_context_fn create;
  make_current_fn make_current;
  EGLDisplay_ dpy;
  void *config = NULL, *ctx;
  int major, minor, count = 0;
  /* EGL_SURFACE_TYPE PBUFFER_BIT, EGL_RENDERABLE_TYPE OPENGL_BIT, EGL_NONE */
  const int attribs[] = {0x3033, 0x0001, 0x3040, 0x0008, 0x3038};
  /* OpenGL 3.3 core profile */
  const int ctx_attribs[] = {0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x3038};
  if (!egl) {
    *why = "no libEGL.so.1";
    return NULL;
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
    return NULL;
  }
  dpy = get_display(0x31DD /* EGL_PLATFORM_SURFACELESS_MESA */, NULL, NULL);
  if (!dpy || !initialize(dpy, &major, &minor) || !bind_api(0x30A2 /* EGL_OPENGL_API */)) {
    *why = "no surfaceless EGL display";
    return NULL;
  }
  if (!choose(dpy, attribs, &config, 1, &count) || count == 0) {
    *why = "no EGL config for desktop OpenGL";
    return NULL;
  }
  ctx = create(dpy, config, NULL, ctx_attribs);
  if (!ctx || !make_current(dpy, NULL, NULL, ctx)) {
    *why = "no OpenGL 3.3 core context";
    return NULL;
  }
  sym = get_proc("glGenBuffers");
  AS_FN(gen_buffers, sym);
  sym = get_proc("glBindBuffer");
  AS_FN(bind_buffer, sym);
  sym = get_proc("glBufferData");
  AS_FN(buffer_data, sym);
  sym = get_proc("glGetBufferSubData");
  AS_FN(get_buffer_sub_data, sym);
  sym = get_proc("glGenTextures");
  AS_FN(gen_textures, sym);
  sym = get_proc("glBindTexture");
  AS_FN(bind_texture, sym);
  sym = get_proc("glPixelStorei");
  AS_FN(pixel_storei, sym);
  sym = get_proc("glTexImage2D");
  AS_FN(tex_image_2d, sym);
  sym = get_proc("glGetTexImage");
  AS_FN(get_tex_image, sym);
  sym = get_proc("glGetError");
  AS_FN(get_error, sym);
  return ctx;
}

static GLuint make_buffer(const unsigned *data, size_t n) {
  GLuint name = 0;
  gen_buffers(1, &name);
  bind_buffer(GL_ARRAY_BUFFER, name);
  buffer_data(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 4), data, GL_DYNAMIC_DRAW);
  return name;
}

static void read_buffer(GLuint name, unsigned *out, size_t n) {
  bind_buffer(GL_ARRAY_BUFFER, name);
  get_buffer_sub_data(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(n * 4), out);
}

static void check_words(const char *what, const unsigned *got, const unsigned *want, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    if (got[i] != want[i]) {
      fprintf(stderr, "%s[%u]: %u, expected %u\n", what, (unsigned)i, got[i], want[i]);
      exit(1);
    }
  }
}

int main(void) {
  enum { N = 128, W = 4, H = 3 };
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction twice;
  CUgraphicsResource res;
  CUdeviceptr ptr;
  size_t size;
  unsigned host[N], want[N], got[N], count = 0;
  CUdevice gl_devices[4];
  const char *why = "";
  GLuint buffer, legacy, tex;
  unsigned char texels[W * H * 4], back[W * H * 4];
  size_t i;
  void *args[1];
  CUarray array;
  CUDA_MEMCPY2D m;

  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  /* No EGL or GLX library loaded yet: what an H200 (driver 580.159) answered in a process
     without GL. */
  EXPECT(cuGraphicsGLRegisterBuffer(&res, 1, CU_GRAPHICS_REGISTER_FLAGS_NONE), CUDA_ERROR_OPERATING_SYSTEM);
  EXPECT(cuGLGetDevices(&count, gl_devices, 4, CU_GL_DEVICE_LIST_ALL), CUDA_ERROR_OPERATING_SYSTEM);
  EXPECT(cuGLInit(), CUDA_ERROR_OPERATING_SYSTEM);
  EXPECT(cuGraphicsMapResources(0, &res, 0), CUDA_ERROR_INVALID_VALUE);
  if (!make_gl_context(&why)) {
    printf("gl_interop: skipped, EGL makes no context here: %s\n", why);
    printf("PASS gl_interop\n");
    return 0;
  }
  CHECK(cuGLGetDevices(&count, gl_devices, 4, CU_GL_DEVICE_LIST_ALL));
  if (count != 1 || gl_devices[0] != 0) {
    fprintf(stderr, "cuGLGetDevices: %u devices, first %d\n", count, (int)gl_devices[0]);
    return 1;
  }

  /* A buffer changed by a kernel while mapped. */
  for (i = 0; i < N; i++) {
    host[i] = (unsigned)(i * 7 + 3);
    want[i] = host[i] * 2 + 1;
  }
  buffer = make_buffer(host, N);
  CHECK(cuGraphicsGLRegisterBuffer(&res, buffer, CU_GRAPHICS_REGISTER_FLAGS_NONE));
  EXPECT(cuGraphicsResourceGetMappedPointer(&ptr, &size, res), CUDA_ERROR_NOT_MAPPED);
  CHECK(cuGraphicsMapResources(1, &res, 0));
  EXPECT(cuGraphicsMapResources(1, &res, 0), CUDA_ERROR_ALREADY_MAPPED);
  EXPECT(cuGraphicsSubResourceGetMappedArray(&array, res, 0, 0), CUDA_ERROR_NOT_MAPPED_AS_ARRAY);
  CHECK(cuGraphicsResourceGetMappedPointer(&ptr, &size, res));
  if (size != N * 4) {
    fprintf(stderr, "mapped size %u\n", (unsigned)size);
    return 1;
  }
  CHECK(cuModuleLoadData(&mod, twice_ptx));
  CHECK(cuModuleGetFunction(&twice, mod, "twice"));
  args[0] = &ptr;
  CHECK(cuLaunchKernel(twice, 1, 1, 1, N, 1, 1, 0, 0, args, NULL));
  CHECK(cuGraphicsUnmapResources(1, &res, 0));
  EXPECT(cuGraphicsUnmapResources(1, &res, 0), CUDA_ERROR_NOT_MAPPED);
  read_buffer(buffer, got, N);
  check_words("buffer after the kernel", got, want, N);
  CHECK(cuGraphicsUnregisterResource(res));
  EXPECT(cuGraphicsUnregisterResource(res), CUDA_ERROR_INVALID_HANDLE);

  /* The deprecated buffer-object calls. */
  legacy = make_buffer(host, N);
  CHECK(cuGLRegisterBufferObject(legacy));
  CHECK(cuGLMapBufferObject(&ptr, &size, legacy));
  CHECK(cuMemsetD32(ptr, 0xC0FFEE, N));
  CHECK(cuGLUnmapBufferObject(legacy));
  CHECK(cuGLUnregisterBufferObject(legacy));
  read_buffer(legacy, got, N);
  for (i = 0; i < N; i++) {
    want[i] = 0xC0FFEE;
  }
  check_words("buffer object after the memset", got, want, N);

  /* A GL_RGBA8 texture changed through its array. */
  for (i = 0; i < sizeof texels; i++) {
    texels[i] = (unsigned char)(i * 5 + 1);
  }
  gen_textures(1, &tex);
  bind_texture(GL_TEXTURE_2D, tex);
  pixel_storei(GL_UNPACK_ALIGNMENT, 1);
  tex_image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  CHECK(cuGraphicsGLRegisterImage(&res, tex, GL_TEXTURE_2D, CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST));
  CHECK(cuGraphicsMapResources(1, &res, 0));
  EXPECT(cuGraphicsResourceGetMappedPointer(&ptr, &size, res), CUDA_ERROR_NOT_MAPPED_AS_POINTER);
  CHECK(cuGraphicsSubResourceGetMappedArray(&array, res, 0, 0));
  memset(&m, 0, sizeof m);
  m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  m.srcArray = array;
  m.dstMemoryType = CU_MEMORYTYPE_HOST;
  m.dstHost = back;
  m.dstPitch = W * 4;
  m.WidthInBytes = W * 4;
  m.Height = H;
  CHECK(cuMemcpy2D(&m));
  if (memcmp(back, texels, sizeof texels) != 0) {
    fprintf(stderr, "the mapped array does not hold the texture's texels\n");
    return 1;
  }
  for (i = 0; i < sizeof texels; i++) {
    texels[i] = (unsigned char)(255 - texels[i]);
  }
  memset(&m, 0, sizeof m);
  m.srcMemoryType = CU_MEMORYTYPE_HOST;
  m.srcHost = texels;
  m.srcPitch = W * 4;
  m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  m.dstArray = array;
  m.WidthInBytes = W * 4;
  m.Height = H;
  CHECK(cuMemcpy2D(&m));
  CHECK(cuGraphicsUnmapResources(1, &res, 0));
  CHECK(cuGraphicsUnregisterResource(res));
  pixel_storei(GL_PACK_ALIGNMENT, 1);
  get_tex_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, back);
  if (memcmp(back, texels, sizeof texels) != 0) {
    fprintf(stderr, "the texture does not hold what CUDA wrote\n");
    return 1;
  }
  if (get_error() != GL_NO_ERROR) {
    fprintf(stderr, "GL error\n");
    return 1;
  }
  CHECK(cuModuleUnload(mod));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  printf("PASS gl_interop\n");
  return 0;
}
