# Stream-ordered allocation and memory pools through the driver API (ctypes): each case's
# result against what NVIDIA's driver answered (H200, driver 580.159.04, CUDA 13.0 driver API,
# 2026-11-27; the probe is this script with its prints). OURS lists where we answer otherwise,
# and why; LAYOUT the values that depend on how a pool lays out its chunks (NVIDIA's pool grows
# one contiguous range, ours adds separate chunks: a 33 MiB allocation takes a 64 MiB chunk of
# its own). Runs on whichever libcuda.so.1 the loader finds; exits 1 listing the cases that
# differ, else prints "PASS mempool_misuse".
NVIDIA = dict(line.split(" ", 1) for line in """
devattr_115 0:1
devattr_119 0:9
default_null_out 1
default_bad_device 101
default_ok 0
getmempool_ok 0
getmempool_is_default 1
getmempool_bad_device 1
getattr_1 0:1
getattr_2 0:1
getattr_3 0:1
getattr_4 0:0
getattr_5 0:0
getattr_6 0:0
getattr_7 0:0
getattr_8 0:0
getattr_0 1
getattr_9 1
getattr_null_value 1
getattr_null_pool 1
setattr_null_value crash
setattr_null_pool 1
setattr_threshold 0
getattr_threshold (0, 1048576)
setattr_reuse_2 0
getattr_reuse_after_2 (0, 1)
setattr_reuse_0 0
getattr_reuse_after_0 (0, 0)
setattr_reuse_neg 0
getattr_reuse_after_neg (0, 1)
setattr_reserved_current 1
setattr_used_current 1
setattr_reserved_high_5 1
setattr_reserved_high_0 0
setattr_used_high_5 1
setattr_used_high_0 0
setattr_0 1
setattr_9 1
alloc_zero 0
alloc_zero_ptr 0
alloc_null_out 1
alloc_bad_stream crash
alloc_huge 2
alloc_1 0 off=0 mod512=0 reserved=33554432 used=1
alloc_1 0 off=512 mod512=0 reserved=33554432 used=2
alloc_100 0 off=1024 mod512=0 reserved=33554432 used=102
alloc_1000 0 off=1536 mod512=0 reserved=33554432 used=1102
alloc_4096 0 off=2560 mod512=0 reserved=33554432 used=5198
alloc_1048576 0 off=6656 mod512=0 reserved=33554432 used=1053774
alloc_3145728 0 off=1055232 mod512=0 reserved=33554432 used=4199502
alloc_34603008 0 off=4200960 mod512=0 reserved=67108864 used=38802510
alloc_1 0 off=38803968 mod512=0 reserved=67108864 used=38802511
high_after_allocs reserved_high=67108864 used_high=38802511
ptrattr_pool 0:1
ptrattr_ctx 0:0
ptrattr_range_start 0:0
ptrattr_range_size 0:1048576
ptrattr_memtype 0:2
addr_range 0:0:100
free_interior 1
free_host 1
free_zero 0
after_free_nosync reserved=67108864 used=0
after_free_sync reserved=0 used=0
high_after_free reserved_high=67108864 used_high=38802511
reset_used_high 0
used_high_after_reset 0
reset_with_live 0 0
high_after_reset_live reserved_high=33554432 used_high=1048576 used=1048576 reserved=33554432
memfree_pool_ptr 0
freeasync_memalloc_ptr 0
threshold_max_after_sync 33554432
reuse_after_sync_same 1
trim_live 0
trim_live_reserved 33554432
trim_0 0
trim_0_reserved 0
trim_null 1
trim_before 134217728
trim_keep_40M 67108864
create_ok 0
create_posix_fd 0
create_win32 1
create_fabric 0
create_handles_16 1
create_alloc_0 1
create_alloc_2 0
create_loc_0 1
create_loc_host 0
create_loc_host_numa 0
create_loc_host_numa_current 1
create_loc_9 1
create_dev_99 1
create_dev_neg 1
create_reserved 1
create_max_2M 0
create_max_2M_alloc_1M 0
create_max_2M_alloc_4M 0
create_max_2M_alloc_1M_more 0
create_max_2M_reserved 33554432
destroy_max_2M 0
create_max_1 0
create_max_1_alloc_1M 0
create_max_1_alloc_4M 0
create_max_1_alloc_1M_more 0
create_max_1_reserved 33554432
destroy_max_1 0
create_null_props 1
create_null_out 1
created_getattr_1 0:1
created_getattr_2 0:1
created_getattr_3 0:1
created_getattr_4 0:0
created_getattr_5 0:0
created_getattr_6 0:0
created_getattr_7 0:0
created_getattr_8 0:0
from_pool_null 1
from_pool_zero 0
from_pool_ok 0
from_pool_ptrattr 1
created_used 1000
setmempool_ok 0
getmempool_is_mine 1
allocasync_from_current 1
setmempool_bad_dev 1
setmempool_null 1
destroy_default 1
destroy_null 1
setaccess_own_rw 0
setaccess_own_read 801
setaccess_own_none 101
setaccess_dev_99 101
setaccess_host 801
setaccess_flags_7 1
setaccess_loc_0 801
setaccess_count0 0
setaccess_nullmap 1
setaccess_nullpool 1
getaccess_own 0:3
getaccess_dev_99 1:-1
getaccess_host 0:0
getaccess_nullloc 1
getaccess_nullflags 1
getaccess_default 0:3
memgetdefault_dev_pinned 0:1
memgetpool_dev_pinned 0:0:1
memgetdefault_dev_managed 0:0
memgetpool_dev_managed 0:0:0
memgetdefault_host_pinned 0:0
memgetpool_host_pinned 0:0:0
memgetdefault_none_managed 0:0
memgetpool_none_managed 0:0:0
memgetdefault_dev_type0 1:0
memgetpool_dev_type0 1:0:0
memgetdefault_dev99_pinned 1:0
memgetpool_dev99_pinned 1:0:0
memgetdefault_host_numa_pinned 0:0
memgetpool_host_numa_pinned 0:0:0
memgetdefault_nullloc 1
memsetpool_ok 0
memsetpool_managed 1
memsetpool_host_mismatch 1
destroy_current 0
after_destroy_current_is_default 1
destroy_outstanding 0
free_after_destroy crash
sync_after_destroy crash
policy_same_stream_pending 0 reused=0 s2_query=0 reserved=67108864
policy_no_internal 0 reused=0 s2_query=0 reserved=67108864
policy_event_no_internal 0 reused=1 s2_query=600 reserved=33554432
policy_event_no_internal_no_follow 0 reused=0 s2_query=600 reserved=67108864
policy_done_no_internal 0 reused=1 s2_query=0 reserved=33554432
policy_done_no_internal_no_opport 0 reused=0 s2_query=0 reserved=67108864
policy_synced_no_internal_no_opport 0 reused=1 s2_query=0 reserved=33554432
same_stream_reuse_pending 1
small_after_big off=33554432 reserved=67108864
double_free 1
sync_end 0
""".strip().splitlines())
OURS = {
    "devattr_119": ("0:1", "shareable pools as POSIX file descriptors only: no fabric handles here"),
    "setattr_null_value": ("1", "NVIDIA's driver crashed"),
    "alloc_bad_stream": ("400", "NVIDIA's driver crashed; ours checks every handle"),
    "create_fabric": ("801", "fabric handles: not supported"),
    "free_after_destroy": ("0", "NVIDIA's driver crashed; ours frees the block of the destroyed pool"),
    "sync_after_destroy": ("0", "NVIDIA's driver crashed"),
}
# Cases whose values depend on the chunk layout: compared without the offset.
LAYOUT = {"alloc_34603008", "alloc_1", "high_after_allocs", "after_free_nosync", "high_after_free", "small_after_big"}
import ctypes, sys, time
from ctypes import c_int, c_uint, c_size_t, c_uint64, c_void_p, byref, POINTER, Structure, CFUNCTYPE
cu = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "libcuda.so.1")
class Loc(Structure): _fields_ = [("type", c_int), ("id", c_int)]
class Props(Structure): _fields_ = [("allocType", c_int), ("handleTypes", c_int), ("location", Loc), ("win32", c_void_p), ("maxSize", c_size_t), ("usage", ctypes.c_ushort), ("reserved", ctypes.c_ubyte * 54)]
class Access(Structure): _fields_ = [("location", Loc), ("flags", c_int)]
assert ctypes.sizeof(Props) == 88, ctypes.sizeof(Props)
got = {}
def P(name, v):
    got[name] = str(v)
