# Virtual memory management misuse: each case's CUresult against the one NVIDIA's driver
# returned (H200, driver 580.159.04, CUDA 13.0 driver API, 2026-11-27). Runs on whichever
# libcuda.so.1 the loader finds (ours through LD_LIBRARY_PATH, or NVIDIA's on a GPU machine);
# exits 1 listing the cases that differ. Granularities are queried, so sizes fit both.
import ctypes, sys
NVIDIA = dict(line.split() for line in """
granularity_ok 0
granularity_bad_device 0
granularity_bad_option 1
reserve_ok 0
reserve_unaligned_size 1
reserve_zero 1
reserve_alignment_not_pow2 1
create_ok 0
create_unaligned 1
create_flags 1
create_bad_device 101
map_ok 0
map_again_same_range 1
map_offset_past_end 801
map_flags 1
map_outside_reservation 801
set_access_ok 0
set_access_unmapped 1
set_access_bad_flags 1
set_access_count0 1
get_access_ok 0
get_access_value 3
get_access_unmapped 1
memcpy_mapped 0
memcpy_unmapped 1
memset_mapped 0
retain_ok 0
retain_release 0
retain_unmapped 1
export_not_requested 1
unmap_part 1
address_free_mapped 1
release_mapped 0
unmap_ok 0
unmap_again 0
address_free_wrong_size 1
address_free_ok 0
address_free_again 1
release_zero 1
""".strip().splitlines())
got = {}
from ctypes import c_int, c_uint, c_size_t, c_uint64, c_void_p, byref, POINTER, Structure
cu = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "libcuda.so.1")
class Loc(Structure): _fields_ = [("type", c_int), ("id", c_int)]
class Flags(Structure): _fields_ = [("compressionType", ctypes.c_ubyte), ("rdma", ctypes.c_ubyte), ("usage", ctypes.c_ushort), ("reserved", ctypes.c_ubyte * 4)]
class Prop(Structure): _fields_ = [("type", c_int), ("handleTypes", c_int), ("location", Loc), ("win32", c_void_p), ("allocFlags", Flags)]
class Access(Structure): _fields_ = [("location", Loc), ("flags", c_int)]
for f in ["cuMemAddressReserve", "cuMemCreate", "cuMemMap", "cuMemSetAccess", "cuMemUnmap", "cuMemRelease", "cuMemAddressFree", "cuMemGetAllocationGranularity", "cuMemRetainAllocationHandle", "cuMemGetAccess", "cuMemExportToShareableHandle", "cuMemcpyHtoD_v2", "cuMemsetD8_v2"]:
    getattr(cu, f).restype = c_int
cu.cuMemAddressReserve.argtypes = [POINTER(c_uint64), c_size_t, c_size_t, c_uint64, c_uint64]
cu.cuMemCreate.argtypes = [POINTER(c_uint64), c_size_t, POINTER(Prop), c_uint64]
cu.cuMemMap.argtypes = [c_uint64, c_size_t, c_size_t, c_uint64, c_uint64]
cu.cuMemSetAccess.argtypes = [c_uint64, c_size_t, POINTER(Access), c_size_t]
cu.cuMemUnmap.argtypes = [c_uint64, c_size_t]
cu.cuMemRelease.argtypes = [c_uint64]
cu.cuMemAddressFree.argtypes = [c_uint64, c_size_t]
cu.cuMemGetAllocationGranularity.argtypes = [POINTER(c_size_t), POINTER(Prop), c_int]
cu.cuMemRetainAllocationHandle.argtypes = [POINTER(c_uint64), c_void_p]
cu.cuMemGetAccess.argtypes = [POINTER(c_uint64), POINTER(Loc), c_uint64]
cu.cuMemExportToShareableHandle.argtypes = [c_void_p, c_uint64, c_int, c_uint64]
cu.cuMemcpyHtoD_v2.argtypes = [c_uint64, c_void_p, c_size_t]
cu.cuMemsetD8_v2.argtypes = [c_uint64, ctypes.c_ubyte, c_size_t]
cu.cuInit(0)
dev = c_int(); cu.cuDeviceGet(byref(dev), 0)
ctx = c_void_p(); cu.cuDevicePrimaryCtxRetain(byref(ctx), dev); cu.cuCtxSetCurrent(ctx)
def prop(handles=0, dev_id=0):
    p = Prop(); p.type = 1; p.handleTypes = handles; p.location = Loc(1, dev_id); return p
g = c_size_t(); r = cu.cuMemGetAllocationGranularity(byref(g), byref(prop()), 0)
G = g.value
def case(name, code):
    got[name] = str(code)
