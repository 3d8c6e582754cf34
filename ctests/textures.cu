// Texture and surface objects over CUDA arrays, linear and pitched memory: every sampling
// mode the CUDA Programming Guide describes ("Texture Fetching": nearest-point and linear
// filtering, the four address modes, normalized coordinates, read modes) and the surface
// loads and stores with their boundary modes, plus the array copies that fill them.
// Each case's results (the four components of every fetch, as raw 32-bit words) are folded
// into an FNV-1a hash and compared with the hash NVIDIA's H100/H200 gave
// (textures_expected.inc). `TEXTURES_PRINT=1` prints this machine's table in that form;
// `TEXTURES_DUMP=1` prints every fetched value.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CTEST_NAME "textures"
#include "ctest.h"

enum Geom { GCUBE, G1D, G2D, G3D, G1DLAYERED, G2DLAYERED, G1DFETCH, G2DGATHER0, G2DGATHER1, G2DGATHER2, G2DGATHER3, G2DLOD };

// coords: (x, y, z, w); w is the layer of layered fetches and the level of G2DLOD;
// G1DFETCH takes (int)x.
template <class T>
__global__ void sample(cudaTextureObject_t t, int geom, const float4 *coords, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 c = coords[i];
  T r;
  switch (geom) {
    case GCUBE: r = texCubemap<T>(t, c.x, c.y, c.z); break;
    case G1D: r = tex1D<T>(t, c.x); break;
    case G2D: r = tex2D<T>(t, c.x, c.y); break;
    case G3D: r = tex3D<T>(t, c.x, c.y, c.z); break;
    case G1DLAYERED: r = tex1DLayered<T>(t, c.x, (int)c.w); break;
    case G2DLAYERED: r = tex2DLayered<T>(t, c.x, c.y, (int)c.w); break;
    case G1DFETCH: r = tex1Dfetch<T>(t, (int)c.x); break;
    case G2DGATHER0: r = tex2Dgather<T>(t, c.x, c.y, 0); break;
    case G2DGATHER1: r = tex2Dgather<T>(t, c.x, c.y, 1); break;
    case G2DGATHER2: r = tex2Dgather<T>(t, c.x, c.y, 2); break;
    case G2DGATHER3: r = tex2Dgather<T>(t, c.x, c.y, 3); break;
    default: r = tex2DLod<T>(t, c.x, c.y, c.w); break;
  }
  out[i] = r;
}

// One case's results, hashed and optionally printed.
struct Case {
  const char *name;
  std::vector<unsigned> words;
};
static std::vector<Case> g_cases;

static void record(const char *name, const void *words, size_t count) {
  const unsigned *w = (const unsigned *)words;
  g_cases.push_back({name, std::vector<unsigned>(w, w + count)});
}

template <class T>
static void run_sample(const char *name, cudaTextureObject_t t, Geom geom, const std::vector<float4> &coords) {
  int n = (int)coords.size();
  float4 *c;
  T *out;
  CHECK(cudaMalloc(&c, n * sizeof(float4)));
  CHECK(cudaMalloc(&out, n * sizeof(T)));
  CHECK(cudaMemcpy(c, coords.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  sample<T><<<(n + 63) / 64, 64>>>(t, geom, c, out, n);
  CHECK_LAUNCH();
  std::vector<T> host(n);
  CHECK(cudaMemcpy(host.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
  record(name, host.data(), n * sizeof(T) / 4);
  CHECK(cudaFree(c));
  CHECK(cudaFree(out));
}

static cudaTextureDesc tex_desc(cudaTextureAddressMode mode, cudaTextureFilterMode filter, bool normalized,
                                cudaTextureReadMode read = cudaReadModeElementType) {
  cudaTextureDesc d;
  memset(&d, 0, sizeof(d));
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = mode;
  d.filterMode = filter;
  d.readMode = read;
  d.normalizedCoords = normalized;
  if (mode == cudaAddressModeBorder) {
    d.borderColor[0] = 0.5f;
    d.borderColor[1] = -2.0f;
    d.borderColor[2] = 3.0f;
    d.borderColor[3] = 7.0f;
  }
  return d;
}

static cudaTextureObject_t array_texture(cudaArray_t a, const cudaTextureDesc &d) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof(r));
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr));
  return t;
}

