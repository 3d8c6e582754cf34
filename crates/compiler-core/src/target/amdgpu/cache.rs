//! The on-disk cache of AMDGPU code objects: loading a module a second time (in this or a
//! later process) skips LLVM's optimization, code generation and the `ld.lld` link.
//!
//! The directory, `CUDA_CACHE_PATH`, `CUDA_CACHE_DISABLE` and `CUDA_CACHE_MAXSIZE` are the
//! host cache's ([`crate::cache::Cache::from_env`]); entries of both kinds share it and its
//! trimming. As there, the key hashes the lowered IR rather than the PTX text: the IR is a
//! function of the PTX, the module's warp width and the target (its LDS layout included),
//! so a change to the lowering can never load stale code, at the price of parsing and
//! lowering on a hit. The key also holds the processor, the wavefront size, the
//! optimization level, the LLVM version, this crate's version and [`CODEGEN_VERSION`] (not
//! the linker: `ld.lld -shared` of one object is a format step, and a hit must not need
//! a linker at all). Kernel metadata comes from the lowering, so an entry is only the linked
//! code object.
//!
//! An entry is the code object followed by the BLAKE3 hash of it ([`seal`]); one whose hash,
//! ELF type or machine does not check out ([`unseal`]) is ignored, and the fresh compile
//! replaces it.

use super::AmdgpuTarget;
use crate::cache::{key as hash, Cache, Key};

/// Bump when AMDGPU code generation or linking changes in a way the IR does not show.
pub const CODEGEN_VERSION: u32 = 1;

/// `EM_AMDGPU` and `ET_DYN` (a linked code object) in the ELF header.
const EM_AMDGPU: u16 = 224;
const ET_DYN: u16 = 3;

fn llvm_version() -> [u8; 12] {
    let (mut major, mut minor, mut patch) = (0u32, 0u32, 0u32);
    // SAFETY: three valid out-pointers.
    unsafe { inkwell::llvm_sys::core::LLVMGetVersion(&mut major, &mut minor, &mut patch) };
    let mut v = [0u8; 12];
    v[..4].copy_from_slice(&major.to_le_bytes());
    v[4..8].copy_from_slice(&minor.to_le_bytes());
    v[8..].copy_from_slice(&patch.to_le_bytes());
    v
}

/// The key of the code object compiled from lowered `ir` for `target` at `opt`.
pub fn key(ir: &str, target: &AmdgpuTarget, opt: u32) -> Key {
    hash(&[
        b"amdgpu code object",
        env!("CARGO_PKG_VERSION").as_bytes(),
        &CODEGEN_VERSION.to_le_bytes(),
        &llvm_version(),
        target.processor().as_bytes(),
        &target.wavefront_size().to_le_bytes(),
        &opt.to_le_bytes(),
        ir.as_bytes(),
    ])
}

/// A cache entry for code object `elf`: the ELF, then its 32-byte hash.
pub fn seal(elf: &[u8]) -> Vec<u8> {
    let mut out = elf.to_vec();
    out.extend_from_slice(hash(&[elf]).as_bytes());
    out
}

/// The code object in `entry`, if it is intact: the hash matches and the ELF header says
/// a linked AMDGPU object.
pub fn unseal(entry: &[u8]) -> Option<&[u8]> {
    let (elf, sum) = entry.split_at_checked(entry.len().checked_sub(32)?)?;
    if hash(&[elf]).as_bytes() != sum || elf.len() < 64 || !elf.starts_with(b"\x7fELF") {
        return None;
    }
    let u16_at = |o: usize| u16::from_le_bytes([elf[o], elf[o + 1]]);
    (u16_at(16) == ET_DYN && u16_at(18) == EM_AMDGPU).then_some(elf)
}

/// The code object stored under `key`, if intact.
pub fn load(cache: &Cache, key: &Key) -> Option<Vec<u8>> {
    let entry = cache.load(key)?;
    unseal(&entry).map(<[u8]>::to_vec)
}

/// Store code object `elf` under `key`.
pub fn store(cache: &Cache, key: &Key, elf: &[u8]) {
    cache.store(key, &seal(elf));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF header with the given type and machine, padded to 64 bytes.
    fn elf(ty: u16, machine: u16) -> Vec<u8> {
        let mut v = b"\x7fELF\x02\x01\x01\x40".to_vec();
        v.resize(16, 0);
        v.extend_from_slice(&ty.to_le_bytes());
        v.extend_from_slice(&machine.to_le_bytes());
        v.resize(80, 7);
        v
    }

    #[test]
    fn sealed_entries_round_trip_and_damage_is_refused() {
        let good = elf(ET_DYN, EM_AMDGPU);
        let entry = seal(&good);
        assert_eq!(entry.len(), good.len() + 32);
        assert_eq!(unseal(&entry), Some(&good[..]));
        // Any flipped byte, a truncation, or another kind of ELF: refused.
        for at in [0, 17, 40, good.len() + 5] {
            let mut bad = entry.clone();
            bad[at] ^= 1;
            assert_eq!(unseal(&bad), None, "byte {at}");
        }
        assert_eq!(unseal(&entry[..entry.len() - 1]), None);
        assert_eq!(unseal(&entry[..10]), None);
        assert_eq!(unseal(&seal(&elf(1, EM_AMDGPU))), None, "a relocatable object");
        assert_eq!(unseal(&seal(&elf(ET_DYN, 62))), None, "an x86-64 library");
    }
}