def R(name, thunk):
    """A case NULL or garbage arguments: NVIDIA's driver crashed on some (listed in OURS)."""
    v = thunk(); P(name, v); return v
U64 = c_uint64
cu.cuInit(0)
dev = c_int(); cu.cuDeviceGet(byref(dev), 0)
ctx = c_void_p(); cu.cuDevicePrimaryCtxRetain(byref(ctx), dev); cu.cuCtxSetCurrent(ctx)
for a in (115, 119):
    x = c_int(); r = cu.cuDeviceGetAttribute(byref(x), a, dev); P(f"devattr_{a}", f"{r}:{x.value}")
cu.cuMemAllocAsync.argtypes = [POINTER(U64), c_size_t, c_void_p]
cu.cuMemAllocFromPoolAsync.argtypes = [POINTER(U64), c_size_t, c_void_p, c_void_p]
cu.cuMemFreeAsync.argtypes = [U64, c_void_p]
cu.cuMemPoolTrimTo.argtypes = [c_void_p, c_size_t]
cu.cuMemPoolSetAttribute.argtypes = [c_void_p, c_int, c_void_p]
cu.cuMemPoolGetAttribute.argtypes = [c_void_p, c_int, c_void_p]
cu.cuMemPoolSetAccess.argtypes = [c_void_p, c_void_p, c_size_t]
cu.cuMemPoolGetAccess.argtypes = [POINTER(c_int), c_void_p, c_void_p]
cu.cuMemPoolCreate.argtypes = [POINTER(c_void_p), c_void_p]
cu.cuMemPoolDestroy.argtypes = [c_void_p]
cu.cuDeviceSetMemPool.argtypes = [c_int, c_void_p]
cu.cuStreamSynchronize.argtypes = [c_void_p]
cu.cuStreamQuery.argtypes = [c_void_p]
cu.cuStreamWaitEvent.argtypes = [c_void_p, c_void_p, c_uint]
cu.cuEventRecord.argtypes = [c_void_p, c_void_p]
cu.cuPointerGetAttribute.argtypes = [c_void_p, c_int, U64]
cu.cuMemGetAddressRange_v2.argtypes = [POINTER(U64), POINTER(c_size_t), U64]
cu.cuMemFree_v2.argtypes = [U64]
cu.cuMemGetDefaultMemPool.argtypes = [POINTER(c_void_p), c_void_p, c_int]
cu.cuMemGetMemPool.argtypes = [POINTER(c_void_p), c_void_p, c_int]
cu.cuMemSetMemPool.argtypes = [c_void_p, c_int, c_void_p]
HOSTFN = CFUNCTYPE(None, c_void_p)
def sleeper(_): time.sleep(0.4)
sleep_fn = HOSTFN(sleeper)
cu.cuLaunchHostFunc.argtypes = [c_void_p, HOSTFN, c_void_p]

