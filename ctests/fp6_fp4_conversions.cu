// FP6 and FP4 conversions (cuda_fp6.h, cuda_fp4.h): float, double, __half and
// __nv_bfloat16 inputs to E2M3, E3M2 and E2M1 with cudaRoundNearest and cudaRoundZero
// (scalar and x2 functions), the C++ classes' constructors (scalar, x2, x4; integers too),
// every byte back to __half / __half2 / float / integers through the functions and the
// classes' operators, each evaluated in host code and in a kernel and compared with tables
// computed independently by ctests/tools/gen_fp6_fp4_tables.py (exact rational
// arithmetic). Built by NVIDIA's nvcc this checks the tables against NVIDIA's headers; built
// by our nvcc, our headers against the same tables.
#define CTEST_NAME "fp6_fp4_conversions"
#include "ctest.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>

#include <vector>

#include "fp6_fp4_conversions_expected.inc"

#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

// Results per input (index i of a family), for the pair (in[i], in[i+1]):
//   o[3i+f]: format f's scalar results, byte 0 cudaRoundNearest, byte 1 cudaRoundZero
//   p[3i+f]: format f's x2 results (x2 storage of (in[i], in[i+1])), bits 0-15 nearest,
//            bits 16-31 toward zero
//   c[i]:    classes: bits 0-7 __nv_fp6_e2m3(x), 8-15 __nv_fp6_e3m2(x), 16-23
//            __nv_fp4_e2m1(x), 24-39 __nv_fp6x2_e3m2(x, y), 40-47 __nv_fp4x2_e2m1(x, y),
//            48-63 __nv_fp4x4_e2m1(x, y, x, y)
//   q[i]:    __nv_fp6x4_e2m3(x, y, x, y) | __nv_fp6x4_e3m2(x, y, x, y) << 32
struct Family {
  unsigned int *o, *p;
  unsigned long long *c, *q;
};

struct Io {
  const unsigned int *f32;
  const unsigned long long *f64;
  const unsigned short *f16, *bf16;
  const int *ints;
  int n32, n64, n16, nbf, nint;
  Family r32, r64, r16, rbf;
  // per format f and byte b (index 256 f + b): __half bits of the function, of the class
  // operator, float bits, int, unsigned char, signed char, bool, bf16 bits; x2 widening of
  // (b, 255 - b) for fp6 and of b for fp4 (functions: __half2 bits; classes: float2 bits)
  unsigned short *half_fn, *half_op, *bf16_op;
  unsigned int *float_op, *half2_fn, *half2_op;
  unsigned long long *float2_op;
  int *int_op, *uchar_op, *schar_op, *bool_op;
  unsigned int *intctor;
};

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

#define RN cudaRoundNearest
#define RZ cudaRoundZero
// Scalar and x2 results of one family: S1(x, kind, mode) for fp6, S4 for fp4, likewise X6/X4
// for the x2 functions on the pair.
#define FAMILY_RESULTS(R, i, S6, S4, X6, X4)                                                     \
  do {                                                                                           \
    R.o[3 * i + 0] = S6(__NV_E2M3, RN) | S6(__NV_E2M3, RZ) << 8;                                  \
    R.o[3 * i + 1] = S6(__NV_E3M2, RN) | S6(__NV_E3M2, RZ) << 8;                                  \
    R.o[3 * i + 2] = S4(__NV_E2M1, RN) | S4(__NV_E2M1, RZ) << 8;                                  \
    R.p[3 * i + 0] = X6(__NV_E2M3, RN) | (unsigned int)X6(__NV_E2M3, RZ) << 16;                   \
    R.p[3 * i + 1] = X6(__NV_E3M2, RN) | (unsigned int)X6(__NV_E3M2, RZ) << 16;                   \
    R.p[3 * i + 2] = X4(__NV_E2M1, RN) | (unsigned int)X4(__NV_E2M1, RZ) << 16;                   \
  } while (0)

