/* Texture and surface references through the driver API, against our include/cuda.h
 * alone: a hand-written PTX module's .texref/.surfref variables read by tex, suld and
 * sust, bound to linear memory, pitched memory and CUDA arrays, with results computed
 * here on the host; the legacy launch calls (cuParamSet*, cuLaunchGrid) launching one of
 * its kernels; and what each misuse answers (the table holds the codes NVIDIA's driver
 * 580 gave on an H200 for the same calls: the whole program passes there, built with
 * NVIDIA's cuda.h). TEXREF_PRINT=1 prints this machine's codes in the table's form.
 * Prints "PASS texref" on success. */
#define CUDA_ENABLE_DEPRECATED 1
#include <cuda.h>

#include "host_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fetch1d: out[i] = tex.1d(t1, i) by index; fetch1du: the same as integers;
 * sample2d: out[y * ntid.x + x] = tex.2d(t2, ((x, y) + off) * (sx, sy));
 * surf: out[i] = suld(s1, x, y), then sust(s1, x, y) = that + 1000. */
static const char ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n"
    ".global .texref t1;\n.global .texref t2;\n.global .surfref s1;\n.global .u32 plain;\n"
    ".visible .entry fetch1d(.param .u64 out) {\n"
    "  .reg .b32 %r<2>; .reg .f32 %f<4>; .reg .b64 %rd<3>;\n"
    "  mov.u32 %r0, %tid.x; ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;\n"
    "  tex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [t1, {%r0}];\n"
    "  mul.wide.u32 %rd1, %r0, 16; add.u64 %rd1, %rd0, %rd1;\n"
    "  st.global.v4.f32 [%rd1], {%f0, %f1, %f2, %f3}; ret; }\n"
    ".visible .entry fetch1du(.param .u64 out) {\n"
    "  .reg .b32 %r<5>; .reg .b64 %rd<3>;\n"
    "  mov.u32 %r0, %tid.x; ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;\n"
    "  tex.1d.v4.u32.s32 {%r1, %r2, %r3, %r4}, [t1, {%r0}];\n"
    "  mul.wide.u32 %rd1, %r0, 16; add.u64 %rd1, %rd0, %rd1;\n"
    "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4}; ret; }\n"
    ".visible .entry sample2d(.param .u64 out, .param .f32 sx, .param .f32 sy, .param .f32 off) {\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<11>; .reg .b64 %rd<3>;\n"
    "  mov.u32 %r0, %tid.x; mov.u32 %r1, %tid.y; mov.u32 %r2, %ntid.x; mad.lo.u32 %r3, %r1, %r2, %r0;\n"
    "  ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;\n"
    "  ld.param.f32 %f8, [sx]; ld.param.f32 %f9, [sy]; ld.param.f32 %f10, [off];\n"
    "  cvt.rn.f32.u32 %f4, %r0; cvt.rn.f32.u32 %f5, %r1; add.f32 %f4, %f4, %f10; add.f32 %f5, %f5, %f10;\n"
    "  mul.f32 %f4, %f4, %f8; mul.f32 %f5, %f5, %f9;\n"
    "  tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t2, {%f4, %f5}];\n"
    "  mul.wide.u32 %rd1, %r3, 16; add.u64 %rd1, %rd0, %rd1;\n"
    "  st.global.v4.f32 [%rd1], {%f0, %f1, %f2, %f3}; ret; }\n"
    ".visible .entry surf(.param .u64 out) {\n"
    "  .reg .b32 %r<7>; .reg .b64 %rd<3>;\n"
    "  mov.u32 %r0, %tid.x; mov.u32 %r1, %tid.y; mov.u32 %r2, %ntid.x; mad.lo.u32 %r3, %r1, %r2, %r0;\n"
    "  shl.b32 %r4, %r0, 2; ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;\n"
    "  suld.b.2d.b32.trap {%r5}, [s1, {%r4, %r1}]; add.u32 %r6, %r5, 1000;\n"
    "  sust.b.2d.b32.trap [s1, {%r4, %r1}], {%r6};\n"
    "  mul.wide.u32 %rd1, %r3, 4; add.u64 %rd1, %rd0, %rd1; st.global.u32 [%rd1], %r5; ret; }\n";