static std::vector<float4> line_coords(float from, float to, float step, float y = 0, float z = 0, float w = 0) {
  std::vector<float4> v;
  for (float x = from; x <= to; x += step) v.push_back(make_float4(x, y, z, w));
  return v;
}

static const char *mode_name(cudaTextureAddressMode m) {
  switch (m) {
    case cudaAddressModeWrap: return "wrap";
    case cudaAddressModeClamp: return "clamp";
    case cudaAddressModeMirror: return "mirror";
    default: return "border";
  }
}

// 1-D float array of five texels: every address mode and filter, plain and normalized.
static void cases_1d() {
  const float texels[5] = {1, 2, 4, 8, 16};
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &f, 5));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, texels, sizeof(texels), sizeof(texels), 1, cudaMemcpyHostToDevice));
  static char names[32][64];
  int k = 0;
  const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
                                           cudaAddressModeBorder};
  for (int normalized = 0; normalized < 2; ++normalized)
    for (int filter = 0; filter < 2; ++filter)
      for (cudaTextureAddressMode m : modes) {
        // Wrap and mirror need normalized coordinates (Programming Guide, "Texture Object API").
        if (!normalized && (m == cudaAddressModeWrap || m == cudaAddressModeMirror)) continue;
        cudaTextureObject_t t = array_texture(a, tex_desc(m, filter ? cudaFilterModeLinear : cudaFilterModePoint, normalized));
        snprintf(names[k], sizeof(names[k]), "1d_%s_%s_%s", normalized ? "norm" : "plain", filter ? "linear" : "point",
                 mode_name(m));
        std::vector<float4> c = normalized ? line_coords(-1.5f, 2.5f, 1.0f / 64) : line_coords(-2, 7, 1.0f / 16);
        run_sample<float4>(names[k++], t, G1D, c);
        CHECK(cudaDestroyTextureObject(t));
      }
  // Linear filtering weights: two texels 0 and 1 between their centres, in 1/1024 steps,
  // show the fixed-point precision of the weight (8 fractional bits in the guide).
  const float ramp[2] = {0, 1};
  cudaArray_t b;
  CHECK(cudaMallocArray(&b, &f, 2));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  CHECK(cudaMemcpyToArray(b, 0, 0, ramp, sizeof(ramp), cudaMemcpyHostToDevice));  // deprecated, still used
#pragma GCC diagnostic pop
  cudaTextureObject_t t = array_texture(b, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false));
  run_sample<float4>("1d_linear_weights", t, G1D, line_coords(0.5f, 1.5f, 1.0f / 1024));
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(b));
  CHECK(cudaFreeArray(a));
}

