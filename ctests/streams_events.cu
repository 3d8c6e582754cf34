// Streams, events and host callbacks: kernels run asynchronously to the host and in
// order per stream; cudaStreamQuery / cudaEventQuery / cudaEventElapsedTime report
// cudaErrorNotReady while work is pending; streams run concurrently (a kernel on one
// stream waits for a kernel on another); the legacy default stream waits for blocking
// streams but not for non-blocking ones; cudaStreamWaitEvent orders across streams;
// events time the work between them; host callbacks run in stream order.
//
// Asynchrony is observed with "gate" kernels that spin on a flag in mapped pinned host
// memory until the host (or another kernel) sets it, so nothing depends on timing except
// the lower bound of one elapsed-time check. A watchdog opens any gate still closed after
// 10 s, so a missing concurrency shows up as a failed check, not a hang; each section
// prints its name first.
#define CTEST_NAME "streams_events"
#include "ctest.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

// Spins until *flag != 0, then writes `value` to *out.
__global__ void gate(volatile int *flag, int *out, int value) {
  while (*flag == 0) {
  }
  *out = value;
}

// Sets *flag (releases a gate).
__global__ void release(volatile int *flag) { *flag = 1; }

// x[i] = x[i] * 2 + step, for a chain of dependent kernels.
__global__ void step_kernel(int *x, int n, int step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 2 + step;
}

// *out = *in * 10 + add.
__global__ void combine(const int *in, int *out, int add) { *out = *in * 10 + add; }

static void expect_code(cudaError_t got, cudaError_t want, const char *what) {
  EXPECT(got == want, "%s: got %d (%s), want %d (%s)", what, (int)got, cudaGetErrorName(got), (int)want,
         cudaGetErrorName(want));
}

struct CallbackLog {
  int order[8];
  int count;
  int statuses_ok;
};

static void CUDART_CB host_fn(void *p) {
  CallbackLog *log = (CallbackLog *)p;
  int k = log->count;
  log->order[k] = 100 + k;
  log->count = k + 1;
}

static void CUDART_CB stream_cb(cudaStream_t, cudaError_t status, void *p) {
  CallbackLog *log = (CallbackLog *)p;
  if (status == cudaSuccess) log->statuses_ok++;
  int k = log->count;
  log->order[k] = 200 + k;
  log->count = k + 1;
}

// A flag in mapped pinned memory, visible to kernels and to the host.
struct Flag {
  int *host;
  int *dev;
  Flag() {
    CHECK(cudaHostAlloc(&host, sizeof(int), cudaHostAllocMapped));
    *host = 0;
    CHECK(cudaHostGetDevicePointer(&dev, host, 0));
  }
  void set() { *(volatile int *)host = 1; }
  ~Flag() { cudaFreeHost(host); }
};

// Opens `f` if it is still closed `seconds` after construction; records that it had to.
struct Watchdog {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  bool fired = false;
  std::thread t;
  const char *what;
  Watchdog(Flag &f, const char *what_, int seconds = 10) : what(what_) {
    t = std::thread([this, &f, seconds] {
      std::unique_lock<std::mutex> lock(m);
      if (!cv.wait_for(lock, std::chrono::seconds(seconds), [this] { return done; })) {
        fired = true;
        f.set();
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(m);
      done = true;
    }
    cv.notify_all();
    t.join();
    EXPECT(!fired, "%s: the gate had to be opened by the watchdog (work did not run concurrently)", what);
  }
};

static void section(const char *name) {
  printf("streams_events: %s\n", name);
  fflush(stdout);
}

int main() {
  // On NVIDIA GPUs: load every kernel up front (lazy loading may synchronize the context
  // when a kernel is first launched, which deadlocks a kernel that waits for a later
  // one), and give streams more hardware queues (no false dependencies between them).
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", 0);
  {
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, gate));
    CHECK(cudaFuncGetAttributes(&attr, release));
    CHECK(cudaFuncGetAttributes(&attr, step_kernel));
    CHECK(cudaFuncGetAttributes(&attr, combine));
  }
  int *dvals;  // scratch results
  CHECK(cudaMalloc(&dvals, 16 * sizeof(int)));
  CHECK(cudaMemset(dvals, 0, 16 * sizeof(int)));

