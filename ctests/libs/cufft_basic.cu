// cuFFT through our libcufft on the CPU device: every transform is checked against a
// naive DFT computed here in double precision, element by element at the offsets cuFFT's
// documented layouts give; elements a layout does not address must keep their sentinel.
// Also: stream order with kernels, the Xt API, and the status codes of misuse.
// link: -lcufft
#include <cufft.h>
#include <cufftXt.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <complex>
#include <vector>

typedef std::complex<double> cd;

static int failures = 0;
#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
      failures++;                                 \
    }                                             \
  } while (0)
#define CUFFT(call)                                              \
  do {                                                           \
    cufftResult r_ = (call);                                     \
    CHECK(r_ == CUFFT_SUCCESS, "%s returned %d", #call, (int)r_); \
  } while (0)
#define CUDA(call) CHECK((call) == cudaSuccess, "%s", #call)

static double rnd(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return ((*s >> 8) & 0xffff) / 32768.0 - 1.0;
}

// The unnormalized DFT of a dense row-major array over dims n[0..rank), sign -1 forward.
static std::vector<cd> dft(const std::vector<cd> &x, const std::vector<int> &n, int sign) {
  size_t total = 1;
  for (int d : n) total *= d;
  std::vector<cd> out(total);
  int rank = (int)n.size();
  std::vector<int> k(rank), j(rank);
  for (size_t a = 0; a < total; a++) {
    size_t t = a;
    for (int d = rank - 1; d >= 0; d--) { k[d] = t % n[d]; t /= n[d]; }
    cd sum = 0;
    for (size_t b = 0; b < total; b++) {
      size_t u = b;
      double phase = 0;
      for (int d = rank - 1; d >= 0; d--) {
        j[d] = u % n[d];
        u /= n[d];
        phase += (double)((long)k[d] * j[d] % n[d]) / n[d];
      }
      sum += x[b] * std::polar(1.0, sign * 2 * M_PI * phase);
    }
    out[a] = sum;
  }
  return out;
}

// A layout: element x (row-major index over dims) of batch b is at
// b*dist + ((x0*embed[1] + x1)*embed[2] + x2)*stride.
struct Layout {
  std::vector<int> dims, embed;
  int stride, dist;
  size_t offset(int b, size_t flat) const {
    int rank = (int)dims.size();
    std::vector<int> x(rank);
    for (int d = rank - 1; d >= 0; d--) { x[d] = flat % dims[d]; flat /= dims[d]; }
    size_t lin = x[0];
    for (int d = 1; d < rank; d++) lin = lin * embed[d] + x[d];
    return (size_t)b * dist + lin * stride;
  }
  size_t count() const {
    size_t c = 1;
    for (int d : dims) c *= d;
    return c;
  }
  size_t extent(int batch) const {
    size_t last = 0;
    for (size_t f = 0; f < count(); f++) {
      size_t o = offset(batch - 1, f);
      if (o > last) last = o;
    }
    return last + 1;
  }
};

static Layout dense(std::vector<int> dims) {
  Layout l{dims, dims, 1, 0};
  l.dist = (int)l.count();
  return l;
}

static std::vector<int> half(std::vector<int> n) {
  n.back() = n.back() / 2 + 1;
  return n;
}

// Device buffers of `bytes` filled with a sentinel byte pattern.
static void *dev_alloc(size_t bytes) {
  void *p = nullptr;
  CUDA(cudaMalloc(&p, bytes));
  CUDA(cudaMemset(p, 0x7f, bytes));
  return p;
}

// Complex-to-complex at precision T (float2 or double2 storage as std::complex<T>).
template <typename T>
static void c2c_case(const char *what, cufftHandle plan, int batch, const Layout &in, const Layout &out, bool in_place,
                     int direction) {
  typedef std::complex<T> C;
  unsigned seed = 12345;
  size_t in_ext = in.extent(batch), out_ext = out.extent(batch);
  size_t ext = in_place ? (in_ext > out_ext ? in_ext : out_ext) : in_ext;
  std::vector<C> hin(ext, C(T(1e30), T(1e30)));
  std::vector<std::vector<cd>> logical(batch);
  for (int b = 0; b < batch; b++)
    for (size_t f = 0; f < in.count(); f++) {
      C v(T(rnd(&seed)), T(rnd(&seed)));
      hin[in.offset(b, f)] = v;
      logical[b].push_back(cd(v.real(), v.imag()));
    }
  C *din = (C *)dev_alloc(ext * sizeof(C));
  C *dout = in_place ? din : (C *)dev_alloc(out_ext * sizeof(C));
  CUDA(cudaMemcpy(din, hin.data(), ext * sizeof(C), cudaMemcpyHostToDevice));
  cufftResult r;
  if (sizeof(T) == 4)
    r = cufftExecC2C(plan, (cufftComplex *)din, (cufftComplex *)dout, direction);
  else
    r = cufftExecZ2Z(plan, (cufftDoubleComplex *)din, (cufftDoubleComplex *)dout, direction);
  CHECK(r == CUFFT_SUCCESS, "%s: exec returned %d", what, (int)r);
  CUDA(cudaDeviceSynchronize());
  size_t got_len = in_place ? ext : out_ext;
  std::vector<C> got(got_len);
  CUDA(cudaMemcpy(got.data(), dout, got_len * sizeof(C), cudaMemcpyDeviceToHost));
  std::vector<bool> addressed(got_len, false);
  double tol = (sizeof(T) == 4 ? 3e-5 : 1e-11) * out.count();
  int bad = 0;
  for (int b = 0; b < batch; b++) {
    std::vector<cd> want = dft(logical[b], out.dims, direction);
    for (size_t f = 0; f < out.count(); f++) {
      size_t o = out.offset(b, f);
      addressed[o] = true;
      cd g(got[o].real(), got[o].imag());
      if (std::abs(g - want[f]) > tol && bad++ < 3)
        CHECK(false, "%s: batch %d element %zu: got (%g,%g), want (%g,%g)", what, b, f, g.real(), g.imag(),
              want[f].real(), want[f].imag());
    }
  }
  CHECK(bad == 0, "%s: %d elements differ", what, bad);
  if (!in_place) {
    std::vector<unsigned char> sentinel(sizeof(C), 0x7f);
    for (size_t i = 0; i < got_len; i++)
      if (!addressed[i] && memcmp(&got[i], sentinel.data(), sizeof(C)) != 0) {
        CHECK(false, "%s: wrote offset %zu outside the layout", what, i);
        break;
      }
  }
  CUDA(cudaFree(din));
  if (!in_place) CUDA(cudaFree(dout));
}

// Real-to-complex then complex-to-real at precision T: the half spectrum against the
// naive DFT, then n times the input back.
template <typename T>
static void real_case(const char *what, cufftHandle fwd, cufftHandle inv, int batch, const Layout &real,
                      const Layout &spec, bool in_place) {
  typedef std::complex<T> C;
  unsigned seed = 777;
  size_t r_ext = real.extent(batch), c_ext = spec.extent(batch);
  size_t bytes = in_place ? (r_ext * sizeof(T) > c_ext * sizeof(C) ? r_ext * sizeof(T) : c_ext * sizeof(C))
                          : r_ext * sizeof(T);
  std::vector<T> hreal(bytes / sizeof(T), T(0));
  std::vector<std::vector<cd>> logical(batch);
  for (int b = 0; b < batch; b++)
    for (size_t f = 0; f < real.count(); f++) {
      T v = T(rnd(&seed));
      hreal[real.offset(b, f)] = v;
      logical[b].push_back(cd(v, 0));
    }
  T *dreal = (T *)dev_alloc(bytes);
  C *dspec = in_place ? (C *)dreal : (C *)dev_alloc(c_ext * sizeof(C));
  CUDA(cudaMemcpy(dreal, hreal.data(), bytes, cudaMemcpyHostToDevice));
  cufftResult r = sizeof(T) == 4 ? cufftExecR2C(fwd, (cufftReal *)dreal, (cufftComplex *)dspec)
                                 : cufftExecD2Z(fwd, (cufftDoubleReal *)dreal, (cufftDoubleComplex *)dspec);
  CHECK(r == CUFFT_SUCCESS, "%s: forward returned %d", what, (int)r);
  std::vector<C> hspec(c_ext);
  CUDA(cudaMemcpy(hspec.data(), dspec, c_ext * sizeof(C), cudaMemcpyDeviceToHost));
  size_t total = real.count();
  double tol = (sizeof(T) == 4 ? 3e-5 : 1e-11) * total;
  int bad = 0;
  std::vector<int> hdims = spec.dims;
  for (int b = 0; b < batch; b++) {
    std::vector<cd> want = dft(logical[b], real.dims, -1);
    for (size_t f = 0; f < spec.count(); f++) {
      // Full-spectrum index of half-spectrum element f.
      size_t t = f, full = 0, scale = 1;
      for (int d = (int)hdims.size() - 1; d >= 0; d--) {
        full += (t % hdims[d]) * scale;
        scale *= real.dims[d];
        t /= hdims[d];
      }
      C g = hspec[spec.offset(b, f)];
      if (std::abs(cd(g.real(), g.imag()) - want[full]) > tol && bad++ < 3)
        CHECK(false, "%s: R2C batch %d element %zu: got (%g,%g), want (%g,%g)", what, b, f, (double)g.real(),
              (double)g.imag(), want[full].real(), want[full].imag());
    }
  }
  r = sizeof(T) == 4 ? cufftExecC2R(inv, (cufftComplex *)dspec, (cufftReal *)dreal)
                     : cufftExecZ2D(inv, (cufftDoubleComplex *)dspec, (cufftDoubleReal *)dreal);
  CHECK(r == CUFFT_SUCCESS, "%s: inverse returned %d", what, (int)r);
  CUDA(cudaMemcpy(hreal.data(), dreal, r_ext * sizeof(T), cudaMemcpyDeviceToHost));
  for (int b = 0; b < batch; b++)
    for (size_t f = 0; f < total; f++) {
      double g = hreal[real.offset(b, f)], w = logical[b][f].real() * total;
      if (fabs(g - w) > tol && bad++ < 3) CHECK(false, "%s: C2R batch %d element %zu: got %g, want %g", what, b, f, g, w);
    }
  CHECK(bad == 0, "%s: %d elements differ", what, bad);
  CUDA(cudaFree(dreal));
  if (!in_place) CUDA(cudaFree(dspec));
}

static void basic_plans() {
  cufftHandle p;
  // 1D C2C, batched, forward out of place and inverse in place; a prime length.
  CUFFT(cufftPlan1d(&p, 16, CUFFT_C2C, 3));
  c2c_case<float>("C2C 1D 16 x3 forward", p, 3, dense({16}), dense({16}), false, CUFFT_FORWARD);
  c2c_case<float>("C2C 1D 16 x3 inverse in place", p, 3, dense({16}), dense({16}), true, CUFFT_INVERSE);
  CUFFT(cufftDestroy(p));
  CUFFT(cufftPlan1d(&p, 17, CUFFT_Z2Z, 2));
  c2c_case<double>("Z2Z 1D 17 x2 forward", p, 2, dense({17}), dense({17}), false, CUFFT_FORWARD);
  CUFFT(cufftDestroy(p));
  // 2D and 3D.
  CUFFT(cufftPlan2d(&p, 6, 10, CUFFT_C2C));
  c2c_case<float>("C2C 2D 6x10", p, 1, dense({6, 10}), dense({6, 10}), false, CUFFT_FORWARD);
  c2c_case<float>("C2C 2D 6x10 in place inverse", p, 1, dense({6, 10}), dense({6, 10}), true, CUFFT_INVERSE);
  CUFFT(cufftDestroy(p));
  CUFFT(cufftPlan3d(&p, 3, 4, 5, CUFFT_Z2Z));
  c2c_case<double>("Z2Z 3D 3x4x5", p, 1, dense({3, 4, 5}), dense({3, 4, 5}), false, CUFFT_FORWARD);
  CUFFT(cufftDestroy(p));
  // Real transforms: 1D batched out of place, 2D in place (padded rows), 3D double.
  cufftHandle f, i;
  CUFFT(cufftPlan1d(&f, 12, CUFFT_R2C, 2));
  CUFFT(cufftPlan1d(&i, 12, CUFFT_C2R, 2));
  real_case<float>("R2C/C2R 1D 12 x2", f, i, 2, dense({12}), dense({7}), false);
  CUFFT(cufftDestroy(f));
  CUFFT(cufftDestroy(i));
  CUFFT(cufftPlan2d(&f, 8, 7, CUFFT_R2C));
  CUFFT(cufftPlan2d(&i, 8, 7, CUFFT_C2R));
  Layout padded{{8, 7}, {8, 8}, 1, 64};  // in place: rows of 2*(7/2+1) = 8 reals
  real_case<float>("R2C/C2R 2D 8x7 in place", f, i, 1, padded, dense({8, 4}), true);
  CUFFT(cufftDestroy(f));
  CUFFT(cufftDestroy(i));
  CUFFT(cufftPlan3d(&f, 4, 3, 6, CUFFT_D2Z));
  CUFFT(cufftPlan3d(&i, 4, 3, 6, CUFFT_Z2D));
  real_case<double>("D2Z/Z2D 3D 4x3x6", f, i, 1, dense({4, 3, 6}), dense(half({4, 3, 6})), false);
  CUFFT(cufftDestroy(f));
  CUFFT(cufftDestroy(i));
}

static void advanced_layouts() {
  cufftHandle p;
  // 2D 4x5, batch 3: input every other element of rows padded to 7, output rows padded
  // to 6 with batches 30 apart.
  int n[2] = {4, 5}, inembed[2] = {4, 7}, onembed[2] = {4, 6};
  CUFFT(cufftPlanMany(&p, 2, n, inembed, 2, 60, onembed, 1, 30, CUFFT_C2C, 3));
  c2c_case<float>("C2C 2D advanced", p, 3, Layout{{4, 5}, {4, 7}, 2, 60}, Layout{{4, 5}, {4, 6}, 1, 30}, false,
                  CUFFT_FORWARD);
  CUFFT(cufftDestroy(p));
  // Batches interleaved (stride = batch, dist = 1), 1D, double, through MakePlanMany64.
  long long n64[1] = {9}, e64[1] = {9};
  size_t ws = 1;
  CUFFT(cufftCreate(&p));
  CUFFT(cufftMakePlanMany64(p, 1, n64, e64, 4, 1, e64, 4, 1, CUFFT_Z2Z, 4, &ws));
  CHECK(ws == 0, "work size %zu", ws);
  c2c_case<double>("Z2Z 1D interleaved", p, 4, Layout{{9}, {9}, 4, 1}, Layout{{9}, {9}, 4, 1}, false,
                   CUFFT_INVERSE);
  c2c_case<double>("Z2Z 1D interleaved in place", p, 4, Layout{{9}, {9}, 4, 1}, Layout{{9}, {9}, 4, 1}, true,
                   CUFFT_FORWARD);
  CUFFT(cufftDestroy(p));
  // NULL embeds: the basic layout, the strides and dists ignored.
  int n1[1] = {10};
  CUFFT(cufftPlanMany(&p, 1, n1, NULL, 5, 3, NULL, 7, 2, CUFFT_C2C, 2));
  c2c_case<float>("C2C NULL embeds", p, 2, dense({10}), dense({10}), false, CUFFT_FORWARD);
  CUFFT(cufftDestroy(p));
  // Real transforms along rows with strided storage: R2C 1D n=10, batch 2.
  cufftHandle f, i;
  int nr[1] = {10}, re[1] = {0}, ce[1] = {0};
  CUFFT(cufftPlanMany(&f, 1, nr, re, 3, 40, ce, 2, 15, CUFFT_R2C, 2));
  CUFFT(cufftPlanMany(&i, 1, nr, ce, 2, 15, re, 3, 40, CUFFT_C2R, 2));
  real_case<float>("R2C/C2R 1D strided", f, i, 2, Layout{{10}, {0}, 3, 40}, Layout{{6}, {0}, 2, 15}, false);
  CUFFT(cufftDestroy(f));
  CUFFT(cufftDestroy(i));
}

__global__ void fill(float2 *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = make_float2((float)(i % 7) - 3.0f, (float)(i % 5) * 0.5f);
}

__global__ void scale(float2 *x, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = make_float2(x[i].x * s, x[i].y * s);
}

// A kernel fills the input, the FFT runs, a kernel scales the output, all queued on one
// stream with no synchronization between them: the result shows they ran in order.
static void stream_order() {
  const int n = 4096;
  cudaStream_t s;
  CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float2 *x, *y;
  CUDA(cudaMalloc(&x, n * sizeof(float2)));
  CUDA(cudaMalloc(&y, n * sizeof(float2)));
  cufftHandle p;
  size_t ws;
  CUFFT(cufftCreate(&p));
  CUFFT(cufftSetAutoAllocation(p, 0));
  CUFFT(cufftMakePlan1d(p, n, CUFFT_C2C, 1, &ws));
  CUFFT(cufftSetWorkArea(p, NULL));
  CUFFT(cufftSetStream(p, s));
  for (int rep = 0; rep < 3; rep++) {
    fill<<<n / 256, 256, 0, s>>>(x, n);
    CUFFT(cufftExecC2C(p, (cufftComplex *)x, (cufftComplex *)y, CUFFT_FORWARD));
    scale<<<n / 256, 256, 0, s>>>(y, n, 0.5f);
    CUFFT(cufftExecC2C(p, (cufftComplex *)y, (cufftComplex *)y, CUFFT_INVERSE));
  }
  CUDA(cudaStreamSynchronize(s));
  std::vector<float2> got(n);
  CUDA(cudaMemcpy(got.data(), y, n * sizeof(float2), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    // inverse(0.5 * forward(x)) = 0.5 * n * x
    double wr = 0.5 * n * ((i % 7) - 3.0), wi = 0.5 * n * ((i % 5) * 0.5);
    if ((fabs(got[i].x - wr) > 1e-2 || fabs(got[i].y - wi) > 1e-2) && bad++ < 3)
      CHECK(false, "stream order: y[%d] = (%g,%g), want (%g,%g)", i, got[i].x, got[i].y, wr, wi);
  }
  CHECK(bad == 0, "stream order: %d elements differ", bad);
  CUFFT(cufftDestroy(p));
  CUDA(cudaFree(x));
  CUDA(cudaFree(y));
  CUDA(cudaStreamDestroy(s));
}

static void xt_api() {
  cufftHandle p;
  size_t ws = 99;
  long long n[2] = {6, 4};
  CUFFT(cufftCreate(&p));
  CUFFT(cufftXtMakePlanMany(p, 2, n, NULL, 1, 0, CUDA_C_64F, NULL, 1, 0, CUDA_C_64F, 2, &ws, CUDA_C_64F));
  CHECK(ws == 0, "Xt work size %zu", ws);
  // cufftXtExec runs the plan's own type (Z2Z here).
  unsigned seed = 5;
  std::vector<cd> h(48);
  for (auto &v : h) v = cd(rnd(&seed), rnd(&seed));
  void *d = dev_alloc(48 * sizeof(cd));
  CUDA(cudaMemcpy(d, h.data(), 48 * sizeof(cd), cudaMemcpyHostToDevice));
  CUFFT(cufftXtExec(p, d, d, CUFFT_FORWARD));
  std::vector<cd> got(48);
  CUDA(cudaMemcpy(got.data(), d, 48 * sizeof(cd), cudaMemcpyDeviceToHost));
  for (int b = 0; b < 2; b++) {
    std::vector<cd> x(h.begin() + 24 * b, h.begin() + 24 * (b + 1));
    std::vector<cd> want = dft(x, {6, 4}, -1);
    for (int k = 0; k < 24; k++) CHECK(std::abs(got[24 * b + k] - want[k]) < 1e-10, "XtExec batch %d element %d", b, k);
  }
  CUFFT(cufftDestroy(p));
  CUDA(cudaFree(d));
  // Half precision is not implemented.
  CUFFT(cufftCreate(&p));
  CHECK(cufftXtMakePlanMany(p, 2, n, NULL, 1, 0, CUDA_C_16F, NULL, 1, 0, CUDA_C_16F, 1, &ws, CUDA_C_16F) ==
            CUFFT_NOT_SUPPORTED,
        "XtMakePlanMany half");
  int gpus[2] = {0, 1};
  CHECK(cufftXtSetGPUs(p, 2, gpus) == CUFFT_NOT_SUPPORTED, "XtSetGPUs");
  CUFFT(cufftDestroy(p));
}

static void status_codes() {
  cufftHandle p, q;
  float2 *d;
  CUDA(cudaMalloc(&d, 64 * sizeof(float2)));
  CHECK(cufftPlan1d(&p, 0, CUFFT_C2C, 1) == CUFFT_INVALID_SIZE, "nx = 0");
  CHECK(cufftPlan1d(&p, 8, CUFFT_C2C, 0) == CUFFT_INVALID_SIZE, "batch = 0");
  CHECK(cufftPlan1d(&p, 8, (cufftType)0x77, 1) == CUFFT_INVALID_TYPE, "type 0x77");
  int n4[4] = {2, 2, 2, 2};
  CHECK(cufftPlanMany(&p, 4, n4, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1) == CUFFT_INVALID_SIZE, "rank 4");
  CHECK(cufftPlanMany(&p, 0, n4, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1) == CUFFT_INVALID_SIZE, "rank 0");
  CHECK(cufftCreate(NULL) == CUFFT_INVALID_VALUE, "cufftCreate(NULL)");
  // An R2C plan run as C2C or C2R: the wrong type for the plan.
  CUFFT(cufftPlan1d(&p, 16, CUFFT_R2C, 1));
  CHECK(cufftExecC2C(p, (cufftComplex *)d, (cufftComplex *)d, CUFFT_FORWARD) == CUFFT_INVALID_PLAN, "C2C on R2C");
  CHECK(cufftExecC2R(p, (cufftComplex *)d, (cufftReal *)d) == CUFFT_INVALID_PLAN, "C2R on R2C");
  CHECK(cufftExecD2Z(p, (cufftDoubleReal *)d, (cufftDoubleComplex *)d) == CUFFT_INVALID_PLAN, "D2Z on R2C");
  CHECK(cufftExecR2C(p, NULL, (cufftComplex *)d) == CUFFT_INVALID_VALUE, "NULL input");
  CHECK(cufftExecR2C(p, (cufftReal *)d, NULL) == CUFFT_INVALID_VALUE, "NULL output");
  CUFFT(cufftExecR2C(p, (cufftReal *)d, (cufftComplex *)d));
  CUFFT(cufftDestroy(p));
  CHECK(cufftExecR2C(p, (cufftReal *)d, (cufftComplex *)d) == CUFFT_INVALID_PLAN, "destroyed plan");
  CHECK(cufftDestroy(p) == CUFFT_INVALID_PLAN, "destroyed twice");
  CHECK(cufftSetStream(p, 0) == CUFFT_INVALID_PLAN, "SetStream on destroyed");
  // A created plan that was never made.
  CUFFT(cufftCreate(&q));
  CHECK(cufftExecC2C(q, (cufftComplex *)d, (cufftComplex *)d, CUFFT_FORWARD) == CUFFT_INVALID_PLAN, "unmade");
  CUFFT(cufftMakePlan1d(q, 16, CUFFT_C2C, 1, NULL));
  CHECK(cufftExecC2C(q, (cufftComplex *)d, (cufftComplex *)d, 0) == CUFFT_INVALID_VALUE, "direction 0");
  // Data past the end of its allocation (64 complexes, 4 batches of 32 asked).
  CUFFT(cufftMakePlan1d(q, 32, CUFFT_C2C, 4, NULL));
  CHECK(cufftExecC2C(q, (cufftComplex *)d, (cufftComplex *)d, CUFFT_FORWARD) == CUFFT_INVALID_VALUE, "overrun");
  size_t ws = 7;
  CUFFT(cufftGetSize(q, &ws));
  CHECK(ws == 0, "GetSize %zu", ws);
  CUFFT(cufftEstimate3d(4, 4, 4, CUFFT_Z2D, &ws));
  CHECK(cufftEstimate1d(-1, CUFFT_C2C, 1, &ws) == CUFFT_INVALID_SIZE, "Estimate1d -1");
  CUFFT(cufftGetSize2d(q, 8, 8, CUFFT_C2C, &ws));
  CHECK(cufftXtSetCallback(q, NULL, CUFFT_CB_LD_COMPLEX, NULL) == CUFFT_NOT_SUPPORTED, "callbacks");
  CUFFT(cufftDestroy(q));
  int version = 0, major = -1;
  CUFFT(cufftGetVersion(&version));
  CUFFT(cufftGetProperty(MAJOR_VERSION, &major));
  CHECK(version >= 11000 && version / 1000 == major, "version %d major %d", version, major);
  CUDA(cudaFree(d));
}

int main() {
  CUDA(cudaFree(0));
  basic_plans();
  advanced_layouts();
  stream_order();
  xt_api();
  status_codes();
  if (failures) {
    printf("FAIL cufft_basic: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS cufft_basic\n");
  return 0;
}
