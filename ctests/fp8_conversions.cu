// FP8 conversions (cuda_fp8.h): float, double, __half and __nv_bfloat16 inputs to E4M3 and
// E5M2 in both saturation modes, every fp8 code back to __half, float and integers, and the
// C++ classes' constructors and operators, each evaluated in host code and in a kernel and
// compared with tables computed independently by ctests/tools/gen_fp8_tables.py (exact
// rational arithmetic). Built by NVIDIA's nvcc this checks the tables against NVIDIA's
// cuda_fp8.h; built by our nvcc, our header against the same tables.
#define CTEST_NAME "fp8_conversions"
#include "ctest.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <vector>

#include "fp8_conversions_expected.inc"

#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

struct Io {
  const unsigned int *f32;
  const unsigned long long *f64;
  const unsigned short *f16, *bf16;
  const int *ints;
  int n32, n64, n16, nbf, nint;
  // per input: 4 scalar results, the x2 functions' results for (in[i], in[i+1]) in the 4
  // modes, and the classes' constructors
  unsigned int *o32, *o64, *o16, *obf;
  unsigned long long *p32, *p64, *p16, *pbf;
  unsigned int *c32, *c64, *c16, *cbf;
  // per code and kind (index kind * 256 + code): __half bits, float bits, int, signed char,
  // unsigned char, short; x2 widening of (code, 255 - code)
  unsigned short *half_out;
  unsigned int *float_out, *half2_out;
  int *int_out, *schar_out, *uchar_out, *short_out;
  unsigned int *intctor_out;
};

__host__ __device__ static unsigned int pack4(unsigned a, unsigned b, unsigned c, unsigned d) {
  return a | b << 8 | c << 16 | d << 24;
}
__host__ __device__ static unsigned long long pack4x2(unsigned a, unsigned b, unsigned c, unsigned d) {
  return (unsigned long long)a | (unsigned long long)b << 16 | (unsigned long long)c << 32 |
         (unsigned long long)d << 48;
}
// Bit casts through unions (memcpy in device code is not what this test is about).
__host__ __device__ static float bits_f(unsigned int u) {
  union { unsigned int u; float f; } c;
  c.u = u;
  return c.f;
}
__host__ __device__ static unsigned int f_bits(float f) {
  union { unsigned int u; float f; } c;
  c.f = f;
  return c.u;
}
__host__ __device__ static double bits_d(unsigned long long u) {
  union { unsigned long long u; double d; } c;
  c.u = u;
  return c.d;
}

#define ALL4(CALL) \
  pack4(CALL(__NV_NOSAT, __NV_E4M3), CALL(__NV_SATFINITE, __NV_E4M3), CALL(__NV_NOSAT, __NV_E5M2), CALL(__NV_SATFINITE, __NV_E5M2))
#define ALL4X2(CALL) \
  pack4x2(CALL(__NV_NOSAT, __NV_E4M3), CALL(__NV_SATFINITE, __NV_E4M3), CALL(__NV_NOSAT, __NV_E5M2), CALL(__NV_SATFINITE, __NV_E5M2))

