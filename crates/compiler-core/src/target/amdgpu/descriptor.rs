//! Kernel descriptors read back from a linked code object: the resources (registers, LDS,
//! scratch) the code generator gave each kernel, which a runtime needs for occupancy
//! (how many workgroups fit on a compute unit at once; cooperative launches).
//!
//! The descriptor is the 64-byte object `<kernel>.kd` (AMDGPU code object v3+ kernel
//! descriptor, LLVM AMDGPUUsage "Kernel Descriptor"): group and private segment sizes at
//! bytes 0 and 4, `COMPUTE_PGM_RSRC1` at byte 48, whose bits 5:0 are the granulated
//! work-item VGPR count and bits 9:6 the granulated wavefront SGPR count.

/// What a kernel's descriptor says about its resources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelResources {
    /// Bytes of LDS the kernel reserves itself (before dynamic shared memory).
    pub group_segment_bytes: u32,
    /// Bytes of scratch per work-item.
    pub private_segment_bytes: u32,
    /// `COMPUTE_PGM_RSRC1`.
    pub rsrc1: u32,
}

impl KernelResources {
    /// VGPRs per work-item as encoded (a multiple of the encoding granule: 4 on wave64
    /// gfx9, 8 on gfx90a/gfx942 and on wave32).
    pub fn vgprs(&self, processor: &str, wave: u32) -> u32 {
        let granule = if processor == "gfx90a" || processor == "gfx942" || wave == 32 { 8 } else { 4 };
        ((self.rsrc1 & 0x3f) + 1) * granule
    }

    /// SGPRs per wave as encoded (gfx9: granules of 8; gfx10+ does not encode them and
    /// always gives a wave its full set, so this is `None` there).
    pub fn sgprs(&self, processor: &str) -> Option<u32> {
        processor.starts_with("gfx9").then(|| (((self.rsrc1 >> 6) & 0xf) + 1) * 8)
    }
}

/// The resources of `kernel` in the linked code object `elf`, or `None` if the ELF is
/// malformed or has no such kernel.
pub fn kernel_resources(elf: &[u8], kernel: &str) -> Option<KernelResources> {
    let bytes = |o: usize, n: usize| elf.get(o..o.checked_add(n)?);
    let u16_at = |o: usize| bytes(o, 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let u32_at = |o: usize| bytes(o, 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
    let u64_at = |o: usize| bytes(o, 8).map(|b| u64::from_le_bytes(b.try_into().unwrap()));
    if bytes(0, 5)? != b"\x7fELF\x02" {
        return None;
    }
    let shoff = u64_at(0x28)? as usize;
    let (shentsize, shnum) = (u16_at(0x3a)? as usize, u16_at(0x3c)? as usize);
    // (type, addr, offset, size, link, entsize) of section `i`.
    let section = |i: usize| -> Option<(u32, u64, usize, usize, usize, usize)> {
        let s = shoff.checked_add(i.checked_mul(shentsize)?)?;
        Some((
            u32_at(s + 4)?,
            u64_at(s + 16)?,
            u64_at(s + 24)? as usize,
            u64_at(s + 32)? as usize,
            u32_at(s + 40)? as usize,
            u64_at(s + 56)? as usize,
        ))
    };
    const SHT_DYNSYM: u32 = 11;
    const SHT_SYMTAB: u32 = 2;
    let want = format!("{kernel}.kd");
    for i in 0..shnum {
        let (ty, _, off, size, link, entsize) = section(i)?;
        if (ty != SHT_DYNSYM && ty != SHT_SYMTAB) || entsize < 24 {
            continue;
        }
        let (_, _, stroff, strsize, _, _) = section(link)?;
        for k in 0..size / entsize {
            let sym = off + k * entsize;
            let name_at = stroff + u32_at(sym)? as usize;
            let name_end = elf.get(name_at..stroff + strsize)?.iter().position(|&c| c == 0)?;
            if &elf[name_at..name_at + name_end] != want.as_bytes() {
                continue;
            }
            let (shndx, value) = (u16_at(sym + 6)? as usize, u64_at(sym + 8)?);
            let (_, addr, data_off, data_size, _, _) = section(shndx)?;
            let rel = value.checked_sub(addr)? as usize;
            if rel + 64 > data_size {
                return None;
            }
            let d = data_off + rel;
            return Some(KernelResources { group_segment_bytes: u32_at(d)?, private_segment_bytes: u32_at(d + 4)?, rsrc1: u32_at(d + 48)? });
        }
    }
    None
}
