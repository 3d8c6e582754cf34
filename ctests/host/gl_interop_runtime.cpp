// OpenGL interop through the runtime API, against our include/cuda_gl_interop.h and
// cuda_runtime_api.h alone, linked with our libcudart: a GL buffer read and written through
// its mapped pointer, the deprecated buffer-object calls, a GL_RGBA8 texture read and
// written through its mapped array, each read back through GL and compared with values
// computed here, cudaGLGetDevices, and the codes of misuse (the driver's, as the runtime
// passes them on). The GL context is Mesa's surfaceless EGL platform (llvmpipe), opened at
// run time; where EGL makes no context the program says why and passes.
// Prints "PASS gl_interop_runtime" on success.
#define CUDA_ENABLE_DEPRECATED
#include <cuda_gl_interop.h>

#include <GL/glext.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t check_rc_ = (call);                                                    \
    if (check_rc_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, (int)check_rc_); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

#define EXPECT(call, code)                                                                          \
  do {                                                                                              \
    cudaError_t expect_rc_ = (call);                                                                \
    if (expect_rc_ != (code)) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s -> %d, expected %d\n", __FILE__, __LINE__, #call, (int)expect_rc_, \
                   (int)(code));                                                                    \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)

namespace {

// EGL 1.5 entry points (Khronos egl.h), declared here so that no EGL header is needed.
using Display = void *;
using GetProc = void *(*)(const char *);
using GetPlatformDisplay = Display (*)(unsigned, void *, const intptr_t *);
using Initialize = unsigned (*)(Display, int *, int *);
using BindApi = unsigned (*)(unsigned);
using ChooseConfig = unsigned (*)(Display, const int *, void **, int, int *);
using CreateContext = void *(*)(Display, void *, void *, const int *);
using MakeCurrent = unsigned (*)(Display, void *, void *, void *);

struct Gl {
  PFNGLGENBUFFERSPROC gen_buffers;
  PFNGLBINDBUFFERPROC bind_buffer;
  PFNGLBUFFERDATAPROC buffer_data;
  PFNGLGETBUFFERSUBDATAPROC get_buffer_sub_data;
  void (*gen_textures)(GLsizei, GLuint *);
  void (*bind_texture)(GLenum, GLuint);
  void (*pixel_storei)(GLenum, GLint);
  void (*tex_image_2d)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void *);
  void (*get_tex_image)(GLenum, GLint, GLenum, GLenum, void *);
};

template <typename F>
void load(F &f, void *p) {
  std::memcpy(&f, &p, sizeof f);
}

// A current surfaceless desktop GL context and its functions, or false with the reason.
bool make_gl_context(Gl &gl, const char *&why) {
  void *egl = dlopen("libEGL.so.1", RTLD_NOW);
  if (!egl) {
    why = "no libEGL.so.1";
    return false;
  }
  GetProc get_proc;
  GetPlatformDisplay get_display;
  Initialize initialize;
  BindApi bind_api;
  ChooseConfig choose;
  CreateContext create;
  MakeCurrent make_current;
  load(get_proc, dlsym(egl, "eglGetProcAddress"));
  load(get_display, dlsym(egl, "eglGetPlatformDisplay"));
  load(initialize, dlsym(egl, "eglInitialize"));
  load(bind_api, dlsym(egl, "eglBindAPI"));
  load(choose, dlsym(egl, "eglChooseConfig"));
  load(create, dlsym(egl, "eglCreateContext"));
  load(make_current, dlsym(egl, "eglMakeCurrent"));
  if (!get_proc || !get_display || !initialize || !bind_api || !choose || !create || !make_current) {
    why = "libEGL.so.1 lacks EGL 1.5 entry points";
    return false;
  }
  int major, minor, count = 0;
  Display dpy = get_display(0x31DD /* EGL_PLATFORM_SURFACELESS_MESA */, nullptr, nullptr);
  if (!dpy || !initialize(dpy, &major, &minor) || !bind_api(0x30A2 /* EGL_OPENGL_API */)) {
    why = "no surfaceless EGL display";
    return false;
  }
  // EGL_SURFACE_TYPE PBUFFER_BIT, EGL_RENDERABLE_TYPE OPENGL_BIT; OpenGL 3.3 core.
  const int attribs[] = {0x3033, 0x0001, 0x3040, 0x0008, 0x3038};
  const int ctx_attribs[] = {0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x3038};
  void *config = nullptr;
  if (!choose(dpy, attribs, &config, 1, &count) || count == 0) {
    why = "no EGL config for desktop OpenGL";
    return false;
  }
  void *ctx = create(dpy, config, nullptr, ctx_attribs);
  if (!ctx || !make_current(dpy, nullptr, nullptr, ctx)) {
    why = "no OpenGL 3.3 core context";
    return false;
  }
  load(gl.gen_buffers, get_proc("glGenBuffers"));
  load(gl.bind_buffer, get_proc("glBindBuffer"));
  load(gl.buffer_data, get_proc("glBufferData"));
  load(gl.get_buffer_sub_data, get_proc("glGetBufferSubData"));
  load(gl.gen_textures, get_proc("glGenTextures"));
  load(gl.bind_texture, get_proc("glBindTexture"));
  load(gl.pixel_storei, get_proc("glPixelStorei"));
  load(gl.tex_image_2d, get_proc("glTexImage2D"));
  load(gl.get_tex_image, get_proc("glGetTexImage"));
  return true;
}

GLuint make_buffer(const Gl &gl, const std::vector<unsigned> &data) {
  GLuint name = 0;
  gl.gen_buffers(1, &name);
  gl.bind_buffer(GL_ARRAY_BUFFER, name);
  gl.buffer_data(GL_ARRAY_BUFFER, (GLsizeiptr)(data.size() * 4), data.data(), GL_DYNAMIC_DRAW);
  return name;
}

std::vector<unsigned> read_buffer(const Gl &gl, GLuint name, size_t n) {
  std::vector<unsigned> out(n);
  gl.bind_buffer(GL_ARRAY_BUFFER, name);
  gl.get_buffer_sub_data(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(n * 4), out.data());
  return out;
}

void expect_equal(const char *what, const std::vector<unsigned> &got, const std::vector<unsigned> &want) {
  for (size_t i = 0; i < want.size(); i++) {
    if (got[i] != want[i]) {
      std::fprintf(stderr, "%s[%zu]: %u, expected %u\n", what, i, got[i], want[i]);
      std::exit(1);
    }
  }
}

}  // namespace