pool = c_void_p()
R("default_null_out", lambda: cu.cuDeviceGetDefaultMemPool(None, 0))
P("default_bad_device", cu.cuDeviceGetDefaultMemPool(byref(pool), 99))
P("default_ok", cu.cuDeviceGetDefaultMemPool(byref(pool), 0))
dflt = pool.value
cur = c_void_p(); P("getmempool_ok", cu.cuDeviceGetMemPool(byref(cur), 0)); P("getmempool_is_default", int(cur.value == dflt))
P("getmempool_bad_device", cu.cuDeviceGetMemPool(byref(cur), 99))
def ga(p, a):
    x = U64(0); r = cu.cuMemPoolGetAttribute(p, a, byref(x)); return r, x.value
def gi(p, a):
    x = c_int(-7); r = cu.cuMemPoolGetAttribute(p, a, byref(x)); return r, x.value
def sa(p, a, val, ty=U64):
    x = ty(val); return cu.cuMemPoolSetAttribute(p, a, byref(x))
for a in (1, 2, 3):
    P(f"getattr_{a}", "%d:%d" % gi(dflt, a))
for a in (4, 5, 6, 7, 8):
    P(f"getattr_{a}", "%d:%d" % ga(dflt, a))
P("getattr_0", ga(dflt, 0)[0]); P("getattr_9", ga(dflt, 9)[0])
R("getattr_null_value", lambda: cu.cuMemPoolGetAttribute(dflt, 4, None))
R("getattr_null_pool", lambda: ga(None, 4)[0])
R("setattr_null_value", lambda: cu.cuMemPoolSetAttribute(dflt, 4, None))
R("setattr_null_pool", lambda: sa(None, 4, 0))
P("setattr_threshold", sa(dflt, 4, 1 << 20)); P("getattr_threshold", ga(dflt, 4))
P("setattr_reuse_2", sa(dflt, 1, 2, c_int)); P("getattr_reuse_after_2", gi(dflt, 1))
P("setattr_reuse_0", sa(dflt, 1, 0, c_int)); P("getattr_reuse_after_0", gi(dflt, 1)); sa(dflt, 1, 1, c_int)
P("setattr_reuse_neg", sa(dflt, 2, -1, c_int)); P("getattr_reuse_after_neg", gi(dflt, 2)); sa(dflt, 2, 1, c_int)
P("setattr_reserved_current", sa(dflt, 5, 0)); P("setattr_used_current", sa(dflt, 7, 0))
P("setattr_reserved_high_5", sa(dflt, 6, 5)); P("setattr_reserved_high_0", sa(dflt, 6, 0))
P("setattr_used_high_5", sa(dflt, 8, 5)); P("setattr_used_high_0", sa(dflt, 8, 0))
P("setattr_0", sa(dflt, 0, 0)); P("setattr_9", sa(dflt, 9, 0))
sa(dflt, 4, 0)