__host__ __device__ static void compute(const Io &io, int i) {
  if (i < io.n32) {
    float x = bits_f(io.f32[i]), y = bits_f(io.f32[(i + 1) % io.n32]);
    float2 xy = make_float2(x, y);
#define C1(S, K) __nv_cvt_float_to_fp8(x, S, K)
#define C2(S, K) __nv_cvt_float2_to_fp8x2(xy, S, K)
    io.o32[i] = ALL4(C1);
    io.p32[i] = ALL4X2(C2);
#undef C1
#undef C2
    __nv_fp8x4_e4m3 q4(make_float4(x, y, -x, -y));
    io.c32[i] = pack4(__nv_fp8_e4m3(x).__x, __nv_fp8_e5m2(x).__x, __nv_fp8x2_e5m2(xy).__x >> 8,
                      (q4.__x >> 24) ^ 0x80);
  }
  if (i < io.n64) {
    double x = bits_d(io.f64[i]), y = bits_d(io.f64[(i + 1) % io.n64]);
    double2 xy = make_double2(x, y);
#define C1(S, K) __nv_cvt_double_to_fp8(x, S, K)
#define C2(S, K) __nv_cvt_double2_to_fp8x2(xy, S, K)
    io.o64[i] = ALL4(C1);
    io.p64[i] = ALL4X2(C2);
#undef C1
#undef C2
    io.c64[i] = pack4(__nv_fp8_e4m3(x).__x, __nv_fp8_e5m2(x).__x, __nv_fp8x2_e4m3(xy).__x & 0xff, 0);
  }
  if (i < io.n16) {
    __half_raw hr;
    hr.x = io.f16[i];
    __half2_raw h2;
    h2.x = io.f16[i];
    h2.y = io.f16[(i + 1) % io.n16];
#define C1(S, K) __nv_cvt_halfraw_to_fp8(hr, S, K)
#define C2(S, K) __nv_cvt_halfraw2_to_fp8x2(h2, S, K)
    io.o16[i] = ALL4(C1);
    io.p16[i] = ALL4X2(C2);
#undef C1
#undef C2
    __half h(hr);
    __half2 hh(h2);
    io.c16[i] = pack4(__nv_fp8_e4m3(h).__x, __nv_fp8_e5m2(h).__x, __nv_fp8x2_e5m2(hh).__x & 0xff,
                      __nv_fp8x4_e4m3(hh, hh).__x >> 24);
  }
  if (i < io.nbf) {
    __nv_bfloat16_raw br;
    br.x = io.bf16[i];
    __nv_bfloat162_raw b2;
    b2.x = io.bf16[i];
    b2.y = io.bf16[(i + 1) % io.nbf];
#define C1(S, K) __nv_cvt_bfloat16raw_to_fp8(br, S, K)
#define C2(S, K) __nv_cvt_bfloat16raw2_to_fp8x2(b2, S, K)
    io.obf[i] = ALL4(C1);
    io.pbf[i] = ALL4X2(C2);
#undef C1
#undef C2
    __nv_bfloat16 b(br);
    __nv_bfloat162 bb(b2);
    io.cbf[i] = pack4(__nv_fp8_e4m3(b).__x, __nv_fp8_e5m2(b).__x, __nv_fp8x2_e4m3(bb).__x >> 8,
                      __nv_fp8x4_e5m2(bb, bb).__x & 0xff);
  }
  if (i < 512) {
    int kind = i >> 8;
    __nv_fp8_storage_t c = (__nv_fp8_storage_t)(i & 255);
    __nv_fp8_interpretation_t k = kind ? __NV_E5M2 : __NV_E4M3;
    io.half_out[i] = __nv_cvt_fp8_to_halfraw(c, k).x;
    __half2_raw w = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(c | (255 - c) << 8), k);
    io.half2_out[i] = w.x | (unsigned int)w.y << 16;
    float f;
    if (kind) {
      __nv_fp8_e5m2 v;
      v.__x = c;
      f = float(v);
      io.int_out[i] = int(v);
      io.schar_out[i] = (signed char)(v);
      io.uchar_out[i] = (unsigned char)(v);
      io.short_out[i] = (short)(v);
    } else {
      __nv_fp8_e4m3 v;
      v.__x = c;
      f = float(v);
      io.int_out[i] = int(v);
      io.schar_out[i] = (signed char)(v);
      io.uchar_out[i] = (unsigned char)(v);
      io.short_out[i] = (short)(v);
    }
    io.float_out[i] = f_bits(f);
  }
  if (i < io.nint) {
    io.intctor_out[i] = __nv_fp8_e4m3(io.ints[i]).__x | __nv_fp8_e5m2(io.ints[i]).__x << 8;
  }
}

__global__ void compute_kernel(Io io, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) compute(io, i);
}

static unsigned byte_of(unsigned int packed, int m) { return (packed >> (8 * m)) & 0xff; }

