// link: -lcurand
// cuRAND's device API (our include/curand_kernel.h) against NVIDIA's outputs recorded on
// an H100 (crates/curand/tests/data/device.txt, written by crates/curand/tools/gpu_dump.cu
// with NVIDIA's header): the same kernels, the same seeds, subsequences and offsets.
// Integers, uniforms and Poisson counts must match bit for bit; float normals within the
// error of the hardware's sin/log approximations (2e-6); double normals within 1e-14
// (libdevice's log/sincospi are run by our PTX JIT). Records listed with a "dev:" prefix in
// crates/curand/tests/data/known_differences.txt are expected to differ, and must.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

struct DevCfg {
  unsigned long long seed, subseq, offset;
};

template <class S>
__global__ void dev_kernel(const DevCfg *cfg, int ncfg, int fn, int count, double lambda, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ncfg) return;
  S st;
  curand_init(cfg[i].seed, cfg[i].subseq, cfg[i].offset, &st);
  unsigned long long *o = out + (size_t)i * count;
  for (int k = 0; k < count; k++) {
    unsigned long long v = 0;
    switch (fn) {
      case 0: v = curand(&st); break;
      case 1: v = __float_as_uint(curand_uniform(&st)); break;
      case 2: v = __double_as_longlong(curand_uniform_double(&st)); break;
      case 3: v = __float_as_uint(curand_normal(&st)); break;
      case 4: v = __double_as_longlong(curand_normal_double(&st)); break;
      case 5: v = __float_as_uint(curand_log_normal(&st, 0.5f, 1.5f)); break;
      case 6: v = __double_as_longlong(curand_log_normal_double(&st, 0.5, 1.5)); break;
      case 7: v = curand_poisson(&st, lambda); break;
      case 8: v = (k & 1) ? curand(&st) : __float_as_uint(curand_normal(&st)); break;
      case 9: {
        float2 f = curand_normal2(&st);
        o[k] = __float_as_uint(f.x);
        if (k + 1 < count) o[k + 1] = __float_as_uint(f.y);
        k++;
        continue;
      }
      case 10: {
        double2 f = curand_normal2_double(&st);
        o[k] = __double_as_longlong(f.x);
        if (k + 1 < count) o[k + 1] = __double_as_longlong(f.y);
        k++;
        continue;
      }
    }
    o[k] = v;
  }
}

__global__ void philox4_kernel(const DevCfg *cfg, int ncfg, int fn, int count, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ncfg) return;
  curandStatePhilox4_32_10_t st;
  curand_init(cfg[i].seed, cfg[i].subseq, cfg[i].offset, &st);
  unsigned long long *o = out + (size_t)i * count;
  for (int k = 0; k + 4 <= count; k += 4) {
    if (fn == 0) {
      uint4 u = curand4(&st);
      o[k] = u.x, o[k + 1] = u.y, o[k + 2] = u.z, o[k + 3] = u.w;
    } else if (fn == 1) {
      float4 u = curand_uniform4(&st);
      o[k] = __float_as_uint(u.x), o[k + 1] = __float_as_uint(u.y), o[k + 2] = __float_as_uint(u.z), o[k + 3] = __float_as_uint(u.w);
    } else if (fn == 2) {
      float4 u = curand_normal4(&st);
      o[k] = __float_as_uint(u.x), o[k + 1] = __float_as_uint(u.y), o[k + 2] = __float_as_uint(u.z), o[k + 3] = __float_as_uint(u.w);
    } else {
      uint4 u = curand_poisson4(&st, 10.0);
      o[k] = u.x, o[k + 1] = u.y, o[k + 2] = u.z, o[k + 3] = u.w;
    }
  }
}

__global__ void sobol32_kernel(curandDirectionVectors32_t *dv, unsigned offset, int count, unsigned long long *out) {
  int d = threadIdx.x;
  curandStateSobol32_t st;
  curand_init(dv[d], offset, &st);
  for (int k = 0; k < count; k++) out[(size_t)d * count + k] = curand(&st);
}

