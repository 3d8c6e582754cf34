//! How many workgroups of a kernel can be resident on one compute unit at once: what a
//! cooperative launch needs (every block of the grid running at the same time, so that
//! they can wait for each other) and what `cuOccupancyMaxActiveBlocksPerMultiprocessor`
//! answers on AMD GPUs.
//!
//! A workgroup runs on one compute unit (CU); its waves are spread over the CU's SIMDs.
//! The CU holds as many workgroups as all of these allow at once (AMD's GCN/CDNA/RDNA ISA
//! manuals, "VGPR allocation", and LLVM's AMDGPU occupancy model):
//! - LDS: 64 KiB per CU (the guaranteed amount: RDNA's WGP mode shares 128 KiB between
//!   two CUs), divided by the group segment (the kernel's own LDS plus the launch's
//!   dynamic shared memory);
//! - waves: each SIMD holds at most `max waves per CU / SIMDs` waves, fewer when each wave
//!   needs many VGPRs (the SIMD's VGPR file divided by the wave's VGPRs rounded up to the
//!   allocation granule) or, on gfx9, SGPRs (800 per SIMD, granules of 16); the CU's wave
//!   slots divided by the workgroup's waves;
//! - at most [`MAX_GROUPS_PER_CU`] workgroups.
//!
//! This is an upper bound that ignores scratch memory (ROCr sizes a queue's scratch for
//! its full wave count) and other kernels running at the same time on other streams,
//! which can take CUs a cooperative grid was counted on; the hardware does not promise
//! co-scheduling the way NVIDIA's cooperative launch does.

use compiler_core::target::amdgpu::descriptor::KernelResources;

/// Workgroups per CU the hardware dispatcher allows (GCN/CDNA: 16 per CU; RDNA counts per
/// WGP, which this keeps within).
pub const MAX_GROUPS_PER_CU: u64 = 16;
/// Bytes of LDS per CU.
pub const LDS_PER_CU: u64 = compiler_core::target::amdgpu::LDS_BYTES;

/// The wave resources of one compute unit of a GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CuLimits {
    pub simds: u32,
    pub max_waves_per_cu: u32,
    /// VGPRs per lane of one SIMD's register file (at the wavefront size we compile for).
    pub vgpr_file: u32,
    /// The VGPR allocation granule per wave.
    pub vgpr_granule: u32,
    /// SGPRs per SIMD where they limit occupancy (gfx9).
    pub sgpr_file: Option<u32>,
}

impl CuLimits {
    /// The limits of `gfx` (an entry of `amdgpu::GPUS`) running wavefronts of `wave` lanes;
    /// `simds` and `max_waves_per_cu` as ROCr reports them where it does.
    pub fn new(gfx: &str, wave: u32, simds: Option<u32>, max_waves_per_cu: Option<u32>) -> CuLimits {
        let gfx9 = gfx.starts_with("gfx9");
        let cdna2 = gfx == "gfx90a" || gfx == "gfx942";
        // LLVM's AMDGPU subtarget: total VGPRs and allocation granule per wave size.
        let full_rdna = ["gfx1100", "gfx1101", "gfx1151", "gfx1200", "gfx1201"].contains(&gfx);
        let (vgpr_file, vgpr_granule) = match (gfx9, cdna2, full_rdna, wave) {
            (true, true, _, _) => (512, 8),
            (true, false, _, _) => (256, 4),
            (false, _, true, 32) => (1536, 24),
            (false, _, true, _) => (768, 12),
            (false, _, false, 32) => (1024, 16),
            _ => (512, 8),
        };
        let simds = simds.filter(|&s| s > 0).unwrap_or(if gfx9 { 4 } else { 2 });
        let default_waves = match (gfx9, cdna2) {
            (true, true) => 8 * 4,
            (true, false) => 10 * 4,
            _ => 32,
        };
        CuLimits {
            simds,
            max_waves_per_cu: max_waves_per_cu.filter(|&w| w > 0).unwrap_or(default_waves),
            vgpr_file,
            vgpr_granule,
            sgpr_file: gfx9.then_some(800),
        }
    }

    /// Waves one SIMD can hold of a kernel with `vgprs` VGPRs and `sgprs` SGPRs per wave.
    pub fn waves_per_simd(&self, vgprs: u32, sgprs: Option<u32>) -> u32 {
        let mut waves = self.max_waves_per_cu / self.simds.max(1);
        let v = vgprs.max(1).div_ceil(self.vgpr_granule) * self.vgpr_granule;
        waves = waves.min(self.vgpr_file / v);
        if let (Some(file), Some(s)) = (self.sgpr_file, sgprs) {
            waves = waves.min(file / (s.max(1).div_ceil(16) * 16));
        }
        waves
    }
}

