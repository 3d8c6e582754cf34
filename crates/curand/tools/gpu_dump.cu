// Records NVIDIA cuRAND's outputs on a real GPU, for crates/curand's exactness tests.
// Build and run on a machine with NVIDIA's toolkit and driver (see gpu_dump.sh):
//   nvcc -O2 -o gpu_dump gpu_dump.cu -lcurand && ./gpu_dump OUTDIR
// Each output file is a sequence of records: one text line
//   "REC <name> status=<int> esize=<bytes> count=<n> [same=<name>]\n"
// followed by count*esize raw little-endian bytes (none when same= names an identical
// earlier record of the same file).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

static FILE *g_out;
static std::map<uint64_t, std::string> g_seen;

static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h ^ n;
}

static void rec(const std::string &name, int status, int esize, size_t count, const void *data) {
  size_t bytes = (status == 0 && data) ? count * esize : 0;
  if (bytes >= 4096) {
    uint64_t h = fnv(data, bytes);
    auto it = g_seen.find(h);
    if (it != g_seen.end()) {
      fprintf(g_out, "REC %s status=%d esize=%d count=%zu same=%s\n", name.c_str(), status, esize, count, it->second.c_str());
      return;
    }
    g_seen[h] = name;
  }
  fprintf(g_out, "REC %s status=%d esize=%d count=%zu\n", name.c_str(), status, esize, bytes ? count : 0);
  if (bytes) fwrite(data, 1, bytes, g_out);
}

static void open_out(const char *dir, const char *file) {
  if (g_out) fclose(g_out);
  g_seen.clear();
  std::string p = std::string(dir) + "/" + file;
  g_out = fopen(p.c_str(), "wb");
  if (!g_out) { perror(p.c_str()); exit(1); }
}

static const char *rng_name(int t) {
  switch (t) {
    case 101: return "xorwow"; case 121: return "mrg32k3a"; case 141: return "mtgp32";
    case 142: return "mt19937"; case 161: return "philox"; case 201: return "sobol32";
    case 202: return "scrambled_sobol32"; case 203: return "sobol64"; case 204: return "scrambled_sobol64";
  }
  return "?";
}

static void *dbuf;  // device scratch, 64 MiB
static std::vector<unsigned char> hbuf(64 << 20);

enum Kind { U32, U64, UNIF, UNIFD, NORM, NORMD, LOGN, LOGND, POIS };
static const char *kind_name[] = {"u32", "u64", "uniform", "uniform_double", "normal", "normal_double", "lognormal", "lognormal_double", "poisson"};
static const int kind_size[] = {4, 8, 4, 8, 4, 8, 4, 8, 4};

static int gen_kind(curandGenerator_t g, Kind k, size_t n, double lambda, bool host) {
  void *p = host ? (void *)hbuf.data() : dbuf;
  switch (k) {
    case U32: return curandGenerate(g, (unsigned *)p, n);
    case U64: return curandGenerateLongLong(g, (unsigned long long *)p, n);
    case UNIF: return curandGenerateUniform(g, (float *)p, n);
    case UNIFD: return curandGenerateUniformDouble(g, (double *)p, n);
    case NORM: return curandGenerateNormal(g, (float *)p, n, 0.0f, 1.0f);
    case NORMD: return curandGenerateNormalDouble(g, (double *)p, n, 0.0, 1.0);
    case LOGN: return curandGenerateLogNormal(g, (float *)p, n, 0.5f, 1.5f);
    case LOGND: return curandGenerateLogNormalDouble(g, (double *)p, n, 0.5, 1.5);
    case POIS: return curandGeneratePoisson(g, (unsigned *)p, n, lambda);
  }
  return -1;
}

struct Cfg { int rng; int order; unsigned long long seed, offset; unsigned dims; bool host; };

static curandGenerator_t make(const Cfg &c, int *st) {
  curandGenerator_t g = nullptr;
  *st = c.host ? curandCreateGeneratorHost(&g, (curandRngType_t)c.rng) : curandCreateGenerator(&g, (curandRngType_t)c.rng);
  if (*st) return nullptr;
  if (c.rng < 200) {
    if ((*st = curandSetPseudoRandomGeneratorSeed(g, c.seed))) return g;
  } else {
    if ((*st = curandSetQuasiRandomGeneratorDimensions(g, c.dims))) return g;
  }
  if (c.offset && (*st = curandSetGeneratorOffset(g, c.offset))) return g;
  if (c.order && (*st = curandSetGeneratorOrdering(g, (curandOrdering_t)c.order))) return g;
  return g;
}