// Check the results of one input family: scalar, x2 and class results.
static void check_family(const char *where, const char *what, int n, const unsigned int *want,
                         const unsigned int *o, const unsigned long long *p, const unsigned int *c,
                         int cls_fields) {
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    EXPECT(o[i] == want[i], "%s %s[%d]: got %08x want %08x", where, what, i, o[i], want[i]);
    for (int m = 0; m < 4; m++) {
      unsigned got2 = (unsigned)(p[i] >> (16 * m)) & 0xffff;
      unsigned w2 = byte_of(want[i], m) | byte_of(want[j], m) << 8;
      EXPECT(got2 == w2, "%s %s x2[%d] mode %d: got %04x want %04x", where, what, i, m, got2, w2);
    }
    // classes use __NV_SATFINITE: bytes 1 (E4M3) and 3 (E5M2)
    unsigned sat43 = byte_of(want[i], 1), sat52 = byte_of(want[i], 3);
    unsigned sat43j = byte_of(want[j], 1), sat52j = byte_of(want[j], 3);
    EXPECT(byte_of(c[i], 0) == sat43, "%s %s __nv_fp8_e4m3[%d]: got %02x want %02x", where, what, i, byte_of(c[i], 0), sat43);
    EXPECT(byte_of(c[i], 1) == sat52, "%s %s __nv_fp8_e5m2[%d]: got %02x want %02x", where, what, i, byte_of(c[i], 1), sat52);
    unsigned w2 = 0, w3 = 0;
    switch (cls_fields) {
      case 0: w2 = sat52j; w3 = 0; break;  // float: x2 e5m2 high byte; x4 e4m3 of -y: checked below
      case 1: w2 = sat43; w3 = 0; break;   // double
      case 2: w2 = sat52; w3 = sat43j; break;  // half
      case 3: w2 = sat43j; w3 = sat52; break;  // bf16
    }
    EXPECT(byte_of(c[i], 2) == w2, "%s %s x2 class[%d]: got %02x want %02x", where, what, i, byte_of(c[i], 2), w2);
    if (cls_fields == 0) {
      // x4 of (x, y, -x, -y), top byte = fp8(-y), sign flipped back: fp8(y) unless NaN
      unsigned got = byte_of(c[i], 3), want_b = sat43j;
      if ((want_b & 0x7f) == 0x7f) got = want_b;  // NaN: canonical, sign not flipped
      EXPECT(got == want_b, "%s %s x4 class[%d]: got %02x want %02x", where, what, i, got, want_b);
    } else {
      EXPECT(byte_of(c[i], 3) == w3, "%s %s x4 class[%d]: got %02x want %02x", where, what, i, byte_of(c[i], 3), w3);
    }
  }
}

template <class T>
static T *dev_copy(const T *h, int n) {
  T *d;
  CHECK(cudaMalloc(&d, sizeof(T) * (n ? n : 1)));
  if (n) CHECK(cudaMemcpy(d, h, sizeof(T) * n, cudaMemcpyHostToDevice));
  return d;
}

struct Buffers {
  std::vector<unsigned int> o32, o64, o16, obf, c32, c64, c16, cbf, float_out, half2_out, intctor_out;
  std::vector<unsigned long long> p32, p64, p16, pbf;
  std::vector<unsigned short> half_out;
  std::vector<int> int_out, schar_out, uchar_out, short_out;
};

