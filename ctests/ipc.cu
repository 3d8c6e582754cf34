// Interprocess communication between two processes (the program re-executes itself as
// the child): cudaIpcGetMemHandle / cudaIpcOpenMemHandle on a large and a small
// allocation, an interprocess event whose record in one process orders work in the
// other (the parent's record waits behind a gate kernel the parent opens only after the
// child has queued its wait, so the child's copy must see the parent's kernel's data),
// and a shareable memory pool (cudaMemPoolExportToShareableHandle with a POSIX file
// descriptor the child inherits, cudaMemPoolExportPointer / cudaMemPoolImportPointer).
// Both processes write memory the other then reads. Misuse codes as NVIDIA's driver
// answers them (H200, driver 580.159). Also cudaMemcpy3DPeer(Async) of a box between two
// pitched allocations.
#define CTEST_NAME "ipc"
#include "ctest.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

static const int kBig = 1 << 18;  // ints: 1 MiB
static const int kSmall = 16;     // ints: a 64-byte allocation
static const int kPool = 100000;  // ints

struct Shared {
  cudaIpcMemHandle_t big, small, small2;
  cudaIpcEventHandle_t event;
  cudaMemPoolPtrExportData pooled;
  int pool_fd;  // inherited by the child
  int go_fd;    // the child writes one byte here once its wait is queued
};

__global__ void gate(volatile int *flag) {
  while (*flag == 0) {
  }
}

// x[i] = i * mul + add.
__global__ void fill(int *x, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = i * mul + add;
}

__global__ void copy(const int *src, int *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

static void fill_on(int *x, int n, int mul, int add, cudaStream_t s) {
  fill<<<ceil_div(n, 256), 256, 0, s>>>(x, n, mul, add);
  CHECK(cudaGetLastError());
}

static void expect_values(const int *dev, int n, int mul, int add, const char *what) {
  int *host = (int *)malloc(n * sizeof(int));
  CHECK(cudaMemcpy(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int i = 0; i < n; ++i) {
    if (host[i] != i * mul + add && bad++ < 3) ctest_fail("%s[%d] = %d, want %d", what, i, host[i], i * mul + add);
  }
  free(host);
}

static void expect_code(cudaError_t got, cudaError_t want, const char *what) {
  EXPECT(got == want, "%s: got %d (%s), want %d (%s)", what, (int)got, cudaGetErrorName(got), (int)want,
         cudaGetErrorName(want));
  cudaGetLastError();
}

static int child(const char *path) {
  Shared sh;
  FILE *f = fopen(path, "rb");
  if (!f || fread(&sh, sizeof sh, 1, f) != 1) {
    printf("FAIL %s: child cannot read %s\n", CTEST_NAME, path);
    return 1;
  }
  fclose(f);
  int *big = nullptr, *small = nullptr, *mine = nullptr;
  expect_code(cudaIpcOpenMemHandle((void **)&big, sh.big, 0), cudaErrorInvalidValue, "open with flags 0");
  CHECK(cudaIpcOpenMemHandle((void **)&big, sh.big, cudaIpcMemLazyEnablePeerAccess));
  int *again = nullptr;
  CHECK(cudaIpcOpenMemHandle((void **)&again, sh.big, cudaIpcMemLazyEnablePeerAccess));
  EXPECT(again == big, "opening a handle again gives the same address (%p, %p)", (void *)again, (void *)big);
  CHECK(cudaIpcCloseMemHandle(again));
  CHECK(cudaIpcOpenMemHandle((void **)&small, sh.small, cudaIpcMemLazyEnablePeerAccess));
  expect_values(small, kSmall, 5, 2, "small");
  // Another small allocation (on the CPU device, in the same chunk of memory).
  int *small2 = nullptr;
  CHECK(cudaIpcOpenMemHandle((void **)&small2, sh.small2, cudaIpcMemLazyEnablePeerAccess));
  EXPECT(small2 != small, "two allocations open at two addresses");
  expect_values(small2, kSmall, 9, 4, "small2");
  CHECK(cudaIpcCloseMemHandle(small2));
  cudaEvent_t e;
  CHECK(cudaIpcOpenEventHandle(&e, sh.event));
  cudaIpcEventHandle_t reexport;
  expect_code(cudaIpcGetEventHandle(&reexport, e), cudaErrorInvalidResourceHandle, "handle of an opened event");

  // The parent's record is behind its closed gate.
  expect_code(cudaEventQuery(e), cudaErrorNotReady, "query of the parent's pending record");
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaMalloc(&mine, kBig * sizeof(int)));
  CHECK(cudaStreamWaitEvent(s, e, 0));
  copy<<<ceil_div(kBig, 256), 256, 0, s>>>(big, mine, kBig);
  CHECK(cudaGetLastError());
  char go = 'g';
  if (write(sh.go_fd, &go, 1) != 1) ctest_fail("cannot signal the parent");
  CHECK(cudaStreamSynchronize(s));
  expect_values(mine, kBig, 7, 0, "copy ordered after the parent's kernel");

  // Now the child writes and records; the parent waits for that record.
  fill_on(big, kBig, -1, 0, s);
  CHECK(cudaEventRecord(e, s));
  CHECK(cudaStreamSynchronize(s));

  // The pool, through the inherited descriptor.
  cudaMemPool_t pool;
  CHECK(cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)sh.pool_fd, cudaMemHandleTypePosixFileDescriptor, 0));
  int *pooled = nullptr, *pooled_again = nullptr;
  CHECK(cudaMemPoolImportPointer((void **)&pooled, pool, &sh.pooled));
  CHECK(cudaMemPoolImportPointer((void **)&pooled_again, pool, &sh.pooled));
  EXPECT(pooled_again == pooled, "importing a pointer again gives the same address");
  expect_values(pooled, kPool, 11, 3, "pooled");
  int *from_imported = nullptr;
  expect_code(cudaMallocFromPoolAsync((void **)&from_imported, 256, pool, s), cudaErrorInvalidValue,
              "allocating from an imported pool");
  fill_on(pooled, kPool, 2, 9, s);
  CHECK(cudaFreeAsync(pooled, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemPoolDestroy(pool));

  CHECK(cudaEventDestroy(e));
  CHECK(cudaIpcCloseMemHandle(small));
  CHECK(cudaIpcCloseMemHandle(big));
  expect_code(cudaIpcCloseMemHandle(big), cudaErrorInvalidValue, "closing twice");
  CHECK(cudaFree(mine));
  CHECK(cudaStreamDestroy(s));
  fflush(stdout);
  return ctest_failures == 0 ? 0 : 1;
}

