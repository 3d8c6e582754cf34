// Mipmapped arrays through the runtime: cudaMallocMipmappedArray clamps the level count to
// 1 + floor(log2(largest extent)), each level (cudaGetMipmappedArrayLevel) is an array with
// halved extents that copies reach (cudaMemcpy2DToArray / FromArray) and a surface object
// over it writes (surf2Dwrite); levels are distinct memory. A texture object without a
// resource view answers cudaErrorInvalidValue to cudaGetTextureObjectResourceViewDesc.
#define CTEST_NAME "mipmap_levels"
#include "ctest.h"

static const int kWidth = 64, kHeight = 16;

// v[y][x] = v[y][x] * 2 + level, through the surface of one level.
__global__ void double_level(cudaSurfaceObject_t s, int w, int h, float level) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) {
    float v = surf2Dread<float>(s, x * (int)sizeof(float), y);
    surf2Dwrite(v * 2.0f + level, s, x * (int)sizeof(float), y);
  }
}

static float value(int level, int x, int y) { return (float)(level * 1000 + y * 64 + x); }

int main() {
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  // 9 levels asked for; a 64 x 16 array has 1 + log2(64) = 7.
  CHECK(cudaMallocMipmappedArray(&m, &f, make_cudaExtent(kWidth, kHeight, 0), 9, cudaArraySurfaceLoadStore));
  const int levels = 7;
  cudaArray_t level_arrays[levels];
  for (int l = 0; l < levels; ++l) {
    CHECK(cudaGetMipmappedArrayLevel(&level_arrays[l], m, l));
    cudaChannelFormatDesc got;
    cudaExtent e;
    unsigned flags;
    CHECK(cudaArrayGetInfo(&got, &e, &flags, level_arrays[l]));
    int w = kWidth >> l > 0 ? kWidth >> l : 1, h = kHeight >> l > 0 ? kHeight >> l : 1;
    EXPECT((int)e.width == w && (int)e.height == h && e.depth == 0, "level %d: %zu x %zu x %zu, want %d x %d x 0", l,
           e.width, e.height, e.depth, w, h);
    EXPECT(got.x == 32 && got.f == cudaChannelFormatKindFloat, "level %d format", l);
    for (int k = 0; k < l; ++k) EXPECT(level_arrays[k] != level_arrays[l], "levels %d and %d are one array", k, l);
  }
  cudaArray_t past;
  EXPECT(cudaGetMipmappedArrayLevel(&past, m, levels) == cudaErrorInvalidValue, "a level past the last");
  cudaGetLastError();

  // Fill every level, double levels 1 and 3 through surfaces, read every level back.
  float *host = (float *)malloc(kWidth * kHeight * sizeof(float));
  for (int l = 0; l < levels; ++l) {
    int w = kWidth >> l > 0 ? kWidth >> l : 1, h = kHeight >> l > 0 ? kHeight >> l : 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) host[y * w + x] = value(l, x, y);
    CHECK(cudaMemcpy2DToArray(level_arrays[l], 0, 0, host, w * sizeof(float), w * sizeof(float), h,
                              cudaMemcpyHostToDevice));
  }
  for (int l : {1, 3}) {
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = level_arrays[l];
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    int w = kWidth >> l, h = kHeight >> l;
    double_level<<<dim3(ceil_div(w, 32), h), 32>>>(s, w, h, (float)l);
    CHECK_LAUNCH();
    CHECK(cudaDestroySurfaceObject(s));
  }
  for (int l = 0; l < levels; ++l) {
    int w = kWidth >> l > 0 ? kWidth >> l : 1, h = kHeight >> l > 0 ? kHeight >> l : 1;
    CHECK(cudaMemcpy2DFromArray(host, w * sizeof(float), level_arrays[l], 0, 0, w * sizeof(float), h,
                                cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float want = (l == 1 || l == 3) ? value(l, x, y) * 2.0f + l : value(l, x, y);
        EXPECT(host[y * w + x] == want, "level %d (%d, %d) = %g, want %g", l, x, y, host[y * w + x], want);
      }
  }
  free(host);

  // A texture object over one level, created without a resource view.
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = level_arrays[0];
  cudaTextureDesc t;
  memset(&t, 0, sizeof t);
  t.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &r, &t, nullptr));
  cudaResourceViewDesc view;
  EXPECT(cudaGetTextureObjectResourceViewDesc(&view, tex) == cudaErrorInvalidValue, "no resource view was set");
  cudaGetLastError();
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeMipmappedArray(m));
  return ctest_finish();
}
