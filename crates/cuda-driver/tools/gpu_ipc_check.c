// Prints the CUresult of IPC, pool IPC, peer access, cuMemcpy3DPeer and external memory
// calls (misuse included) against whichever libcuda.so.1 is loaded, so the two can be
// compared line by line. Driver API only.
//
// Build and run (a GPU machine: nvcc -x c ...; here: cc -I include ... -L target/release):
//   cc -O1 -D_GNU_SOURCE -I<cuda.h dir> gpu_ipc_check.c -o gpu_ipc_check -lcuda
//   ./gpu_ipc_check        (the parent; it re-executes itself as the child)
// Measured on an H200 (driver 580.159): every line as our driver prints it except
// MEMPOOL_SUPPORTED_HANDLE_TYPES (9 there: POSIX fd and fabric; 1 here). The external
// memory lines were not measured there.
#include <cuda.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define R(name, call)                                                  \
  do {                                                                 \
    CUresult r_ = (call);                                              \
    printf("%s%-44s %d\n", who, name, (int)r_);                        \
    fflush(stdout);                                                    \
  } while (0)

static const char *who = "";
#define N (1 << 20)

struct shared {
  CUipcMemHandle mem;
  CUipcEventHandle evt;
  CUmemPoolPtrExportData ptrdata;
  CUmemPoolPtrExportData ptrdata_zero;
  int pool_fd;
};

