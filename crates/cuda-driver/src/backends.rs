//! Which devices the driver exposes: the backends' devices, in order.
//!
//! AMD GPUs (`hsa-backend`, through ROCr) come first when there are any, else the CPU
//! device (`cpu-backend`). `CUDA_BACKEND=amd|cpu|auto` (default `auto`) chooses
//! explicitly; `CUDA_VISIBLE_DEVICES` then selects and orders devices as CUDA does.
//! Invariant: only this file knows which backend crates exist.

use std::sync::Arc;

use backend_api::Device;

/// All devices of all backends, in `CUdevice` ordinal order.
pub fn discover() -> Vec<Arc<dyn Device>> {
    let backend = std::env::var("CUDA_BACKEND").unwrap_or_default();
    let all = match backend.trim().to_ascii_lowercase().as_str() {
        "cpu" => cpu_backend::devices(),
        "amd" | "hsa" | "rocm" => hsa_backend::devices(),
        _ => {
            let amd = hsa_backend::devices();
            if amd.is_empty() {
                cpu_backend::devices()
            } else {
                amd
            }
        }
    };
    match std::env::var("CUDA_VISIBLE_DEVICES") {
        Ok(list) => {
            let uuids: Vec<[u8; 16]> = all.iter().map(|d| d.properties().uuid).collect();
            visible(&list, &uuids).into_iter().map(|i| all[i].clone()).collect()
        }
        Err(_) => all,
    }
}

/// The indices `CUDA_VISIBLE_DEVICES=list` keeps, in its order: ordinals or `GPU-`
/// UUID prefixes (hex, dashes ignored), comma separated; the list ends at the first
/// entry that names no device or repeats one, as in CUDA.
fn visible(list: &str, uuids: &[[u8; 16]]) -> Vec<usize> {
    let mut out = Vec::new();
    for entry in list.split(',').map(str::trim) {
        let found = if let Ok(i) = entry.parse::<usize>() {
            (i < uuids.len()).then_some(i)
        } else if let Some(hex) = entry.strip_prefix("GPU-") {
            let want: String = hex.chars().filter(|c| *c != '-').collect::<String>().to_ascii_lowercase();
            let hexes: Vec<String> = uuids.iter().map(|u| u.iter().map(|b| format!("{b:02x}")).collect()).collect();
            let mut hits = hexes.iter().enumerate().filter(|(_, h)| !want.is_empty() && h.starts_with(&want));
            match (hits.next(), hits.next()) {
                (Some((i, _)), None) => Some(i),
                _ => None,
            }
        } else {
            None
        };
        match found {
            Some(i) if !out.contains(&i) => out.push(i),
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::visible;

    #[test]
    fn cuda_visible_devices() {
        let mut a = [0u8; 16];
        a[0] = 0xab;
        let mut b = [0u8; 16];
        b[0] = 0xcd;
        let u = [a, b];
        assert_eq!(visible("1,0", &u), vec![1, 0]);
        assert_eq!(visible("1", &u), vec![1]);
        assert_eq!(visible("0,7,1", &u), vec![0], "the list ends at an invalid entry");
        assert_eq!(visible("", &u), Vec::<usize>::new());
        assert_eq!(visible("-1", &u), Vec::<usize>::new());
        assert_eq!(visible("GPU-cd", &u), vec![1]);
        assert_eq!(visible("GPU-ab00-00,0", &u), vec![0], "a repeated device ends the list");
        assert_eq!(visible("GPU-", &u), Vec::<usize>::new());
    }
}
