// FNV-1a hashes of NVIDIA cuRAND host-API outputs for MTGP32 / MT19937 / scrambled Sobol,
// plus raw dumps for layout analysis. Build: nvcc -O2 -o ref ref.cu -lcurand
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <string>
#include <cuda_runtime.h>
#include <curand.h>

static void *dbuf;
static std::vector<unsigned char> hbuf(64 << 20);
static const char *outdir;

static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}

enum Kind { U32, U64, UNIF, UNIFD, NORM, NORMD, LOGN, LOGND, POIS };
static const char *kname[] = {"u32", "u64", "uniform", "uniform_double", "normal", "normal_double", "lognormal", "lognormal_double", "poisson"};
static int esize(Kind k) { return (k == U64 || k == UNIFD || k == NORMD || k == LOGND) ? 8 : 4; }

struct Call { Kind k; size_t n; double a, b; };

static int gen(curandGenerator_t g, bool host, Call c, void **out) {
  void *p = host ? (void *)hbuf.data() : dbuf;
  int s;
  switch (c.k) {
    case U32: s = curandGenerate(g, (unsigned *)p, c.n); break;
    case U64: s = curandGenerateLongLong(g, (unsigned long long *)p, c.n); break;
    case UNIF: s = curandGenerateUniform(g, (float *)p, c.n); break;
    case UNIFD: s = curandGenerateUniformDouble(g, (double *)p, c.n); break;
    case NORM: s = curandGenerateNormal(g, (float *)p, c.n, (float)c.a, (float)c.b); break;
    case NORMD: s = curandGenerateNormalDouble(g, (double *)p, c.n, c.a, c.b); break;
    case LOGN: s = curandGenerateLogNormal(g, (float *)p, c.n, (float)c.a, (float)c.b); break;
    case LOGND: s = curandGenerateLogNormalDouble(g, (double *)p, c.n, c.a, c.b); break;
    default: s = curandGeneratePoisson(g, (unsigned *)p, c.n, c.a); break;
  }
  if (!host) {
    int e = cudaDeviceSynchronize();
    if (e) printf("cuda error %d\n", e);
    cudaMemcpy(hbuf.data(), dbuf, c.n * esize(c.k), cudaMemcpyDeviceToHost);
  }
  *out = hbuf.data();
  return s;
}

// One generator, a sequence of calls; prints one line per call.
static void run(int rng, bool host, int order, unsigned long long seed, long long offset, unsigned dims, std::vector<Call> calls, const char *dump = nullptr) {
  curandGenerator_t g;
  int s = host ? curandCreateGeneratorHost(&g, (curandRngType_t)rng) : curandCreateGenerator(&g, (curandRngType_t)rng);
  char head[256];
  snprintf(head, sizeof head, "rng=%d host=%d order=%d seed=%llu offset=%lld dims=%u", rng, host, order, seed, offset, dims);
  if (s) { printf("CASE %s create=%d\n", head, s); return; }
  int so = 0, ss = 0, sf = 0, sd = 0;
  if (order) so = curandSetGeneratorOrdering(g, (curandOrdering_t)order);
  if (seed != ~0ull) ss = curandSetPseudoRandomGeneratorSeed(g, seed);
  if (offset >= 0) sf = curandSetGeneratorOffset(g, (unsigned long long)offset);
  if (dims) sd = curandSetQuasiRandomGeneratorDimensions(g, dims);
  printf("CASE %s set_order=%d set_seed=%d set_offset=%d set_dims=%d\n", head, so, ss, sf, sd);
  int i = 0;
  for (Call c : calls) {
    void *o;
    int st = gen(g, host, c, &o);
    size_t bytes = c.n * esize(c.k);
    printf("  call=%d %s n=%zu a=%g b=%g status=%d", i, kname[c.k], c.n, c.a, c.b, st);
    if (st == 0) {
      printf(" fnv=%016llx first=", (unsigned long long)fnv(o, bytes));
      for (size_t j = 0; j < 4 && j < c.n; j++) {
        if (esize(c.k) == 4) printf("%08x ", ((unsigned *)o)[j]); else printf("%016llx ", ((unsigned long long *)o)[j]);
      }
      if (dump && i == 0) {
        std::string p = std::string(outdir) + "/" + dump;
        FILE *f = fopen(p.c_str(), "wb"); fwrite(o, 1, bytes, f); fclose(f);
      }
    }
    printf("\n");
    i++;
  }
  curandDestroyGenerator(g);
}

int main(int argc, char **argv) {
  outdir = argc > 1 ? argv[1] : ".";
  cudaMalloc(&dbuf, 64 << 20);
  const unsigned long long S1 = 1234, S2 = 0x0123456789ABCDEFull;
  // Raw dumps for layout analysis.
  run(142, false, 101, S1, -1, 0, {{U32, 1 << 18}}, "mt19937_o101.bin");
  run(142, false, 103, S1, -1, 0, {{U32, 1 << 18}}, "mt19937_o103.bin");
  run(141, false, 104, S1, -1, 0, {{U32, 1 << 18}}, "mtgp32_o104.bin");
  run(142, true, 101, S1, -1, 0, {{U32, 1 << 18}}, "mt19937_host_o101.bin");
  for (int rng : {141, 142}) {
    for (int host : {0, 1}) {
      for (int order : {101, 100, 103, 104, 102}) {
        for (unsigned long long seed : {S1, S2}) {
          std::vector<Call> calls = {{U32, 1}, {U32, 255}, {U32, 257}, {U32, 49153}, {U32, 1000003}};
          run(rng, host, order, seed, -1, 0, calls);
        }
        std::vector<Call> d = {{UNIF, 12345}, {UNIFD, 12345}, {NORM, 12346, 1.0, 2.0}, {NORMD, 12346, 0.5, 3.0},
                               {LOGN, 1002, 0.1, 0.5}, {LOGND, 1002, 0.1, 0.5}, {POIS, 4097, 10.0}, {POIS, 4097, 1000.0},
                               {NORM, 7, 0, 1}, {U64, 16}, {U32, 70000}};
        for (Call c : d) run(rng, host, order, S1, -1, 0, {c});
        run(rng, host, order, S2, -1, 0, {{U32, 1000}, {NORM, 2000, 0, 1}, {UNIFD, 333}, {U32, 5000}, {NORMD, 1002, 0, 1}, {U32, 4096}});
        run(rng, host, order, S1, 5, 0, {{U32, 16}});
      }
    }
  }
  // Scrambled Sobol: status of the table getters and a few outputs (hash only).
  for (int rng : {202, 204}) {
    for (int host : {0, 1}) {
      bool is64 = rng == 204;
      for (unsigned dims : {1u, 3u}) {
        run(rng, host, 0, ~0ull, 0, dims, {{is64 ? U64 : U32, dims * 1000}, {UNIF, dims * 64}, {UNIFD, dims * 64}, {NORM, dims * 64, 0, 1}});
        run(rng, host, 0, ~0ull, 777, dims, {{is64 ? U64 : U32, dims * 4096}});
      }
    }
  }
  printf("DONE\n");
  return 0;
}
