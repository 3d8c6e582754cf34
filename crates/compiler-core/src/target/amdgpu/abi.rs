//! The AMDGPU kernel ABI our code objects follow, shared by the code generator and the
//! runtime (`hsa-backend`): kernel-argument segment, implicit arguments, dispatch packet.
//!
//! # Kernel-argument segment
//! Explicit arguments are the PTX `.param` list laid out exactly as the CUDA driver packs
//! it (each parameter at its own alignment, in order; `KernelMeta::params`), declared to
//! LLVM as one `byref` argument per parameter, so the segment starts with the very bytes
//! `cuLaunchKernel` packs. The implicit (hidden) arguments of code object v5 follow at
//! [`implicit_args_offset`]; the runtime fills the 256-byte block below in full, whatever
//! the kernel's metadata lists.
//!
//! # Dispatch
//! One AQL kernel-dispatch packet per launch ([`DispatchPacket`], HSA 1.2 section 2.9):
//! grid size in work-items (blocks x threads), workgroup size = the CUDA block, group
//! segment = the kernel's static LDS plus the launch's dynamic shared memory.

/// Size of the code object v5 implicit-argument block.
pub const IMPLICIT_ARGS_SIZE: usize = 256;

/// Offsets inside the implicit-argument block (AMDGPU code object v5).
pub mod implicit {
    /// `u32[3]`: blocks in the grid (`%nctaid`).
    pub const BLOCK_COUNT: usize = 0;
    /// `u16[3]`: threads in a block (`%ntid`).
    pub const GROUP_SIZE: usize = 12;
    /// `u16[3]`: threads in the last, partial block of each dimension (0: none).
    pub const REMAINDER: usize = 18;
    /// `u64[3]`: the global offset (always 0 for CUDA launches).
    pub const GLOBAL_OFFSET: usize = 40;
    /// `u16`: number of grid dimensions (1..3).
    pub const GRID_DIMS: usize = 64;
    /// `u64`: the device printf/assert buffer (`target::amdgpu::printf`), or 0.
    pub const PRINTF_BUFFER: usize = 72;
    /// `u64`: the cooperative-groups grid workspace of a cooperative launch, or 0
    /// (`%envreg1:%envreg2`; v5's `hidden_multigrid_sync_arg` slot, which HIP's
    /// cooperative launches also use for their grid-sync state).
    pub const GRID_WORKSPACE: usize = 88;
    /// `u32`: bytes of dynamic shared memory of this launch (`%dynamic_smem_size`).
    pub const DYNAMIC_LDS_SIZE: usize = 120;
}

/// Where the implicit arguments start in the kernarg segment of a kernel whose explicit
/// parameters take `param_bytes`.
pub fn implicit_args_offset(param_bytes: usize) -> usize {
    param_bytes.div_ceil(8) * 8
}

/// Bytes the runtime allocates for one launch's kernarg segment.
pub fn kernarg_segment_size(param_bytes: usize) -> usize {
    implicit_args_offset(param_bytes) + IMPLICIT_ARGS_SIZE
}

/// One launch's shape, as the implicit arguments and the dispatch packet need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchShape {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared_bytes: u32,
}

/// Build a whole kernarg segment: the packed PTX parameters, then the implicit arguments
/// (`grid_workspace`: 0 outside cooperative launches).
pub fn build_kernargs(params: &[u8], shape: &LaunchShape, printf_buffer: u64, grid_workspace: u64) -> Vec<u8> {
    let base = implicit_args_offset(params.len());
    let mut k = vec![0u8; kernarg_segment_size(params.len())];
    k[..params.len()].copy_from_slice(params);
    let put = |k: &mut Vec<u8>, off: usize, bytes: &[u8]| k[base + off..base + off + bytes.len()].copy_from_slice(bytes);
    for d in 0..3 {
        put(&mut k, implicit::BLOCK_COUNT + 4 * d, &shape.grid[d].to_le_bytes());
        put(&mut k, implicit::GROUP_SIZE + 2 * d, &(shape.block[d] as u16).to_le_bytes());
    }
    let dims: u16 = if shape.grid[2] > 1 || shape.block[2] > 1 {
        3
    } else if shape.grid[1] > 1 || shape.block[1] > 1 {
        2
    } else {
        1
    };
    put(&mut k, implicit::GRID_DIMS, &dims.to_le_bytes());
    put(&mut k, implicit::PRINTF_BUFFER, &printf_buffer.to_le_bytes());
    put(&mut k, implicit::GRID_WORKSPACE, &grid_workspace.to_le_bytes());
    put(&mut k, implicit::DYNAMIC_LDS_SIZE, &shape.dynamic_shared_bytes.to_le_bytes());
    k
}

/// `hsa_kernel_dispatch_packet_t` (64 bytes), HSA Platform System Architecture 1.2 §2.9.6.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchPacket {
    pub header: u16,
    pub setup: u16,
    pub workgroup_size: [u16; 3],
    pub reserved0: u16,
    pub grid_size: [u32; 3],
    pub private_segment_size: u32,
    pub group_segment_size: u32,
    pub kernel_object: u64,
    pub kernarg_address: u64,
    pub reserved2: u64,
    pub completion_signal: u64,
}

const _: () = assert!(core::mem::size_of::<DispatchPacket>() == 64);

