// The runtime API's stream attributes, managed-memory batches and range attributes, error
// log, atomic capabilities and array queries, built with g++ against our runtime headers
// only and linked with -lcudart against our libcudart (which reaches our libcuda). Each
// result is checked against what the calls set up here; the misuse codes are the runtime
// forms of those NVIDIA's driver gave on an H200 (ctests/host/stream_ops.c).
// Prints "PASS runtime_stream_ops" when every check holds.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

static int failures = 0;

#define CHECK(cond)                                               \
  do {                                                            \
    if (!(cond)) {                                                \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                 \
    }                                                             \
  } while (0)

#define OK(call) CHECK((call) == cudaSuccess)

static int log_calls = 0;
static void on_log(void *data, cudaLogLevel level, char *message, size_t length) {
  (void)data;
  (void)level;
  if (message != nullptr && std::strlen(message) == length) log_calls++;
}

int main() {
  cudaStream_t s, s2;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  // Stream attributes: set, read back, copy (all but the priority), refuse what is invalid.
  cudaStreamAttrValue v;
  std::memset(&v, 0, sizeof v);
  v.syncPolicy = cudaSyncPolicyYield;
  OK(cudaStreamSetAttribute(s, cudaLaunchAttributeSynchronizationPolicy, &v));
  v.priority = -1;
  OK(cudaStreamSetAttribute(s, cudaLaunchAttributePriority, &v));
  int priority = 0;
  OK(cudaStreamGetPriority(s, &priority));
  CHECK(priority == -1);
  std::memset(&v, 0, sizeof v);
  OK(cudaStreamGetAttribute(s, cudaLaunchAttributeSynchronizationPolicy, &v));
  CHECK(v.syncPolicy == cudaSyncPolicyYield);
  OK(cudaStreamCopyAttributes(s2, s));
  std::memset(&v, 0, sizeof v);
  OK(cudaStreamGetAttribute(s2, cudaLaunchAttributeSynchronizationPolicy, &v));
  CHECK(v.syncPolicy == cudaSyncPolicyYield);
  OK(cudaStreamGetPriority(s2, &priority));
  CHECK(priority == 0);
  CHECK(cudaStreamGetAttribute(s, cudaLaunchAttributeCooperative, &v) == cudaErrorInvalidValue);
  v.syncPolicy = static_cast<cudaSynchronizationPolicy>(5);
  CHECK(cudaStreamSetAttribute(s, cudaLaunchAttributeSynchronizationPolicy, &v) == cudaErrorInvalidValue);
  cudaGetLastError();

  // Managed memory: advice and batched prefetches show in the range attributes.
  const size_t bytes = 1 << 20;
  void *m = nullptr;
  OK(cudaMallocManaged(&m, bytes));
  cudaMemLocation host, dev0;
  std::memset(&host, 0, sizeof host);
  std::memset(&dev0, 0, sizeof dev0);
  host.type = cudaMemLocationTypeHost;
  dev0.type = cudaMemLocationTypeDevice;
  OK(cudaMemAdvise(m, bytes, cudaMemAdviseSetReadMostly, dev0));
  void *ptrs[2] = {m, static_cast<char *>(m) + 4096};
  size_t sizes[2] = {4096, 4096}, idx[1] = {0};
  OK(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, &host, idx, 1, 0, s));
  OK(cudaStreamSynchronize(s));
  int read_mostly = -1, last_type = -1;
  void *data[2] = {&read_mostly, &last_type};
  size_t data_sizes[2] = {4, 4};
  cudaMemRangeAttribute attrs[2] = {cudaMemRangeAttributeReadMostly, cudaMemRangeAttributeLastPrefetchLocationType};
  OK(cudaMemRangeGetAttributes(data, data_sizes, attrs, 2, m, 8192));
  CHECK(read_mostly == 1 && last_type == cudaMemLocationTypeHost);
  OK(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, s));
  OK(cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 2, &dev0, idx, 1, 0, s));
  OK(cudaStreamSynchronize(s));
  int last_device = -5;
  OK(cudaMemRangeGetAttribute(&last_device, 4, cudaMemRangeAttributeLastPrefetchLocation, m, 8192));
  CHECK(last_device == 0);
  CHECK(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, &host, idx, 1, 1, s) == cudaErrorInvalidValue);
  CHECK(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, nullptr) == cudaErrorInvalidValue);
  cudaGetLastError();
  OK(cudaFree(m));

  // The error log, through the runtime: a failure shows in the dump and the callback.
  cudaLogIterator it;
  OK(cudaLogsCurrent(&it, 0));
  cudaLogsCallbackHandle cb;
  OK(cudaLogsRegisterCallback(on_log, nullptr, &cb));
  CHECK(cudaStreamSetAttribute(s, cudaLaunchAttributeSynchronizationPolicy, &v) == cudaErrorInvalidValue);
  cudaGetLastError();
  char buf[4096];
  size_t n = sizeof buf;
  OK(cudaLogsDumpToMemory(&it, buf, &n, 0));
  CHECK(n > 0 && std::strstr(buf, "from cuStreamSetAttribute") != nullptr);
  CHECK(log_calls >= 1);
  OK(cudaLogsUnregisterCallback(cb));

  // Host atomics and array queries.
  cudaAtomicOperation ops[1] = {cudaAtomicOperationIntegerAdd};
  unsigned caps = 0;
  OK(cudaDeviceGetHostAtomicCapabilities(&caps, ops, 1, 0));
  CHECK(cudaDeviceGetHostAtomicCapabilities(&caps, ops, 0, 0) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaChannelFormatDesc desc;
  std::memset(&desc, 0, sizeof desc);
  desc.x = 32;
  desc.f = cudaChannelFormatKindFloat;
  cudaArray_t array;
  OK(cudaMallocArray(&array, &desc, 64, 32, 0));
  cudaArrayMemoryRequirements req;
  cudaArraySparseProperties sparse;
  CHECK(cudaArrayGetMemoryRequirements(&req, array, 0) == cudaErrorInvalidValue);
  CHECK(cudaArrayGetSparseProperties(&sparse, array) == cudaErrorInvalidValue);
  cudaGetLastError();
  OK(cudaFreeArray(array));

  OK(cudaStreamDestroy(s));
  OK(cudaStreamDestroy(s2));
  if (failures != 0) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("PASS runtime_stream_ops\n");
  return 0;
}
