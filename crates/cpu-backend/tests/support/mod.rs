//! Helpers the cpu-backend integration tests share: moving plain values to and from
//! device memory. Each test binary uses some of them.
#![allow(dead_code)]

use backend_api::Device;

/// Copies `data` into a new device allocation (at least one byte, so an empty slice
/// still gets a valid pointer) and returns its address.
pub fn upload<T: Copy>(d: &dyn Device, data: &[T]) -> u64 {
    let bytes = std::mem::size_of_val(data);
    let p = d.alloc(bytes.max(1)).unwrap();
    // SAFETY: `p` holds `bytes` bytes, `data` is plain values.
    unsafe { d.copy_to_device(p, data.as_ptr() as *const u8, bytes).unwrap() };
    p
}

/// Reads `n` values of type `T` from device address `p`.
pub fn download<T: Copy + Default>(d: &dyn Device, p: u64, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // SAFETY: `v` holds `n` values; `T` is plain data.
    unsafe { d.copy_from_device(v.as_mut_ptr() as *mut u8, p, n * std::mem::size_of::<T>()).unwrap() };
    v
}