// 2-D float4 array 3x2: bilinear blending per channel, gather, level-of-detail on an array
// without mipmaps.
static void cases_2d() {
  float4 texels[2][3];
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) texels[y][x] = make_float4(x + 10 * y, 100 + x * x, -y, 0.25f * (x + y));
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float4>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &f, 3, 2));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, texels, 3 * sizeof(float4), 3 * sizeof(float4), 2, cudaMemcpyHostToDevice));
  std::vector<float4> c;
  for (float y = -0.75f; y <= 2.75f; y += 0.25f)
    for (float x = -0.75f; x <= 3.75f; x += 0.375f) c.push_back(make_float4(x, y, 0, 0));
  cudaTextureObject_t t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, false));
  run_sample<float4>("2d_point_clamp", t, G2D, c);
  run_sample<float4>("2d_gather0", t, G2DGATHER0, c);
  run_sample<float4>("2d_gather1", t, G2DGATHER1, c);
  run_sample<float4>("2d_gather3", t, G2DGATHER3, c);
  CHECK(cudaDestroyTextureObject(t));
  t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false));
  run_sample<float4>("2d_linear_clamp", t, G2D, c);
  std::vector<float4> lod = c;
  for (size_t i = 0; i < lod.size(); ++i) lod[i].w = (float)(i % 3) * 0.75f;
  run_sample<float4>("2d_linear_lod", t, G2DLOD, lod);
  CHECK(cudaDestroyTextureObject(t));
  t = array_texture(a, tex_desc(cudaAddressModeBorder, cudaFilterModeLinear, false));
  run_sample<float4>("2d_linear_border", t, G2D, c);
  CHECK(cudaDestroyTextureObject(t));
  std::vector<float4> n;
  for (float y = -0.5f; y <= 1.5f; y += 0.125f)
    for (float x = -0.5f; x <= 1.5f; x += 0.125f) n.push_back(make_float4(x, y, 0, 0));
  t = array_texture(a, tex_desc(cudaAddressModeWrap, cudaFilterModeLinear, true));
  run_sample<float4>("2d_norm_linear_wrap", t, G2D, n);
  CHECK(cudaDestroyTextureObject(t));
  t = array_texture(a, tex_desc(cudaAddressModeMirror, cudaFilterModePoint, true));
  run_sample<float4>("2d_norm_point_mirror", t, G2D, n);
  CHECK(cudaDestroyTextureObject(t));

  // Copy out of the array at an offset: the region's rows as stored.
  float4 back[2][2];
  CHECK(cudaMemcpy2DFromArray(back, 2 * sizeof(float4), a, sizeof(float4), 0, 2 * sizeof(float4), 2, cudaMemcpyDeviceToHost));
  record("2d_copy_back", back, sizeof(back) / 4);
  CHECK(cudaFreeArray(a));
}

// Integer formats: normalized-float reads (8- and 16-bit, signed and unsigned), element
// reads, half texels, and the values of channels a format does not have.
static void cases_formats() {
  std::vector<float4> c;
  for (float y = 0; y <= 2; y += 0.25f)
    for (float x = 0; x <= 2; x += 0.25f) c.push_back(make_float4(x, y, 0, 0));
  {
    const uchar4 texels[4] = {make_uchar4(0, 255, 128, 1), make_uchar4(10, 20, 30, 40), make_uchar4(255, 0, 7, 200),
                              make_uchar4(3, 99, 250, 64)};
    cudaChannelFormatDesc f = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &f, 2, 2));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, texels, 2 * sizeof(uchar4), 2 * sizeof(uchar4), 2, cudaMemcpyHostToDevice));
    cudaTextureObject_t t =
        array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false, cudaReadModeNormalizedFloat));
    run_sample<float4>("uchar4_normalized_linear", t, G2D, c);
    CHECK(cudaDestroyTextureObject(t));
    t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, false, cudaReadModeElementType));
    run_sample<uint4>("uchar4_element", t, G2D, c);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  {
    const signed char texels[4] = {-128, -127, 0, 127};
    cudaChannelFormatDesc f = cudaCreateChannelDesc<signed char>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &f, 4));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, texels, 4, 4, 1, cudaMemcpyHostToDevice));
    cudaTextureObject_t t =
        array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false, cudaReadModeNormalizedFloat));
    run_sample<float4>("char1_normalized_linear", t, G1D, line_coords(0, 4, 0.25f));
    CHECK(cudaDestroyTextureObject(t));
    t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, false));
    run_sample<int4>("char1_element", t, G1D, line_coords(0, 4, 0.5f));
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  {
    const unsigned short texels[4] = {0, 1, 32768, 65535};
    const short stexels[4] = {-32768, -1, 1, 32767};
    cudaChannelFormatDesc f = cudaCreateChannelDesc<ushort2>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &f, 2));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, texels, 8, 8, 1, cudaMemcpyHostToDevice));
    cudaTextureObject_t t =
        array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false, cudaReadModeNormalizedFloat));
    run_sample<float4>("ushort2_normalized_linear", t, G1D, line_coords(0, 2, 0.125f));
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    f = cudaCreateChannelDesc<short1>();
    CHECK(cudaMallocArray(&a, &f, 4));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, stexels, 8, 8, 1, cudaMemcpyHostToDevice));
    t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, false, cudaReadModeNormalizedFloat));
    run_sample<float4>("short1_normalized_point", t, G1D, line_coords(0, 4, 0.5f));
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  {
    const unsigned texels[3] = {7, 0xffffffffu, 0x80000000u};
    cudaChannelFormatDesc f = cudaCreateChannelDesc<unsigned>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &f, 3));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, texels, 12, 12, 1, cudaMemcpyHostToDevice));
    cudaTextureObject_t t = array_texture(a, tex_desc(cudaAddressModeBorder, cudaFilterModePoint, false));
    run_sample<uint4>("uint1_element_border", t, G1D, line_coords(-1, 4, 0.5f));
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  {
    // Half texels (0x3c00 = 1, 0xc000 = -2, 0x7bff = 65504, 0x0001 = the smallest subnormal).
    const unsigned short texels[4] = {0x3c00, 0xc000, 0x7bff, 0x0001};
    cudaChannelFormatDesc f = cudaCreateChannelDescHalf();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &f, 4));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, texels, 8, 8, 1, cudaMemcpyHostToDevice));
    cudaTextureObject_t t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false));
    run_sample<float4>("half1_linear", t, G1D, line_coords(0, 4, 0.25f));
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
}

