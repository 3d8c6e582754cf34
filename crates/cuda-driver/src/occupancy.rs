//! Occupancy: `cuOccupancyMaxActiveBlocksPerMultiprocessor(WithFlags)`,
//! `cuOccupancyMaxPotentialBlockSize(WithFlags)`, `cuOccupancyAvailableDynamicSMemPerBlock`.
//!
//! The numbers follow NVIDIA's occupancy model from the device's properties: blocks per
//! multiprocessor are limited by threads (whole warps), the block-slot limit, shared memory
//! and registers. cudart's `cudaOccupancyMaxPotentialBlockSize` (an inline template in
//! `cuda_runtime.h`) calls the per-block query, so plausible answers keep programs that
//! size their launches this way working.

use crate::diag::fail;
use crate::function::Function;
use crate::{CuError, CuResult, Driver, FunctionHandle};

/// Block slots per multiprocessor (`CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR`).
const MAX_BLOCKS_PER_SM: u64 = 32;
/// Registers per multiprocessor assumed by the model.
const REGISTERS_PER_SM: u64 = 65536;

impl Driver {
    pub(crate) fn active_blocks(&self, f: &Function, block_size: u32, dynamic_smem: usize) -> u64 {
        let props = self.devices[f.device].backend.properties();
        if block_size == 0 || block_size > self.max_threads(f) {
            return 0;
        }
        // A backend that knows its hardware (AMD GPUs: registers, LDS, wave slots) answers.
        if let Some(n) = f.loaded.resident_blocks_per_multiprocessor(f.name_str(), block_size, dynamic_smem.min(u32::MAX as usize) as u32) {
            return n;
        }
        let warp = props.warp_size.max(1) as u64;
        let threads = (block_size as u64).div_ceil(warp) * warp;
        let by_threads = props.max_threads_per_multiprocessor as u64 / threads;
        let smem = f.info.static_shared_bytes as u64 + dynamic_smem as u64;
        let by_smem = (props.shared_memory_per_multiprocessor as u64).checked_div(smem).unwrap_or(u64::MAX);
        let regs = f.info.num_regs as u64 * threads;
        let by_regs = REGISTERS_PER_SM.checked_div(regs).unwrap_or(u64::MAX);
        by_threads.min(by_smem).min(by_regs).min(MAX_BLOCKS_PER_SM)
    }

    /// `cuOccupancyMaxActiveBlocksPerMultiprocessor(WithFlags)`: `flags` 0 (default) or 1
    /// (`CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE`).
    pub fn occupancy_max_active_blocks(&self, f: FunctionHandle, block_size: i32, dynamic_smem: usize, flags: u32) -> CuResult<i32> {
        let f = self.function(f)?;
        if flags > 1 || block_size < 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuOccupancyMaxActiveBlocksPerMultiprocessor: block {block_size} flags {flags}")));
        }
        Ok(self.active_blocks(&f, block_size as u32, dynamic_smem) as i32)
    }

    /// `cuOccupancyMaxPotentialBlockSize(WithFlags)`: (minimum grid size for full
    /// occupancy, block size). `dynamic_smem` gives the dynamic shared memory a block size
    /// needs (the C callback, or a constant); `block_size_limit` 0 means no limit.
    pub fn occupancy_max_potential_block_size(
        &self,
        f: FunctionHandle,
        dynamic_smem: &mut dyn FnMut(i32) -> usize,
        block_size_limit: i32,
        flags: u32,
    ) -> CuResult<(i32, i32)> {
        let f = self.function(f)?;
        if flags > 1 || block_size_limit < 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuOccupancyMaxPotentialBlockSize: limit {block_size_limit} flags {flags}")));
        }
        let props = self.devices[f.device].backend.properties();
        let warp = props.warp_size.max(1);
        let mut max = self.max_threads(&f);
        if block_size_limit > 0 {
            max = max.min(block_size_limit as u32);
        }
        let (mut best_threads, mut best_block) = (0u64, 0u32);
        let mut block = max / warp * warp;
        if block == 0 {
            block = max;
        }
        while block > 0 {
            let active = self.active_blocks(&f, block, dynamic_smem(block as i32));
            let threads = active * block as u64;
            if threads > best_threads {
                (best_threads, best_block) = (threads, block);
            }
            block = block.saturating_sub(warp);
        }
        if best_block == 0 {
            return Ok((0, 0));
        }
        let per_sm = self.active_blocks(&f, best_block, dynamic_smem(best_block as i32));
        let min_grid = per_sm * props.multiprocessor_count as u64;
        Ok((min_grid.min(i32::MAX as u64) as i32, best_block as i32))
    }

    /// `cuOccupancyAvailableDynamicSMemPerBlock`: dynamic shared memory each of
    /// `num_blocks` blocks of `block_size` threads can have on one multiprocessor.
    pub fn occupancy_available_dynamic_smem_per_block(&self, f: FunctionHandle, num_blocks: i32, block_size: i32) -> CuResult<usize> {
        let f = self.function(f)?;
        if num_blocks <= 0 || block_size <= 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuOccupancyAvailableDynamicSMemPerBlock({num_blocks}, {block_size})")));
        }
        if self.active_blocks(&f, block_size as u32, 0) < num_blocks as u64 {
            return Ok(0);
        }
        let props = self.devices[f.device].backend.properties();
        let per_block = props.shared_memory_per_multiprocessor as u64 / num_blocks as u64;
        let available = per_block.saturating_sub(f.info.static_shared_bytes as u64).min(self.max_dynamic_shared(&f) as u64);
        Ok(available as usize)
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::{load_module, setup};

    #[test]
    fn occupancy_follows_the_limits() {
        let (driver, _) = setup();
        let m = load_module(&driver);
        let saxpy = driver.module_get_function(m, "saxpy").unwrap();
        let small = driver.module_get_function(m, "small").unwrap();
        // Fake device: 1536 threads/SM, 32 regs/thread, 100 KiB shared/SM, 4 SMs.
        for (f, block, smem, expected) in
            [(saxpy, 256, 0, 6), (saxpy, 1024, 0, 1), (saxpy, 33, 0, 24), (saxpy, 128, 50 * 1024, 2), (small, 256, 0, 0)]
        {
            assert_eq!(driver.occupancy_max_active_blocks(f, block, smem, 0).unwrap(), expected, "block {block} smem {smem}");
        }
        assert_eq!(driver.occupancy_max_potential_block_size(saxpy, &mut |_| 0, 0, 0).unwrap(), (2 * 4, 768));
        assert_eq!(driver.occupancy_max_potential_block_size(small, &mut |_| 0, 0, 0).unwrap().1, 128);
        assert_eq!(driver.occupancy_available_dynamic_smem_per_block(saxpy, 2, 256).unwrap(), 48 * 1024);
        assert_eq!(driver.occupancy_max_active_blocks(saxpy, 256, 0, 2).unwrap_err(), crate::CuError::INVALID_VALUE);
    }
}