static std::map<std::string, std::vector<unsigned long long>> g_ref;
static std::set<std::string> g_known, g_seen_bad;
static int g_ok = 0, g_bad = 0, g_exact_double = 0, g_double = 0;

static void load(const char *path) {
  std::ifstream f(path);
  if (!f) {
    printf("FAIL cannot open %s\n", path);
    exit(1);
  }
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream in(line);
    std::string name, st, es, cnt, at;
    in >> name >> st >> es >> cnt >> at;
    if (name.rfind("dev:", 0) != 0 || at.empty()) continue;
    std::string h;
    std::vector<unsigned long long> v;
    while (in >> h) v.push_back(strtoull(h.c_str(), nullptr, 16));
    g_ref[name] = v;
  }
  std::ifstream k("crates/curand/tests/data/known_differences.txt");
  while (std::getline(k, line))
    if (line.rfind("dev:", 0) == 0) g_known.insert(line);
}

static float f32(unsigned long long b) {
  float f;
  unsigned u = (unsigned)b;
  memcpy(&f, &u, 4);
  return f;
}
static double f64(unsigned long long b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}

// 0: exact, 1: float normal, 2: float log-normal, 3: double normal, 4: double log-normal.
static bool close(int cls, unsigned long long a, unsigned long long b) {
  if (a == b) {
    if (cls >= 3) g_exact_double++, g_double++;
    return true;
  }
  switch (cls) {
    case 1: return fabs(f32(a) - f32(b)) <= 2e-6 * fmax(1.0, fabs(f32(b)));
    case 2: return fabs(f32(a) - f32(b)) <= 2e-5 * fabs(f32(b));
    case 3: g_double++; return fabs(f64(a) - f64(b)) <= 1e-14 * fmax(1.0, fabs(f64(b)));
    case 4: g_double++; return fabs(f64(a) - f64(b)) <= 1e-13 * fabs(f64(b));
  }
  return false;
}

static void compare(const std::string &name, const unsigned long long *ours, int (*cls)(int, int), int fn) {
  auto it = g_ref.find(name);
  if (it == g_ref.end()) {
    printf("FAIL no record %s\n", name.c_str());
    g_bad++;
    return;
  }
  bool ok = true;
  for (size_t k = 0; k < it->second.size(); k++) {
    if (!close(cls(fn, (int)k), ours[k], it->second[k])) {
      if (ok && !g_known.count(name))
        printf("MISMATCH %s at %zu: ours %llx, NVIDIA %llx\n", name.c_str(), k, ours[k], it->second[k]);
      ok = false;
    }
  }
  bool known = g_known.count(name) > 0;
  if (ok && known) printf("NOW MATCHES (remove from known_differences.txt) %s\n", name.c_str());
  if (ok != known) g_ok++; else g_bad++;
  if (!ok) g_seen_bad.insert(name);
}

static int cls_dev(int fn, int k) {
  switch (fn) {
    case 3: case 9: return 1;
    case 5: return 2;
    case 4: case 10: return 3;
    case 6: return 4;
    case 8: return (k & 1) ? 0 : 1;
  }
  return 0;
}
static int cls_philox4(int fn, int) { return fn == 2 ? 1 : 0; }
static int cls_exact(int, int) { return 0; }

static const int COUNT = 64;
static unsigned long long *d_out;
static std::vector<unsigned long long> h_out(64 * COUNT * 8);