// Linear and pitched memory.
static void cases_linear() {
  const int n = 6;
  float *d;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  const float h[n] = {3, -1, 0.5f, 9, 27, -8};
  CHECK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  cudaResourceDesc r;
  memset(&r, 0, sizeof(r));
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = d;
  r.res.linear.desc = cudaCreateChannelDesc<float>();
  r.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td = tex_desc(cudaAddressModeClamp, cudaFilterModePoint, false);
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
  run_sample<float4>("linear_fetch", t, G1DFETCH, line_coords(-3, 9, 1));
  CHECK(cudaDestroyTextureObject(t));

  // Pitched 2D: 3x3 floats in rows of `pitch` bytes.
  size_t pitch;
  float *p;
  CHECK(cudaMallocPitch(&p, &pitch, 3 * sizeof(float), 3));
  const float rows[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 100}};
  CHECK(cudaMemcpy2D(p, pitch, rows, 3 * sizeof(float), 3 * sizeof(float), 3, cudaMemcpyHostToDevice));
  memset(&r, 0, sizeof(r));
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = p;
  r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  r.res.pitch2D.width = 3;
  r.res.pitch2D.height = 3;
  r.res.pitch2D.pitchInBytes = pitch;
  td = tex_desc(cudaAddressModeWrap, cudaFilterModeLinear, true);
  CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
  std::vector<float4> c;
  for (float y = -0.25f; y <= 1.25f; y += 0.125f)
    for (float x = -0.25f; x <= 1.25f; x += 0.125f) c.push_back(make_float4(x, y, 0, 0));
  run_sample<float4>("pitch2d_norm_linear_wrap", t, G2D, c);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFree(p));
  CHECK(cudaFree(d));
}

// 3-D and layered arrays.
static void cases_3d_layered() {
  const int w = 3, h = 2, dpt = 2;
  float v[dpt][h][w];
  for (int z = 0; z < dpt; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) v[z][y][x] = x + 4 * y + 16 * z;
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(w, h, dpt)));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(v, w * sizeof(float), w, h);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h, dpt);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  std::vector<float4> c;
  for (float z = -0.5f; z <= 2.5f; z += 0.5f)
    for (float y = 0; y <= 2; y += 0.5f)
      for (float x = 0; x <= 3; x += 0.75f) c.push_back(make_float4(x, y, z, 0));
  cudaTextureObject_t t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false));
  run_sample<float4>("3d_linear_clamp", t, G3D, c);
  CHECK(cudaDestroyTextureObject(t));
  t = array_texture(a, tex_desc(cudaAddressModeBorder, cudaFilterModePoint, false));
  run_sample<float4>("3d_point_border", t, G3D, c);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));

  // Two layers of 3x2; layer indices past the last clamp or not (the guide leaves it open).
  cudaArray_t l;
  CHECK(cudaMalloc3DArray(&l, &f, make_cudaExtent(w, h, 2), cudaArrayLayered));
  p.dstArray = l;
  CHECK(cudaMemcpy3D(&p));
  std::vector<float4> lc;
  for (int layer = -1; layer <= 2; ++layer)
    for (float y = 0; y <= 2; y += 0.5f)
      for (float x = 0; x <= 3; x += 0.75f) lc.push_back(make_float4(x, y, 0, (float)layer));
  t = array_texture(l, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false));
  run_sample<float4>("2d_layered_linear", t, G2DLAYERED, lc);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(l));
  cudaArray_t l1;
  CHECK(cudaMalloc3DArray(&l1, &f, make_cudaExtent(w, 0, 2), cudaArrayLayered));
  p.srcPtr = make_cudaPitchedPtr(v, w * sizeof(float), w, 1);
  p.dstArray = l1;
  p.extent = make_cudaExtent(w, 1, 2);
  CHECK(cudaMemcpy3D(&p));
  t = array_texture(l1, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, false));
  lc.clear();
  for (int layer = 0; layer <= 1; ++layer)
    for (float x = -1; x <= 4; x += 0.5f) lc.push_back(make_float4(x, 0, 0, (float)layer));
  run_sample<float4>("1d_layered_point", t, G1DLAYERED, lc);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(l1));
}