int main() {
  const size_t n = 96;
  const int w = 5, h = 3;
  Gl gl;
  const char *why = "";
  if (!make_gl_context(gl, why)) {
    std::printf("no GL context (%s): nothing to test\nPASS gl_interop_runtime\n", why);
    return 0;
  }

  unsigned count = 0;
  int devices[4] = {-1, -1, -1, -1};
  CHECK(cudaGLGetDevices(&count, devices, 4, cudaGLDeviceListAll));
  if (count < 1 || devices[0] != 0) {
    std::fprintf(stderr, "cudaGLGetDevices: %u devices, the first %d\n", count, devices[0]);
    return 1;
  }

  // A buffer: read through the mapped pointer, then written through it.
  std::vector<unsigned> data(n), next(n);
  for (size_t i = 0; i < n; i++) {
    data[i] = (unsigned)(i * 2654435761u);
    next[i] = data[i] ^ 0x5a5a5a5au;
  }
  GLuint buffer = make_buffer(gl, data);
  cudaGraphicsResource_t res = nullptr;
  CHECK(cudaGraphicsGLRegisterBuffer(&res, buffer, cudaGraphicsRegisterFlagsNone));
  void *ptr = nullptr;
  size_t size = 0;
  EXPECT(cudaGraphicsResourceGetMappedPointer(&ptr, &size, res), cudaErrorNotMapped);
  CHECK(cudaGraphicsMapResources(1, &res, 0));
  EXPECT(cudaGraphicsMapResources(1, &res, 0), cudaErrorAlreadyMapped);
  CHECK(cudaGraphicsResourceGetMappedPointer(&ptr, &size, res));
  if (size != n * 4) {
    std::fprintf(stderr, "mapped size %zu, expected %zu\n", size, n * 4);
    return 1;
  }
  std::vector<unsigned> seen(n);
  CHECK(cudaMemcpy(seen.data(), ptr, n * 4, cudaMemcpyDeviceToHost));
  expect_equal("mapped buffer", seen, data);
  CHECK(cudaMemcpy(ptr, next.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaGraphicsUnmapResources(1, &res, 0));
  EXPECT(cudaGraphicsUnmapResources(1, &res, 0), cudaErrorNotMapped);
  expect_equal("buffer after unmap", read_buffer(gl, buffer, n), next);
  CHECK(cudaGraphicsUnregisterResource(res));
  EXPECT(cudaGraphicsUnregisterResource(res), cudaErrorInvalidResourceHandle);
  EXPECT(cudaGraphicsMapResources(-1, &res, 0), cudaErrorInvalidValue);

  // Read only: what CUDA writes is not written back.
  CHECK(cudaGraphicsGLRegisterBuffer(&res, buffer, cudaGraphicsRegisterFlagsReadOnly));
  CHECK(cudaGraphicsMapResources(1, &res, 0));
  CHECK(cudaGraphicsResourceGetMappedPointer(&ptr, &size, res));
  CHECK(cudaMemset(ptr, 0, n * 4));
  CHECK(cudaGraphicsUnmapResources(1, &res, 0));
  expect_equal("read-only buffer after unmap", read_buffer(gl, buffer, n), next);
  CHECK(cudaGraphicsUnregisterResource(res));

  // The deprecated buffer-object calls.
  GLuint legacy = make_buffer(gl, data);
  CHECK(cudaGLRegisterBufferObject(legacy));
  CHECK(cudaGLMapBufferObject(&ptr, legacy));
  CHECK(cudaMemcpy(seen.data(), ptr, n * 4, cudaMemcpyDeviceToHost));
  expect_equal("legacy mapped buffer", seen, data);
  CHECK(cudaMemcpy(ptr, next.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaGLUnmapBufferObject(legacy));
  expect_equal("legacy buffer after unmap", read_buffer(gl, legacy, n), next);
  CHECK(cudaGLUnregisterBufferObject(legacy));

  // A GL_RGBA8 texture through its array.
  std::vector<unsigned char> texels(w * h * 4), back(w * h * 4), got(w * h * 4);
  for (size_t i = 0; i < texels.size(); i++) {
    texels[i] = (unsigned char)(i * 7 + 3);
    back[i] = (unsigned char)(255 - i);
  }
  GLuint tex = 0;
  gl.gen_textures(1, &tex);
  gl.bind_texture(GL_TEXTURE_2D, tex);
  gl.pixel_storei(GL_UNPACK_ALIGNMENT, 1);
  gl.pixel_storei(GL_PACK_ALIGNMENT, 1);
  gl.tex_image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  CHECK(cudaGraphicsGLRegisterImage(&res, tex, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsNone));
  CHECK(cudaGraphicsMapResources(1, &res, 0));
  cudaArray_t array = nullptr;
  CHECK(cudaGraphicsSubResourceGetMappedArray(&array, res, 0, 0));
  EXPECT(cudaGraphicsResourceGetMappedPointer(&ptr, &size, res), cudaErrorNotMappedAsPointer);
  CHECK(cudaMemcpy2DFromArray(got.data(), w * 4, array, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < got.size(); i++) {
    if (got[i] != texels[i]) {
      std::fprintf(stderr, "texel byte %zu: %u, expected %u\n", i, got[i], texels[i]);
      return 1;
    }
  }
  CHECK(cudaMemcpy2DToArray(array, 0, 0, back.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  CHECK(cudaGraphicsUnmapResources(1, &res, 0));
  gl.bind_texture(GL_TEXTURE_2D, tex);
  gl.get_tex_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got.data());
  for (size_t i = 0; i < got.size(); i++) {
    if (got[i] != back[i]) {
      std::fprintf(stderr, "texel byte %zu after unmap: %u, expected %u\n", i, got[i], back[i]);
      return 1;
    }
  }
  CHECK(cudaGraphicsUnregisterResource(res));
  EXPECT(cudaGraphicsGLRegisterBuffer(&res, buffer, 0x40), cudaErrorInvalidValue);

  std::printf("PASS gl_interop_runtime\n");
  return 0;
}
