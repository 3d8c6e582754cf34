// cuFFT LTO callbacks: device functions compiled by NVRTC with -dlto and handed to
// cufftXtSetJITCallback, called for each element a transform loads or stores. Checked
// against a direct DFT on the host of what the callbacks make of the data:
// - C2C with a load callback scaling the real parts by a factor read through callerInfo
//   and a store callback setting imaginary parts;
// - an advanced layout (strides and distances), where each callback counts its calls per
//   offset: once at each element offset of the caller's layout, nowhere else (what
//   NVIDIA's cuFFT does, measured on an H200);
// - R2C with a real load callback, C2R with a real store callback, Z2Z in double;
// - misuse codes measured there: a callback set after the plan is made
//   (CUFFT_INVALID_PLAN), truncated LTO-IR failing the make (CUFFT_INTERNAL_ERROR), LTO
//   callbacks that cannot be cleared (CUFFT_NOT_IMPLEMENTED).
// Passes on an H200 with NVIDIA's cuFFT and NVRTC (-DNVIDIA_REFERENCE).
// link: -lcufft -lnvrtc
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>
#include <math.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

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
#define FFT(call, want)                                                     \
  do {                                                                      \
    cufftResult rc_ = (call);                                               \
    CHECK(rc_ == (want), "%s = %d, want %d", #call, (int)rc_, (int)(want)); \
  } while (0)

// Load and store callbacks come in two programs: NVIDIA's cuFFT links the load and the
// store LTO-IR of a plan together, and one program given twice would define every
// function twice (its make then fails with CUFFT_INTERNAL_ERROR).
static const char *kLoadCallbacks =
    "#include <cufftXt.h>\n"
    "__device__ cufftComplex scale_re(void *in, unsigned long long off, void *info, void *sh) {\n"
    "  cufftComplex x = ((cufftComplex *)in)[off];\n"
    "  x.x *= *(float *)info;\n"
    "  return x;\n"
    "}\n"
    "__device__ cufftComplex count_load(void *in, unsigned long long off, void *info, void *sh) {\n"
    "  atomicAdd((int *)info + off, 1);\n"
    "  return ((cufftComplex *)in)[off];\n"
    "}\n"
    "__device__ cufftReal plus_one(void *in, unsigned long long off, void *info, void *sh) {\n"
    "  return ((cufftReal *)in)[off] + 1.0f;\n"
    "}\n"
    "__device__ cufftDoubleComplex conj_z(void *in, unsigned long long off, void *info, void *sh) {\n"
    "  cufftDoubleComplex x = ((cufftDoubleComplex *)in)[off];\n"
    "  x.y = -x.y;\n"
    "  return x;\n"
    "}\n";
static const char *kStoreCallbacks =
    "#include <cufftXt.h>\n"
    "__device__ void set_im(void *out, unsigned long long off, cufftComplex e, void *info, void *sh) {\n"
    "  e.y = *(float *)info;\n"
    "  ((cufftComplex *)out)[off] = e;\n"
    "}\n"
    "__device__ void count_store(void *out, unsigned long long off, cufftComplex e, void *info, void *sh) {\n"
    "  atomicAdd((int *)info + off, 1);\n"
    "  ((cufftComplex *)out)[off] = e;\n"
    "}\n"
    "__device__ void halve(void *out, unsigned long long off, cufftReal e, void *info, void *sh) {\n"
    "  ((cufftReal *)out)[off] = 0.5f * e;\n"
    "}\n";

static std::vector<char> lto_ir(const char *source) {
  nvrtcProgram p;
  nvrtcCreateProgram(&p, source, "callbacks.cu", 0, NULL, NULL);
#ifdef NVIDIA_REFERENCE
  // NVIDIA's NVRTC needs the toolkit's include directory, and cufftXt.h's host
  // declarations need -default-device there.
  const char *opts[] = {"-dlto", "-arch=sm_90", "-default-device", "-I" CUDA_INCLUDE};
  nvrtcResult r = nvrtcCompileProgram(p, 4, opts);
#else
  const char *opts[] = {"-dlto", "-arch=sm_80"};
  nvrtcResult r = nvrtcCompileProgram(p, 2, opts);
#endif
  size_t n = 0;
  nvrtcGetProgramLogSize(p, &n);
  std::vector<char> log(n + 1);
  nvrtcGetProgramLog(p, log.data());
  CHECK(r == NVRTC_SUCCESS, "nvrtcCompileProgram = %d: %s", (int)r, log.data());
  size_t ptx = 0;
  nvrtcGetPTXSize(p, &ptx);
  CHECK(ptx == 1, "with -dlto the PTX is empty (size %zu)", ptx);
  nvrtcGetLTOIRSize(p, &n);
  std::vector<char> ir(n);
  if (n) nvrtcGetLTOIR(p, ir.data());
  nvrtcDestroyProgram(&p);
  return ir;
}

// out[k] = sum_j in[j] exp(sign 2 pi i j k / n), in double.
static void dft(const double *re, const double *im, double *ore, double *oim, int n, int sign) {
  for (int k = 0; k < n; k++) {
    double a = 0, b = 0;
    for (int j = 0; j < n; j++) {
      double t = sign * 2.0 * M_PI * (double)j * k / n;
      a += re[j] * cos(t) - im[j] * sin(t);
      b += re[j] * sin(t) + im[j] * cos(t);
    }
    ore[k] = a;
    oim[k] = b;
  }
}

static bool near(double got, double want, double tol) { return fabs(got - want) <= tol * (1.0 + fabs(want)); }

// A plan with the callbacks `load` and `store` (NULL for none) set before it is made.
static cufftHandle plan_with(const std::vector<char> &load_ir, const std::vector<char> &store_ir, const char *load, cufftXtCallbackType lt, void *linfo,
                             const char *store, cufftXtCallbackType st, void *sinfo) {
  cufftHandle h;
  FFT(cufftCreate(&h), CUFFT_SUCCESS);
  if (load) FFT(cufftXtSetJITCallback(h, load, load_ir.data(), load_ir.size(), lt, &linfo), CUFFT_SUCCESS);
  if (store) FFT(cufftXtSetJITCallback(h, store, store_ir.data(), store_ir.size(), st, &sinfo), CUFFT_SUCCESS);
  return h;
}

static void c2c_scale_and_set(const std::vector<char> &ld, const std::vector<char> &st) {
  const int n = 8, batch = 3;
  float *factors;
  cudaMalloc(&factors, 2 * sizeof(float));
  float hf[2] = {2.5f, 7.0f};
  cudaMemcpy(factors, hf, sizeof hf, cudaMemcpyHostToDevice);
  cufftHandle h = plan_with(ld, st, "scale_re", CUFFT_CB_LD_COMPLEX, factors, "set_im", CUFFT_CB_ST_COMPLEX, factors + 1);
  size_t ws;
  FFT(cufftMakePlan1d(h, n, CUFFT_C2C, batch, &ws), CUFFT_SUCCESS);
  std::vector<cufftComplex> in(n * batch), out(n * batch);
  for (int i = 0; i < n * batch; i++) in[i] = make_cuComplex((float)(i % 5) - 1.0f, (float)(i % 3));
  cufftComplex *d_in, *d_out;
  cudaMalloc(&d_in, in.size() * sizeof(cufftComplex));
  cudaMalloc(&d_out, in.size() * sizeof(cufftComplex));
  cudaMemcpy(d_in, in.data(), in.size() * sizeof(cufftComplex), cudaMemcpyHostToDevice);
  FFT(cufftExecC2C(h, d_in, d_out, CUFFT_FORWARD), CUFFT_SUCCESS);
  cudaMemcpy(out.data(), d_out, out.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost);
  for (int b = 0; b < batch; b++) {
    double re[n], im[n], ore[n], oim[n];
    for (int j = 0; j < n; j++) {
      re[j] = 2.5 * in[b * n + j].x;
      im[j] = in[b * n + j].y;
    }
    dft(re, im, ore, oim, n, -1);
    for (int k = 0; k < n; k++) {
      cufftComplex g = out[b * n + k];
      CHECK(near(g.x, ore[k], 1e-4) && g.y == 7.0f, "c2c batch %d [%d] = (%g, %g), want (%g, 7)", b, k, g.x, g.y, ore[k]);
    }
  }
  // The input is read through the load callback, never changed.
  std::vector<cufftComplex> again(n * batch);
  cudaMemcpy(again.data(), d_in, again.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost);
  CHECK(memcmp(again.data(), in.data(), in.size() * sizeof(cufftComplex)) == 0, "the input changed");
  // LTO callbacks cannot be cleared, before or after the make (CUFFT_NOT_IMPLEMENTED, as
  // NVIDIA's cuFFT answers): they stay in force.
  FFT(cufftXtClearCallback(h, CUFFT_CB_LD_COMPLEX), CUFFT_NOT_IMPLEMENTED);
  FFT(cufftXtClearCallback(h, CUFFT_CB_ST_COMPLEX), CUFFT_NOT_IMPLEMENTED);
  FFT(cufftExecC2C(h, d_in, d_out, CUFFT_FORWARD), CUFFT_SUCCESS);
  cudaMemcpy(out.data(), d_out, out.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost);
  CHECK(out[1].y == 7.0f, "the store callback was cleared: (%g, %g)", out[1].x, out[1].y);
  cufftDestroy(h);
  h = plan_with(ld, st, "scale_re", CUFFT_CB_LD_COMPLEX, factors, "set_im", CUFFT_CB_ST_COMPLEX, factors + 1);
  FFT(cufftXtClearCallback(h, CUFFT_CB_ST_COMPLEX), CUFFT_NOT_IMPLEMENTED);
  FFT(cufftMakePlan1d(h, n, CUFFT_C2C, batch, &ws), CUFFT_SUCCESS);
  FFT(cufftExecC2C(h, d_in, d_out, CUFFT_FORWARD), CUFFT_SUCCESS);
  cudaMemcpy(out.data(), d_out, out.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost);
  CHECK(out[1].y == 7.0f, "the store callback was cleared before the make: (%g, %g)", out[1].x, out[1].y);
  cufftDestroy(h);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(factors);
}

static void advanced_layout_offsets(const std::vector<char> &ld, const std::vector<char> &st) {
  int *counts;
  cudaMalloc(&counts, 64 * sizeof(int));
  cudaMemset(counts, 0, 64 * sizeof(int));
  cufftComplex *a, *b;
  cudaMalloc(&a, 64 * sizeof(cufftComplex));
  cudaMalloc(&b, 64 * sizeof(cufftComplex));
  cudaMemset(a, 0, 64 * sizeof(cufftComplex));
  int n[1] = {4}, inembed[1] = {5}, onembed[1] = {5};
  const int want_load[] = {0, 2, 4, 6, 10, 12, 14, 16}, want_store[] = {0, 3, 6, 9, 13, 16, 19, 22};
  for (int store = 0; store < 2; store++) {
    cufftHandle h = store ? plan_with(ld, st, NULL, CUFFT_CB_LD_COMPLEX, NULL, "count_store", CUFFT_CB_ST_COMPLEX, counts)
                          : plan_with(ld, st, "count_load", CUFFT_CB_LD_COMPLEX, counts, NULL, CUFFT_CB_ST_COMPLEX, NULL);
    size_t ws;
    FFT(cufftMakePlanMany(h, 1, n, inembed, 2, 10, onembed, 3, 13, CUFFT_C2C, 2, &ws), CUFFT_SUCCESS);
    FFT(cufftExecC2C(h, a, b, CUFFT_FORWARD), CUFFT_SUCCESS);
    int got[32];
    cudaMemcpy(got, counts, sizeof got, cudaMemcpyDeviceToHost);
    const int *want = store ? want_store : want_load;
    for (int o = 0, w = 0; o < 32; o++) {
      int expected = (w < 8 && want[w] == o) ? 1 : 0;
      w += expected;
      CHECK(got[o] == expected, "%s callback calls at offset %d: %d, want %d", store ? "store" : "load", o, got[o], expected);
    }
    cudaMemset(counts, 0, 64 * sizeof(int));
    cufftDestroy(h);
  }
  cudaFree(counts);
  cudaFree(a);
  cudaFree(b);
}

static void real_and_double(const std::vector<char> &ld, const std::vector<char> &st) {
  const int n = 6;
  size_t ws;
  // R2C with a load callback adding one to every real.
  float hr[n] = {0.5f, -1, 2, 3, -4, 1};
  float *r;
  cufftComplex *c;
  cudaMalloc(&r, sizeof hr);
  cudaMalloc(&c, (n / 2 + 1) * sizeof(cufftComplex));
  cudaMemcpy(r, hr, sizeof hr, cudaMemcpyHostToDevice);
  cufftHandle h = plan_with(ld, st, "plus_one", CUFFT_CB_LD_REAL, NULL, NULL, CUFFT_CB_ST_COMPLEX, NULL);
  FFT(cufftMakePlan1d(h, n, CUFFT_R2C, 1, &ws), CUFFT_SUCCESS);
  FFT(cufftExecR2C(h, r, c), CUFFT_SUCCESS);
  cufftComplex hc[n / 2 + 1];
  cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost);
  double re[n], im[n] = {0}, ore[n], oim[n];
  for (int j = 0; j < n; j++) re[j] = hr[j] + 1.0;
  dft(re, im, ore, oim, n, -1);
  for (int k = 0; k <= n / 2; k++)
    CHECK(near(hc[k].x, ore[k], 1e-4) && near(hc[k].y, oim[k], 1e-4), "r2c [%d] = (%g, %g), want (%g, %g)", k, hc[k].x,
          hc[k].y, ore[k], oim[k]);
  cufftDestroy(h);
  // C2R of that spectrum with a store callback halving every real: (x + 1) * n / 2.
  h = plan_with(ld, st, NULL, CUFFT_CB_LD_COMPLEX, NULL, "halve", CUFFT_CB_ST_REAL, NULL);
  FFT(cufftMakePlan1d(h, n, CUFFT_C2R, 1, &ws), CUFFT_SUCCESS);
  FFT(cufftExecC2R(h, c, r), CUFFT_SUCCESS);
  float back[n];
  cudaMemcpy(back, r, sizeof back, cudaMemcpyDeviceToHost);
  for (int j = 0; j < n; j++) CHECK(near(back[j], (hr[j] + 1.0) * n / 2, 1e-4), "c2r [%d] = %g, want %g", j, back[j], (hr[j] + 1.0) * n / 2);
  cufftDestroy(h);
  cudaFree(r);
  cudaFree(c);
  // Z2Z in place with a load callback conjugating the input.
  cufftDoubleComplex hz[n];
  for (int j = 0; j < n; j++) hz[j] = make_cuDoubleComplex(j * 0.25, 1.0 - j);
  cufftDoubleComplex *z;
  cudaMalloc(&z, sizeof hz);
  cudaMemcpy(z, hz, sizeof hz, cudaMemcpyHostToDevice);
  h = plan_with(ld, st, "conj_z", CUFFT_CB_LD_COMPLEX_DOUBLE, NULL, NULL, CUFFT_CB_ST_COMPLEX, NULL);
  FFT(cufftMakePlan1d(h, n, CUFFT_Z2Z, 1, &ws), CUFFT_SUCCESS);
  FFT(cufftExecZ2Z(h, z, z, CUFFT_INVERSE), CUFFT_SUCCESS);
  cufftDoubleComplex oz[n];
  cudaMemcpy(oz, z, sizeof oz, cudaMemcpyDeviceToHost);
  for (int j = 0; j < n; j++) {
    re[j] = hz[j].x;
    im[j] = -hz[j].y;
  }
  dft(re, im, ore, oim, n, 1);
  for (int k = 0; k < n; k++)
    CHECK(near(oz[k].x, ore[k], 1e-12) && near(oz[k].y, oim[k], 1e-12), "z2z [%d] = (%g, %g), want (%g, %g)", k, oz[k].x,
          oz[k].y, ore[k], oim[k]);
  cufftDestroy(h);
  cudaFree(z);
}