struct Case {
  const char *name;
  int expected;
};

/* NVIDIA's answers (H200, driver 580.159), in the order the program makes the calls. */
static const struct Case kExpected[] = {
    {"get_texref_unknown", 500},
    {"get_texref_of_variable", 500},
    {"get_texref_of_surfref", 500},
    {"get_texref_null_out", 1},
    {"get_texref_null_name", 1},
    {"get_texref_null_module", 400},
    {"get_surfref_of_texref", 500},
    {"get_global_of_texref", 1},
    {"get_address_unbound", 1},
    {"get_array_unbound", 1},
    {"get_address_mode_dim_3", 1},
    {"get_flags_null_out", 1},
    {"get_flags_null_texref", 400},
    {"set_format_3_channels", 1},
    {"set_format_0_channels", 0},
    {"set_format_unknown", 0},
    {"set_address_mode_dim_3", 1},
    {"set_address_mode_unknown", 0},
    {"set_filter_mode_unknown", 0},
    {"set_mipmap_filter_mode_unknown", 1},
    {"set_border_color_null", 1},
    {"set_flags_0xff", 1},
    {"set_flags_0x60", 1},
    {"set_flags_srgb", 0},
    {"set_address_null_offset_unaligned", 1},
    {"set_address_null_offset_aligned", 0},
    {"set_address_0_bytes", 0},
    {"set_address_too_long", 1},
    {"set_address_null_texref", 400},
    {"set_address_2d_unaligned", 1},
    {"set_address_2d_pitch_off_32", 1},
    {"set_address_2d_pitch_short", 1},
    {"set_address_2d_null_desc", 1},
    {"set_array_flags_2", 1},
    {"set_array_null", 400},
    {"surf_set_array_without_ldst", 1},
    {"surf_set_array_flags_1", 1},
    {"surf_set_array_null", 400},
    {"surf_get_array_unbound", 1},
    {"get_array_after_destroy", 1},
    {"create_null", 1},
    {"destroy_null", 400},
};
#define CASES ((int)(sizeof(kExpected) / sizeof(kExpected[0])))

static int got[64];
static int ncases = 0;

static void answer(CUresult rc) { got[ncases++] = (int)rc; }

static CUmodule mod;
static CUdeviceptr out;

static void launch(const char *name, unsigned bx, unsigned by, void **extra_params, int nextra) {
  CUfunction f;
  void *params[4];
  params[0] = &out;
  for (int i = 0; i < nextra; ++i) params[1 + i] = extra_params[i];
  CHECK(cuModuleGetFunction(&f, mod, name));
  CHECK(cuLaunchKernel(f, 1, 1, 1, bx, by, 1, 0, NULL, params, NULL));
  CHECK(cuCtxSynchronize());
}

static void expect_f32(const char *what, const float *want, int n, int stride) {
  float back[256];
  CHECK(cuMemcpyDtoH(back, out, (size_t)n * (size_t)stride * sizeof(float)));
  for (int i = 0; i < n; ++i) {
    if (back[i * stride] != want[i]) {
      fprintf(stderr, "%s %d: %.9g, want %.9g\n", what, i, back[i * stride], want[i]);
      failures++;
    }
  }
}

static void expect_u32(const char *what, const unsigned *want, int n, int stride) {
  unsigned back[256];
  CHECK(cuMemcpyDtoH(back, out, (size_t)n * (size_t)stride * sizeof(unsigned)));
  for (int i = 0; i < n; ++i) {
    if (back[i * stride] != want[i]) {
      fprintf(stderr, "%s %d: %u, want %u\n", what, i, back[i * stride], want[i]);
      failures++;
    }
  }
}

/* Clamped bilinear filtering of `texel(x, y)` at unnormalized (x, y) (every weight
 * below is a multiple of 1/4, so the result is exact). */
static float floor_of(float v) {
  int i = (int)v;
  return (float)((float)i > v ? i - 1 : i);
}