s1 = c_void_p(); s2 = c_void_p(); cu.cuStreamCreate(byref(s1), 1); cu.cuStreamCreate(byref(s2), 1)
p = U64(12345)
P("alloc_zero", cu.cuMemAllocAsync(byref(p), 0, s1)); P("alloc_zero_ptr", p.value)
R("alloc_null_out", lambda: cu.cuMemAllocAsync(None, 16, s1))
R("alloc_bad_stream", lambda: cu.cuMemAllocAsync(byref(p), 16, c_void_p(0x1234)))
P("alloc_huge", cu.cuMemAllocAsync(byref(p), 1 << 50, s1))
ptrs = []
for n in (1, 1, 100, 1000, 4096, 1 << 20, 3 << 20, 33 << 20, 1):
    q = U64(); r = cu.cuMemAllocAsync(byref(q), n, s1)
    base = ptrs[0] if ptrs else q.value
    ptrs.append(q.value)
    P(f"alloc_{n}", "%d off=%d mod512=%d reserved=%d used=%d" % (r, q.value - base, q.value % 512, ga(dflt, 5)[1], ga(dflt, 7)[1]))
P("high_after_allocs", "reserved_high=%d used_high=%d" % (ga(dflt, 6)[1], ga(dflt, 8)[1]))
# pointer attributes
x = c_void_p(); P("ptrattr_pool", "%d:%d" % (cu.cuPointerGetAttribute(byref(x), 17, ptrs[5]), int(x.value == dflt)))
x = c_void_p(); P("ptrattr_ctx", "%d:%d" % (cu.cuPointerGetAttribute(byref(x), 1, ptrs[5]), int(x.value == ctx.value)))
x = U64(); r = cu.cuPointerGetAttribute(byref(x), 11, ptrs[5] + 10); P("ptrattr_range_start", "%d:%d" % (r, x.value - ptrs[5]))
x = U64(); r = cu.cuPointerGetAttribute(byref(x), 12, ptrs[5] + 10); P("ptrattr_range_size", "%d:%d" % (r, x.value))
x = c_int(); r = cu.cuPointerGetAttribute(byref(x), 2, ptrs[5]); P("ptrattr_memtype", "%d:%d" % (r, x.value))
b = U64(); sz = c_size_t(); r = cu.cuMemGetAddressRange_v2(byref(b), byref(sz), ptrs[2] + 3); P("addr_range", "%d:%d:%d" % (r, b.value - ptrs[2], sz.value))
R("free_interior", lambda: cu.cuMemFreeAsync(ptrs[5] + 16, s1))
hostbuf = ctypes.create_string_buffer(64)
R("free_host", lambda: cu.cuMemFreeAsync(ctypes.addressof(hostbuf), s1))
P("free_zero", cu.cuMemFreeAsync(0, s1))
for q in ptrs:
    cu.cuMemFreeAsync(q, s1)