  cudaStream_t s1, s2, s3;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));

  // 1. A launch returns before the kernel finishes; queries say NotReady until then.
  section("1 asynchronous launch");
  {
    Flag f;
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    gate<<<1, 1, 0, s1>>>(f.dev, dvals + 0, 11);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(e, s1));
    expect_code(cudaStreamQuery(s1), cudaErrorNotReady, "cudaStreamQuery while a gate is closed");
    expect_code(cudaEventQuery(e), cudaErrorNotReady, "cudaEventQuery while a gate is closed");
    f.set();
    CHECK(cudaEventSynchronize(e));
    CHECK(cudaEventQuery(e));
    CHECK(cudaStreamQuery(s1));
    CHECK(cudaEventDestroy(e));
  }

  // 2. Streams run concurrently: a kernel on s1 waits for a kernel launched later on s2.
  section("2 concurrent streams");
  {
    Flag f;
    Watchdog w(f, "a kernel on s1 released by a later kernel on s2");
    gate<<<1, 1, 0, s1>>>(f.dev, dvals + 1, 22);
    release<<<1, 1, 0, s2>>>(f.dev);
    CHECK(cudaStreamSynchronize(s1));
    CHECK(cudaStreamSynchronize(s2));
  }

  // 3. Legacy default stream: waits for the blocking stream s1, but the non-blocking
  // stream s3 runs while s1 is still held.
  section("3 legacy default stream, non-blocking stream");
  {
    Flag f;
    Watchdog w(f, "a non-blocking stream while a blocking one is held");
    gate<<<1, 1, 0, s1>>>(f.dev, dvals + 2, 3);
    combine<<<1, 1>>>(dvals + 2, dvals + 3, 4);  // legacy stream: after s1's gate
    combine<<<1, 1, 0, s3>>>(dvals + 1, dvals + 4, 5);
    CHECK(cudaStreamSynchronize(s3));  // must not wait for s1
    expect_code(cudaStreamQuery(s1), cudaErrorNotReady, "cudaStreamQuery(s1) with its gate closed");
    expect_code(cudaStreamQuery(0), cudaErrorNotReady, "cudaStreamQuery(legacy) behind s1's gate");
    f.set();
    CHECK(cudaDeviceSynchronize());
  }

  // 4. cudaStreamWaitEvent: s2 waits for s1's gate without the host waiting.
  section("4 cudaStreamWaitEvent");
  {
    Flag f;
    cudaEvent_t done;
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    gate<<<1, 1, 0, s1>>>(f.dev, dvals + 5, 6);
    CHECK(cudaEventRecord(done, s1));
    CHECK(cudaStreamWaitEvent(s2, done, 0));
    combine<<<1, 1, 0, s2>>>(dvals + 5, dvals + 6, 7);
    expect_code(cudaStreamQuery(s2), cudaErrorNotReady, "cudaStreamQuery(s2) waiting for an event of s1");
    f.set();
    CHECK(cudaStreamSynchronize(s2));
    CHECK(cudaEventDestroy(done));
  }

  // 5. Event timing: the elapsed time covers the work between the records.
  section("5 event timing");
  {
    Flag f;
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    float ms = -1;
    expect_code(cudaEventElapsedTime(&ms, t0, t1), cudaErrorInvalidResourceHandle, "elapsed time of unrecorded events");
    CHECK(cudaEventRecord(t0, s1));
    gate<<<1, 1, 0, s1>>>(f.dev, dvals + 7, 8);
    CHECK(cudaEventRecord(t1, s1));
    expect_code(cudaEventElapsedTime(&ms, t0, t1), cudaErrorNotReady, "elapsed time before the end event completed");
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    f.set();
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    EXPECT(ms >= 40.0f && ms < 10000.0f, "elapsed time %.3f ms, want about 60 ms", ms);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
  }

  // 6. A chain of dependent kernels and async copies from pinned memory, in order.
  section("6 stream order");
  {
    const int n = 1000;
    int *h, *d;
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    for (int i = 0; i < n; i++) h[i] = i;
    CHECK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s2));
    for (int k = 1; k <= 5; k++) step_kernel<<<ceil_div(n, 128), 128, 0, s2>>>(d, n, k);
    CHECK(cudaMemsetAsync(dvals + 8, 0, sizeof(int), s2));
    CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CHECK(cudaStreamSynchronize(s2));
    for (int i = 0; i < n; i++) {
      long v = i;
      for (int k = 1; k <= 5; k++) v = v * 2 + k;
      EXPECT(h[i] == v, "chain[%d] = %d, want %ld", i, h[i], v);
    }
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d));
  }

  // 7. Host callbacks run in stream order, after the work before them.
  section("7 host callbacks");
  {
    Flag f;
    CallbackLog *log;
    CHECK(cudaMallocHost(&log, sizeof(CallbackLog)));
    memset(log, 0, sizeof(*log));
    gate<<<1, 1, 0, s1>>>(f.dev, dvals + 9, 9);
    CHECK(cudaLaunchHostFunc(s1, host_fn, log));
    CHECK(cudaStreamAddCallback(s1, stream_cb, log, 0));
    CHECK(cudaLaunchHostFunc(s1, host_fn, log));
    EXPECT(log->count == 0, "%d callbacks ran before the gate opened", log->count);
    f.set();
    CHECK(cudaStreamSynchronize(s1));
    EXPECT(log->count == 3 && log->statuses_ok == 1, "callbacks: count %d, ok statuses %d", log->count,
           log->statuses_ok);
    EXPECT(log->order[0] == 100 && log->order[1] == 201 && log->order[2] == 102,
           "callback order %d %d %d", log->order[0], log->order[1], log->order[2]);
    CHECK(cudaFreeHost(log));
  }

  // 8. The per-thread default stream is a stream of its own.
  section("8 per-thread default stream");
  {
    Flag f;
    gate<<<1, 1, 0, cudaStreamPerThread>>>(f.dev, dvals + 10, 10);
    expect_code(cudaStreamQuery(cudaStreamPerThread), cudaErrorNotReady, "per-thread stream with a closed gate");
    f.set();
    CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  }

  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaStreamDestroy(s3));

  int got[16];
  CHECK(cudaMemcpy(got, dvals, sizeof(got), cudaMemcpyDeviceToHost));
  const int want[11] = {11, 22, 3, 34, 225, 6, 67, 8, 0, 9, 10};
  for (int i = 0; i < 11; i++) EXPECT(got[i] == want[i], "dvals[%d] = %d, want %d", i, got[i], want[i]);
  CHECK(cudaFree(dvals));
  return ctest_finish();
}