template <class S>
static void run_gen(const char *gname, const std::vector<DevCfg> &cfgs, DevCfg *dc) {
  const double lambdas[] = {0.5, 4, 10, 63, 64, 100, 1000, 3999, 4000, 5000, 100000};
  int n = (int)cfgs.size();
  for (int fn = 0; fn <= 10; fn++) {
    int nl = fn == 7 ? 11 : 1;
    for (int li = 0; li < nl; li++) {
      double lambda = fn == 7 ? lambdas[li] : 0;
      dev_kernel<S><<<1, n>>>(dc, n, fn, COUNT, lambda, d_out);
      if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL kernel %s fn=%d\n", gname, fn);
        g_bad++;
        continue;
      }
      cudaMemcpy(h_out.data(), d_out, n * COUNT * 8, cudaMemcpyDeviceToHost);
      for (int i = 0; i < n; i++) {
        char b[256];
        snprintf(b, sizeof b, "dev:%s/seed=%llu/subseq=%llu/offset=%llu/fn=%d/lambda=%g", gname, cfgs[i].seed, cfgs[i].subseq,
                 cfgs[i].offset, fn, lambda);
        compare(b, h_out.data() + (size_t)i * COUNT, cls_dev, fn);
      }
    }
  }
}

int main() {
  load("crates/curand/tests/data/device.txt");
  cudaMalloc(&d_out, h_out.size() * 8);
  std::vector<DevCfg> cfgs = {{1234, 0, 0}, {1234, 1, 0}, {1234, 5, 7}, {0, 0, 0}, {0x0123456789ABCDEFull, 3, (1ull << 40) + 3},
                              {0x0123456789ABCDEFull, 4095, 1000}, {7, 1ull << 20, 0}};
  DevCfg *dc;
  cudaMalloc(&dc, cfgs.size() * sizeof(DevCfg));
  cudaMemcpy(dc, cfgs.data(), cfgs.size() * sizeof(DevCfg), cudaMemcpyHostToDevice);
  run_gen<curandStateXORWOW_t>("xorwow", cfgs, dc);
  run_gen<curandStateMRG32k3a_t>("mrg32k3a", cfgs, dc);
  run_gen<curandStatePhilox4_32_10_t>("philox", cfgs, dc);
  int n = (int)cfgs.size();
  for (int fn = 0; fn < 4; fn++) {
    philox4_kernel<<<1, n>>>(dc, n, fn, COUNT, d_out);
    cudaDeviceSynchronize();
    cudaMemcpy(h_out.data(), d_out, n * COUNT * 8, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
      char b[256];
      snprintf(b, sizeof b, "dev:philox4/seed=%llu/subseq=%llu/offset=%llu/fn=%d", cfgs[i].seed, cfgs[i].subseq, cfgs[i].offset, fn);
      compare(b, h_out.data() + (size_t)i * COUNT, cls_philox4, fn);
    }
  }
  // Sobol32 over the direction vectors of our host library (Joe and Kuo's, as NVIDIA's).
  curandDirectionVectors32_t *h;
  if (curandGetDirectionVectors32(&h, CURAND_DIRECTION_VECTORS_32_JOEKUO6) != CURAND_STATUS_SUCCESS) {
    printf("FAIL curandGetDirectionVectors32\n");
    g_bad++;
  } else {
    void *ddv;
    cudaMalloc(&ddv, 8 * 32 * 4);
    cudaMemcpy(ddv, h, 8 * 32 * 4, cudaMemcpyHostToDevice);
    for (unsigned off : {0u, 5u, 1000u}) {
      sobol32_kernel<<<1, 8>>>((curandDirectionVectors32_t *)ddv, off, 40, d_out);
      cudaDeviceSynchronize();
      cudaMemcpy(h_out.data(), d_out, 8 * 40 * 8, cudaMemcpyDeviceToHost);
      char b[128];
      snprintf(b, sizeof b, "dev:sobol32/scrambled=0/offset=%u/dims=8", off);
      compare(b, h_out.data(), cls_exact, 0);
    }
  }
  for (const std::string &k : g_known)
    if (!g_seen_bad.count(k) && g_ref.count(k) == 0) printf("note: known difference %s has no record\n", k.c_str());
  printf("%d records as expected, %d not; double normals bit-identical: %d of %d values\n", g_ok, g_bad, g_exact_double, g_double);
  if (g_bad == 0) printf("PASS curand_kernel\n");
  return g_bad != 0;
}