// The classes from scalars X (also used for the x4 lanes), pairs XY and quads of (x, y, x, y).
template <class S, class P, class Q6, class Q4>
__host__ __device__ static void classes(const Family &R, int i, S x, P xy, Q6 q6, Q4 q4) {
  R.c[i] = (unsigned long long)__nv_fp6_e2m3(x).__x | (unsigned long long)__nv_fp6_e3m2(x).__x << 8 |
           (unsigned long long)__nv_fp4_e2m1(x).__x << 16 | (unsigned long long)__nv_fp6x2_e3m2(xy).__x << 24 |
           (unsigned long long)__nv_fp4x2_e2m1(xy).__x << 40 | (unsigned long long)q4.__x << 48;
  R.q[i] = (unsigned long long)q6.a.__x | (unsigned long long)q6.b.__x << 32;
}
struct Q6 {
  __nv_fp6x4_e2m3 a;
  __nv_fp6x4_e3m2 b;
};

__host__ __device__ static void compute(const Io &io, int i) {
  if (i < io.n32) {
    float x = bits_f(io.f32[i]), y = bits_f(io.f32[(i + 1) % io.n32]);
    float2 xy = make_float2(x, y);
    float4 q = make_float4(x, y, x, y);
#define S6(K, M) __nv_cvt_float_to_fp6(x, K, M)
#define S4(K, M) __nv_cvt_float_to_fp4(x, K, M)
#define X6(K, M) __nv_cvt_float2_to_fp6x2(xy, K, M)
#define X4(K, M) __nv_cvt_float2_to_fp4x2(xy, K, M)
    FAMILY_RESULTS(io.r32, i, S6, S4, X6, X4);
#undef S6
#undef S4
#undef X6
#undef X4
    Q6 q6 = {__nv_fp6x4_e2m3(q), __nv_fp6x4_e3m2(q)};
    classes(io.r32, i, x, xy, q6, __nv_fp4x4_e2m1(q));
  }
  if (i < io.n64) {
    double x = bits_d(io.f64[i]), y = bits_d(io.f64[(i + 1) % io.n64]);
    double2 xy = make_double2(x, y);
    double4_32a q = make_double4_32a(x, y, x, y);
#define S6(K, M) __nv_cvt_double_to_fp6(x, K, M)
#define S4(K, M) __nv_cvt_double_to_fp4(x, K, M)
#define X6(K, M) __nv_cvt_double2_to_fp6x2(xy, K, M)
#define X4(K, M) __nv_cvt_double2_to_fp4x2(xy, K, M)
    FAMILY_RESULTS(io.r64, i, S6, S4, X6, X4);
#undef S6
#undef S4
#undef X6
#undef X4
    Q6 q6 = {__nv_fp6x4_e2m3(q), __nv_fp6x4_e3m2(q)};
    classes(io.r64, i, x, xy, q6, __nv_fp4x4_e2m1(q));
  }
  if (i < io.n16) {
    __half_raw hr;
    hr.x = io.f16[i];
    __half2_raw h2;
    h2.x = io.f16[i];
    h2.y = io.f16[(i + 1) % io.n16];
#define S6(K, M) __nv_cvt_halfraw_to_fp6(hr, K, M)
#define S4(K, M) __nv_cvt_halfraw_to_fp4(hr, K, M)
#define X6(K, M) __nv_cvt_halfraw2_to_fp6x2(h2, K, M)
#define X4(K, M) __nv_cvt_halfraw2_to_fp4x2(h2, K, M)
    FAMILY_RESULTS(io.r16, i, S6, S4, X6, X4);
#undef S6
#undef S4
#undef X6
#undef X4
    __half h(hr);
    __half2 hh(h2);
    Q6 q6 = {__nv_fp6x4_e2m3(hh, hh), __nv_fp6x4_e3m2(hh, hh)};
    classes(io.r16, i, h, hh, q6, __nv_fp4x4_e2m1(hh, hh));
  }
  if (i < io.nbf) {
    __nv_bfloat16_raw br;
    br.x = io.bf16[i];
    __nv_bfloat162_raw b2;
    b2.x = io.bf16[i];
    b2.y = io.bf16[(i + 1) % io.nbf];
#define S6(K, M) __nv_cvt_bfloat16raw_to_fp6(br, K, M)
#define S4(K, M) __nv_cvt_bfloat16raw_to_fp4(br, K, M)
#define X6(K, M) __nv_cvt_bfloat16raw2_to_fp6x2(b2, K, M)
#define X4(K, M) __nv_cvt_bfloat16raw2_to_fp4x2(b2, K, M)
    FAMILY_RESULTS(io.rbf, i, S6, S4, X6, X4);
#undef S6
#undef S4
#undef X6
#undef X4
    __nv_bfloat16 b(br);
    __nv_bfloat162 bb(b2);
    Q6 q6 = {__nv_fp6x4_e2m3(bb, bb), __nv_fp6x4_e3m2(bb, bb)};
    classes(io.rbf, i, b, bb, q6, __nv_fp4x4_e2m1(bb, bb));
  }
  if (i < 3 * 256) {
    int f = i >> 8;
    unsigned char b = (unsigned char)(i & 255);
    float v;
    if (f < 2) {
      __nv_fp6_interpretation_t k = f ? __NV_E3M2 : __NV_E2M3;
      io.half_fn[i] = __nv_cvt_fp6_to_halfraw(b, k).x;
      __half2_raw w = __nv_cvt_fp6x2_to_halfraw2((__nv_fp6x2_storage_t)(b | (255 - b) << 8), k);
      io.half2_fn[i] = w.x | (unsigned int)w.y << 16;
#define OPS(T, T2, STORE2)                                                          \
  do {                                                                              \
    T s;                                                                            \
    s.__x = b;                                                                      \
    v = float(s);                                                                   \
    io.half_op[i] = __half_raw(__half(s)).x;                                        \
    io.bf16_op[i] = __nv_bfloat16_raw(__nv_bfloat16(s)).x;                          \
    io.int_op[i] = int(s);                                                          \
    io.uchar_op[i] = (unsigned char)(s);                                            \
    io.schar_op[i] = (signed char)(s);                                              \
    io.bool_op[i] = bool(s);                                                        \
    T2 s2;                                                                          \
    s2.__x = STORE2;                                                                \
    __half2_raw hw = __half2_raw(__half2(s2));                                      \
    io.half2_op[i] = hw.x | (unsigned int)hw.y << 16;                               \
    float2 fw = float2(s2);                                                         \
    io.float2_op[i] = f_bits(fw.x) | (unsigned long long)f_bits(fw.y) << 32;        \
  } while (0)
      if (f)
        OPS(__nv_fp6_e3m2, __nv_fp6x2_e3m2, (__nv_fp6x2_storage_t)(b | (255 - b) << 8));
      else
        OPS(__nv_fp6_e2m3, __nv_fp6x2_e2m3, (__nv_fp6x2_storage_t)(b | (255 - b) << 8));
    } else {
      io.half_fn[i] = __nv_cvt_fp4_to_halfraw(b, __NV_E2M1).x;
      __half2_raw w = __nv_cvt_fp4x2_to_halfraw2(b, __NV_E2M1);
      io.half2_fn[i] = w.x | (unsigned int)w.y << 16;
      OPS(__nv_fp4_e2m1, __nv_fp4x2_e2m1, b);
    }
#undef OPS
    io.float_op[i] = f_bits(v);
  }
  if (i < io.nint) {
    io.intctor[i] = __nv_fp6_e2m3(io.ints[i]).__x | __nv_fp6_e3m2(io.ints[i]).__x << 8 |
                    __nv_fp4_e2m1(io.ints[i]).__x << 16;
  }
}

