//! Graph memory nodes (driver API "Graph Management": `cuGraphAddMemAllocNode`,
//! `cuGraphAddMemFreeNode`, stream-ordered allocation during stream capture, and the
//! device's graph memory attributes).
//!
//! CUDA gives an allocation node a fixed address when the node is created and maps memory
//! there while the graph runs. Here the memory is allocated when the node is created (in
//! the node's context, like `cuMemAlloc`, so kernels and copies see an ordinary
//! allocation) and kept for as long as the context lives: every launch finds it at the
//! same address, as CUDA promises. Alloc and free nodes therefore do no work when the
//! graph runs, and freeing graph memory outside the graph (`cuMemFree`,
//! `cuMemFreeAsync`) leaves it in place for the graph's next launch. Graphs with memory
//! nodes cannot be cloned or used as child graphs (as in CUDA).

use std::collections::HashMap;
use std::sync::Mutex;

use backend_api::DevicePtr;

use crate::diag::fail;
use crate::memory::MemoryKind;
use crate::{CtxHandle, CuError, CuResult, Driver};

/// An allocation node: where its memory is and how it was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAllocParams {
    pub ptr: DevicePtr,
    pub size: usize,
    pub device: usize,
    pub ctx: CtxHandle,
}

/// Graph memory of every device.
#[derive(Default)]
pub(crate) struct Registry {
    live: Mutex<HashMap<DevicePtr, MemAllocParams>>,
    /// Per device: the most bytes in use at once (`CU_GRAPH_MEM_ATTR_*_HIGH`).
    high: Mutex<HashMap<usize, u64>>,
}

/// `CUgraphMem_attribute`.
pub const ATTR_USED_MEM_CURRENT: i32 = 0;
pub const ATTR_USED_MEM_HIGH: i32 = 1;
pub const ATTR_RESERVED_MEM_CURRENT: i32 = 2;
pub const ATTR_RESERVED_MEM_HIGH: i32 = 3;

impl Driver {
    /// The memory of a new allocation node of `size` bytes on the current context's device.
    pub fn graph_mem_alloc(&self, size: usize, device: Option<usize>) -> CuResult<MemAllocParams> {
        let ctx = self.current_context()?;
        if size == 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("memory allocation node: 0 bytes")));
        }
        if let Some(d) = device.filter(|&d| d != ctx.device) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("memory allocation node: device {d} is not the current context's")));
        }
        let ptr = self.alloc_in(&ctx, size, MemoryKind::Device, 0)?;
        let params = MemAllocParams { ptr, size, device: ctx.device, ctx: ctx.handle };
        let used = {
            let mut live = self.graphs.memory.live.lock().unwrap_or_else(|e| e.into_inner());
            live.insert(ptr, params);
            live.values().filter(|p| p.device == ctx.device).map(|p| p.size as u64).sum::<u64>()
        };
        let mut high = self.graphs.memory.high.lock().unwrap_or_else(|e| e.into_inner());
        let h = high.entry(ctx.device).or_default();
        *h = (*h).max(used);
        Ok(params)
    }

    /// Whether `ptr` is the address of graph memory (what free nodes take).
    pub fn is_graph_memory(&self, ptr: DevicePtr) -> bool {
        let live = self.graphs.memory.live.lock().unwrap_or_else(|e| e.into_inner());
        live.get(&ptr).is_some_and(|p| self.memory.find(ptr).is_some_and(|a| a.base == p.ptr))
    }

    /// A free node's address, checked: graph memory only (`INVALID_VALUE` otherwise).
    pub fn graph_mem_free_target(&self, ptr: DevicePtr) -> CuResult<DevicePtr> {
        if self.is_graph_memory(ptr) {
            Ok(ptr)
        } else {
            Err(fail(CuError::INVALID_VALUE, format_args!("memory free node: {ptr:#x} is not memory of an allocation node")))
        }
    }

    /// `cuDeviceGetGraphMemAttribute`: bytes of graph memory on `device`, now or at most.
    pub fn graph_mem_attribute(&self, device: usize, attr: i32) -> CuResult<u64> {
        self.device_slot(device as i32)?;
        let live = self.graphs.memory.live.lock().unwrap_or_else(|e| e.into_inner());
        let current = live.values().filter(|p| p.device == device && self.memory.find(p.ptr).is_some()).map(|p| p.size as u64).sum();
        let high = self.graphs.memory.high.lock().unwrap_or_else(|e| e.into_inner()).get(&device).copied().unwrap_or(0);
        match attr {
            ATTR_USED_MEM_CURRENT | ATTR_RESERVED_MEM_CURRENT => Ok(current),
            ATTR_USED_MEM_HIGH | ATTR_RESERVED_MEM_HIGH => Ok(high.max(current)),
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("cuDeviceGetGraphMemAttribute: attribute {attr}"))),
        }
    }

    /// `cuDeviceSetGraphMemAttribute`: only the high watermarks can be set, and only to 0.
    pub fn graph_mem_reset_high(&self, device: usize, attr: i32, value: u64) -> CuResult<()> {
        self.device_slot(device as i32)?;
        if !matches!(attr, ATTR_USED_MEM_HIGH | ATTR_RESERVED_MEM_HIGH) || value != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuDeviceSetGraphMemAttribute: attribute {attr} = {value}")));
        }
        self.graphs.memory.high.lock().unwrap_or_else(|e| e.into_inner()).insert(device, 0);
        Ok(())
    }

    /// `cuDeviceGraphMemTrim`: nothing is cached beyond what live graphs hold.
    pub fn graph_mem_trim(&self, device: usize) -> CuResult<()> {
        self.device_slot(device as i32).map(|_| ())
    }
}
