// link: -lcurand
// cuRAND's host API on our stack: device generators (queued on a stream, writing device
// memory) against host generators of the same kind, NVIDIA's first values for XORWOW and MTGP32,
// statistical sanity, and NVIDIA's status codes for misuse.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include <curand.h>

static int failures = 0;
#define CHECK(cond, ...)                                          \
  do {                                                            \
    if (!(cond)) {                                                \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                 \
      printf(__VA_ARGS__);                                        \
      printf("\n");                                               \
      failures++;                                                 \
    }                                                             \
  } while (0)
#define CR(x) CHECK((x) == CURAND_STATUS_SUCCESS, "%s -> %d", #x, (int)(x))

template <class T>
static std::vector<T> device_vs_host(curandRngType_t type, unsigned long long seed, size_t n,
                                     curandStatus_t (*gen)(curandGenerator_t, T *, size_t), cudaStream_t stream) {
  curandGenerator_t d, h;
  CR(curandCreateGenerator(&d, type));
  CR(curandCreateGeneratorHost(&h, type));
  if (type < 200) {
    CR(curandSetPseudoRandomGeneratorSeed(d, seed));
    CR(curandSetPseudoRandomGeneratorSeed(h, seed));
  } else {
    CR(curandSetQuasiRandomGeneratorDimensions(d, 4));
    CR(curandSetQuasiRandomGeneratorDimensions(h, 4));
  }
  CR(curandSetStream(d, stream));
  T *dp;
  cudaMalloc(&dp, n * sizeof(T));
  std::vector<T> a(n), b(n);
  // Two calls each: the second continues the sequence.
  CR(gen(d, dp, n / 2));
  CR(gen(d, dp + n / 2, n / 2));
  cudaMemcpyAsync(a.data(), dp, n * sizeof(T), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  CR(gen(h, b.data(), n / 2));
  CR(gen(h, b.data() + n / 2, n / 2));
  CHECK(memcmp(a.data(), b.data(), n * sizeof(T)) == 0, "type %d: device and host generators differ", (int)type);
  cudaFree(dp);
  curandDestroyGenerator(d);
  curandDestroyGenerator(h);
  return a;
}

static curandStatus_t uniform(curandGenerator_t g, float *p, size_t n) { return curandGenerateUniform(g, p, n); }
static curandStatus_t normal(curandGenerator_t g, float *p, size_t n) { return curandGenerateNormal(g, p, n, 2.0f, 3.0f); }
static curandStatus_t normal_d(curandGenerator_t g, double *p, size_t n) { return curandGenerateNormalDouble(g, p, n, 0.0, 1.0); }
static curandStatus_t uniform_d(curandGenerator_t g, double *p, size_t n) { return curandGenerateUniformDouble(g, p, n); }
static curandStatus_t poisson(curandGenerator_t g, unsigned *p, size_t n) { return curandGeneratePoisson(g, p, n, 7.5); }

template <class T>
static void moments(const std::vector<T> &v, double mean, double sd, const char *what) {
  double s = 0, s2 = 0;
  for (T x : v) { s += x; s2 += (double)x * x; }
  double m = s / v.size(), var = s2 / v.size() - m * m;
  double tol = 5 * sd / std::sqrt((double)v.size());
  CHECK(std::fabs(m - mean) < tol, "%s: mean %g, expected %g", what, m, mean);
  CHECK(std::fabs(std::sqrt(var) - sd) < 0.02 * sd + tol, "%s: sd %g, expected %g", what, std::sqrt(var), sd);
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  const size_t n = 1 << 16;
  auto bits = device_vs_host<unsigned>(CURAND_RNG_PSEUDO_XORWOW, 1234, n, curandGenerate, stream);
  // NVIDIA's first results for XORWOW seed 1234 (recorded on an H100, crates/curand/tests/data).
  CHECK(bits[0] == 624778773u && bits[1] == 3522650202u && bits[2] == 2363946744u, "xorwow seed 1234: %u %u %u", bits[0], bits[1], bits[2]);
  int ones = 0;
  for (unsigned x : bits) ones += __builtin_popcount(x);
  CHECK(std::fabs(ones / (32.0 * n) - 0.5) < 0.005, "bit balance %g", ones / (32.0 * n));
  for (curandRngType_t t : {CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_PHILOX4_32_10, CURAND_RNG_PSEUDO_MRG32K3A}) {
    auto u = device_vs_host<float>(t, 42, n, uniform, stream);
    moments(u, 0.5, std::sqrt(1.0 / 12), "uniform");
    for (float x : u) CHECK(x > 0.0f && x <= 1.0f, "uniform out of (0,1]: %g", x);
    moments(device_vs_host<float>(t, 43, n, normal, stream), 2.0, 3.0, "normal");
    moments(device_vs_host<double>(t, 44, n, normal_d, stream), 0.0, 1.0, "normal double");
    moments(device_vs_host<double>(t, 45, n, uniform_d, stream), 0.5, std::sqrt(1.0 / 12), "uniform double");
    moments(device_vs_host<unsigned>(t, 46, n, poisson, stream), 7.5, std::sqrt(7.5), "poisson");
  }
  // MTGP32: NVIDIA's first results for seed 1234 (recorded on an H100,
  // crates/curand/tests/data/mtgp32_hashes.txt); its normals come one per value, so odd
  // lengths are accepted.
  auto mt = device_vs_host<unsigned>(CURAND_RNG_PSEUDO_MTGP32, 1234, n, curandGenerate, stream);
  CHECK(mt[0] == 0x95130d0du && mt[1] == 0x76af12e1u && mt[2] == 0x9d99d21cu, "mtgp32 seed 1234: %x %x %x", mt[0], mt[1], mt[2]);
  moments(device_vs_host<float>(CURAND_RNG_PSEUDO_MTGP32, 43, n, normal, stream), 2.0, 3.0, "mtgp32 normal");
  moments(device_vs_host<double>(CURAND_RNG_PSEUDO_MTGP32, 45, n, uniform_d, stream), 0.5, std::sqrt(1.0 / 12), "mtgp32 uniform double");
  auto q = device_vs_host<float>(CURAND_RNG_QUASI_SOBOL32, 0, 4 * 1024, uniform, stream);
  moments(q, 0.5, std::sqrt(1.0 / 12), "sobol uniform");

  // Misuse, with the codes NVIDIA's cuRAND returned on an H100.
  curandGenerator_t g;
  CHECK(curandCreateGenerator(&g, (curandRngType_t)99) == CURAND_STATUS_TYPE_ERROR, "bad type");
  CR(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW));
  unsigned long long *d64;
  cudaMalloc(&d64, 64 * sizeof(unsigned long long));
  CHECK(curandGenerateLongLong(g, d64, 16) == CURAND_STATUS_TYPE_ERROR, "longlong on xorwow");
  CHECK(curandGenerateNormal(g, (float *)d64, 15, 0, 1) == CURAND_STATUS_LENGTH_NOT_MULTIPLE, "odd normal");
  CHECK(curandSetQuasiRandomGeneratorDimensions(g, 3) == CURAND_STATUS_TYPE_ERROR, "dims on xorwow");
  CHECK(curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT) == CURAND_STATUS_OUT_OF_RANGE, "quasi order");
  CHECK(curandGeneratePoisson(g, (unsigned *)d64, 16, 0.0) == CURAND_STATUS_OUT_OF_RANGE, "poisson 0");
  CR(curandGenerate(g, (unsigned *)d64, 0));
  curandDestroyGenerator(g);
  CR(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MTGP32));
  CHECK(curandSetGeneratorOffset(g, 5) == CURAND_STATUS_TYPE_ERROR, "offset on mtgp32");
  CHECK(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_SEEDED) == CURAND_STATUS_OUT_OF_RANGE, "seeded mtgp32");
  CR(curandGenerateNormal(g, (float *)d64, 15, 0, 1));
  curandDestroyGenerator(g);
  CR(curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MTGP32));
  CHECK(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DYNAMIC) == CURAND_STATUS_OUT_OF_RANGE, "dynamic host mtgp32");
  curandDestroyGenerator(g);
  CR(curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32));
  CHECK(curandSetPseudoRandomGeneratorSeed(g, 5) == CURAND_STATUS_TYPE_ERROR, "seed on sobol");
  CHECK(curandSetQuasiRandomGeneratorDimensions(g, 0) == CURAND_STATUS_OUT_OF_RANGE, "dims 0");
  CHECK(curandSetQuasiRandomGeneratorDimensions(g, 20001) == CURAND_STATUS_OUT_OF_RANGE, "dims 20001");
  CR(curandSetQuasiRandomGeneratorDimensions(g, 3));
  CHECK(curandGenerate(g, (unsigned *)d64, 10) == CURAND_STATUS_LENGTH_NOT_MULTIPLE, "sobol length");
  curandDestroyGenerator(g);
  CHECK(curandGenerate(nullptr, (unsigned *)d64, 16) == CURAND_STATUS_NOT_INITIALIZED, "null generator");
  curandDirectionVectors32_t *dv;
  CR(curandGetDirectionVectors32(&dv, CURAND_DIRECTION_VECTORS_32_JOEKUO6));
  CHECK(dv[1][1] == 0xc0000000u, "direction vector");
  int v = 0;
  CR(curandGetVersion(&v));
  CHECK(v >= 10000, "version %d", v);
  cudaFree(d64);
  cudaStreamDestroy(stream);
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("PASS curand_host\n");
  return 0;
}
