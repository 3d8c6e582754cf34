//! Runtime state: the driver (opened and initialized at the first call that needs it), the
//! device count, each device's retained primary context, and each thread's current device.
//!
//! As NVIDIA's runtime does, a call that needs a context uses the thread's current driver
//! context if it has one, else retains the current device's primary context
//! (`cuDevicePrimaryCtxRetain`, once per process) and makes it current.

use std::cell::Cell;
use std::ffi::c_int;
use std::sync::{Mutex, OnceLock};

use crate::boundary::RtResult;
use crate::driver::{Api, CUcontext, CUdevice, Driver};
use crate::error::CudaError;

pub struct Runtime {
    pub driver: &'static Driver,
    pub device_count: c_int,
    /// Per device ordinal: the retained primary context (as an address), if retained.
    primaries: Vec<Mutex<Option<usize>>>,
}

static DRIVER: OnceLock<Result<Driver, CudaError>> = OnceLock::new();
static RUNTIME: OnceLock<Result<Runtime, CudaError>> = OnceLock::new();

thread_local! {
    static DEVICE: Cell<c_int> = const { Cell::new(0) };
}

/// The runtime, initializing it on first use: open the driver, `cuInit(0)`, count devices.
/// A failure is remembered: every later call reports it too (no device: `cudaErrorNoDevice`).
pub fn runtime() -> RtResult<&'static Runtime> {
    RUNTIME.get_or_init(init).as_ref().map_err(|e| *e)
}

/// The driver only, opened but not initialized, for calls that need no device
/// (`cudaDriverGetVersion`).
pub fn driver() -> RtResult<&'static Driver> {
    DRIVER.get_or_init(Driver::open).as_ref().map_err(|e| *e)
}

/// Whether the runtime has been initialized (without initializing it).
pub fn initialized() -> Option<&'static Runtime> {
    RUNTIME.get().and_then(|r| r.as_ref().ok())
}

fn init() -> Result<Runtime, CudaError> {
    let driver = driver()?;
    let api = &driver.api;
    let mut count = 0;
    // SAFETY: valid out-pointer.
    unsafe {
        api.cuInit(0)?;
        api.cuDeviceGetCount(&mut count)?;
    }
    if count <= 0 {
        return Err(CudaError::NO_DEVICE);
    }
    let primaries = (0..count).map(|_| Mutex::new(None)).collect();
    Ok(Runtime { driver, device_count: count, primaries })
}

/// The calling thread's current device ordinal (`cudaGetDevice`; 0 until `cudaSetDevice`).
pub fn current_device() -> c_int {
    DEVICE.with(|d| d.get())
}

impl Runtime {
    pub fn api(&self) -> &Api {
        &self.driver.api
    }

    /// `ordinal` checked against the device count (`cudaErrorInvalidDevice`).
    pub fn device(&self, ordinal: c_int) -> RtResult<CUdevice> {
        if !(0..self.device_count).contains(&ordinal) {
            return Err(CudaError::INVALID_DEVICE);
        }
        let mut dev = 0;
        // SAFETY: valid out-pointer.
        unsafe { self.api().cuDeviceGet(&mut dev, ordinal) }?;
        Ok(dev)
    }

    /// The runtime ordinal of a driver device (`cudaErrorInvalidDevice` if none has it).
    pub fn ordinal(&self, dev: CUdevice) -> RtResult<c_int> {
        (0..self.device_count).find(|&o| self.device(o).is_ok_and(|d| d == dev)).ok_or(CudaError::INVALID_DEVICE)
    }

    /// The device's primary context, retained once for the process.
    pub fn primary(&self, ordinal: c_int) -> RtResult<CUcontext> {
        let dev = self.device(ordinal)?;
        let mut slot = self.primaries[ordinal as usize].lock().unwrap_or_else(|e| e.into_inner());
        if let Some(ctx) = *slot {
            return Ok(ctx as CUcontext);
        }
        let mut ctx = std::ptr::null_mut();
        // SAFETY: valid out-pointer.
        unsafe { self.api().cuDevicePrimaryCtxRetain(&mut ctx, dev) }?;
        *slot = Some(ctx as usize);
        Ok(ctx)
    }

    /// The context a call works in: the thread's current one, else the current device's
    /// primary context, made current.
    pub fn context(&self) -> RtResult<CUcontext> {
        let mut current = std::ptr::null_mut();
        // SAFETY: valid out-pointer.
        unsafe { self.api().cuCtxGetCurrent(&mut current) }?;
        if !current.is_null() {
            return Ok(current);
        }
        let ctx = self.primary(current_device())?;
        // SAFETY: a context handle the driver gave us.
        unsafe { self.api().cuCtxSetCurrent(ctx) }?;
        Ok(ctx)
    }

    /// `cudaSetDevice`: the device's primary context becomes the thread's current context.
    pub fn set_device(&self, ordinal: c_int) -> RtResult {
        let ctx = self.primary(ordinal)?;
        // SAFETY: a context handle the driver gave us.
        unsafe { self.api().cuCtxSetCurrent(ctx) }?;
        DEVICE.with(|d| d.set(ordinal));
        Ok(())
    }

    /// `cudaDeviceReset`: releases and resets the device's primary context (destroying its
    /// allocations, streams and events); the next call that needs it retains it afresh.
    pub fn reset_device(&self, ordinal: c_int) -> RtResult {
        let dev = self.device(ordinal)?;
        let mut slot = self.primaries[ordinal as usize].lock().unwrap_or_else(|e| e.into_inner());
        let api = self.api();
        let mut current = std::ptr::null_mut();
        // SAFETY: valid out-pointer; handles from the driver.
        unsafe {
            api.cuCtxGetCurrent(&mut current)?;
            if let Some(ctx) = slot.take() {
                if current == ctx as CUcontext {
                    api.cuCtxSetCurrent(std::ptr::null_mut())?;
                }
                api.cuDevicePrimaryCtxRelease(dev)?;
            }
            api.cuDevicePrimaryCtxReset(dev)
        }
    }

    /// Releases every retained primary context (at the last fatbin's unregistration, as
    /// NVIDIA's runtime does at exit, so the driver flushes and tears down).
    pub fn release_all(&self) {
        let api = self.api();
        let mut current = std::ptr::null_mut();
        // SAFETY: valid out-pointer. Nothing to do about a failure at exit.
        let _ = unsafe { api.cuCtxGetCurrent(&mut current) };
        for (ordinal, slot) in self.primaries.iter().enumerate() {
            let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
            let (Some(ctx), Ok(dev)) = (*slot, self.device(ordinal as c_int)) else { continue };
            *slot = None;
            // SAFETY: releasing a retain we hold; handles from the driver.
            unsafe {
                if current == ctx as CUcontext {
                    let _ = api.cuCtxSetCurrent(std::ptr::null_mut());
                }
                let _ = api.cuDevicePrimaryCtxRelease(dev);
            }
        }
    }
}