static float bilinear(float (*texel)(int, int), int w, int h, float x, float y) {
  float bx = x - 0.5f, by = y - 0.5f, fx = bx - floor_of(bx), fy = by - floor_of(by);
  int x0 = (int)floor_of(bx), y0 = (int)floor_of(by), x1 = x0 + 1, y1 = y0 + 1;
  x0 = x0 < 0 ? 0 : (x0 >= w ? w - 1 : x0);
  x1 = x1 < 0 ? 0 : (x1 >= w ? w - 1 : x1);
  y0 = y0 < 0 ? 0 : (y0 >= h ? h - 1 : y0);
  y1 = y1 < 0 ? 0 : (y1 >= h ? h - 1 : y1);
  float r0 = texel(x0, y0) * (1 - fx) + texel(x1, y0) * fx, r1 = texel(x0, y1) * (1 - fx) + texel(x1, y1) * fx;
  return r0 * (1 - fy) + r1 * fy;
}

static float pitched_texel(int x, int y) { return (float)(y * 10 + x); }

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuModuleLoadData(&mod, ptx));
  CHECK(cuMemAlloc(&out, 4096));
  CUdeviceptr buf;
  CHECK(cuMemAlloc(&buf, 1 << 16));
  CUtexref t1, t2, tx;
  CUsurfref s1, sx;
  CHECK(cuModuleGetTexRef(&t1, mod, "t1"));
  CHECK(cuModuleGetTexRef(&t2, mod, "t2"));
  CHECK(cuModuleGetSurfRef(&s1, mod, "s1"));

  /* Unbound references read zeros. */
  CHECK(cuMemsetD8(out, 0xcd, 4096));
  launch("fetch1d", 4, 1, NULL, 0);
  unsigned zeros[16] = {0};
  expect_u32("unbound tex", zeros, 16, 1);
  launch("surf", 2, 2, NULL, 0);
  expect_u32("unbound suld", zeros, 4, 1);

  /* Linear memory: index i reads the texel i of the 512-byte aligned address bound. */
  float texels[64];
  for (int i = 0; i < 64; ++i) texels[i] = (float)i * 1.5f + 0.25f;
  CHECK(cuMemcpyHtoD(buf, texels, sizeof(texels)));
  size_t offset = 77;
  CHECK(cuTexRefSetFormat(t1, CU_AD_FORMAT_FLOAT, 1));
  CHECK(cuTexRefSetAddress(&offset, t1, buf + 8, 200));
  if (offset != 8) {
    fprintf(stderr, "byte offset %zu, want 8\n", offset);
    failures++;
  }
  launch("fetch1d", 8, 1, NULL, 0);
  expect_f32("linear f32", texels, 8, 4);
  unsigned char bytes[64];
  for (int i = 0; i < 64; ++i) bytes[i] = (unsigned char)(i * 9);
  CHECK(cuMemcpyHtoD(buf, bytes, sizeof(bytes)));
  CHECK(cuTexRefSetFormat(t1, CU_AD_FORMAT_UNSIGNED_INT8, 2));
  CHECK(cuTexRefSetAddress(NULL, t1, buf, 64));
  float norm[6];
  unsigned raw[6];
  for (int i = 0; i < 6; ++i) norm[i] = (float)bytes[2 * i] / 255.0f, raw[i] = bytes[2 * i];
  launch("fetch1d", 6, 1, NULL, 0);
  expect_f32("linear u8 normalized", norm, 6, 4);
  CHECK(cuTexRefSetFlags(t1, CU_TRSF_READ_AS_INTEGER));
  launch("fetch1du", 6, 1, NULL, 0);
  expect_u32("linear u8 as integers", raw, 6, 4);

  /* Pitched memory, 4 x 3 floats in rows of 64 bytes, bilinear and clamped. */
  float rows[48];
  for (int i = 0; i < 48; ++i) rows[i] = pitched_texel(i % 16, i / 16);
  CHECK(cuMemcpyHtoD(buf, rows, sizeof(rows)));
  CUDA_ARRAY_DESCRIPTOR pd;
  memset(&pd, 0, sizeof(pd));
  pd.Width = 4;
  pd.Height = 3;
  pd.Format = CU_AD_FORMAT_FLOAT;
  pd.NumChannels = 1;
  CHECK(cuTexRefSetAddress2D(t2, &pd, buf, 64));
  CHECK(cuTexRefSetFilterMode(t2, CU_TR_FILTER_MODE_LINEAR));
  float one = 1.0f, quarter = 0.25f, want2d[20];
  void *p2d[] = {&one, &one, &quarter};
  for (int i = 0; i < 20; ++i) want2d[i] = bilinear(pitched_texel, 4, 3, (float)(i % 5) + 0.25f, (float)(i / 5) + 0.25f);
  launch("sample2d", 5, 4, p2d, 3);
  expect_f32("pitched bilinear", want2d, 20, 4);

  /* A surface reference over a 4 x 3 array of u32. */
  CUDA_ARRAY3D_DESCRIPTOR sd;
  memset(&sd, 0, sizeof(sd));
  sd.Width = 4;
  sd.Height = 3;
  sd.Format = CU_AD_FORMAT_UNSIGNED_INT32;
  sd.NumChannels = 1;
  sd.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  CUarray sa;
  CHECK(cuArray3DCreate(&sa, &sd));
  unsigned values[12], after[12], want_after[12];
  for (int i = 0; i < 12; ++i) values[i] = (unsigned)i * 7, want_after[i] = values[i] + 1000;
  CUDA_MEMCPY2D m;
  memset(&m, 0, sizeof(m));
  m.srcMemoryType = CU_MEMORYTYPE_HOST;
  m.srcHost = values;
  m.srcPitch = 16;
  m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  m.dstArray = sa;
  m.WidthInBytes = 16;
  m.Height = 3;
  CHECK(cuMemcpy2D(&m));
  CHECK(cuSurfRefSetArray(s1, sa, 0));
  launch("surf", 4, 3, NULL, 0);
  expect_u32("suld", values, 12, 1);
  memset(&m, 0, sizeof(m));
  m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  m.srcArray = sa;
  m.dstMemoryType = CU_MEMORYTYPE_HOST;
  m.dstHost = after;
  m.dstPitch = 16;
  m.WidthInBytes = 16;
  m.Height = 3;
  CHECK(cuMemcpy2D(&m));
  for (int i = 0; i < 12; ++i) {
    if (after[i] != want_after[i]) {
      fprintf(stderr, "sust %d: %u, want %u\n", i, after[i], want_after[i]);
      failures++;
    }
  }

  /* The legacy launch calls: fetch1du's output pointer set by offset, 6 threads. */
  CUfunction f;
  CHECK(cuModuleGetFunction(&f, mod, "fetch1du"));
  CHECK(cuTexRefSetFormat(t1, CU_AD_FORMAT_UNSIGNED_INT8, 2));
  CHECK(cuMemcpyHtoD(buf, bytes, sizeof(bytes)));
  CHECK(cuMemsetD8(out, 0, 4096));
  CHECK(cuParamSetv(f, 0, &out, sizeof(out)));
  CHECK(cuParamSetSize(f, sizeof(out)));
  CHECK(cuFuncSetBlockShape(f, 6, 1, 1));
  CHECK(cuLaunchGrid(f, 1, 1));
  CHECK(cuCtxSynchronize());
  expect_u32("cuLaunchGrid", raw, 6, 4);

  /* Misuse, in kExpected's order. */
  answer(cuModuleGetTexRef(&tx, mod, "nope"));
  answer(cuModuleGetTexRef(&tx, mod, "plain"));
  answer(cuModuleGetTexRef(&tx, mod, "s1"));
  answer(cuModuleGetTexRef(NULL, mod, "t1"));
  answer(cuModuleGetTexRef(&tx, mod, NULL));
  answer(cuModuleGetTexRef(&tx, NULL, "t1"));
  answer(cuModuleGetSurfRef(&sx, mod, "t1"));
  CUdeviceptr g;
  size_t gsize;
  answer(cuModuleGetGlobal(&g, &gsize, mod, "t1"));
  CUtexref fresh;
  CUdeviceptr address;
  CUarray array;
  CUaddress_mode mode;
  unsigned int flags;
  CHECK(cuTexRefCreate(&fresh));
  answer(cuTexRefGetAddress(&address, fresh));
  answer(cuTexRefGetArray(&array, fresh));
  answer(cuTexRefGetAddressMode(&mode, t1, 3));
  answer(cuTexRefGetFlags(NULL, t1));
  answer(cuTexRefGetFlags(&flags, NULL));
  answer(cuTexRefSetFormat(fresh, CU_AD_FORMAT_FLOAT, 3));
  answer(cuTexRefSetFormat(fresh, CU_AD_FORMAT_FLOAT, 0));
  answer(cuTexRefSetFormat(fresh, (CUarray_format)0x77, 1));
  answer(cuTexRefSetAddressMode(fresh, 3, CU_TR_ADDRESS_MODE_WRAP));
  answer(cuTexRefSetAddressMode(fresh, 0, (CUaddress_mode)7));
  answer(cuTexRefSetFilterMode(fresh, (CUfilter_mode)2));
  answer(cuTexRefSetMipmapFilterMode(fresh, (CUfilter_mode)2));
  answer(cuTexRefSetBorderColor(fresh, NULL));
  answer(cuTexRefSetFlags(fresh, 0xff));
  answer(cuTexRefSetFlags(fresh, 0x60));
  answer(cuTexRefSetFlags(fresh, CU_TRSF_SRGB | CU_TRSF_READ_AS_INTEGER));
  CHECK(cuTexRefSetFormat(fresh, CU_AD_FORMAT_FLOAT, 1));
  answer(cuTexRefSetAddress(NULL, fresh, buf + 4, 4096));
  answer(cuTexRefSetAddress(NULL, fresh, buf, 4096));
  answer(cuTexRefSetAddress(&offset, fresh, buf, 0));
  answer(cuTexRefSetAddress(&offset, fresh, buf, (size_t)1 << 40));
  answer(cuTexRefSetAddress(&offset, NULL, buf, 4096));
  CUDA_ARRAY_DESCRIPTOR wide = pd;
  wide.Width = 16;
  answer(cuTexRefSetAddress2D(fresh, &pd, buf + 256, 64));
  answer(cuTexRefSetAddress2D(fresh, &pd, buf, 65));
  answer(cuTexRefSetAddress2D(fresh, &wide, buf, 32));
  answer(cuTexRefSetAddress2D(fresh, NULL, buf, 64));
  CUDA_ARRAY_DESCRIPTOR ad = pd;
  ad.Height = 0;
  CUarray plain;
  CHECK(cuArrayCreate(&plain, &ad));
  answer(cuTexRefSetArray(fresh, plain, 2));
  answer(cuTexRefSetArray(fresh, NULL, CU_TRSA_OVERRIDE_FORMAT));
  answer(cuSurfRefSetArray(s1, plain, 0));
  answer(cuSurfRefSetArray(s1, sa, 1));
  answer(cuSurfRefSetArray(s1, NULL, 0));
  CUsurfref unbound_surface;
  CUmodule mod2;
  CHECK(cuModuleLoadData(&mod2, ptx));
  CHECK(cuModuleGetSurfRef(&unbound_surface, mod2, "s1"));
  answer(cuSurfRefGetArray(&array, unbound_surface));
  CHECK(cuTexRefSetArray(t2, plain, CU_TRSA_OVERRIDE_FORMAT));
  CHECK(cuArrayDestroy(plain));
  answer(cuTexRefGetArray(&array, t2));
  answer(cuTexRefCreate(NULL));
  answer(cuTexRefDestroy(NULL));
  CHECK(cuTexRefDestroy(fresh));
  CHECK(cuModuleUnload(mod2));

  int print = getenv("TEXREF_PRINT") != NULL;
  if (ncases != CASES) {
    fprintf(stderr, "%d answers, %d expected\n", ncases, CASES);
    failures++;
  }
  for (int i = 0; i < ncases && i < CASES; ++i) {
    if (print) printf("    {\"%s\", %d},\n", kExpected[i].name, got[i]);
    if (got[i] != kExpected[i].expected) {
      fprintf(stderr, "%s: %d, NVIDIA's %d\n", kExpected[i].name, got[i], kExpected[i].expected);
      failures++;
    }
  }
  CHECK(cuArrayDestroy(sa));
  CHECK(cuMemFree(buf));
  CHECK(cuMemFree(out));
  CHECK(cuModuleUnload(mod));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  if (failures) {
    printf("FAIL texref: %d failures\n", failures);
    return 1;
  }
  printf("PASS texref\n");
  return 0;
}