static void check_all(const char *where, const Buffers &b) {
  check_family(where, "float", COUNT(kF32In), kF32Out, b.o32.data(), b.p32.data(), b.c32.data(), 0);
  check_family(where, "double", COUNT(kF64In), kF64Out, b.o64.data(), b.p64.data(), b.c64.data(), 1);
  check_family(where, "half", COUNT(kF16In), kF16Out, b.o16.data(), b.p16.data(), b.c16.data(), 2);
  check_family(where, "bf16", COUNT(kBF16In), kBF16Out, b.obf.data(), b.pbf.data(), b.cbf.data(), 3);
  for (int kind = 0; kind < 2; kind++) {
    const char *kn = kind ? "e5m2" : "e4m3";
    const unsigned short *th = kind ? kToHalf_e5m2 : kToHalf_e4m3;
    const unsigned int *tf = kind ? kToFloat_e5m2 : kToFloat_e4m3;
    const int *ti = kind ? kToInt_e5m2 : kToInt_e4m3;
    const signed char *ts = kind ? kToSChar_e5m2 : kToSChar_e4m3;
    const unsigned char *tu = kind ? kToUChar_e5m2 : kToUChar_e4m3;
    const short *tsh = kind ? kToShort_e5m2 : kToShort_e4m3;
    for (int c = 0; c < 256; c++) {
      int i = kind * 256 + c;
      EXPECT(b.half_out[i] == th[c], "%s %s %02x -> half: got %04x want %04x", where, kn, c, b.half_out[i], th[c]);
      unsigned w2 = th[c] | (unsigned)th[255 - c] << 16;
      EXPECT(b.half2_out[i] == w2, "%s %s %02x -> half2: got %08x want %08x", where, kn, c, b.half2_out[i], w2);
      bool want_nan = (tf[c] & 0x7fffffffu) > 0x7f800000u;
      bool got_nan = (b.float_out[i] & 0x7fffffffu) > 0x7f800000u;
      EXPECT(want_nan ? got_nan : b.float_out[i] == tf[c], "%s %s %02x -> float: got %08x want %08x", where, kn, c,
             b.float_out[i], tf[c]);
      EXPECT(b.int_out[i] == ti[c], "%s %s %02x -> int: got %d want %d", where, kn, c, b.int_out[i], ti[c]);
      EXPECT(b.schar_out[i] == ts[c], "%s %s %02x -> signed char: got %d want %d", where, kn, c, b.schar_out[i], ts[c]);
      EXPECT(b.uchar_out[i] == tu[c], "%s %s %02x -> unsigned char: got %d want %d", where, kn, c, b.uchar_out[i], tu[c]);
      EXPECT(b.short_out[i] == tsh[c], "%s %s %02x -> short: got %d want %d", where, kn, c, b.short_out[i], tsh[c]);
    }
  }
  for (int i = 0; i < COUNT(kIntIn); i++) {
    unsigned w = kIntOut[i][0] | kIntOut[i][1] << 8;
    EXPECT(b.intctor_out[i] == w, "%s int %d -> fp8: got %04x want %04x", where, kIntIn[i], b.intctor_out[i], w);
  }
}

static void sizes(Buffers &b) {
  b.o32.resize(COUNT(kF32In)); b.p32.resize(COUNT(kF32In)); b.c32.resize(COUNT(kF32In));
  b.o64.resize(COUNT(kF64In)); b.p64.resize(COUNT(kF64In)); b.c64.resize(COUNT(kF64In));
  b.o16.resize(COUNT(kF16In)); b.p16.resize(COUNT(kF16In)); b.c16.resize(COUNT(kF16In));
  b.obf.resize(COUNT(kBF16In)); b.pbf.resize(COUNT(kBF16In)); b.cbf.resize(COUNT(kBF16In));
  b.half_out.resize(512); b.float_out.resize(512); b.half2_out.resize(512);
  b.int_out.resize(512); b.schar_out.resize(512); b.uchar_out.resize(512); b.short_out.resize(512);
  b.intctor_out.resize(COUNT(kIntIn));
}

static Io inputs(const unsigned int *f32, const unsigned long long *f64, const unsigned short *f16,
                 const unsigned short *bf16, const int *ints) {
  Io io{};
  io.f32 = f32; io.f64 = f64; io.f16 = f16; io.bf16 = bf16; io.ints = ints;
  io.n32 = COUNT(kF32In); io.n64 = COUNT(kF64In); io.n16 = COUNT(kF16In); io.nbf = COUNT(kBF16In);
  io.nint = COUNT(kIntIn);
  return io;
}