static std::string cfg_name(const Cfg &c) {
  char b[256];
  snprintf(b, sizeof b, "%s%s/order=%d/seed=%llu/offset=%llu/dims=%u", c.host ? "host:" : "", rng_name(c.rng), c.order, c.seed, c.offset, c.dims);
  return b;
}

// One generation call on a fresh generator.
static void one(const Cfg &c, Kind k, size_t n, double lambda = 0) {
  int st;
  curandGenerator_t g = make(c, &st);
  char b[512];
  snprintf(b, sizeof b, "%s/%s/n=%zu/lambda=%g", cfg_name(c).c_str(), kind_name[k], n, lambda);
  if (st == 0) st = gen_kind(g, k, n, lambda, c.host);
  if (st == 0 && !c.host) { cudaDeviceSynchronize(); cudaMemcpy(hbuf.data(), dbuf, n * kind_size[k], cudaMemcpyDeviceToHost); }
  rec(b, st, kind_size[k], n, hbuf.data());
  if (g) curandDestroyGenerator(g);
}

// One large call on a fresh generator; records [0,4096), [n/2,n/2+4096) and [n-4096,n).
static void sampled(const Cfg &c, Kind k, size_t n) {
  int st;
  curandGenerator_t g = make(c, &st);
  if (st == 0) st = gen_kind(g, k, n, 0, false);
  cudaDeviceSynchronize();
  size_t es = kind_size[k];
  size_t starts[3] = {0, n / 2, n - 4096};
  for (int i = 0; i < 3; i++) {
    char b[512];
    snprintf(b, sizeof b, "%s/%s/n=%zu/sample-at=%zu", cfg_name(c).c_str(), kind_name[k], n, starts[i]);
    if (st == 0) cudaMemcpy(hbuf.data(), (char *)dbuf + starts[i] * es, 4096 * es, cudaMemcpyDeviceToHost);
    rec(b, st, (int)es, 4096, hbuf.data());
  }
  if (g) curandDestroyGenerator(g);
}

// Several calls in a row on one generator.
static void seq(const Cfg &c, const std::vector<std::pair<Kind, size_t>> &calls, const char *tag) {
  int st;
  curandGenerator_t g = make(c, &st);
  for (size_t i = 0; i < calls.size(); i++) {
    Kind k = calls[i].first; size_t n = calls[i].second;
    char b[512];
    snprintf(b, sizeof b, "%s/seq-%s-%zu/%s/n=%zu/lambda=10", cfg_name(c).c_str(), tag, i, kind_name[k], n);
    int s = st ? st : gen_kind(g, k, n, 10.0, c.host);
    if (s == 0 && !c.host) { cudaDeviceSynchronize(); cudaMemcpy(hbuf.data(), dbuf, n * kind_size[k], cudaMemcpyDeviceToHost); }
    rec(b, s, kind_size[k], n, hbuf.data());
  }
  if (g) curandDestroyGenerator(g);
}

// ---- device API ----
struct DevCfg { unsigned long long seed, subseq, offset; };
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
      case 1: { float f = curand_uniform(&st); v = __float_as_uint(f); } break;
      case 2: { double d = curand_uniform_double(&st); v = __double_as_longlong(d); } break;
      case 3: { float f = curand_normal(&st); v = __float_as_uint(f); } break;
      case 4: { double d = curand_normal_double(&st); v = __double_as_longlong(d); } break;
      case 5: { float f = curand_log_normal(&st, 0.5f, 1.5f); v = __float_as_uint(f); } break;
      case 6: { double d = curand_log_normal_double(&st, 0.5, 1.5); v = __double_as_longlong(d); } break;
      case 7: v = curand_poisson(&st, lambda); break;
      case 8: { if (k & 1) { v = curand(&st); } else { float f = curand_normal(&st); v = __float_as_uint(f); } } break;
      case 9: { float2 f = curand_normal2(&st); o[k] = __float_as_uint(f.x); if (k + 1 < count) o[k + 1] = __float_as_uint(f.y); k++; continue; }
      case 10: { double2 f = curand_normal2_double(&st); o[k] = __double_as_longlong(f.x); if (k + 1 < count) o[k + 1] = __double_as_longlong(f.y); k++; continue; }
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
    if (fn == 0) { uint4 u = curand4(&st); o[k] = u.x; o[k + 1] = u.y; o[k + 2] = u.z; o[k + 3] = u.w; }
    else if (fn == 1) { float4 u = curand_uniform4(&st); o[k] = __float_as_uint(u.x); o[k + 1] = __float_as_uint(u.y); o[k + 2] = __float_as_uint(u.z); o[k + 3] = __float_as_uint(u.w); }
    else if (fn == 2) { float4 u = curand_normal4(&st); o[k] = __float_as_uint(u.x); o[k + 1] = __float_as_uint(u.y); o[k + 2] = __float_as_uint(u.z); o[k + 3] = __float_as_uint(u.w); }
    else { uint4 u = curand_poisson4(&st, 10.0); o[k] = u.x; o[k + 1] = u.y; o[k + 2] = u.z; o[k + 3] = u.w; }
  }
}