__global__ void compute_kernel(Io io, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) compute(io, i);
}

static unsigned byte_of(unsigned int packed, int m) { return (packed >> (8 * m)) & 0xff; }

// Check one input family against its table rows (want[i][f], bytes RN, RZ, RU, RD).
static void check_family(const char *where, const char *what, int n, const unsigned int (*want)[3],
                         const unsigned int *o, const unsigned int *p, const unsigned long long *c,
                         const unsigned long long *q) {
  static const char *fmt[3] = {"e2m3", "e3m2", "e2m1"};
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    for (int f = 0; f < 3; f++) {
      unsigned w = want[i][f] & 0xffff;
      EXPECT(o[3 * i + f] == w, "%s %s[%d] %s: got %04x want %04x (RN, RZ)", where, what, i, fmt[f], o[3 * i + f], w);
      int sh = f == 2 ? 4 : 8;
      for (int m = 0; m < 2; m++) {
        unsigned got2 = (p[3 * i + f] >> (16 * m)) & 0xffff;
        unsigned w2 = byte_of(want[i][f], m) | byte_of(want[j][f], m) << sh;
        EXPECT(got2 == w2, "%s %s x2[%d] %s mode %d: got %04x want %04x", where, what, i, fmt[f], m, got2, w2);
      }
    }
    // classes round to nearest: byte 0 of each format's word
    unsigned a = byte_of(want[i][0], 0), b = byte_of(want[i][1], 0), e = byte_of(want[i][2], 0);
    unsigned aj = byte_of(want[j][0], 0), bj = byte_of(want[j][1], 0), ej = byte_of(want[j][2], 0);
    unsigned long long wc = (unsigned long long)a | (unsigned long long)b << 8 | (unsigned long long)e << 16 |
                            (unsigned long long)(b | bj << 8) << 24 | (unsigned long long)(e | ej << 4) << 40 |
                            (unsigned long long)(e | ej << 4 | e << 8 | ej << 12) << 48;
    EXPECT(c[i] == wc, "%s %s classes[%d]: got %016llx want %016llx", where, what, i, c[i], wc);
    unsigned long long wq = (unsigned long long)(a | aj << 8 | a << 16 | aj << 24) |
                            (unsigned long long)(b | bj << 8 | b << 16 | bj << 24) << 32;
    EXPECT(q[i] == wq, "%s %s x4 classes[%d]: got %016llx want %016llx", where, what, i, q[i], wq);
  }
}