// A cubemap of 2x2 faces, each texel face * 10 + y * 2 + x, sampled along directions that
// hit every face, its edges and corners.
static void cases_cubemap() {
  const int w = 2;
  float v[6][w][w];
  for (int face = 0; face < 6; ++face)
    for (int y = 0; y < w; ++y)
      for (int x = 0; x < w; ++x) v[face][y][x] = face * 10 + y * 2 + x;
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(w, w, 6), cudaArrayCubemap));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(v, w * sizeof(float), w, w);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, w, 6);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  std::vector<float4> c;
  const float s[5] = {-1, -0.4f, 0, 0.3f, 1};
  for (float x : s)
    for (float y : s)
      for (float z : s) c.push_back(make_float4(x, y, z, 0));
  c.push_back(make_float4(2, 0.5f, -0.25f, 0));
  c.push_back(make_float4(-0.1f, -3, 1.5f, 0));
  cudaTextureObject_t t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, true));
  run_sample<float4>("cubemap_point", t, GCUBE, c);
  CHECK(cudaDestroyTextureObject(t));
  t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, true));
  run_sample<float4>("cubemap_linear", t, GCUBE, c);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));
}

// Surfaces: byte-addressed loads and stores, and the three boundary modes of loads.
__global__ void surface_write(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) surf2Dwrite(1000.0f * y + x, s, x * (int)sizeof(float), y);
}

__global__ void surface_read(cudaSurfaceObject_t s, float *out, int w, int h) {
  int x = threadIdx.x - 1, y = threadIdx.y - 1, i = threadIdx.y * blockDim.x + threadIdx.x;
  int n = blockDim.x * blockDim.y;
  float z = -1, c = -1;
  surf2Dread(&z, s, x * (int)sizeof(float), y, cudaBoundaryModeZero);
  surf2Dread(&c, s, x * (int)sizeof(float), y, cudaBoundaryModeClamp);
  out[i] = z;
  out[n + i] = c;
}

__global__ void surface_bytes(cudaSurfaceObject_t s, uchar4 *out) {
  int x = threadIdx.x;
  uchar4 v = make_uchar4(x, 2 * x, 255 - x, 7);
  surf1Dwrite(v, s, x * 4);
  __syncthreads();
  out[x] = surf1Dread<uchar4>(s, ((x + 1) % blockDim.x) * 4);
}

__global__ void surface_3d(cudaSurfaceObject_t s, float *out) {
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  surf3Dwrite((float)(x + 10 * y + 100 * z), s, x * 4, y, z);
  __syncthreads();
  out[(z * blockDim.y + y) * blockDim.x + x] = surf3Dread<float>(s, ((x + 1) % blockDim.x) * 4, y, z);
}

__global__ void surface_fill_texture(cudaSurfaceObject_t s) {
  surf2Dwrite(make_float2(threadIdx.x, -(float)threadIdx.y), s, threadIdx.x * 8, threadIdx.y);
}

static cudaSurfaceObject_t surface(cudaArray_t a) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof(r));
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &r));
  return s;
}