P("after_free_nosync", "reserved=%d used=%d" % (ga(dflt, 5)[1], ga(dflt, 7)[1]))
cu.cuStreamSynchronize(s1)
P("after_free_sync", "reserved=%d used=%d" % (ga(dflt, 5)[1], ga(dflt, 7)[1]))
P("high_after_free", "reserved_high=%d used_high=%d" % (ga(dflt, 6)[1], ga(dflt, 8)[1]))
P("reset_used_high", sa(dflt, 8, 0)); P("used_high_after_reset", ga(dflt, 8)[1])
q = U64(); cu.cuMemAllocAsync(byref(q), 1 << 20, s1)
P("reset_with_live", "%d %d" % (sa(dflt, 8, 0), sa(dflt, 6, 0)))
P("high_after_reset_live", "reserved_high=%d used_high=%d used=%d reserved=%d" % (ga(dflt, 6)[1], ga(dflt, 8)[1], ga(dflt, 7)[1], ga(dflt, 5)[1]))
cu.cuMemFreeAsync(q, s1); cu.cuStreamSynchronize(s1)
# cuMemFree of a pool pointer, cuMemFreeAsync of a cuMemAlloc pointer
q = U64(); cu.cuMemAllocAsync(byref(q), 4096, s1); P("memfree_pool_ptr", cu.cuMemFree_v2(q.value))
q = U64(); cu.cuMemAlloc_v2(byref(q), c_size_t(4096)); P("freeasync_memalloc_ptr", cu.cuMemFreeAsync(q.value, s1)); cu.cuStreamSynchronize(s1)
# threshold: reserved kept over syncs
sa(dflt, 4, (1 << 64) - 1)
q = U64(); cu.cuMemAllocAsync(byref(q), 1 << 20, s1); cu.cuMemFreeAsync(q, s1); cu.cuStreamSynchronize(s1)
P("threshold_max_after_sync", ga(dflt, 5)[1])
q2 = U64(); cu.cuMemAllocAsync(byref(q2), 1 << 20, s1); P("reuse_after_sync_same", int(q2.value == q.value))
P("trim_live", cu.cuMemPoolTrimTo(dflt, 0)); P("trim_live_reserved", ga(dflt, 5)[1])
cu.cuMemFreeAsync(q2, s1); cu.cuStreamSynchronize(s1)
P("trim_0", cu.cuMemPoolTrimTo(dflt, 0)); P("trim_0_reserved", ga(dflt, 5)[1])
R("trim_null", lambda: cu.cuMemPoolTrimTo(None, 0))
# trim keeping some
qs = []
for i in range(4):
    q = U64(); cu.cuMemAllocAsync(byref(q), 32 << 20, s1); qs.append(q.value)
for q in qs: cu.cuMemFreeAsync(q, s1)
cu.cuStreamSynchronize(s1)
P("trim_before", ga(dflt, 5)[1]); cu.cuMemPoolTrimTo(dflt, 40 << 20); P("trim_keep_40M", ga(dflt, 5)[1])
cu.cuMemPoolTrimTo(dflt, 0)
sa(dflt, 4, 0)