/// Workgroups of `threads` work-items that one CU holds at once, for a kernel with
/// `resources` compiled for `gfx` at wavefront size `wave`, launched with `dynamic_lds`
/// bytes of dynamic shared memory (`static_lds`: the LDS the kernel reserves, when the
/// descriptor's is smaller). 0: not even one fits.
pub fn groups_per_cu(limits: &CuLimits, gfx: &str, wave: u32, resources: &KernelResources, static_lds: u64, threads: u32, dynamic_lds: u64) -> u64 {
    let waves_per_group = threads.max(1).div_ceil(wave) as u64;
    let lds = (resources.group_segment_bytes as u64).max(static_lds) + dynamic_lds;
    if lds > LDS_PER_CU {
        return 0;
    }
    let by_lds = LDS_PER_CU.checked_div(lds).unwrap_or(u64::MAX);
    let slots = limits.waves_per_simd(resources.vgprs(gfx, wave), resources.sgprs(gfx)) as u64 * limits.simds as u64;
    let by_waves = slots / waves_per_group;
    by_lds.min(by_waves).min(MAX_GROUPS_PER_CU)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A descriptor with `vgprs` VGPRs (encoded in granules of `enc`), `sgprs` SGPRs
    /// (granules of 8) and `lds` bytes of LDS.
    fn kernel(vgprs: u32, enc: u32, sgprs: u32, lds: u32) -> KernelResources {
        KernelResources { group_segment_bytes: lds, private_segment_bytes: 0, rsrc1: (vgprs / enc - 1) | ((sgprs / 8 - 1) << 6) }
    }

    /// (gfx, wave, VGPRs, SGPRs, LDS, dynamic LDS, threads, workgroups per CU).
    type Case = (&'static str, u32, u32, u32, u32, u64, u32, u64);

    /// Each case worked out by hand from the limits in the module doc.
    #[test]
    fn workgroups_per_cu() {
        let cases: &[Case] = &[
            // gfx90a: 8 waves x 4 SIMDs; 32 VGPRs do not limit; 256 threads = 4 waves -> 8;
            // the 16-group cap for 64 threads; LDS 16 KiB -> 4; 40 KiB -> 1; 80 KiB -> 0.
            ("gfx90a", 64, 32, 32, 0, 0, 256, 8),
            ("gfx90a", 64, 32, 32, 0, 0, 64, 16),
            ("gfx90a", 64, 32, 32, 16384, 0, 256, 4),
            ("gfx90a", 64, 32, 32, 8192, 32768, 64, 1),
            ("gfx90a", 64, 32, 32, 65536, 16384, 64, 0),
            // 1024 threads = 16 waves: 2 groups; 128 VGPRs -> 4 waves/SIMD -> 1 group;
            // 264 VGPRs (granule 8) -> 1 wave/SIMD: 4 slots < 16 waves -> 0.
            ("gfx90a", 64, 32, 32, 0, 0, 1024, 2),
            ("gfx90a", 64, 128, 32, 0, 0, 1024, 1),
            ("gfx90a", 64, 264, 32, 0, 0, 1024, 0),
            // gfx900: 10 waves/SIMD; 84 VGPRs -> 256/84 = 3 waves/SIMD = 12 slots; 256
            // threads -> 3 groups; 112 SGPRs -> 800/112 = 7 waves, VGPRs 24 -> 10:
            // 28 slots / 4 = 7 groups.
            ("gfx900", 64, 84, 32, 0, 0, 256, 3),
            ("gfx900", 64, 24, 112, 0, 0, 256, 7),
            // gfx1100 wave32, 16 waves x 2 SIMDs: 256 threads = 8 waves -> 4; 96 VGPRs -> 16
            // waves/SIMD still; 97 -> 120 -> 12 waves/SIMD: 24 slots -> 3 groups.
            ("gfx1100", 32, 32, 0, 0, 0, 256, 4),
            ("gfx1100", 32, 96, 0, 0, 0, 256, 4),
            ("gfx1100", 32, 104, 0, 0, 0, 256, 3),
            // gfx1030: 1024 VGPRs, granule 16: 72 VGPRs -> 80 -> 12 waves/SIMD -> 24 slots;
            // 512 threads = 16 waves -> 1.
            ("gfx1030", 32, 72, 0, 0, 0, 512, 1),
        ];
        for &(gfx, wave, vgprs, sgprs, lds, dynamic, threads, want) in cases {
            let enc = if gfx == "gfx90a" || wave == 32 { 8 } else { 4 };
            let limits = CuLimits::new(gfx, wave, None, None);
            let k = kernel(vgprs, enc, sgprs.max(8), lds);
            assert_eq!(
                groups_per_cu(&limits, gfx, wave, &k, 0, threads, dynamic),
                want,
                "{gfx} {vgprs} VGPRs {sgprs} SGPRs {lds}+{dynamic} LDS {threads} threads"
            );
        }
    }

    #[test]
    fn rocr_values_win_over_the_defaults() {
        let l = CuLimits::new("gfx90a", 64, Some(4), Some(32));
        assert_eq!((l.simds, l.max_waves_per_cu), (4, 32));
        let l = CuLimits::new("gfx908", 64, None, Some(40));
        assert_eq!(l.waves_per_simd(24, Some(32)), 10);
    }
}
