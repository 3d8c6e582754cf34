//! Fills: `cuMemsetD*` and `cuMemsetD2D*`, blocking and `Async`, and the fill work of
//! graph memset nodes.

use std::sync::Arc;

use backend_api::{Device, DeviceError, DevicePtr};

use super::{Access, Loc, On, Shape, StepFn};
use crate::diag::fail;
use crate::exec::{RunFn, Work};
use crate::{CuError, CuResult, Driver, StreamHandle};

/// A validated fill: rows of `count` elements.
struct FillPlan {
    rows: Vec<Loc>,
    value: u32,
    elem_size: usize,
    count: usize,
    backends: Vec<Arc<dyn Device>>,
}

// SAFETY: as `CopyPlan`.
unsafe impl Send for FillPlan {}

impl FillPlan {
    /// # Safety
    /// As `CopyPlan::run`.
    unsafe fn run(&self) -> Result<(), DeviceError> {
        for &row in &self.rows {
            match row {
                Loc::Backend(dev, addr) => self.backends[dev].memset(addr, self.value, self.elem_size, self.count)?,
                // SAFETY: the row lies in a registered host range (validated).
                Loc::Host(p, _) => unsafe { fill_host(p, self.value, self.elem_size, self.count) },
            }
        }
        Ok(())
    }
}

impl Driver {
    /// `cuMemsetD8/D16/D32_v2`: fills `count` elements of `elem_size` (1, 2, 4) bytes.
    /// `dst` must be aligned to `elem_size` and lie in registered memory.
    pub fn memset(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize) -> CuResult<()> {
        self.memset_on(dst, value, elem_size, count, On::Blocking(StreamHandle::LEGACY))
    }

    /// `cuMemsetD*` on any stream.
    pub fn memset_on(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize, on: On) -> CuResult<()> {
        let row = elem_size.checked_mul(count).ok_or(CuError::INVALID_VALUE)?;
        self.memset_2d_on(dst, row, value, elem_size, count, 1, on)
    }

    /// `cuMemsetD2D8/16/32_v2`: `height` rows of `width` elements, rows `pitch` bytes apart.
    pub fn memset_2d(&self, dst: DevicePtr, pitch: usize, value: u32, elem_size: usize, width: usize, height: usize) -> CuResult<()> {
        self.memset_2d_on(dst, pitch, value, elem_size, width, height, On::Blocking(StreamHandle::LEGACY))
    }

    /// `cuMemsetD2D*` on any stream.
    #[allow(clippy::too_many_arguments, reason = "mirrors the C signature")]
    pub fn memset_2d_on(&self, dst: DevicePtr, pitch: usize, value: u32, elem_size: usize, width: usize, height: usize, on: On) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(on.stream())?;
        let Some(run) = self.fill_work(dst, pitch, value, elem_size, width, height)? else {
            return Ok(());
        };
        if self.capture_gate(&ctx, &q, matches!(on, On::Blocking(_)))? {
            let element_size = elem_size as u32;
            let params = crate::graph::MemsetParams { dst, pitch, value, element_size, width, height, ctx: ctx.handle };
            return self.capture_node(&q, crate::graph::NodeParams::Memset(params));
        }
        match on {
            On::Blocking(_) => self.submit_and_wait(&ctx, &q, run),
            On::Async(_) => {
                self.submit(&ctx, &q, None, Work::Run(run), false);
                Ok(())
            }
        }
    }

    /// A validated fill of `height` rows of `width` elements (`None`: nothing to fill).
    pub(crate) fn fill_work(
        &self,
        dst: DevicePtr,
        pitch: usize,
        value: u32,
        elem_size: usize,
        width: usize,
        height: usize,
    ) -> CuResult<Option<RunFn>> {
        Ok(self.fill_step(dst, pitch, value, elem_size, width, height)?.map(|f| -> RunFn { f }))
    }

    /// [`Driver::fill_work`] as work that may run any number of times (the body of a
    /// conditional graph node runs again at each iteration).
    pub(crate) fn fill_step(
        &self,
        dst: DevicePtr,
        pitch: usize,
        value: u32,
        elem_size: usize,
        width: usize,
        height: usize,
    ) -> CuResult<Option<StepFn>> {
        if !matches!(elem_size, 1 | 2 | 4) || !dst.is_multiple_of(elem_size as u64) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemset: {dst:#x} not aligned to {elem_size}")));
        }
        let row = width.checked_mul(elem_size).ok_or(CuError::INVALID_VALUE)?;
        if row == 0 || height == 0 {
            return Ok(None);
        }
        if height > 1 && !pitch.is_multiple_of(elem_size) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemsetD2D: pitch {pitch} is not a multiple of the element size {elem_size}")));
        }
        if height > 1 && pitch < row {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemsetD2D: pitch {pitch} < row {row}")));
        }
        let extent = Shape { width: row, height, depth: 1 }.extent(pitch, 0).ok_or(CuError::INVALID_VALUE)?;
        if self.memory.find(dst).is_some_and(|a| !self.pool_block_accessible(&a)) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemset: {dst:#x} is host-pool memory the device may not access")));
        }
        let base = self.device_loc(dst, extent, Access::Write, "cuMemset")?;
        let rows = (0..height).map(|y| base.offset(y * pitch)).collect();
        let plan = FillPlan { rows, value, elem_size, count: width, backends: self.backends() };
        // SAFETY: the rows lie in registered memory, which stays valid until the fill ran
        // (freeing waits for queued work; graph launches validate again).
        Ok(Some(Box::new(move || unsafe { plan.run() })))
    }

    /// `cuMemsetD8/16/32Async`.
    pub fn memset_async(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize, stream: StreamHandle) -> CuResult<()> {
        self.memset_on(dst, value, elem_size, count, On::Async(stream))
    }

    /// `cuMemsetD2D8/16/32Async`.
    #[allow(clippy::too_many_arguments, reason = "mirrors the C signature")]
    pub fn memset_2d_async(
        &self,
        dst: DevicePtr,
        pitch: usize,
        value: u32,
        elem_size: usize,
        width: usize,
        height: usize,
        stream: StreamHandle,
    ) -> CuResult<()> {
        self.memset_2d_on(dst, pitch, value, elem_size, width, height, On::Async(stream))
    }
}

/// Writes `count` elements of `elem_size` bytes (the low bytes of `value`).
///
/// # Safety
/// `p` must be valid for writing `count * elem_size` bytes.
unsafe fn fill_host(p: *mut u8, value: u32, elem_size: usize, count: usize) {
    // SAFETY (all arms): the caller guarantees the range; unaligned writes are used.
    unsafe {
        match elem_size {
            1 => std::ptr::write_bytes(p, value as u8, count),
            2 => (0..count).for_each(|i| p.cast::<u16>().add(i).write_unaligned(value as u16)),
            _ => (0..count).for_each(|i| p.cast::<u32>().add(i).write_unaligned(value)),
        }
    }
}