def props(alloc=1, handles=0, lt=1, lid=0, maxsize=0, res0=0):
    p = Props(); p.allocType = alloc; p.handleTypes = handles; p.location = Loc(lt, lid); p.maxSize = maxsize; p.reserved[0] = res0; return p
def create(**kw):
    pl = c_void_p(); r = cu.cuMemPoolCreate(byref(pl), byref(props(**kw))); return r, pl.value
for name, kw in [("ok", {}), ("posix_fd", {"handles": 1}), ("win32", {"handles": 2}), ("fabric", {"handles": 8}), ("handles_16", {"handles": 16}),
                 ("alloc_0", {"alloc": 0}), ("alloc_2", {"alloc": 2}), ("loc_0", {"lt": 0}), ("loc_host", {"lt": 2}), ("loc_host_numa", {"lt": 3}),
                 ("loc_host_numa_current", {"lt": 4}), ("loc_9", {"lt": 9}), ("dev_99", {"lid": 99}), ("dev_neg", {"lid": -1}), ("reserved", {"res0": 1}),
                 ("max_2M", {"maxsize": 2 << 20}), ("max_1", {"maxsize": 1})]:
    r, pl = create(**kw); P(f"create_{name}", r)
    if r == 0 and name not in ("ok",):
        if name.startswith("max"):
            q = U64(); P(f"create_{name}_alloc_1M", cu.cuMemAllocFromPoolAsync(byref(q), 1 << 20, pl, s1))
            q2 = U64(); P(f"create_{name}_alloc_4M", cu.cuMemAllocFromPoolAsync(byref(q2), 4 << 20, pl, s1))
            q3 = U64(); P(f"create_{name}_alloc_1M_more", cu.cuMemAllocFromPoolAsync(byref(q3), 1 << 20, pl, s1))
            P(f"create_{name}_reserved", ga(pl, 5)[1])
            for qq in (q, q2, q3):
                if qq.value: cu.cuMemFreeAsync(qq, s1)
            cu.cuStreamSynchronize(s1)
        P(f"destroy_{name}", cu.cuMemPoolDestroy(pl))
R("create_null_props", lambda: cu.cuMemPoolCreate(byref(c_void_p()), None))
R("create_null_out", lambda: cu.cuMemPoolCreate(None, byref(props())))
r, mine = create()
for a in (1, 2, 3):
    P(f"created_getattr_{a}", "%d:%d" % gi(mine, a))
for a in (4, 5, 6, 7, 8):
    P(f"created_getattr_{a}", "%d:%d" % ga(mine, a))
q = U64(); R("from_pool_null", lambda: cu.cuMemAllocFromPoolAsync(byref(q), 16, None, s1))
P("from_pool_zero", cu.cuMemAllocFromPoolAsync(byref(q), 0, mine, s1))
P("from_pool_ok", cu.cuMemAllocFromPoolAsync(byref(q), 1000, mine, s1))
x = c_void_p(); cu.cuPointerGetAttribute(byref(x), 17, q.value); P("from_pool_ptrattr", int(x.value == mine))
P("created_used", ga(mine, 7)[1]); cu.cuMemFreeAsync(q, s1); cu.cuStreamSynchronize(s1)
P("setmempool_ok", cu.cuDeviceSetMemPool(0, mine))
cur = c_void_p(); cu.cuDeviceGetMemPool(byref(cur), 0); P("getmempool_is_mine", int(cur.value == mine))
q = U64(); cu.cuMemAllocAsync(byref(q), 64, s1); x = c_void_p(); cu.cuPointerGetAttribute(byref(x), 17, q.value); P("allocasync_from_current", int(x.value == mine))
cu.cuMemFreeAsync(q, s1)
P("setmempool_bad_dev", cu.cuDeviceSetMemPool(99, mine)); R("setmempool_null", lambda: cu.cuDeviceSetMemPool(0, None))
R("destroy_default", lambda: cu.cuMemPoolDestroy(dflt)); R("destroy_null", lambda: cu.cuMemPoolDestroy(None))
# access
def acc(lt, lid, fl): return Access(Loc(lt, lid), fl)
for name, d in [("own_rw", acc(1, 0, 3)), ("own_read", acc(1, 0, 1)), ("own_none", acc(1, 0, 0)), ("dev_99", acc(1, 99, 3)), ("host", acc(2, 0, 3)), ("flags_7", acc(1, 0, 7)), ("loc_0", acc(0, 0, 3))]:
    P(f"setaccess_{name}", cu.cuMemPoolSetAccess(mine, byref(d), 1))