template <class T>
static T *dev_copy(const T *h, int n) {
  T *d;
  CHECK(cudaMalloc(&d, sizeof(T) * (n ? n : 1)));
  if (n) CHECK(cudaMemcpy(d, h, sizeof(T) * n, cudaMemcpyHostToDevice));
  return d;
}

struct FamilyBuf {
  std::vector<unsigned int> o, p;
  std::vector<unsigned long long> c, q;
  void size(int n) { o.resize(3 * n); p.resize(3 * n); c.resize(n); q.resize(n); }
};
struct Buffers {
  FamilyBuf r32, r64, r16, rbf;
  std::vector<unsigned short> half_fn, half_op, bf16_op;
  std::vector<unsigned int> float_op, half2_fn, half2_op, intctor;
  std::vector<unsigned long long> float2_op;
  std::vector<int> int_op, uchar_op, schar_op, bool_op;
};

static void sizes(Buffers &b) {
  b.r32.size(COUNT(kF32In)); b.r64.size(COUNT(kF64In)); b.r16.size(COUNT(kF16In)); b.rbf.size(COUNT(kBF16In));
  for (auto *v : {&b.half_fn, &b.half_op, &b.bf16_op}) v->resize(768);
  for (auto *v : {&b.float_op, &b.half2_fn, &b.half2_op}) v->resize(768);
  b.float2_op.resize(768);
  for (auto *v : {&b.int_op, &b.uchar_op, &b.schar_op, &b.bool_op}) v->resize(768);
  b.intctor.resize(COUNT(kIntIn));
}

