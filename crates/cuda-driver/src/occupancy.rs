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
        if flags > 1 || block_size <= 0 {
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

/// Thread block clusters: `cuOccupancyMaxActiveClusters`, `cuOccupancyMaxPotentialClusterSize`
/// (CUDA Driver API, "Occupancy"). No device here launches clusters of more than one block
/// (`CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH` is 0, and such a launch answers
/// `CUDA_ERROR_NOT_SUPPORTED`), so the largest cluster is one block, a cluster of one
/// block is as many clusters as blocks fit on the device at once, and no larger cluster
/// is ever active (0).
impl Driver {
    /// The cluster dimensions of a launch configuration, if it names any.
    fn cluster_dims(config: &crate::launch::LaunchConfigEx<'_>) -> Option<[u32; 3]> {
        config.attrs.iter().rev().find_map(|a| match *a {
            crate::launch::LaunchAttr::ClusterDimension(d) => Some(d),
            _ => None,
        })
    }

    fn cluster_block(&self, f: &Function, config: &crate::launch::LaunchConfigEx<'_>, what: &str) -> CuResult<u32> {
        let threads = config.block.iter().try_fold(1u32, |acc, &d| acc.checked_mul(d));
        match threads {
            Some(t) if t > 0 && config.block.iter().all(|&d| d > 0) => Ok(t),
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("{what}: block {:?} of {}", config.block, f.name_str()))),
        }
    }

    /// `cuOccupancyMaxActiveClusters`: the configuration must name its cluster size (no
    /// kernel here has a compile-time one).
    pub fn occupancy_max_active_clusters(&self, f: FunctionHandle, config: &crate::launch::LaunchConfigEx<'_>) -> CuResult<i32> {
        const WHAT: &str = "cuOccupancyMaxActiveClusters";
        let f = self.function(f)?;
        let block = self.cluster_block(&f, config, WHAT)?;
        let Some(cluster) = Self::cluster_dims(config) else {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: the configuration has no cluster dimension")));
        };
        match cluster.iter().try_fold(1u32, |acc, &d| acc.checked_mul(d)) {
            Some(0) | None => Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: cluster {cluster:?}"))),
            Some(1) => {
                let per_sm = self.active_blocks(&f, block, config.shared_bytes as usize);
                let sms = self.devices[f.device].backend.properties().multiprocessor_count as u64;
                Ok((per_sm * sms).min(i32::MAX as u64) as i32)
            }
            // No cluster of more blocks is ever co-resident here: none can be active. NVIDIA's
            // libraries ask this at start-up when the device reports compute capability 9.0
            // or more (cuBLAS's cublasCreate fails on any error; cuDNN logs it).
            Some(size) => {
                crate::diag!("{WHAT}: clusters of {size} blocks cannot be launched on this device: 0 active clusters");
                Ok(0)
            }
        }
    }

    /// `cuOccupancyMaxPotentialClusterSize`: 1 when a block of the configuration fits, else 0.
    pub fn occupancy_max_potential_cluster_size(&self, f: FunctionHandle, config: &crate::launch::LaunchConfigEx<'_>) -> CuResult<i32> {
        let f = self.function(f)?;
        let block = self.cluster_block(&f, config, "cuOccupancyMaxPotentialClusterSize")?;
        Ok((self.active_blocks(&f, block, config.shared_bytes as usize) > 0) as i32)
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::{load_module, setup};

    #[test]
    fn clusters_of_one_block() {
        use crate::launch::{LaunchAttr, LaunchConfigEx};
        let (driver, _) = setup();
        let m = load_module(&driver);
        let saxpy = driver.module_get_function(m, "saxpy").unwrap();
        let attrs = [LaunchAttr::ClusterDimension([1, 1, 1])];
        let config = LaunchConfigEx { grid: [8, 1, 1], block: [256, 1, 1], shared_bytes: 0, stream: crate::StreamHandle::NULL, attrs: &attrs };
        // Fake device: 6 blocks of 256 threads per SM, 4 SMs.
        assert_eq!(driver.occupancy_max_active_clusters(saxpy, &config).unwrap(), 24);
        assert_eq!(driver.occupancy_max_potential_cluster_size(saxpy, &config).unwrap(), 1);
        let pair = [LaunchAttr::ClusterDimension([2, 1, 1])];
        assert_eq!(driver.occupancy_max_active_clusters(saxpy, &LaunchConfigEx { attrs: &pair, ..config }).unwrap(), 0);
        assert_eq!(driver.occupancy_max_active_clusters(saxpy, &LaunchConfigEx { attrs: &[], ..config }).unwrap_err(), crate::CuError::INVALID_VALUE);
    }

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