__global__ void sobol32_kernel(curandDirectionVectors32_t *dv, unsigned *sc, int scrambled, unsigned offset, int count, unsigned long long *out) {
  int d = threadIdx.x;
  unsigned long long *o = out + (size_t)d * count;
  if (scrambled) {
    curandStateScrambledSobol32_t st; curand_init(dv[d], sc[d], offset, &st);
    for (int k = 0; k < count; k++) o[k] = curand(&st);
  } else {
    curandStateSobol32_t st; curand_init(dv[d], offset, &st);
    for (int k = 0; k < count; k++) o[k] = curand(&st);
  }
}

template <class S>
static void dev_run(const char *gname, const std::vector<DevCfg> &cfgs) {
  DevCfg *dc; cudaMalloc(&dc, cfgs.size() * sizeof(DevCfg));
  cudaMemcpy(dc, cfgs.data(), cfgs.size() * sizeof(DevCfg), cudaMemcpyHostToDevice);
  const int count = 64;
  const double lambdas[] = {0.5, 4, 10, 63, 64, 100, 1000, 3999, 4000, 5000, 100000};
  for (int fn = 0; fn <= 10; fn++) {
    int nl = fn == 7 ? (int)(sizeof lambdas / sizeof lambdas[0]) : 1;
    for (int li = 0; li < nl; li++) {
      double lambda = fn == 7 ? lambdas[li] : 0;
      dev_kernel<S><<<1, (unsigned)cfgs.size()>>>(dc, (int)cfgs.size(), fn, count, lambda, (unsigned long long *)dbuf);
      int err = (int)cudaDeviceSynchronize();
      cudaMemcpy(hbuf.data(), dbuf, cfgs.size() * count * 8, cudaMemcpyDeviceToHost);
      for (size_t i = 0; i < cfgs.size(); i++) {
        char b[256];
        snprintf(b, sizeof b, "dev:%s/seed=%llu/subseq=%llu/offset=%llu/fn=%d/lambda=%g", gname, cfgs[i].seed, cfgs[i].subseq, cfgs[i].offset, fn, lambda);
        rec(b, err, 8, count, hbuf.data() + i * count * 8);
      }
    }
  }
  if (!strcmp(gname, "philox")) {
    for (int fn = 0; fn < 4; fn++) {
      philox4_kernel<<<1, (unsigned)cfgs.size()>>>(dc, (int)cfgs.size(), fn, count, (unsigned long long *)dbuf);
      int err = (int)cudaDeviceSynchronize();
      cudaMemcpy(hbuf.data(), dbuf, cfgs.size() * count * 8, cudaMemcpyDeviceToHost);
      for (size_t i = 0; i < cfgs.size(); i++) {
        char b[256];
        snprintf(b, sizeof b, "dev:philox4/seed=%llu/subseq=%llu/offset=%llu/fn=%d", cfgs[i].seed, cfgs[i].subseq, cfgs[i].offset, fn);
        rec(b, err, 8, count, hbuf.data() + i * count * 8);
      }
    }
  }
  cudaFree(dc);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  cudaMalloc(&dbuf, 64 << 20);
  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);
  int ver = 0, rt = 0, drv = 0; curandGetVersion(&ver); cudaRuntimeGetVersion(&rt); cudaDriverGetVersion(&drv);
  {
    std::string p = std::string(dir) + "/info.txt";
    FILE *f = fopen(p.c_str(), "w");
    fprintf(f, "gpu=%s\nsm=%d.%d\nmultiprocessors=%d\ncurand_version=%d\nruntime=%d\ndriver=%d\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount, ver, rt, drv);
    int v;
    for (int t = 0; t < 3; t++) { int s = curandGetProperty((libraryPropertyType)t, &v); fprintf(f, "property%d=%d status=%d\n", t, v, s); }
    fclose(f);
  }
  const int prngs[] = {101, 121, 141, 142, 161};
  const int orders[] = {100, 101, 102, 103, 104};
  const unsigned long long S1 = 1234, S2 = 0x0123456789ABCDEFull;
  const char *files[] = {"xorwow.bin", "mrg32k3a.bin", "mtgp32.bin", "mt19937.bin", "philox.bin"};
  for (int r = 0; r < 5; r++) {
    open_out(dir, files[r]);
    int rng = prngs[r];
    for (int o : orders) {
      Cfg c{rng, o, S1, 0, 0, false};
      one(c, U32, 1 << 17);
      Cfg c0{rng, o, 0, 0, 0, false};
      one(c0, U32, 8192);
      Cfg c2{rng, o, S2, 0, 0, false};
      one(c2, U32, 8192);
      for (unsigned long long off : {1ull, 4097ull, 12345ull, 0x10000000123ull}) {
        Cfg co{rng, o, S1, off, 0, false};
        one(co, U32, 8192);
      }
      for (int k = UNIF; k <= LOGND; k++) one(c, (Kind)k, 8192);
      one(c, NORM, 8191);
      for (double l : {0.0, -1.0, 0.5, 4.0, 10.0, 63.0, 64.0, 100.0, 1000.0, 3999.0, 4000.0, 5000.0, 100000.0}) one(c, POIS, 4096, l);
      Cfg co{rng, o, S1, 3, 0, false};
      one(co, NORM, 8192); one(co, NORMD, 8192); one(co, UNIFD, 8192);
      for (size_t n : {1, 5, 1000, 4097}) one(c, U32, n);
      sampled(c, U32, 1 << 22);
      sampled(c, U32, (1 << 20) + 12);
      sampled(c, NORM, 1 << 20);
      sampled(c, UNIFD, 1 << 20);
      seq(c, {{U32, 1000}, {U32, 1000}, {UNIF, 3000}, {NORM, 2000}, {U32, 5000}, {NORMD, 1002}, {POIS, 777}, {U32, 4096}}, "a");
      seq(c, {{NORM, 2}, {NORM, 6}, {NORM, 4096}, {U32, 4096}}, "b");
    }
    // The host generator (curandCreateGeneratorHost).
    for (int o : {101, 102, 100}) {
      Cfg h{rng, o, S1, 0, 0, true};
      one(h, U32, 1 << 16);
      one(h, UNIFD, 4096); one(h, NORM, 4096); one(h, POIS, 4096, 10.0); one(h, POIS, 4096, 1000.0);
      Cfg ho{rng, o, S1, 12345, 0, true};
      one(ho, U32, 4096);
    }
  }
  // Quasi-random generators.
  open_out(dir, "quasi.bin");
  for (int rng : {201, 202, 203, 204}) {
    bool is64 = rng == 203 || rng == 204;
    for (unsigned dims : {1u, 3u, 100u}) {
      for (unsigned long long off : {0ull, 1000ull, 0x12345ull}) {
        if (dims == 100 && off == 1000) continue;
        Cfg c{rng, 0, 0, off, dims, false};
        size_t n = dims * (dims == 100 ? 64 : 1024);
        one(c, is64 ? U64 : U32, n);
        for (int k = UNIF; k <= LOGND; k++) one(c, (Kind)k, n);
        one(c, POIS, n, 10.0);
        one(c, POIS, n, 1000.0);
      }
      Cfg c{rng, 0, 0, 0, dims, false};
      one(c, is64 ? U64 : U32, dims * 1024 + 1);
      seq(c, {{is64 ? U64 : U32, dims * 16}, {is64 ? U64 : U32, dims * 16}, {UNIF, dims * 32}}, "a");
    }
    Cfg big{rng, 0, 0, 0, 20000, false};
    one(big, is64 ? U64 : U32, 20000 * 8);
    Cfg h{rng, 0, 0, 7, 3, true};
    one(h, is64 ? U64 : U32, 3 * 1024);
    one(h, UNIF, 3 * 1024);
  }
  // Misuse: the status of each call.
  {
    curandGenerator_t g; int s;
    s = curandCreateGenerator(&g, (curandRngType_t)99); rec("err:create-bad-type", s, 0, 0, nullptr);
    s = curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT); rec("err:create-pseudo-default", s, 0, 0, nullptr);
    curandRngType_t ty; (void)ty;
    unsigned *du = (unsigned *)dbuf;
    s = curandGenerateLongLong(g, (unsigned long long *)dbuf, 16); rec("err:xorwow-longlong", s, 0, 0, nullptr);
    s = curandGenerateNormal(g, (float *)dbuf, 15, 0, 1); rec("err:xorwow-normal-odd", s, 0, 0, nullptr);
    s = curandGenerateNormalDouble(g, (double *)dbuf, 15, 0, 1); rec("err:xorwow-normald-odd", s, 0, 0, nullptr);
    s = curandGenerateLogNormal(g, (float *)dbuf, 15, 0, 1); rec("err:xorwow-lognormal-odd", s, 0, 0, nullptr);
    s = curandSetQuasiRandomGeneratorDimensions(g, 3); rec("err:xorwow-set-dims", s, 0, 0, nullptr);
    s = curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT); rec("err:xorwow-order-quasi", s, 0, 0, nullptr);
    s = curandSetGeneratorOrdering(g, (curandOrdering_t)777); rec("err:xorwow-order-bad", s, 0, 0, nullptr);
    s = curandGeneratePoisson(g, du, 16, 0.0); rec("err:xorwow-poisson-0", s, 0, 0, nullptr);
    s = curandGeneratePoisson(g, du, 16, -2.0); rec("err:xorwow-poisson-neg", s, 0, 0, nullptr);
    s = curandGenerate(g, du, 0); rec("err:xorwow-generate-0", s, 0, 0, nullptr);
    s = curandGenerateNormal(g, (float *)dbuf, 0, 0, 1); rec("err:xorwow-normal-0", s, 0, 0, nullptr);
    s = curandGenerateSeeds(g); rec("err:xorwow-seeds", s, 0, 0, nullptr);
    s = curandSetStream(g, 0); rec("err:xorwow-stream0", s, 0, 0, nullptr);
    s = curandGenerateNormal(g, (float *)dbuf, 16, 0, -1); rec("err:xorwow-normal-negstd", s, 0, 0, nullptr);
    curandDestroyGenerator(g);
    s = curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32); rec("err:create-sobol32", s, 0, 0, nullptr);
    s = curandSetPseudoRandomGeneratorSeed(g, 5); rec("err:sobol32-seed", s, 0, 0, nullptr);
    s = curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT); rec("err:sobol32-order-pseudo", s, 0, 0, nullptr);
    s = curandSetQuasiRandomGeneratorDimensions(g, 0); rec("err:sobol32-dims0", s, 0, 0, nullptr);
    s = curandSetQuasiRandomGeneratorDimensions(g, 20001); rec("err:sobol32-dims20001", s, 0, 0, nullptr);
    s = curandSetQuasiRandomGeneratorDimensions(g, 20000); rec("err:sobol32-dims20000", s, 0, 0, nullptr);
    s = curandSetQuasiRandomGeneratorDimensions(g, 3); rec("err:sobol32-dims3", s, 0, 0, nullptr);
    s = curandGenerate(g, du, 10); rec("err:sobol32-len-not-multiple", s, 0, 0, nullptr);
    s = curandGenerateLongLong(g, (unsigned long long *)dbuf, 12); rec("err:sobol32-longlong", s, 0, 0, nullptr);
    s = curandGenerateNormal(g, (float *)dbuf, 9, 0, 1); rec("err:sobol32-normal-9", s, 0, 0, nullptr);
    s = curandGenerateSeeds(g); rec("err:sobol32-seeds", s, 0, 0, nullptr);
    curandDestroyGenerator(g);
    s = curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL64); rec("err:create-sobol64", s, 0, 0, nullptr);
    s = curandGenerate(g, du, 12); rec("err:sobol64-generate32", s, 0, 0, nullptr);
    s = curandGenerateUniform(g, (float *)dbuf, 12); rec("err:sobol64-uniform", s, 0, 0, nullptr);
    curandDestroyGenerator(g);
    s = curandCreateGenerator(&g, CURAND_RNG_QUASI_DEFAULT); rec("err:create-quasi-default", s, 0, 0, nullptr);
    s = curandGenerate(g, du, 16); cudaMemcpy(hbuf.data(), dbuf, 64, cudaMemcpyDeviceToHost); rec("err:quasi-default-generate", s, 4, 16, hbuf.data());
    curandDestroyGenerator(g);
    for (int rng : {141, 142}) {
      s = curandCreateGenerator(&g, (curandRngType_t)rng);
      s = curandSetGeneratorOffset(g, 100); rec(std::string("err:") + rng_name(rng) + "-offset", s, 0, 0, nullptr);
      s = curandGenerate(g, du, 16); rec(std::string("err:") + rng_name(rng) + "-after-offset", s, 0, 0, nullptr);
      s = curandGenerateSeeds(g); rec(std::string("err:") + rng_name(rng) + "-seeds", s, 0, 0, nullptr);
      curandDestroyGenerator(g);
    }
    s = curandGenerate(nullptr, du, 16); rec("err:null-generator", s, 0, 0, nullptr);
    s = curandDestroyGenerator(nullptr); rec("err:destroy-null", s, 0, 0, nullptr);
  }
  // Device API.
  open_out(dir, "device.bin");
  std::vector<DevCfg> dcfg = {{1234, 0, 0}, {1234, 1, 0}, {1234, 5, 7}, {0, 0, 0}, {S2, 3, (1ull << 40) + 3}, {S2, 4095, 1000}, {7, 1ull << 20, 0}};
  dev_run<curandStateXORWOW_t>("xorwow", dcfg);
  dev_run<curandStateMRG32k3a_t>("mrg32k3a", dcfg);
  dev_run<curandStatePhilox4_32_10_t>("philox", dcfg);
  {
    curandDirectionVectors32_t *h; unsigned *sc;
    curandGetDirectionVectors32(&h, CURAND_DIRECTION_VECTORS_32_JOEKUO6);
    curandGetScrambleConstants32(&sc);
    void *ddv, *dsc; cudaMalloc(&ddv, 8 * 32 * 4); cudaMalloc(&dsc, 8 * 4);
    cudaMemcpy(dsc, sc, 8 * 4, cudaMemcpyHostToDevice);
    for (int scr = 0; scr < 2; scr++) {
      if (scr) curandGetDirectionVectors32(&h, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6);
      cudaMemcpy(ddv, h, 8 * 32 * 4, cudaMemcpyHostToDevice);
      for (unsigned off : {0u, 5u, 1000u}) {
        sobol32_kernel<<<1, 8>>>((curandDirectionVectors32_t *)ddv, (unsigned *)dsc, scr, off, 40, (unsigned long long *)dbuf);
        int err = (int)cudaDeviceSynchronize();
        cudaMemcpy(hbuf.data(), dbuf, 8 * 40 * 8, cudaMemcpyDeviceToHost);
        char b[128]; snprintf(b, sizeof b, "dev:sobol32/scrambled=%d/offset=%u/dims=8", scr, off);
        rec(b, err, 8, 8 * 40, hbuf.data());
      }
    }
  }
  // Tables.
  open_out(dir, "tables.bin");
  {
    curandDirectionVectors32_t *v32; curandDirectionVectors64_t *v64; unsigned *c32; unsigned long long *c64;
    int s;
    s = curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_32_JOEKUO6); rec("dirvec32", s, 4, 20000 * 32, v32);
    s = curandGetDirectionVectors32(&v32, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6); rec("dirvec32_scrambled", s, 4, 20000 * 32, v32);
    s = curandGetDirectionVectors64(&v64, CURAND_DIRECTION_VECTORS_64_JOEKUO6); rec("dirvec64", s, 8, 4000 * 64, v64);
    s = curandGetDirectionVectors64(&v64, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6); rec("dirvec64_scrambled", s, 8, 4000 * 64, v64);
    s = curandGetScrambleConstants32(&c32); rec("scramble32", s, 4, 20000, c32);
    s = curandGetScrambleConstants64(&c64); rec("scramble64", s, 8, 20000, c64);
    s = curandGetDirectionVectors32(&v32, (curandDirectionVectorSet_t)999); rec("err:dirvec-bad-set", s, 0, 0, nullptr);
    s = curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_64_JOEKUO6); rec("err:dirvec32-with-64-set", s, 0, 0, nullptr);
  }
  fclose(g_out);
  printf("done\n");
  return 0;
}