case("granularity_ok", r)
gg = c_size_t(); case("granularity_bad_device", cu.cuMemGetAllocationGranularity(byref(gg), byref(prop(dev_id=99)), 0))
case("granularity_bad_option", cu.cuMemGetAllocationGranularity(byref(gg), byref(prop()), 7))
va = c_uint64(); case("reserve_ok", cu.cuMemAddressReserve(byref(va), 4 * G, 0, 0, 0))
v2 = c_uint64(); case("reserve_unaligned_size", cu.cuMemAddressReserve(byref(v2), G + 1, 0, 0, 0))
v3 = c_uint64(); case("reserve_zero", cu.cuMemAddressReserve(byref(v3), 0, 0, 0, 0))
v4 = c_uint64(); case("reserve_alignment_not_pow2", cu.cuMemAddressReserve(byref(v4), G, 3 * G, 0, 0))
h = c_uint64(); case("create_ok", cu.cuMemCreate(byref(h), 2 * G, byref(prop()), 0))
h2 = c_uint64(); case("create_unaligned", cu.cuMemCreate(byref(h2), G + 1, byref(prop()), 0))
h3 = c_uint64(); case("create_flags", cu.cuMemCreate(byref(h3), G, byref(prop()), 1))
h4 = c_uint64(); case("create_bad_device", cu.cuMemCreate(byref(h4), G, byref(prop(dev_id=99)), 0))
case("map_ok", cu.cuMemMap(va.value, 2 * G, 0, h.value, 0))
case("map_again_same_range", cu.cuMemMap(va.value, 2 * G, 0, h.value, 0))
case("map_offset_past_end", cu.cuMemMap(va.value + 2 * G, 2 * G, G, h.value, 0))
case("map_flags", cu.cuMemMap(va.value + 2 * G, G, 0, h.value, 1))
case("map_outside_reservation", cu.cuMemMap(0x10000000000, G, 0, h.value, 0))
acc = Access(Loc(1, 0), 3)
case("set_access_ok", cu.cuMemSetAccess(va.value, 2 * G, byref(acc), 1))
case("set_access_unmapped", cu.cuMemSetAccess(va.value + 2 * G, G, byref(acc), 1))
bad = Access(Loc(1, 0), 2)
case("set_access_bad_flags", cu.cuMemSetAccess(va.value, 2 * G, byref(bad), 1))
case("set_access_count0", cu.cuMemSetAccess(va.value, 2 * G, byref(acc), 0))
f = c_uint64(); case("get_access_ok", cu.cuMemGetAccess(byref(f), byref(Loc(1, 0)), va.value)); case("get_access_value", f.value)
case("get_access_unmapped", cu.cuMemGetAccess(byref(f), byref(Loc(1, 0)), va.value + 3 * G))
buf = ctypes.create_string_buffer(64)
case("memcpy_mapped", cu.cuMemcpyHtoD_v2(va.value, buf, 64))
case("memcpy_unmapped", cu.cuMemcpyHtoD_v2(va.value + 3 * G, buf, 64))
case("memset_mapped", cu.cuMemsetD8_v2(va.value, 1, 2 * G))
rh = c_uint64(); case("retain_ok", cu.cuMemRetainAllocationHandle(byref(rh), c_void_p(va.value)))
case("retain_release", cu.cuMemRelease(rh.value))
case("retain_unmapped", cu.cuMemRetainAllocationHandle(byref(rh), c_void_p(va.value + 3 * G)))
fd = c_int(-1); case("export_not_requested", cu.cuMemExportToShareableHandle(byref(fd), h.value, 1, 0))
case("unmap_part", cu.cuMemUnmap(va.value, G))
case("address_free_mapped", cu.cuMemAddressFree(va.value, 4 * G))
case("release_mapped", cu.cuMemRelease(h.value))
case("unmap_ok", cu.cuMemUnmap(va.value, 2 * G))
case("unmap_again", cu.cuMemUnmap(va.value, 2 * G))
case("address_free_wrong_size", cu.cuMemAddressFree(va.value, 2 * G))
case("address_free_ok", cu.cuMemAddressFree(va.value, 4 * G))
case("address_free_again", cu.cuMemAddressFree(va.value, 4 * G))
case("release_zero", cu.cuMemRelease(0))
bad = [f"{k}: got {got.get(k)}, NVIDIA {v}" for k, v in NVIDIA.items() if got.get(k) != v]
print("\n".join(bad) if bad else f"all {len(NVIDIA)} cases as NVIDIA's driver\nPASS vmm_misuse")
sys.exit(1 if bad else 0)