static void misuse(const std::vector<char> &ld, const std::vector<char> &st) {
  size_t ws;
  void *info = NULL;
  cufftHandle h;
  cufftCreate(&h);
  FFT(cufftMakePlan1d(h, 8, CUFFT_C2C, 1, &ws), CUFFT_SUCCESS);
  FFT(cufftXtSetJITCallback(h, "scale_re", ld.data(), ld.size(), CUFFT_CB_LD_COMPLEX, &info), CUFFT_INVALID_PLAN);
  cufftDestroy(h);
  cufftCreate(&h);
  FFT(cufftXtSetJITCallback(h, "scale_re", ld.data(), 10, CUFFT_CB_LD_COMPLEX, &info), CUFFT_SUCCESS);
  FFT(cufftMakePlan1d(h, 8, CUFFT_C2C, 1, &ws), CUFFT_INTERNAL_ERROR);
  cufftDestroy(h);
#ifndef NVIDIA_REFERENCE
  // NVIDIA's cuFFT crashes on these (a symbol the LTO-IR lacks; NULL arguments); ours
  // answers codes.
  cufftCreate(&h);
  FFT(cufftXtSetJITCallback(h, "nope", ld.data(), ld.size(), CUFFT_CB_LD_COMPLEX, &info), CUFFT_SUCCESS);
  FFT(cufftMakePlan1d(h, 8, CUFFT_C2C, 1, &ws), CUFFT_INTERNAL_ERROR);
  cufftDestroy(h);
  cufftCreate(&h);
  FFT(cufftXtSetJITCallback(h, NULL, ld.data(), ld.size(), CUFFT_CB_LD_COMPLEX, &info), CUFFT_INVALID_VALUE);
  FFT(cufftXtSetJITCallback(h, "scale_re", NULL, ld.size(), CUFFT_CB_LD_COMPLEX, &info), CUFFT_INVALID_VALUE);
  FFT(cufftXtSetJITCallback(h, "scale_re", ld.data(), ld.size(), (cufftXtCallbackType)9, &info), CUFFT_INVALID_VALUE);
  // A load function given as a store callback.
  FFT(cufftXtSetJITCallback(h, "scale_re", ld.data(), ld.size(), CUFFT_CB_ST_COMPLEX, &info), CUFFT_SUCCESS);
  FFT(cufftMakePlan1d(h, 8, CUFFT_C2C, 1, &ws), CUFFT_INTERNAL_ERROR);
  cufftDestroy(h);
  FFT(cufftXtSetJITCallback(h, "scale_re", ld.data(), ld.size(), CUFFT_CB_LD_COMPLEX, &info), CUFFT_INVALID_PLAN);
#endif
}

int main() {
  std::vector<char> ld = lto_ir(kLoadCallbacks), st = lto_ir(kStoreCallbacks);
  if (ld.empty() || st.empty()) {
    printf("FAIL: no LTO-IR\n");
    return 1;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("C2C with load and store callbacks\n");
  c2c_scale_and_set(ld, st);
  printf("advanced layout offsets\n");
  advanced_layout_offsets(ld, st);
  printf("R2C, C2R and Z2Z\n");
  real_and_double(ld, st);
  printf("misuse\n");
  misuse(ld, st);
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("PASS cufft_callbacks\n");
  return 0;
}