// A 3 x 4 x 2 box of ints from (1, 2, 1) of one pitched volume to (0, 1, 0) of another,
// with cudaMemcpy3DPeer and cudaMemcpy3DPeerAsync (device 0 to device 0).
static void copy_3d_peer() {
  const int w = 8, h = 6, d = 3;
  cudaPitchedPtr src, dst;
  CHECK(cudaMalloc3D(&src, make_cudaExtent(w * sizeof(int), h, d)));
  CHECK(cudaMalloc3D(&dst, make_cudaExtent(w * sizeof(int), h, d)));
  int *host = (int *)malloc(src.pitch * h * d);
  for (size_t i = 0; i < src.pitch * h * d / sizeof(int); ++i) host[i] = (int)i;
  CHECK(cudaMemcpy(src.ptr, host, src.pitch * h * d, cudaMemcpyHostToDevice));
  for (int pass = 0; pass < 2; ++pass) {
    CHECK(cudaMemset(dst.ptr, 0xff, dst.pitch * h * d));
    cudaMemcpy3DPeerParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = src;
    p.srcPos = make_cudaPos(1 * sizeof(int), 2, 1);
    p.dstPtr = dst;
    p.dstPos = make_cudaPos(0, 1, 0);
    p.extent = make_cudaExtent(3 * sizeof(int), 4, 2);
    if (pass == 0) {
      CHECK(cudaMemcpy3DPeer(&p));
    } else {
      CHECK(cudaMemcpy3DPeerAsync(&p, 0));
      CHECK(cudaDeviceSynchronize());
    }
    int *out = (int *)malloc(dst.pitch * h * d);
    CHECK(cudaMemcpy(out, dst.ptr, dst.pitch * h * d, cudaMemcpyDeviceToHost));
    const size_t row = dst.pitch / sizeof(int);
    for (int z = 0; z < d; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          bool inside = x < 3 && y >= 1 && y < 5 && z < 2;
          int want = inside ? host[((z + 1) * h + (y - 1 + 2)) * (src.pitch / sizeof(int)) + x + 1] : -1;
          int got = out[(z * h + y) * row + x];
          EXPECT(got == want, "3D peer copy pass %d at (%d, %d, %d): %d, want %d", pass, x, y, z, got, want);
        }
    free(out);
  }
  free(host);
  CHECK(cudaFree(src.ptr));
  CHECK(cudaFree(dst.ptr));
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "child") == 0) return child(argv[2]);
  copy_3d_peer();
  Shared sh;
  memset(&sh, 0, sizeof sh);
  int *big = nullptr, *small = nullptr, *small2 = nullptr, *managed = nullptr, *pooled = nullptr;
  CHECK(cudaMalloc(&big, kBig * sizeof(int)));
  CHECK(cudaMalloc(&small, kSmall * sizeof(int)));
  CHECK(cudaMalloc(&small2, kSmall * sizeof(int)));
  fill_on(big, kBig, 3, 1, 0);
  fill_on(small, kSmall, 5, 2, 0);
  fill_on(small2, kSmall, 9, 4, 0);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaIpcGetMemHandle(&sh.big, big));
  CHECK(cudaIpcGetMemHandle(&sh.small, small));
  CHECK(cudaIpcGetMemHandle(&sh.small2, small2));
  expect_values(big, kBig, 3, 1, "big after export");
  CHECK(cudaMallocManaged(&managed, 4096));
  cudaIpcMemHandle_t h;
  expect_code(cudaIpcGetMemHandle(&h, managed), cudaErrorInvalidValue, "handle of managed memory");
  int *self = nullptr;
  EXPECT(cudaIpcOpenMemHandle((void **)&self, sh.big, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess,
         "opening a handle in the exporting process fails");
  cudaGetLastError();

  cudaEvent_t plain, e;
  CHECK(cudaEventCreate(&plain));
  expect_code(cudaIpcGetEventHandle(&sh.event, plain), cudaErrorInvalidResourceHandle, "handle of a plain event");
  expect_code(cudaEventCreateWithFlags(&e, cudaEventInterprocess), cudaErrorInvalidValue,
              "interprocess event with timing");
  CHECK(cudaEventCreateWithFlags(&e, cudaEventInterprocess | cudaEventDisableTiming));
  CHECK(cudaIpcGetEventHandle(&sh.event, e));

  cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t plain_pool, pool;
  CHECK(cudaMemPoolCreate(&plain_pool, &props));
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  CHECK(cudaMemPoolCreate(&pool, &props));
  int fd = -1;
  expect_code(cudaMemPoolExportToShareableHandle(&fd, plain_pool, cudaMemHandleTypePosixFileDescriptor, 0),
              cudaErrorInvalidValue, "exporting a pool created without handle types");
  CHECK(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaMallocFromPoolAsync((void **)&pooled, kPool * sizeof(int), pool, s));
  fill_on(pooled, kPool, 11, 3, s);
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemPoolExportPointer(&sh.pooled, pooled));
  cudaMemPoolPtrExportData bad;
  expect_code(cudaMemPoolExportPointer(&bad, big), cudaErrorInvalidValue, "exporting a cudaMalloc pointer");
  // The child inherits a descriptor without close-on-exec.
  sh.pool_fd = fcntl(fd, F_DUPFD, 40);
  close(fd);

  // The record the child waits for: behind a gate the parent opens once the child waits.
  int *flag = nullptr;
  CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  *flag = 0;
  int *flag_dev = nullptr;
  CHECK(cudaHostGetDevicePointer(&flag_dev, flag, 0));
  gate<<<1, 1, 0, s>>>(flag_dev);
  CHECK(cudaGetLastError());
  fill_on(big, kBig, 7, 0, s);
  CHECK(cudaEventRecord(e, s));

  int go[2];
  if (pipe(go) != 0) {
    printf("FAIL %s: pipe\n", CTEST_NAME);
    return 1;
  }
  sh.go_fd = go[1];
  char path[] = "/tmp/ctest_ipc_XXXXXX";
  int tfd = mkstemp(path);
  if (tfd < 0 || write(tfd, &sh, sizeof sh) != (ssize_t)sizeof sh) {
    printf("FAIL %s: cannot write %s\n", CTEST_NAME, path);
    return 1;
  }
  close(tfd);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", argv[0], "child", path, (char *)nullptr);
    _exit(3);
  }
  close(go[1]);
  char byte;
  if (read(go[0], &byte, 1) != 1) ctest_fail("the child did not queue its wait");
  *flag = 1;  // the parent's kernel and record run now
  int status = 0;
  waitpid(pid, &status, 0);
  unlink(path);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child exit status %d", status);

  CHECK(cudaEventSynchronize(e));
  CHECK(cudaStreamSynchronize(s));
  expect_values(big, kBig, -1, 0, "big written by the child");
  expect_values(pooled, kPool, 2, 9, "pooled written by the child");
  CHECK(cudaFreeAsync(pooled, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemPoolDestroy(pool));
  CHECK(cudaMemPoolDestroy(plain_pool));
  CHECK(cudaEventDestroy(e));
  CHECK(cudaEventDestroy(plain));
  CHECK(cudaFree(big));
  CHECK(cudaFree(small));
  CHECK(cudaFree(small2));
  CHECK(cudaFree(managed));
  CHECK(cudaFreeHost(flag));
  CHECK(cudaStreamDestroy(s));
  return ctest_finish();
}
