//! Managed memory (`cuMemAllocManaged`) on AMD GPUs: fine-grained system memory.
//!
//! CUDA's managed memory is one pointer that the host and the device's kernels both
//! dereference (CUDA Programming Guide, "Unified Memory Programming"). Without page
//! migration (ROCr's HMM/XNACK path, which needs XNACK-capable GPUs and a kernel that
//! enables it; not used here), the exact equivalent ROCr offers is the CPU agent's
//! fine-grained global pool (`HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED`): ordinary
//! host memory, coherent with the GPU at the system scope our dispatch packets acquire and
//! release, which a GPU agent reaches once `hsa_amd_agents_allow_access` grants it (ROCr
//! reports system pools as `HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT` for GPU
//! agents; hsa_ext_amd.h: a fine-grained pool is never `NEVER_ALLOWED`). The memory never
//! migrates, so the host always reads it where it lies (coherently, also while kernels
//! run: concurrent managed access) and kernels read it over the bus.
//!
//! A GPU for which `hsa_amd_agent_memory_pool_get_info(HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS)`
//! answers `NEVER_ALLOWED`, or a ROCr without that call, has no managed memory: the driver
//! then answers `CUDA_ERROR_NOT_SUPPORTED` and `CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY` is 0.

use crate::ffi::{self, Agent, Hsa, MemoryPool};
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::Mutex;

/// `hsa_amd_memory_pool_access_t` (hsa_ext_amd.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolAccess {
    NeverAllowed,
    AllowedByDefault,
    DisallowedByDefault,
}

impl PoolAccess {
    /// From ROCr's value; unknown values count as no access.
    pub fn from_raw(v: u32) -> PoolAccess {
        match v {
            1 => PoolAccess::AllowedByDefault,
            2 => PoolAccess::DisallowedByDefault,
            _ => PoolAccess::NeverAllowed,
        }
    }

    /// Whether the agent can dereference the pool's memory (by default, or once allowed).
    pub fn reachable(self) -> bool {
        self != PoolAccess::NeverAllowed
    }
}

/// How `agent` may access `pool`; `NeverAllowed` when the ROCr cannot say.
pub(crate) fn pool_access(hsa: &Hsa, agent: Agent, pool: MemoryPool) -> PoolAccess {
    let Some(get) = hsa.hsa_amd_agent_memory_pool_get_info else { return PoolAccess::NeverAllowed };
    let mut v: u32 = 0;
    // SAFETY: the attribute's value is a u32 enum.
    let st = unsafe { get(agent, pool, ffi::AGENT_POOL_INFO_ACCESS, &mut v as *mut u32 as *mut c_void) };
    if st == ffi::STATUS_SUCCESS {
        PoolAccess::from_raw(v)
    } else {
        PoolAccess::NeverAllowed
    }
}

/// The GPU agents among `gpus` that can reach `pool` (they share its managed memory).
pub(crate) fn agents_reaching(hsa: &Hsa, gpus: &[Agent], pool: MemoryPool) -> Vec<Agent> {
    gpus.iter().copied().filter(|&g| pool_access(hsa, g, pool).reachable()).collect()
}

/// Allocates `size` bytes of `pool` and lets every agent of `agents` access them.
pub(crate) fn allocate(hsa: &Hsa, pool: MemoryPool, agents: &[Agent], size: usize) -> Result<u64, u32> {
    let mut p: *mut c_void = std::ptr::null_mut();
    // SAFETY: allocation from a pool that allows it (page-aligned for system pools).
    let st = unsafe { (hsa.hsa_amd_memory_pool_allocate)(pool, size.max(1), 0, &mut p) };
    if st != ffi::STATUS_SUCCESS {
        return Err(st);
    }
    // SAFETY: granting agents access to memory we own; `agents` outlives the call.
    let st = unsafe { (hsa.hsa_amd_agents_allow_access)(agents.len() as u32, agents.as_ptr(), std::ptr::null(), p) };
    if st != ffi::STATUS_SUCCESS {
        // SAFETY: allocated above, never handed out.
        unsafe { (hsa.hsa_amd_memory_pool_free)(p) };
        return Err(st);
    }
    Ok(p as u64)
}

/// The managed allocations of a device (base -> size), so copies and fills on them run
/// on the host, where the memory is.
#[derive(Default)]
pub(crate) struct ManagedRanges {
    map: Mutex<BTreeMap<u64, usize>>,
}

impl ManagedRanges {
    pub fn insert(&self, base: u64, size: usize) {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).insert(base, size);
    }

    /// Forgets the allocation at `base`; whether it was one.
    pub fn remove(&self, base: u64) -> bool {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).remove(&base).is_some()
    }

    /// Whether `addr` lies in a managed allocation (the driver has checked that a copy's
    /// whole range lies in the allocation of its first byte).
    pub fn contains(&self, addr: u64) -> bool {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.range(..=addr).next_back().is_some_and(|(&base, &size)| addr - base < size.max(1) as u64)
    }
}

/// Fills `count` elements of `elem_size` bytes at `dst` (host-addressable) with `value`'s
/// low bytes, as `cuMemsetD8/16/32` do.
///
/// # Safety
/// `dst` must be valid for writing `elem_size * count` bytes.
pub(crate) unsafe fn fill_host(dst: u64, value: u32, elem_size: usize, count: usize) {
    let pattern = value.to_le_bytes();
    let p = dst as usize as *mut u8;
    for k in 0..elem_size * count {
        // SAFETY: within the range the caller guarantees.
        unsafe { p.add(k).write(pattern[k % elem_size]) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_access_values_follow_hsa_ext_amd_h() {
        // (raw value, meaning, reachable)
        let cases = [
            (0, PoolAccess::NeverAllowed, false),
            (1, PoolAccess::AllowedByDefault, true),
            (2, PoolAccess::DisallowedByDefault, true),
            (7, PoolAccess::NeverAllowed, false),
        ];
        for (raw, want, reachable) in cases {
            assert_eq!(PoolAccess::from_raw(raw), want, "{raw}");
            assert_eq!(want.reachable(), reachable, "{raw}");
        }
    }

    #[test]
    fn ranges_contain_exactly_their_bytes() {
        let r = ManagedRanges::default();
        r.insert(0x1000, 0x100);
        r.insert(0x3000, 8);
        // (address, inside a managed allocation)
        let cases = [(0xfff, false), (0x1000, true), (0x10ff, true), (0x1100, false), (0x3007, true), (0x3008, false), (0, false)];
        for (addr, want) in cases {
            assert_eq!(r.contains(addr), want, "{addr:#x}");
        }
        assert!(r.remove(0x1000));
        assert!(!r.remove(0x1000));
        assert!(!r.contains(0x1000));
    }

    #[test]
    fn host_fills_repeat_the_element() {
        // (value, element size, count, expected bytes)
        let cases: [(u32, usize, usize, &[u8]); 3] =
            [(0x1AB, 1, 3, &[0xAB, 0xAB, 0xAB]), (0x51234, 2, 2, &[0x34, 0x12, 0x34, 0x12]), (0xDEADBEEF, 4, 1, &[0xEF, 0xBE, 0xAD, 0xDE])];
        for (value, elem, count, want) in cases {
            let mut buf = vec![0u8; want.len() + 1];
            // SAFETY: `buf` holds elem * count bytes and one more, which must stay 0.
            unsafe { fill_host(buf.as_mut_ptr() as u64, value, elem, count) };
            assert_eq!(&buf[..want.len()], want);
            assert_eq!(buf[want.len()], 0, "nothing past the range");
        }
    }
}