static void cases_surfaces() {
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  const int w = 4, h = 3;
  CHECK(cudaMallocArray(&a, &f, w, h, cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t s = surface(a);
  surface_write<<<1, dim3(w, h)>>>(s, w, h);
  CHECK_LAUNCH();
  float *out;
  CHECK(cudaMalloc(&out, 2 * (w + 2) * (h + 2) * sizeof(float)));
  surface_read<<<1, dim3(w + 2, h + 2)>>>(s, out, w, h);
  CHECK_LAUNCH();
  std::vector<float> host(2 * (w + 2) * (h + 2));
  CHECK(cudaMemcpy(host.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  record("surface_2d_boundary", host.data(), host.size());
  float back[h][w];
  CHECK(cudaMemcpy2DFromArray(back, w * sizeof(float), a, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost));
  record("surface_2d_copy_back", back, w * h);
  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaFreeArray(a));

  cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
  CHECK(cudaMallocArray(&a, &u4, 16, 0, cudaArraySurfaceLoadStore));
  s = surface(a);
  uchar4 *bytes;
  CHECK(cudaMalloc(&bytes, 16 * sizeof(uchar4)));
  surface_bytes<<<1, 16>>>(s, bytes);
  CHECK_LAUNCH();
  uchar4 hb[16];
  CHECK(cudaMemcpy(hb, bytes, sizeof(hb), cudaMemcpyDeviceToHost));
  record("surface_1d_uchar4", hb, 16);
  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFree(bytes));

  cudaArray_t v;
  CHECK(cudaMalloc3DArray(&v, &f, make_cudaExtent(4, 2, 3), cudaArraySurfaceLoadStore));
  s = surface(v);
  surface_3d<<<1, dim3(4, 2, 3)>>>(s, out);
  CHECK_LAUNCH();
  float h3[24];
  CHECK(cudaMemcpy(h3, out, sizeof(h3), cudaMemcpyDeviceToHost));
  record("surface_3d", h3, 24);
  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaFreeArray(v));

  // Written through a surface, read through a texture of the same array.
  cudaChannelFormatDesc f2 = cudaCreateChannelDesc<float2>();
  CHECK(cudaMallocArray(&a, &f2, 4, 4, cudaArraySurfaceLoadStore));
  s = surface(a);
  surface_fill_texture<<<1, dim3(4, 4)>>>(s);
  CHECK_LAUNCH();
  cudaTextureObject_t t = array_texture(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false));
  run_sample<float4>("surface_then_texture", t, G2D, line_coords(0, 4, 0.375f, 1.75f));
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFree(out));
}