/// AQL packet types (`hsa_packet_type_t`).
pub const PACKET_TYPE_KERNEL_DISPATCH: u16 = 2;
pub const PACKET_TYPE_BARRIER_AND: u16 = 3;
pub const PACKET_TYPE_INVALID: u16 = 1;
/// Header bit positions (`hsa_packet_header_t`).
pub const HEADER_TYPE: u16 = 0;
pub const HEADER_BARRIER: u16 = 8;
pub const HEADER_SCACQUIRE_FENCE_SCOPE: u16 = 9;
pub const HEADER_SCRELEASE_FENCE_SCOPE: u16 = 11;
/// `hsa_fence_scope_t::HSA_FENCE_SCOPE_SYSTEM`.
pub const FENCE_SCOPE_SYSTEM: u16 = 2;

/// The packet header of a kernel dispatch: system-scope acquire and release fences (so
/// host-visible memory is coherent at both ends), barrier bit set so packets of one queue
/// (one CUDA stream) run in order.
pub fn dispatch_header() -> u16 {
    (PACKET_TYPE_KERNEL_DISPATCH << HEADER_TYPE)
        | (1 << HEADER_BARRIER)
        | (FENCE_SCOPE_SYSTEM << HEADER_SCACQUIRE_FENCE_SCOPE)
        | (FENCE_SCOPE_SYSTEM << HEADER_SCRELEASE_FENCE_SCOPE)
}

/// The dispatch packet of one launch (header left for the caller to publish last, as
/// the AQL protocol requires: the header makes the packet valid).
pub fn dispatch_packet(
    shape: &LaunchShape,
    kernel_object: u64,
    kernarg_address: u64,
    group_segment_fixed: u32,
    private_segment: u32,
    completion_signal: u64,
) -> DispatchPacket {
    let dims = if shape.grid[2] > 1 || shape.block[2] > 1 {
        3
    } else if shape.grid[1] > 1 || shape.block[1] > 1 {
        2
    } else {
        1
    };
    DispatchPacket {
        header: PACKET_TYPE_INVALID << HEADER_TYPE,
        setup: dims,
        workgroup_size: [shape.block[0] as u16, shape.block[1] as u16, shape.block[2] as u16],
        reserved0: 0,
        grid_size: [
            shape.grid[0].saturating_mul(shape.block[0]),
            shape.grid[1].saturating_mul(shape.block[1]),
            shape.grid[2].saturating_mul(shape.block[2]),
        ],
        private_segment_size: private_segment,
        group_segment_size: group_segment_fixed + shape.dynamic_shared_bytes,
        kernel_object,
        kernarg_address,
        reserved2: 0,
        completion_signal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernargs_follow_the_param_buffer() {
        assert_eq!(implicit_args_offset(12), 16);
        assert_eq!(implicit_args_offset(16), 16);
        assert_eq!(implicit_args_offset(0), 0);
        assert_eq!(kernarg_segment_size(12), 272);
        let shape = LaunchShape { grid: [7, 2, 1], block: [128, 1, 1], dynamic_shared_bytes: 1024 };
        let k = build_kernargs(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], &shape, 0xdead_beef_0000, 0x1234_5678_9abc);
        assert_eq!(k.len(), 272);
        assert_eq!(&k[..12], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(&k[12..16], &[0, 0, 0, 0], "padding");
        let u32_at = |o: usize| u32::from_le_bytes(k[16 + o..16 + o + 4].try_into().unwrap());
        let u16_at = |o: usize| u16::from_le_bytes(k[16 + o..16 + o + 2].try_into().unwrap());
        assert_eq!([u32_at(0), u32_at(4), u32_at(8)], [7, 2, 1]);
        assert_eq!([u16_at(12), u16_at(14), u16_at(16)], [128, 1, 1]);
        assert_eq!(u16_at(implicit::GRID_DIMS), 2);
        assert_eq!(u64::from_le_bytes(k[16 + 72..16 + 80].try_into().unwrap()), 0xdead_beef_0000);
        assert_eq!(u32_at(implicit::DYNAMIC_LDS_SIZE), 1024);
        assert_eq!(u64::from_le_bytes(k[16 + 88..16 + 96].try_into().unwrap()), 0x1234_5678_9abc, "grid workspace");
    }

    #[test]
    fn dispatch_packet_fields() {
        let shape = LaunchShape { grid: [10, 3, 1], block: [64, 2, 1], dynamic_shared_bytes: 256 };
        let p = dispatch_packet(&shape, 0x1000, 0x2000, 512, 16, 0x3000);
        assert_eq!(p.setup, 2);
        assert_eq!(p.workgroup_size, [64, 2, 1]);
        assert_eq!(p.grid_size, [640, 6, 1]);
        assert_eq!(p.group_segment_size, 768);
        assert_eq!(p.private_segment_size, 16);
        assert_eq!((p.kernel_object, p.kernarg_address, p.completion_signal), (0x1000, 0x2000, 0x3000));
        assert_eq!(p.header, 1, "invalid until published");
        // type 2, barrier, system acquire and release fences.
        assert_eq!(dispatch_header(), 2 | 1 << 8 | 2 << 9 | 2 << 11);
        let bytes: [u8; 64] = unsafe { std::mem::transmute(p) };
        assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 640, "grid_size_x at byte 12");
        assert_eq!(u64::from_le_bytes(bytes[32..40].try_into().unwrap()), 0x1000, "kernel_object at byte 32");
        assert_eq!(u64::from_le_bytes(bytes[56..64].try_into().unwrap()), 0x3000, "completion_signal at byte 56");
    }
}