static void check_all(const char *where, const Buffers &b) {
  check_family(where, "float", COUNT(kF32In), kF32Out, b.r32.o.data(), b.r32.p.data(), b.r32.c.data(), b.r32.q.data());
  check_family(where, "double", COUNT(kF64In), kF64Out, b.r64.o.data(), b.r64.p.data(), b.r64.c.data(), b.r64.q.data());
  check_family(where, "half", COUNT(kF16In), kF16Out, b.r16.o.data(), b.r16.p.data(), b.r16.c.data(), b.r16.q.data());
  check_family(where, "bf16", COUNT(kBF16In), kBF16Out, b.rbf.o.data(), b.rbf.p.data(), b.rbf.c.data(), b.rbf.q.data());
  static const char *fmt[3] = {"e2m3", "e3m2", "e2m1"};
  for (int f = 0; f < 3; f++) {
    for (int c = 0; c < 256; c++) {
      int i = f * 256 + c;
      const char *kn = fmt[f];
      // the pair widened: (c, 255 - c) for fp6, (c & 15, c >> 4) for fp4
      int lo = f < 2 ? c : c & 15, hi = f < 2 ? 255 - c : c >> 4;
      EXPECT(b.half_fn[i] == kToHalf[f][c], "%s %s %02x -> half: got %04x want %04x", where, kn, c, b.half_fn[i], kToHalf[f][c]);
      EXPECT(b.half_op[i] == kToHalf[f][c], "%s %s %02x -> __half: got %04x want %04x", where, kn, c, b.half_op[i], kToHalf[f][c]);
      EXPECT(b.float_op[i] == kToFloat[f][c], "%s %s %02x -> float: got %08x want %08x", where, kn, c, b.float_op[i], kToFloat[f][c]);
      EXPECT(b.bf16_op[i] == kToFloat[f][c] >> 16, "%s %s %02x -> bf16: got %04x want %04x", where, kn, c, b.bf16_op[i], kToFloat[f][c] >> 16);
      unsigned w2 = kToHalf[f][lo] | (unsigned)kToHalf[f][hi] << 16;
      EXPECT(b.half2_fn[i] == w2, "%s %s %02x -> half2: got %08x want %08x", where, kn, c, b.half2_fn[i], w2);
      EXPECT(b.half2_op[i] == w2, "%s %s %02x -> __half2: got %08x want %08x", where, kn, c, b.half2_op[i], w2);
      unsigned long long wf2 = kToFloat[f][lo] | (unsigned long long)kToFloat[f][hi] << 32;
      EXPECT(b.float2_op[i] == wf2, "%s %s %02x -> float2: got %016llx want %016llx", where, kn, c, b.float2_op[i], wf2);
      EXPECT(b.int_op[i] == kToInt[f][c], "%s %s %02x -> int: got %d want %d", where, kn, c, b.int_op[i], kToInt[f][c]);
      EXPECT(b.uchar_op[i] == kToUChar[f][c], "%s %s %02x -> unsigned char: got %d want %d", where, kn, c, b.uchar_op[i], kToUChar[f][c]);
      EXPECT(b.schar_op[i] == kToSChar[f][c], "%s %s %02x -> signed char: got %d want %d", where, kn, c, b.schar_op[i], kToSChar[f][c]);
      int wb = (kToFloat[f][c] & 0x7fffffffu) != 0;
      EXPECT(b.bool_op[i] == wb, "%s %s %02x -> bool: got %d want %d", where, kn, c, b.bool_op[i], wb);
    }
  }
  for (int i = 0; i < COUNT(kIntIn); i++) {
    unsigned w = kIntOut[i][0] | kIntOut[i][1] << 8 | kIntOut[i][2] << 16;
    EXPECT(b.intctor[i] == w, "%s int %d -> classes: got %06x want %06x", where, kIntIn[i], b.intctor[i], w);
  }
}

static Io inputs(const unsigned int *f32, const unsigned long long *f64, const unsigned short *f16,
                 const unsigned short *bf16, const int *ints) {
  Io io{};
  io.f32 = f32; io.f64 = f64; io.f16 = f16; io.bf16 = bf16; io.ints = ints;
  io.n32 = COUNT(kF32In); io.n64 = COUNT(kF64In); io.n16 = COUNT(kF16In); io.nbf = COUNT(kBF16In);
  io.nint = COUNT(kIntIn);
  return io;
}