// What the API answers: descriptors read back, and the codes of misuse.
static void cases_api() {
  std::vector<unsigned> w;
  cudaChannelFormatDesc f = cudaCreateChannelDesc<short2>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &f, 7, 5));
  cudaChannelFormatDesc g;
  cudaExtent e;
  unsigned flags = 99;
  CHECK(cudaArrayGetInfo(&g, &e, &flags, a));
  w.insert(w.end(), {(unsigned)g.x, (unsigned)g.y, (unsigned)g.z, (unsigned)g.w, (unsigned)g.f, (unsigned)e.width,
                     (unsigned)e.height, (unsigned)e.depth, flags});
  CHECK(cudaGetChannelDesc(&g, a));
  w.insert(w.end(), {(unsigned)g.x, (unsigned)g.y, (unsigned)g.f});
  cudaTextureDesc td = tex_desc(cudaAddressModeMirror, cudaFilterModeLinear, true, cudaReadModeNormalizedFloat);
  td.sRGB = 0;
  td.maxAnisotropy = 3;
  cudaTextureObject_t t = array_texture(a, td);
  cudaResourceDesc r;
  memset(&r, 0x5a, sizeof(r));
  CHECK(cudaGetTextureObjectResourceDesc(&r, t));
  w.push_back((unsigned)r.resType);
  w.push_back(r.res.array.array == a);
  cudaTextureDesc back;
  memset(&back, 0x5a, sizeof(back));
  CHECK(cudaGetTextureObjectTextureDesc(&back, t));
  w.insert(w.end(), {(unsigned)back.addressMode[0], (unsigned)back.addressMode[2], (unsigned)back.filterMode,
                     (unsigned)back.readMode, (unsigned)back.normalizedCoords, back.maxAnisotropy});
  CHECK(cudaDestroyTextureObject(t));

  // A surface over an array made without cudaArraySurfaceLoadStore.
  memset(&r, 0, sizeof(r));
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  w.push_back((unsigned)cudaCreateSurfaceObject(&s, &r));
  cudaGetLastError();
  // Linear filtering of an integer texture read as integers.
  cudaArray_t ia;
  cudaChannelFormatDesc i1 = cudaCreateChannelDesc<int>();
  CHECK(cudaMallocArray(&ia, &i1, 4));
  cudaTextureDesc bad = tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, false, cudaReadModeElementType);
  r.res.array.array = ia;
  t = 0;
  w.push_back((unsigned)cudaCreateTextureObject(&t, &r, &bad, nullptr));
  if (t != 0) cudaDestroyTextureObject(t);
  cudaGetLastError();
  // A linear resource past its allocation's alignment rules: a misaligned pointer.
  char *d;
  CHECK(cudaMalloc(&d, 1024));
  memset(&r, 0, sizeof(r));
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = d + 4;
  r.res.linear.desc = cudaCreateChannelDesc<float>();
  r.res.linear.sizeInBytes = 256;
  cudaTextureDesc pt = tex_desc(cudaAddressModeClamp, cudaFilterModePoint, false);
  t = 0;
  w.push_back((unsigned)cudaCreateTextureObject(&t, &r, &pt, nullptr));
  if (t != 0) cudaDestroyTextureObject(t);
  cudaGetLastError();
  // A zero-width array.
  cudaArray_t z = nullptr;
  w.push_back((unsigned)cudaMallocArray(&z, &f, 0, 0));
  cudaGetLastError();
  w.push_back((unsigned)cudaFreeArray(nullptr));
  cudaGetLastError();
  CHECK(cudaFree(d));
  CHECK(cudaFreeArray(ia));
  CHECK(cudaFreeArray(a));
  record("api_answers", w.data(), w.size());
}

struct Expected {
  const char *name;
  unsigned long long hash;
};
static const Expected kExpected[] = {
#define EXPECT_CASE(name, hash) {name, hash},
#include "textures_expected.inc"
#undef EXPECT_CASE
    {nullptr, 0}};

int main() {
  cases_1d();
  cases_2d();
  cases_formats();
  cases_linear();
  cases_3d_layered();
  cases_cubemap();
  cases_surfaces();
  cases_api();
  bool print = getenv("TEXTURES_PRINT") != nullptr;
  bool dump = getenv("TEXTURES_DUMP") != nullptr;
  const size_t expected = sizeof(kExpected) / sizeof(kExpected[0]) - 1;
  EXPECT(print || expected == g_cases.size(), "%zu cases, %zu expected hashes", g_cases.size(), expected);
  for (size_t c = 0; c < g_cases.size(); ++c) {
    const Case &k = g_cases[c];
    unsigned long long h = 0xcbf29ce484222325ull;
    for (unsigned word : k.words) {
      h ^= word;
      h *= 0x100000001b3ull;
    }
    if (print) printf("EXPECT_CASE(\"%s\", 0x%016llxull)\n", k.name, h);
    if (dump) {
      printf("%s:", k.name);
      for (size_t i = 0; i < k.words.size(); ++i) {
        float f;
        memcpy(&f, &k.words[i], 4);
        printf(i % 4 == 0 ? "\n  %08x(%g)" : " %08x(%g)", k.words[i], f);
      }
      printf("\n");
    }
    if (!print && c < expected) {
      EXPECT(strcmp(kExpected[c].name, k.name) == 0, "case %zu is %s, expected %s", c, k.name, kExpected[c].name);
      EXPECT(h == kExpected[c].hash, "%s: hash 0x%016llx, NVIDIA's 0x%016llx", k.name, h, kExpected[c].hash);
    }
  }
  return print ? 0 : ctest_finish();
}
