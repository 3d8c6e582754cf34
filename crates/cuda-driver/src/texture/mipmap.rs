//! Mipmapped arrays (CUDA Driver API, "Mipmapped Array Management":
//! `cuMipmappedArrayCreate`, `cuMipmappedArrayGetLevel`, `cuMipmappedArrayDestroy`).
//!
//! A mipmapped array is a chain of CUDA arrays, one per level, each made as
//! `cuArray3DCreate` makes an array: level `i` has extents `max(1, extent >> i)` for the
//! width and for the height and depth where they are non-zero (a layered array's depth is
//! its layer count and a cubemap's its faces, which no level halves). The level count is
//! clamped to `[1, 1 + floor(log2(max extent))]`, as the API reference says. Levels are
//! arrays for copies and surface objects; their memory belongs to the mipmapped array and
//! goes with it. `cuArrayDestroy` of a level succeeds, as an H200 answers (driver
//! 580.159): it releases the level's handle only. Texture objects over a mipmapped array need
//! level-of-detail sampling, which the CPU device's texture unit does not do: they are
//! `CUDA_ERROR_NOT_SUPPORTED` ([`Driver::tex_object_create`]). Sparse and
//! deferred-mapping arrays do not exist here (see
//! [`Driver::mipmapped_array_without_backing_info`]). A mipmapped array can also be mapped
//! from external memory (`crate::external_memory`).

use std::sync::Arc;

use backend_api::DevicePtr;

use super::{Array3dDescriptor, ArrayHandle, ARRAY3D_CUBEMAP, ARRAY3D_LAYERED};
use crate::diag::fail;
use crate::handle::{HandleKind, HandleTable, Kind};
use crate::{CuError, CuResult, Driver};

/// A `CUmipmappedArray`.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MipmapHandle(pub u64);

impl HandleKind for MipmapHandle {
    const KIND: Kind = Kind::MipmappedArray;
    fn from_bits(bits: u64) -> Self {
        MipmapHandle(bits)
    }
    fn bits(self) -> u64 {
        self.0
    }
}

/// A mipmapped array: its levels, finest first, and the memory they are in.
#[derive(Debug)]
pub struct MipmappedArray {
    pub descriptor: Array3dDescriptor,
    pub levels: Vec<ArrayHandle>,
    pub(crate) storage: LevelStorage,
}

/// Where the levels' texels are.
#[derive(Debug)]
pub(crate) enum LevelStorage {
    /// One device allocation per level (`cuMipmappedArrayCreate`), at these bases.
    PerLevel(Vec<DevicePtr>),
    /// One mapping of external memory at this base (`crate::external_memory`).
    External(DevicePtr),
}

/// Every mipmapped array.
#[derive(Default)]
pub(crate) struct State {
    pub(crate) table: HandleTable<MipmappedArray, MipmapHandle>,
}

/// The descriptors of the levels of a mipmapped array described by `d` with (at most)
/// `requested` levels.
pub fn level_descriptors(d: &Array3dDescriptor, requested: u32) -> Vec<Array3dDescriptor> {
    let stacked = d.flags & (ARRAY3D_LAYERED | ARRAY3D_CUBEMAP) != 0;
    let largest = d.width.max(d.height).max(if stacked { 0 } else { d.depth }).max(1);
    let most = 1 + largest.ilog2();
    let count = requested.clamp(1, most);
    let halve = |extent: usize, i: u32| if extent == 0 { 0 } else { (extent >> i).max(1) };
    (0..count)
        .map(|i| Array3dDescriptor {
            width: halve(d.width, i),
            height: halve(d.height, i),
            depth: if stacked { d.depth } else { halve(d.depth, i) },
            ..*d
        })
        .collect()
}