static int child(const char *path) {
  who = "child: ";
  struct shared s;
  FILE *f = fopen(path, "rb");
  if (!f || fread(&s, sizeof s, 1, f) != 1) return 2;
  fclose(f);
  cuInit(0);
  CUdevice dev;
  CUcontext ctx;
  cuDeviceGet(&dev, 0);
  cuDevicePrimaryCtxRetain(&ctx, dev);
  cuCtxSetCurrent(ctx);
  CUdeviceptr p = 0, p2 = 0, p3 = 0;
  R("open flags=2", cuIpcOpenMemHandle(&p3, s.mem, 2));
  R("open flags=0", cuIpcOpenMemHandle(&p3, s.mem, 0));
  if (p3) R("close flags=0 open", cuIpcCloseMemHandle(p3));
  R("open flags=1", cuIpcOpenMemHandle(&p, s.mem, 1));
  R("open again", cuIpcOpenMemHandle(&p2, s.mem, 1));
  printf("%ssame pointer again: %d\n", who, p == p2 && p != 0);
  unsigned char buf[16] = {0};
  R("read", cuMemcpyDtoH(buf, p + 100, 16));
  printf("%sread value %d\n", who, buf[0]);
  R("memset 0x33", cuMemsetD8(p, 0x33, N));
  R("cuMemFree(opened)", cuMemFree(p));
  R("close 1", cuIpcCloseMemHandle(p));
  R("close 2", cuIpcCloseMemHandle(p));
  R("close 3 (no more refs)", cuIpcCloseMemHandle(p));
  R("close interior", cuIpcCloseMemHandle(p + 256));

  CUevent e = 0;
  R("open event", cuIpcOpenEventHandle(&e, s.evt));
  R("query opened event", cuEventQuery(e));
  CUstream st;
  cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
  R("wait opened event", cuStreamWaitEvent(st, e, 0));
  R("record opened event", cuEventRecord(e, st));
  R("sync opened event", cuEventSynchronize(e));
  float ms;
  R("elapsed opened event", cuEventElapsedTime(&ms, e, e));
  CUipcEventHandle eh2;
  R("get handle of opened event", cuIpcGetEventHandle(&eh2, e));
  R("destroy opened event", cuEventDestroy(e));

  CUmemoryPool pool = 0;
  R("pool import type 2", cuMemPoolImportFromShareableHandle(&pool, (void *)(long)s.pool_fd, (CUmemAllocationHandleType)2, 0));
  R("pool import flags 1", cuMemPoolImportFromShareableHandle(&pool, (void *)(long)s.pool_fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
  R("pool import", cuMemPoolImportFromShareableHandle(&pool, (void *)(long)s.pool_fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  unsigned long long access = 99;
  R("imported pool get access", cuMemPoolGetAccess((CUmemAccess_flags *)&access, pool, &loc));
  printf("%simported pool access %llu\n", who, access);
  CUmemAccessDesc ad = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  R("imported pool set access", cuMemPoolSetAccess(pool, &ad, 1));
  CUdeviceptr ip = 0;
  R("import pointer zeroed data", cuMemPoolImportPointer(&ip, pool, &s.ptrdata_zero));
  R("import pointer", cuMemPoolImportPointer(&ip, pool, &s.ptrdata));
  memset(buf, 0, sizeof buf);
  R("read imported", cuMemcpyDtoH(buf, ip + 8, 16));
  printf("%simported value %d\n", who, buf[0]);
  CUdeviceptr ip2 = 0;
  R("import pointer twice", cuMemPoolImportPointer(&ip2, pool, &s.ptrdata));
  printf("%simport twice same pointer %d\n", who, ip2 == ip);
  CUdeviceptr a = 0;
  R("alloc from imported pool", cuMemAllocFromPoolAsync(&a, 4096, pool, st));
  CUmemPoolPtrExportData d2;
  R("export pointer of imported", cuMemPoolExportPointer(&d2, ip));
  int fd2 = -1;
  R("export imported pool", cuMemPoolExportToShareableHandle(&fd2, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  R("cuMemFreeAsync imported", cuMemFreeAsync(ip, st));
  R("stream sync", cuStreamSynchronize(st));
  if (ip2 && ip2 != ip) R("cuMemFree imported 2", cuMemFree(ip2));
  R("destroy imported pool", cuMemPoolDestroy(pool));
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "child")) return child(argv[2]);
  struct shared s;
  memset(&s, 0, sizeof s);
  CUdevice dev;
  CUcontext ctx, a, b;
  R("cuInit", cuInit(0));
  cuDeviceGet(&dev, 0);
  int v = -1, count = 0;
  cuDeviceGetCount(&count);
  printf("devices %d\n", count);
  cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, dev);
  printf("attr IPC_EVENT_SUPPORTED %d\n", v);
  cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, dev);
  printf("attr MEMPOOL_SUPPORTED_HANDLE_TYPES %d\n", v);
  cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev);
  printf("attr HANDLE_TYPE_POSIX_FD_SUPPORTED %d\n", v);
  cuDevicePrimaryCtxRetain(&ctx, dev);
  cuCtxSetCurrent(ctx);

  // ---- memory handles
  CUdeviceptr d = 0, small = 0, asy = 0, man = 0;
  cuMemAlloc(&d, N);
  cuMemsetD8(d, 0x5a, N);
  cuMemAlloc(&small, 64);
  cuMemAllocManaged(&man, 4096, CU_MEM_ATTACH_GLOBAL);
  cuMemAllocAsync(&asy, 4096, 0);
  cuStreamSynchronize(0);
  CUipcMemHandle h;
  R("get handle base", cuIpcGetMemHandle(&s.mem, d));
  R("get handle again", cuIpcGetMemHandle(&h, d));
  printf("same handle bytes again: %d\n", !memcmp(&h, &s.mem, sizeof h));
  R("get handle interior", cuIpcGetMemHandle(&h, d + 4096));
  R("get handle 64-byte alloc", cuIpcGetMemHandle(&h, small));
  R("get handle managed", cuIpcGetMemHandle(&h, man));
  R("get handle async pool", cuIpcGetMemHandle(&h, asy));
  char host[64];
  R("get handle host ptr", cuIpcGetMemHandle(&h, (CUdeviceptr)host));
  R("get handle 0", cuIpcGetMemHandle(&h, 0));
  R("get handle NULL out", cuIpcGetMemHandle(NULL, d));
  CUdeviceptr o = 0;
  R("open in exporting process", cuIpcOpenMemHandle(&o, s.mem, 1));
  CUipcMemHandle z;
  memset(&z, 0, sizeof z);
  R("open zeroed handle", cuIpcOpenMemHandle(&o, z, 1));
  R("close non-ipc pointer", cuIpcCloseMemHandle(d));

  // ---- events
  CUevent e0, e1, e2;
  R("event INTERPROCESS without DISABLE_TIMING", cuEventCreate(&e0, CU_EVENT_INTERPROCESS));
  cuEventCreate(&e1, 0);
  R("get event handle of plain event", cuIpcGetEventHandle(&s.evt, e1));
  R("event INTERPROCESS|DISABLE_TIMING", cuEventCreate(&e2, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
  R("get event handle", cuIpcGetEventHandle(&s.evt, e2));
  CUevent eo;
  R("open event in exporting process", cuIpcOpenEventHandle(&eo, s.evt));
  CUipcEventHandle ez;
  memset(&ez, 0, sizeof ez);
  R("open zeroed event handle", cuIpcOpenEventHandle(&eo, ez));
  R("record ipc event", cuEventRecord(e2, 0));
  R("sync ipc event", cuEventSynchronize(e2));

  // ---- pools
  CUmemPoolProps pp;
  memset(&pp, 0, sizeof pp);
  pp.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  pp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  pp.location.id = 0;
  CUmemoryPool plain, shp;
  R("pool create plain", cuMemPoolCreate(&plain, &pp));
  pp.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  R("pool create posix fd", cuMemPoolCreate(&shp, &pp));
  int fd = -1;
  R("export plain pool", cuMemPoolExportToShareableHandle(&fd, plain, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  R("export pool type 2", cuMemPoolExportToShareableHandle(&fd, shp, (CUmemAllocationHandleType)2, 0));
  R("export pool type 8", cuMemPoolExportToShareableHandle(&fd, shp, (CUmemAllocationHandleType)8, 0));
  R("export pool flags 1", cuMemPoolExportToShareableHandle(&fd, shp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
  R("export pool", cuMemPoolExportToShareableHandle(&fd, shp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUdeviceptr pa = 0, pb = 0;
  CUstream st;
  cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
  R("alloc from shareable pool", cuMemAllocFromPoolAsync(&pa, N, shp, st));
  cuMemsetD8Async(pa, 0x77, N, st);
  cuStreamSynchronize(st);
  cuMemAllocFromPoolAsync(&pb, 4096, plain, st);
  cuStreamSynchronize(st);
  R("export pointer", cuMemPoolExportPointer(&s.ptrdata, pa));
  CUmemPoolPtrExportData tmp;
  R("export pointer interior", cuMemPoolExportPointer(&tmp, pa + 512));
  R("export pointer plain pool", cuMemPoolExportPointer(&tmp, pb));
  R("export pointer cuMemAlloc", cuMemPoolExportPointer(&tmp, d));
  CUdeviceptr ip = 0;
  R("import pointer into exporting pool", cuMemPoolImportPointer(&ip, shp, &s.ptrdata));
  CUmemoryPool self_imp = 0;
  R("import pool in exporting process", cuMemPoolImportFromShareableHandle(&self_imp, (void *)(long)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  if (self_imp) {
    R("import pointer in exporting process", cuMemPoolImportPointer(&ip, self_imp, &s.ptrdata));
    CUdeviceptr x = 0;
    R("alloc from self-imported pool", cuMemAllocFromPoolAsync(&x, 4096, self_imp, st));
  }
  int mfd = memfd_create("x", 0);
  ftruncate(mfd, 4096);
  R("pool import of a memfd", cuMemPoolImportFromShareableHandle(&self_imp, (void *)(long)mfd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  s.pool_fd = 100;
  dup2(fd, 100);

  // ---- the child
  char path[] = "/tmp/ipc_check_XXXXXX";
  int tfd = mkstemp(path);
  write(tfd, &s, sizeof s);
  close(tfd);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", argv[0], "child", path, (char *)NULL);
    _exit(3);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  printf("child exit %d\n", WEXITSTATUS(status));
  unsigned char buf[4];
  cuMemcpyDtoH(buf, d + 10, 4);
  printf("parent sees child's write %d\n", buf[0] == 0x33);
  R("query event child recorded", cuEventQuery(e2));
  R("sync event child recorded", cuEventSynchronize(e2));
  R("free exported allocation", cuMemFree(d));
  R("free shareable pool allocation", cuMemFreeAsync(pa, st));
  cuStreamSynchronize(st);
  R("destroy shareable pool", cuMemPoolDestroy(shp));

  // ---- peers
  cuCtxCreate(&a, NULL, 0, dev);
  cuCtxCreate(&b, NULL, 0, dev);
  cuCtxSetCurrent(a);
  R("enable peer same device other ctx", cuCtxEnablePeerAccess(b, 0));
  R("enable peer self", cuCtxEnablePeerAccess(a, 0));
  R("enable peer flags 1", cuCtxEnablePeerAccess(b, 1));
  R("enable peer NULL", cuCtxEnablePeerAccess(NULL, 0));
  R("disable peer same device", cuCtxDisablePeerAccess(b));
  R("disable peer NULL", cuCtxDisablePeerAccess(NULL));
  if (count >= 2) {
    CUdevice d1;
    CUcontext c1;
    cuDeviceGet(&d1, 1);
    cuDevicePrimaryCtxRetain(&c1, d1);
    cuCtxSetCurrent(ctx);
    R("enable peer 0->1", cuCtxEnablePeerAccess(c1, 0));
    R("enable peer 0->1 again", cuCtxEnablePeerAccess(c1, 0));
    R("enable peer 0->1 flags 1 (enabled)", cuCtxEnablePeerAccess(c1, 1));
    R("disable peer 0->1", cuCtxDisablePeerAccess(c1));
    R("disable peer 0->1 again", cuCtxDisablePeerAccess(c1));
    R("enable peer 0->1 flags 1", cuCtxEnablePeerAccess(c1, 1));
  }
  cuCtxSetCurrent(a);
  CUdeviceptr s1 = 0, s2 = 0;
  cuMemAlloc(&s1, 4096);
  cuMemsetD8(s1, 0x42, 4096);
  cuCtxSetCurrent(b);
  cuMemAlloc(&s2, 4096);
  cuMemsetD8(s2, 0, 4096);
  CUDA_MEMCPY3D_PEER cp;
  memset(&cp, 0, sizeof cp);
  cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  cp.srcDevice = s1;
  cp.srcContext = a;
  cp.srcPitch = 64;
  cp.srcHeight = 4;
  cp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  cp.dstDevice = s2;
  cp.dstContext = b;
  cp.dstPitch = 64;
  cp.dstHeight = 4;
  cp.WidthInBytes = 64;
  cp.Height = 4;
  cp.Depth = 2;
  R("memcpy3DPeer", cuMemcpy3DPeer(&cp));
  cuMemcpyDtoH(buf, s2 + 500, 1);
  printf("memcpy3DPeer copied %d\n", buf[0] == 0x42);
  R("memcpy3DPeerAsync", cuMemcpy3DPeerAsync(&cp, 0));
  cuCtxSynchronize();
  cp.srcContext = NULL;
  R("memcpy3DPeer NULL srcContext", cuMemcpy3DPeer(&cp));
  cp.srcContext = a;
  cp.dstContext = NULL;
  R("memcpy3DPeer NULL dstContext", cuMemcpy3DPeer(&cp));
  // cuMemcpy3DPeer(NULL) crashes NVIDIA's driver (580.159); ours answers INVALID_VALUE.
  cuCtxSetCurrent(ctx);

  // ---- external memory
  CUmemAllocationProp prop;
  memset(&prop, 0, sizeof prop);
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t gran = 0;
  cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  CUmemGenericAllocationHandle mh;
  R("vmm create", cuMemCreate(&mh, gran, &prop, 0));
  CUdeviceptr va;
  cuMemAddressReserve(&va, gran, 0, 0, 0);
  cuMemMap(va, gran, 0, mh, 0);
  CUmemAccessDesc acc = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  cuMemSetAccess(va, gran, &acc, 1);
  cuMemsetD8(va, 0x11, gran);
  int xfd = -1;
  R("vmm export fd", cuMemExportToShareableHandle(&xfd, mh, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC hd;
  CUexternalMemory em = 0;
  memset(&hd, 0, sizeof hd);
  hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  hd.handle.fd = xfd;
  hd.size = 0;
  R("import ext size 0", cuImportExternalMemory(&em, &hd));
  hd.size = gran;
  hd.flags = 2;
  R("import ext flags 2", cuImportExternalMemory(&em, &hd));
  hd.flags = 0;
  hd.type = (CUexternalMemoryHandleType)0;
  R("import ext type 0", cuImportExternalMemory(&em, &hd));
  hd.type = (CUexternalMemoryHandleType)10;
  R("import ext type 10", cuImportExternalMemory(&em, &hd));
  hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32;
  R("import ext type win32", cuImportExternalMemory(&em, &hd));
  hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP;
  R("import ext type d3d12 heap", cuImportExternalMemory(&em, &hd));
  hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF;
  R("import ext type nvscibuf", cuImportExternalMemory(&em, &hd));
  hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
  R("import ext type dmabuf(memfd)", cuImportExternalMemory(&em, &hd));
  hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  hd.handle.fd = -1;
  R("import ext fd -1", cuImportExternalMemory(&em, &hd));
  int mfd2 = memfd_create("y", 0);
  ftruncate(mfd2, gran);
  hd.handle.fd = mfd2;
  R("import ext plain memfd", cuImportExternalMemory(&em, &hd));
  hd.handle.fd = xfd;
  hd.size = gran * 2;
  R("import ext size > file", cuImportExternalMemory(&em, &hd));
  hd.size = gran;
  R("import ext", cuImportExternalMemory(&em, &hd));
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd;
  memset(&bd, 0, sizeof bd);
  CUdeviceptr eb = 0;
  bd.size = gran;
  bd.flags = 1;
  R("ext buffer flags 1", cuExternalMemoryGetMappedBuffer(&eb, em, &bd));
  bd.flags = 0;
  bd.offset = 4096;
  R("ext buffer past end", cuExternalMemoryGetMappedBuffer(&eb, em, &bd));
  bd.offset = 0;
  bd.size = 0;
  R("ext buffer size 0", cuExternalMemoryGetMappedBuffer(&eb, em, &bd));
  bd.size = gran;
  R("ext buffer", cuExternalMemoryGetMappedBuffer(&eb, em, &bd));
  cuMemcpyDtoH(buf, eb + 7, 1);
  printf("ext buffer sees vmm contents %d\n", buf[0] == 0x11);
  cuMemsetD8(eb, 0x22, 16);
  cuMemcpyDtoH(buf, va + 3, 1);
  printf("vmm sees ext buffer write %d\n", buf[0] == 0x22);
  CUdeviceptr eb2 = 0;
  bd.offset = 256;
  bd.size = 256;
  R("ext buffer offset 256", cuExternalMemoryGetMappedBuffer(&eb2, em, &bd));
  cuMemcpyDtoH(buf, eb2, 1);
  printf("ext buffer offset 256 value ok %d\n", buf[0] == 0x11);
  R("ext buffer free", cuMemFree(eb));
  R("ext buffer free again", cuMemFree(eb));
  R("ext buffer2 free", cuMemFree(eb2));
  R("destroy ext", cuDestroyExternalMemory(em));
  R("destroy ext again", cuDestroyExternalMemory(em));
  R("destroy ext NULL", cuDestroyExternalMemory(NULL));
  unlink(path);
  return 0;
}