d = acc(1, 0, 3)
P("setaccess_count0", cu.cuMemPoolSetAccess(mine, byref(d), 0)); R("setaccess_nullmap", lambda: cu.cuMemPoolSetAccess(mine, None, 1))
R("setaccess_nullpool", lambda: cu.cuMemPoolSetAccess(None, byref(d), 1))
fl = c_int(-1); l = Loc(1, 0); P("getaccess_own", "%d:%d" % (cu.cuMemPoolGetAccess(byref(fl), mine, byref(l)), fl.value))
fl = c_int(-1); l = Loc(1, 99); P("getaccess_dev_99", "%d:%d" % (cu.cuMemPoolGetAccess(byref(fl), mine, byref(l)), fl.value))
fl = c_int(-1); l = Loc(2, 0); P("getaccess_host", "%d:%d" % (cu.cuMemPoolGetAccess(byref(fl), mine, byref(l)), fl.value))
fl = c_int(-1); R("getaccess_nullloc", lambda: cu.cuMemPoolGetAccess(byref(fl), mine, None))
l = Loc(1, 0); R("getaccess_nullflags", lambda: cu.cuMemPoolGetAccess(None, mine, byref(l)))
fl = c_int(-1); l = Loc(1, 0); P("getaccess_default", "%d:%d" % (cu.cuMemPoolGetAccess(byref(fl), dflt, byref(l)), fl.value))
# CUDA 13 location-based calls
for name, lt, lid, ty in [("dev_pinned", 1, 0, 1), ("dev_managed", 1, 0, 2), ("host_pinned", 2, 0, 1), ("none_managed", 0, 0, 2), ("dev_type0", 1, 0, 0), ("dev99_pinned", 1, 99, 1), ("host_numa_pinned", 3, 0, 1)]:
    l = Loc(lt, lid); pl = c_void_p(); r = cu.cuMemGetDefaultMemPool(byref(pl), byref(l), ty); P(f"memgetdefault_{name}", "%d:%d" % (r, int(pl.value == dflt)))
    pl = c_void_p(); r = cu.cuMemGetMemPool(byref(pl), byref(l), ty); P(f"memgetpool_{name}", "%d:%d:%d" % (r, int(pl.value == dflt), int(pl.value == mine)))