template <class T>
static T *dev_out(std::vector<T> &v) {
  T *d;
  CHECK(cudaMalloc(&d, sizeof(T) * v.size()));
  CHECK(cudaMemset(d, 0xAB, sizeof(T) * v.size()));
  return d;
}
template <class T>
static void back(std::vector<T> &v, T *d) {
  CHECK(cudaMemcpy(v.data(), d, sizeof(T) * v.size(), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
}

int main() {
  int n = COUNT(kF32In);
  if (COUNT(kF64In) > n) n = COUNT(kF64In);
  if (COUNT(kF16In) > n) n = COUNT(kF16In);
  if (COUNT(kBF16In) > n) n = COUNT(kBF16In);
  if (n < 512) n = 512;

  // host
  Buffers h;
  sizes(h);
  Io io = inputs(kF32In, kF64In, kF16In, kBF16In, kIntIn);
  io.o32 = h.o32.data(); io.o64 = h.o64.data(); io.o16 = h.o16.data(); io.obf = h.obf.data();
  io.p32 = h.p32.data(); io.p64 = h.p64.data(); io.p16 = h.p16.data(); io.pbf = h.pbf.data();
  io.c32 = h.c32.data(); io.c64 = h.c64.data(); io.c16 = h.c16.data(); io.cbf = h.cbf.data();
  io.half_out = h.half_out.data(); io.float_out = h.float_out.data(); io.half2_out = h.half2_out.data();
  io.int_out = h.int_out.data(); io.schar_out = h.schar_out.data(); io.uchar_out = h.uchar_out.data();
  io.short_out = h.short_out.data(); io.intctor_out = h.intctor_out.data();
  for (int i = 0; i < n; i++) compute(io, i);
  check_all("host", h);

  // device
  Buffers d;
  sizes(d);
  Io dio = inputs(dev_copy(kF32In, COUNT(kF32In)), dev_copy(kF64In, COUNT(kF64In)), dev_copy(kF16In, COUNT(kF16In)),
                  dev_copy(kBF16In, COUNT(kBF16In)), dev_copy(kIntIn, COUNT(kIntIn)));
  dio.o32 = dev_out(d.o32); dio.o64 = dev_out(d.o64); dio.o16 = dev_out(d.o16); dio.obf = dev_out(d.obf);
  dio.p32 = dev_out(d.p32); dio.p64 = dev_out(d.p64); dio.p16 = dev_out(d.p16); dio.pbf = dev_out(d.pbf);
  dio.c32 = dev_out(d.c32); dio.c64 = dev_out(d.c64); dio.c16 = dev_out(d.c16); dio.cbf = dev_out(d.cbf);
  dio.half_out = dev_out(d.half_out); dio.float_out = dev_out(d.float_out); dio.half2_out = dev_out(d.half2_out);
  dio.int_out = dev_out(d.int_out); dio.schar_out = dev_out(d.schar_out); dio.uchar_out = dev_out(d.uchar_out);
  dio.short_out = dev_out(d.short_out); dio.intctor_out = dev_out(d.intctor_out);
  compute_kernel<<<64, 128>>>(dio, n);
  CHECK_LAUNCH();
  back(d.o32, dio.o32); back(d.o64, dio.o64); back(d.o16, dio.o16); back(d.obf, dio.obf);
  back(d.p32, dio.p32); back(d.p64, dio.p64); back(d.p16, dio.p16); back(d.pbf, dio.pbf);
  back(d.c32, dio.c32); back(d.c64, dio.c64); back(d.c16, dio.c16); back(d.cbf, dio.cbf);
  back(d.half_out, dio.half_out); back(d.float_out, dio.float_out); back(d.half2_out, dio.half2_out);
  back(d.int_out, dio.int_out); back(d.schar_out, dio.schar_out); back(d.uchar_out, dio.uchar_out);
  back(d.short_out, dio.short_out); back(d.intctor_out, dio.intctor_out);
  check_all("device", d);

  printf("checked %d float, %d double, %d half, %d bf16 inputs and 512 codes, host and device\n", COUNT(kF32In),
         COUNT(kF64In), COUNT(kF16In), COUNT(kBF16In));
  return ctest_finish();
}