static Family host_family(FamilyBuf &b) { return Family{b.o.data(), b.p.data(), b.c.data(), b.q.data()}; }

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
static Family dev_family(FamilyBuf &b) { return Family{dev_out(b.o), dev_out(b.p), dev_out(b.c), dev_out(b.q)}; }
static void back_family(FamilyBuf &b, const Family &d) { back(b.o, d.o); back(b.p, d.p); back(b.c, d.c); back(b.q, d.q); }

// Point io's outputs at B's vectors (host) or at fresh device buffers for them (device).
template <class Out>
static void outputs(Io &io, Buffers &b, Out out) {
  io.half_fn = out(b.half_fn); io.half_op = out(b.half_op); io.bf16_op = out(b.bf16_op);
  io.float_op = out(b.float_op); io.half2_fn = out(b.half2_fn); io.half2_op = out(b.half2_op);
  io.float2_op = out(b.float2_op); io.int_op = out(b.int_op); io.uchar_op = out(b.uchar_op);
  io.schar_op = out(b.schar_op); io.bool_op = out(b.bool_op); io.intctor = out(b.intctor);
}
struct HostOut {
  template <class T>
  T *operator()(std::vector<T> &v) const { return v.data(); }
};
struct DevOut {
  template <class T>
  T *operator()(std::vector<T> &v) const { return dev_out(v); }
};

int main() {
  int n = COUNT(kF32In);
  if (COUNT(kF64In) > n) n = COUNT(kF64In);
  if (COUNT(kF16In) > n) n = COUNT(kF16In);
  if (COUNT(kBF16In) > n) n = COUNT(kBF16In);
  if (n < 768) n = 768;

  // host
  Buffers h;
  sizes(h);
  Io io = inputs(kF32In, kF64In, kF16In, kBF16In, kIntIn);
  io.r32 = host_family(h.r32); io.r64 = host_family(h.r64); io.r16 = host_family(h.r16); io.rbf = host_family(h.rbf);
  outputs(io, h, HostOut());
  for (int i = 0; i < n; i++) compute(io, i);
  check_all("host", h);

  // device
  Buffers d;
  sizes(d);
  Io dio = inputs(dev_copy(kF32In, COUNT(kF32In)), dev_copy(kF64In, COUNT(kF64In)), dev_copy(kF16In, COUNT(kF16In)),
                  dev_copy(kBF16In, COUNT(kBF16In)), dev_copy(kIntIn, COUNT(kIntIn)));
  dio.r32 = dev_family(d.r32); dio.r64 = dev_family(d.r64); dio.r16 = dev_family(d.r16); dio.rbf = dev_family(d.rbf);
  outputs(dio, d, DevOut());
  compute_kernel<<<64, 128>>>(dio, n);
  CHECK_LAUNCH();
  back_family(d.r32, dio.r32); back_family(d.r64, dio.r64); back_family(d.r16, dio.r16); back_family(d.rbf, dio.rbf);
  back(d.half_fn, dio.half_fn); back(d.half_op, dio.half_op); back(d.bf16_op, dio.bf16_op);
  back(d.float_op, dio.float_op); back(d.half2_fn, dio.half2_fn); back(d.half2_op, dio.half2_op);
  back(d.float2_op, dio.float2_op); back(d.int_op, dio.int_op); back(d.uchar_op, dio.uchar_op);
  back(d.schar_op, dio.schar_op); back(d.bool_op, dio.bool_op); back(d.intctor, dio.intctor);
  check_all("device", d);

  printf("checked %d float, %d double, %d half, %d bf16 inputs, 3 x 256 codes and %d integers, host and device\n",
         COUNT(kF32In), COUNT(kF64In), COUNT(kF16In), COUNT(kBF16In), COUNT(kIntIn));
  return ctest_finish();
}
