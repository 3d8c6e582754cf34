/* CUDA arrays and texture and surface objects through the driver API, against our
 * include/cuda.h alone: what each misuse answers (the codes in the table are those
 * NVIDIA's driver 580 gave on an H200 for the same calls, except the last: see there), and a point-sampled fetch
 * through a hand-written PTX kernel checked against the texels on the host.
 * TEXTURE_CODES_PRINT=1 prints this machine's codes in the table's form.
 * Prints "PASS texture_codes" on success. */
#include <cuda.h>

#include "host_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* out[i] = tex.2d(t, (i % 4) + 0.5, (i / 4) + 0.5).x for i < 8, point sampled. */
static const char fetch_ptx[] =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry fetch(.param .u64 t, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .f32 %f<8>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [t];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 3;\n"
    "  shr.u32 %r3, %r1, 2;\n"
    "  cvt.rn.f32.u32 %f1, %r2;\n"
    "  cvt.rn.f32.u32 %f2, %r3;\n"
    "  add.f32 %f1, %f1, 0f3F000000;\n"
    "  add.f32 %f2, %f2, 0f3F000000;\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.f32 [%rd4], %f3;\n"
    "  ret;\n"
    "}\n";

struct Case {
  const char *name;
  int expected;
};

/* NVIDIA's answers (H200, driver 580.159), in the order the program makes the calls. */
static const struct Case kExpected[] = {
    {"array_width_0", 1},
    {"array_3_channels", 1},
    {"array_bad_format", 1},
    {"array_null_descriptor", 1},
    {"array_null_out", 1},
    {"array3d_cubemap_not_square", 1},
    {"array3d_layered_0_layers", 1},
    {"array_destroy_null", 400},
    {"array_descriptor_of_3d", 0},
    {"htoa_past_end", 1},
    {"htoa_2d_array", 0},
    {"memcpy2d_past_array", 1},
    {"tex_null_resource", 1},
    {"tex_null_texture_desc", 1},
    {"tex_bad_resource_type", 1},
    {"tex_bad_address_mode", 1},
    {"tex_linear_misaligned", 1},
    {"tex_destroy_0", 0},
    {"tex_resource_of_bogus", 1},
    {"surf_over_linear", 1},
    {"surf_destroy_0", 0},
    /* NVIDIA's driver crashes (segmentation fault) on a destroyed array; ours answers
     * CUDA_ERROR_INVALID_HANDLE, as for any stale handle. */
    {"array_destroy_twice", 400},
};
#define CASES ((int)(sizeof(kExpected) / sizeof(kExpected[0])))

static int got[64];
static int ncases = 0;

static void answer(CUresult rc) {
  if (getenv("TEXTURE_CODES_TRACE") != NULL && ncases < CASES) {
    printf("  %s -> %d\n", kExpected[ncases].name, (int)rc);
    fflush(stdout);
  }
  got[ncases++] = (int)rc;
}

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));

  /* A 4x2 float array with known texels, fetched by a PTX kernel. */
  CUDA_ARRAY_DESCRIPTOR ad;
  memset(&ad, 0, sizeof(ad));
  ad.Width = 4;
  ad.Height = 2;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 1;
  CUarray arr;
  CHECK(cuArrayCreate(&arr, &ad));
  float texels[8], back[8];
  CUDA_MEMCPY2D up;
  memset(&up, 0, sizeof(up));
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = texels;
  up.srcPitch = 16;
  up.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  up.dstArray = arr;
  up.WidthInBytes = 16;
  up.Height = 2;
  for (int i = 0; i < 8; ++i) texels[i] = (float)(i * i) - 3.5f;
  CHECK(cuMemcpy2D(&up));
  /* The byte-offset copies take 1-D arrays: round trip through one of 8 texels. */
  CUDA_ARRAY_DESCRIPTOR ad1 = ad;
  ad1.Width = 8;
  ad1.Height = 0;
  CUarray line;
  CHECK(cuArrayCreate(&line, &ad1));
  CHECK(cuMemcpyHtoA(line, 4, texels, sizeof(texels) - 4));
  CHECK(cuMemcpyAtoH(back, line, 4, sizeof(back) - 4));
  int failures = 0;
  for (int i = 0; i < 7; ++i) failures += back[i] != texels[i];

  CUDA_RESOURCE_DESC rd;
  memset(&rd, 0, sizeof(rd));
  rd.resType = CU_RESOURCE_TYPE_ARRAY;
  rd.res.array.hArray = arr;
  CUDA_TEXTURE_DESC td;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  td.filterMode = CU_TR_FILTER_MODE_POINT;
  CUtexObject tex;
  CHECK(cuTexObjectCreate(&tex, &rd, &td, NULL));
  CUmodule mod;
  CUfunction fn;
  CHECK(cuModuleLoadData(&mod, fetch_ptx));
  CHECK(cuModuleGetFunction(&fn, mod, "fetch"));
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, sizeof(back)));
  void *params[] = {&tex, &out};
  CHECK(cuLaunchKernel(fn, 1, 1, 1, 8, 1, 1, 0, NULL, params, NULL));
  CHECK(cuMemcpyDtoH(back, out, sizeof(back)));
  for (int i = 0; i < 8; ++i) {
    if (back[i] != texels[i]) {
      fprintf(stderr, "fetch %d: %g, texel %g\n", i, back[i], texels[i]);
      failures++;
    }
  }

  /* Misuse, in kExpected's order. */
  CUarray a = NULL;
  CUDA_ARRAY_DESCRIPTOR bad = ad;
  bad.Width = 0;
  answer(cuArrayCreate(&a, &bad));
  bad = ad;
  bad.NumChannels = 3;
  answer(cuArrayCreate(&a, &bad));
  bad = ad;
  bad.Format = (CUarray_format)0x7;
  answer(cuArrayCreate(&a, &bad));
  answer(cuArrayCreate(&a, NULL));
  answer(cuArrayCreate(NULL, &ad));
  CUDA_ARRAY3D_DESCRIPTOR d3;
  memset(&d3, 0, sizeof(d3));
  d3.Width = 4;
  d3.Height = 2;
  d3.Depth = 6;
  d3.Format = CU_AD_FORMAT_FLOAT;
  d3.NumChannels = 1;
  d3.Flags = CUDA_ARRAY3D_CUBEMAP;
  answer(cuArray3DCreate(&a, &d3));
  d3.Height = 4;
  d3.Depth = 0;
  d3.Flags = CUDA_ARRAY3D_LAYERED;
  answer(cuArray3DCreate(&a, &d3));
  answer(cuArrayDestroy(NULL));
  d3.Depth = 3;
  d3.Flags = 0;
  CUarray vol;
  CHECK(cuArray3DCreate(&vol, &d3));
  CUDA_ARRAY_DESCRIPTOR got2d;
  answer(cuArrayGetDescriptor(&got2d, vol));
  answer(cuMemcpyHtoA(line, 4, texels, sizeof(texels)));
  answer(cuMemcpyHtoA(arr, 0, texels, 16));
  CUDA_MEMCPY2D m;
  memset(&m, 0, sizeof(m));
  m.srcMemoryType = CU_MEMORYTYPE_HOST;
  m.srcHost = texels;
  m.srcPitch = 16;
  m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  m.dstArray = arr;
  m.dstY = 1;
  m.WidthInBytes = 16;
  m.Height = 2;
  answer(cuMemcpy2D(&m));
  CUtexObject t2 = 0;
  answer(cuTexObjectCreate(&t2, NULL, &td, NULL));
  answer(cuTexObjectCreate(&t2, &rd, NULL, NULL));
  CUDA_RESOURCE_DESC badrd = rd;
  badrd.resType = (CUresourcetype)9;
  answer(cuTexObjectCreate(&t2, &badrd, &td, NULL));
  CUDA_TEXTURE_DESC badtd = td;
  badtd.addressMode[0] = (CUaddress_mode)7;
  answer(cuTexObjectCreate(&t2, &rd, &badtd, NULL));
  CUDA_RESOURCE_DESC lin;
  memset(&lin, 0, sizeof(lin));
  lin.resType = CU_RESOURCE_TYPE_LINEAR;
  lin.res.linear.devPtr = out + 4;
  lin.res.linear.format = CU_AD_FORMAT_FLOAT;
  lin.res.linear.numChannels = 1;
  lin.res.linear.sizeInBytes = 16;
  answer(cuTexObjectCreate(&t2, &lin, &td, NULL));
  answer(cuTexObjectDestroy(0));
  CUDA_RESOURCE_DESC rback;
  answer(cuTexObjectGetResourceDesc(&rback, (CUtexObject)0x123456));
  lin.res.linear.devPtr = out;
  CUsurfObject s = 0;
  answer(cuSurfObjectCreate(&s, &lin));
  answer(cuSurfObjectDestroy(0));
  CHECK(cuArrayDestroy(vol));
  answer(cuArrayDestroy(vol));

  int print = getenv("TEXTURE_CODES_PRINT") != NULL;
  if (ncases != CASES) {
    fprintf(stderr, "%d answers, %d expected\n", ncases, CASES);
    failures++;
  }
  for (int i = 0; i < ncases && i < CASES; ++i) {
    if (print) printf("    {\"%s\", %d},\n", kExpected[i].name, got[i]);
    if (!print && got[i] != kExpected[i].expected) {
      fprintf(stderr, "%s: %d, NVIDIA's %d\n", kExpected[i].name, got[i], kExpected[i].expected);
      failures++;
    }
  }
  CHECK(cuTexObjectDestroy(tex));
  CHECK(cuArrayDestroy(arr));
  CHECK(cuArrayDestroy(line));
  CHECK(cuMemFree(out));
  CHECK(cuModuleUnload(mod));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  if (failures) {
    printf("FAIL texture_codes: %d failures\n", failures);
    return 1;
  }
  printf("PASS texture_codes\n");
  return 0;
}