impl Driver {
    /// `cuMipmappedArrayCreate`: the levels are checked and made as `cuArray3DCreate`
    /// does (its codes).
    pub fn mipmapped_array_create(&self, d: &Array3dDescriptor, levels: u32) -> CuResult<MipmapHandle> {
        let mut made = Vec::new();
        for level in level_descriptors(d, levels) {
            match self.array_3d_create_level(&level, true) {
                Ok(h) => made.push(h),
                Err(e) => {
                    for h in made {
                        let _ = self.destroy_array(h);
                    }
                    return Err(e);
                }
            }
        }
        let bases = made.iter().map(|&h| self.array(h).map(|a| a.base)).collect::<CuResult<Vec<DevicePtr>>>()?;
        Ok(self.mipmapped_array_of(*d, made, LevelStorage::PerLevel(bases)))
    }

    /// Registers a mipmapped array of the arrays `levels` (made as its levels).
    pub(crate) fn mipmapped_array_of(&self, descriptor: Array3dDescriptor, levels: Vec<ArrayHandle>, storage: LevelStorage) -> MipmapHandle {
        self.textures.mipmaps.table.insert(Arc::new(MipmappedArray { descriptor, levels, storage }))
    }

    fn mipmapped_array(&self, h: MipmapHandle) -> CuResult<Arc<MipmappedArray>> {
        self.textures.mipmaps.table.get(h).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("CUmipmappedArray {:#x}: {why:?}", h.0)))
    }

    /// `cuMipmappedArrayGetLevel`: a level past the last is `INVALID_VALUE`.
    pub fn mipmapped_array_get_level(&self, h: MipmapHandle, level: u32) -> CuResult<ArrayHandle> {
        let m = self.mipmapped_array(h)?;
        m.levels
            .get(level as usize)
            .copied()
            .ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("cuMipmappedArrayGetLevel: level {level} of {} levels", m.levels.len())))
    }

    /// `cuMipmappedArrayGetMemoryRequirements` and `cuMipmappedArrayGetSparseProperties`:
    /// only arrays created with `CUDA_ARRAY3D_DEFERRED_MAPPING` / `CUDA_ARRAY3D_SPARSE` have
    /// them, and the CPU device makes neither (its `DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED`
    /// and `SPARSE_CUDA_ARRAY_SUPPORTED` are 0). For any other mipmapped array, a NULL or
    /// unknown one and a bad device, NVIDIA's driver answers `CUDA_ERROR_INVALID_VALUE`
    /// (H200, driver 580.159).
    pub fn mipmapped_array_without_backing_info(&self, h: MipmapHandle, call: &str) -> CuResult<()> {
        let why = match self.mipmapped_array(h) {
            Ok(_) => "it was created neither sparse nor with deferred mapping".to_string(),
            Err(_) => format!("no CUmipmappedArray {:#x}", h.0),
        };
        Err(fail(CuError::INVALID_VALUE, format_args!("{call}: {why}")))
    }

    /// `cuMipmappedArrayDestroy`: releases the levels' handles and memory.
    pub fn mipmapped_array_destroy(&self, h: MipmapHandle) -> CuResult<()> {
        let m = self
            .textures
            .mipmaps
            .table
            .remove(h)
            .map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("cuMipmappedArrayDestroy({:#x}): {why:?}", h.0)))?;
        for &level in &m.levels {
            // Released already if the program destroyed it (`cuArrayDestroy`).
            if self.textures.arrays.remove(level).is_ok() {
                self.unbind_array_references(level);
            }
        }
        match &m.storage {
            LevelStorage::PerLevel(bases) => {
                for &base in bases {
                    // The memory may already be gone with its context.
                    if self.memory.find(base).is_some_and(|a| a.base == base) {
                        self.mem_free(base)?;
                    }
                }
            }
            LevelStorage::External(base) => self.unmap_external_array(*base),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(width: usize, height: usize, depth: usize, flags: u32) -> Array3dDescriptor {
        Array3dDescriptor { width, height, depth, format: 0x20, num_channels: 1, flags }
    }

    fn extents(d: &Array3dDescriptor, levels: u32) -> Vec<(usize, usize, usize)> {
        level_descriptors(d, levels).iter().map(|l| (l.width, l.height, l.depth)).collect()
    }

    #[test]
    fn levels_are_arrays_owned_by_the_mipmapped_array() {
        let (driver, _) = crate::tests::setup();
        let m = driver.mipmapped_array_create(&desc(16, 8, 0, 0), 3).unwrap();
        let levels: Vec<ArrayHandle> = (0..3).map(|i| driver.mipmapped_array_get_level(m, i).unwrap()).collect();
        let shapes: Vec<(usize, usize)> = levels.iter().map(|&l| driver.array_3d_descriptor(l).map(|d| (d.width, d.height)).unwrap()).collect();
        assert_eq!(shapes, [(16, 8), (8, 4), (4, 2)]);
        assert_eq!(driver.mipmapped_array_get_level(m, 3), Err(CuError::INVALID_VALUE));
        // Destroying a level releases its handle (the H200 answers success).
        let level2 = driver.array(levels[2]).unwrap().base;
        driver.array_destroy(levels[2]).unwrap();
        assert_eq!(driver.array_3d_descriptor(levels[2]).err(), Some(CuError::INVALID_HANDLE));
        assert!(driver.memory.find(level2).is_some(), "its memory goes with the mipmapped array");
        // Surfaces over a level work; textures over the mipmapped array need LOD sampling.
        let mut r = super::super::ResourceDesc { res_type: super::super::RESOURCE_TYPE_ARRAY, res: [0; 16], flags: 0 };
        r.res[0] = levels[1].0;
        let surface = driver.surf_object_create(&r);
        assert!(surface.is_ok() || surface == Err(CuError::NOT_SUPPORTED), "as for any array: {surface:?}");
        r.res_type = super::super::RESOURCE_TYPE_MIPMAPPED_ARRAY;
        r.res[0] = m.0;
        let t = super::super::TextureDesc {
            address_mode: [0; 3],
            filter_mode: 0,
            flags: 0,
            max_anisotropy: 0,
            mipmap_filter_mode: 0,
            mipmap_level_bias: 0.0,
            min_mipmap_level_clamp: 0.0,
            max_mipmap_level_clamp: 0.0,
            border_color: [0.0; 4],
            reserved: [0; 12],
        };
        assert_eq!(driver.tex_object_create(&r, &t, false), Err(CuError::NOT_SUPPORTED));
        driver.mipmapped_array_destroy(m).unwrap();
        assert_eq!(driver.mipmapped_array_get_level(m, 0), Err(CuError::INVALID_HANDLE));
        assert_eq!(driver.array_3d_descriptor(levels[0]).err(), Some(CuError::INVALID_HANDLE), "levels go with it");
        assert!(driver.memory.find(level2).is_none(), "and their memory");
        assert_eq!(driver.mipmapped_array_destroy(m), Err(CuError::INVALID_HANDLE));
        assert_eq!(driver.mipmapped_array_create(&desc(16, 8, 0, 0x40), 2).err(), Some(CuError::NOT_SUPPORTED), "sparse");
        assert_eq!(driver.mipmapped_array_create(&desc(0, 8, 0, 0), 2).err(), Some(CuError::INVALID_VALUE));
    }

    #[test]
    fn levels_halve_each_extent_down_to_one() {
        assert_eq!(extents(&desc(8, 0, 0, 0), 10), [(8, 0, 0), (4, 0, 0), (2, 0, 0), (1, 0, 0)], "1-D, clamped to 4");
        assert_eq!(extents(&desc(5, 3, 0, 0), 3), [(5, 3, 0), (2, 1, 0), (1, 1, 0)]);
        assert_eq!(extents(&desc(4, 4, 2, 0), 0), [(4, 4, 2)], "at least one level");
        assert_eq!(extents(&desc(4, 2, 8, 0), 9), [(4, 2, 8), (2, 1, 4), (1, 1, 2), (1, 1, 1)], "3-D: the depth counts");
        assert_eq!(extents(&desc(4, 4, 3, ARRAY3D_LAYERED), 9), [(4, 4, 3), (2, 2, 3), (1, 1, 3)], "layers stay");
        assert_eq!(extents(&desc(2, 2, 6, ARRAY3D_CUBEMAP), 9), [(2, 2, 6), (1, 1, 6)], "faces stay");
    }
}