l = Loc(1, 0); R("memgetdefault_nullloc", lambda: cu.cuMemGetDefaultMemPool(byref(c_void_p()), None, 1))
P("memsetpool_ok", cu.cuMemSetMemPool(byref(l), 1, dflt))
P("memsetpool_managed", cu.cuMemSetMemPool(byref(l), 2, mine))
l2 = Loc(2, 0); P("memsetpool_host_mismatch", cu.cuMemSetMemPool(byref(l2), 1, mine))
cu.cuDeviceSetMemPool(0, mine)
P("destroy_current", cu.cuMemPoolDestroy(mine)); cur = c_void_p(); cu.cuDeviceGetMemPool(byref(cur), 0); P("after_destroy_current_is_default", int(cur.value == dflt))
# destroy with an outstanding allocation
r, pl = create(); q = U64(); cu.cuMemAllocFromPoolAsync(byref(q), 4096, pl, s1); cu.cuStreamSynchronize(s1)
R("destroy_outstanding", lambda: cu.cuMemPoolDestroy(pl)); R("free_after_destroy", lambda: cu.cuMemFreeAsync(q, s1)); R("sync_after_destroy", lambda: cu.cuStreamSynchronize(s1))
# reuse policies: pending work on s1 (host function sleeping), a 32 MiB block freed on s1
def policy(name, follow=1, opport=1, internal=1, event=False, pend=True, sync_first=False):
    r, pl = create(); sa(pl, 4, (1 << 64) - 1)
    sa(pl, 1, follow, c_int); sa(pl, 2, opport, c_int); sa(pl, 3, internal, c_int)
    a = U64(); cu.cuMemAllocFromPoolAsync(byref(a), 32 << 20, pl, s1)
    cu.cuStreamSynchronize(s1)
    if pend: cu.cuLaunchHostFunc(s1, sleep_fn, None)
    cu.cuMemFreeAsync(a, s1)
    if event:
        ev = c_void_p(); cu.cuEventCreate(byref(ev), 2); cu.cuEventRecord(ev, s1); cu.cuStreamWaitEvent(s2, ev, 0)
    if sync_first: cu.cuStreamSynchronize(s1)
    elif not pend: time.sleep(0.05)
    b = U64(); rr = cu.cuMemAllocFromPoolAsync(byref(b), 32 << 20, pl, s2)
    qry = cu.cuStreamQuery(s2)
    P(f"policy_{name}", "%d reused=%d s2_query=%d reserved=%d" % (rr, int(a.value == b.value), qry, ga(pl, 5)[1]))
    cu.cuMemFreeAsync(b, s2); cu.cuStreamSynchronize(s1); cu.cuStreamSynchronize(s2); cu.cuMemPoolDestroy(pl)
policy("same_stream_pending")  # placeholder name: cross-stream, all defaults
policy("no_internal", internal=0)
policy("event_no_internal", internal=0, event=True)
policy("event_no_internal_no_follow", internal=0, follow=0, event=True)
policy("done_no_internal", internal=0, pend=False)
policy("done_no_internal_no_opport", internal=0, opport=0, pend=False)
policy("synced_no_internal_no_opport", internal=0, opport=0, pend=False, sync_first=True)
# same stream reuse with pending work
r, pl = create(); sa(pl, 4, (1 << 64) - 1); sa(pl, 3, 0, c_int); sa(pl, 2, 0, c_int)
a = U64(); cu.cuMemAllocFromPoolAsync(byref(a), 32 << 20, pl, s1); cu.cuLaunchHostFunc(s1, sleep_fn, None); cu.cuMemFreeAsync(a, s1)
b = U64(); cu.cuMemAllocFromPoolAsync(byref(b), 32 << 20, pl, s1); P("same_stream_reuse_pending", int(a.value == b.value))
c = U64(); cu.cuMemAllocFromPoolAsync(byref(c), 1 << 20, pl, s1); P("small_after_big", "off=%d reserved=%d" % (c.value - b.value, ga(pl, 5)[1]))
cu.cuMemFreeAsync(b, s1); cu.cuMemFreeAsync(c, s1); cu.cuStreamSynchronize(s1); cu.cuMemPoolDestroy(pl)
# double free last
q = U64(); cu.cuMemAllocAsync(byref(q), 4096, s1); cu.cuMemFreeAsync(q, s1)
R("double_free", lambda: cu.cuMemFreeAsync(q, s1)); R("sync_end", lambda: cu.cuStreamSynchronize(s1))

import re
def strip_layout(v):
    return re.sub(r"(off|reserved|reserved_high)=-?\d+ ?", "", v).strip()
bad = []
for case, want in NVIDIA.items():
    if case in OURS:
        want = OURS[case][0]
    have = got.get(case)
    if case in LAYOUT and have is not None:
        have, want = strip_layout(have), strip_layout(want)
    if have != want:
        bad.append(f"{case}: got {have}, want {want}")
for case in got:
    if case not in NVIDIA and not case.startswith("destroy_"):
        bad.append(f"{case}: not in the reference")
if bad:
    print("\n".join(bad))
    print("FAIL mempool_misuse")
    sys.exit(1)
print("PASS mempool_misuse")
