//! The prelude (our implicit header, ~3000 lines) precompiled once per configuration and
//! process, kept in memory and handed to every compile as `-include-pch`. Parsing the
//! prelude as text costs tens of milliseconds; loading the PCH is lazy and cheap.
//!
//! A configuration is the list of arguments that can change what the prelude means
//! (target, language standard, floating-point modes, our macros); the client's own
//! macros and include paths come after the PCH and are not part of it.
//! `NVRTC_NO_PCH=1` turns this off (the prelude is then parsed as text each time).
//!
//! Built PCHs are also kept on disk (`$NVRTC_CACHE_DIR`, else `$XDG_CACHE_HOME` or
//! `~/.cache`, under `cuda-cpu-nvrtc/`), named by a hash of the configuration and of this
//! build's shim and headers, with a checksum trailer; a new process then starts without
//! rebuilding them. `NVRTC_NO_DISK_CACHE=1` keeps them in memory only.

use crate::{headers, run_shim, ShimCall, BUILTIN_DIR};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub(crate) struct Pch {
    /// Virtual path the compile reads it from.
    pub path: String,
    /// The serialized AST followed by a NUL (which its size does not count).
    pub data: Vec<u8>,
}

type Slot = Arc<OnceLock<Option<Arc<Pch>>>>;

fn cache() -> &'static Mutex<HashMap<Vec<String>, Slot>> {
    static C: OnceLock<Mutex<HashMap<Vec<String>, Slot>>> = OnceLock::new();
    C.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The PCH for a configuration, built on first use (concurrent callers wait for it).
/// `None` when disabled or when building it failed (the compile then parses the text).
pub(crate) fn get(config: &[String]) -> Option<Arc<Pch>> {
    if std::env::var_os("NVRTC_NO_PCH").is_some() {
        return None;
    }
    let slot = {
        let mut c = cache().lock().unwrap_or_else(|e| e.into_inner());
        c.entry(config.to_vec()).or_insert_with(|| Arc::new(OnceLock::new())).clone()
    };
    slot.get_or_init(|| build(config)).clone()
}

fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn cache_dir() -> Option<std::path::PathBuf> {
    if std::env::var_os("NVRTC_NO_DISK_CACHE").is_some() {
        return None;
    }
    let base = if let Some(d) = std::env::var_os("NVRTC_CACHE_DIR") {
        return Some(std::path::PathBuf::from(d));
    } else if let Some(x) = std::env::var_os("XDG_CACHE_HOME") {
        std::path::PathBuf::from(x)
    } else {
        std::path::PathBuf::from(std::env::var_os("HOME")?).join(".cache")
    };
    Some(base.join("cuda-cpu-nvrtc"))
}

/// The on-disk name of a configuration's PCH.
fn cache_key(config: &[String]) -> String {
    let mut h = fnv(env!("CUDA_FRONTEND_BUILD_HASH").as_bytes(), 0xcbf29ce484222325);
    for a in config {
        h = fnv(a.as_bytes(), h);
        h = fnv(b"\0", h);
    }
    format!("prelude-{h:016x}.pch")
}

/// Reads a cached PCH: contents, then 8 bytes of length and 8 of checksum.
fn load_cached(path: &std::path::Path) -> Option<Vec<u8>> {
    let mut data = std::fs::read(path).ok()?;
    if data.len() < 16 {
        return None;
    }
    let n = data.len() - 16;
    let len = u64::from_le_bytes(data[n..n + 8].try_into().ok()?) as usize;
    let sum = u64::from_le_bytes(data[n + 8..].try_into().ok()?);
    if len != n || fnv(&data[..n], 0xcbf29ce484222325) != sum {
        return None;
    }
    data.truncate(n);
    Some(data)
}

fn store_cached(path: &std::path::Path, data: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut bytes = Vec::with_capacity(data.len() + 16);
    bytes.extend_from_slice(data);
    bytes.extend_from_slice(&(data.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&fnv(data, 0xcbf29ce484222325).to_le_bytes());
    // Written aside and renamed: readers see a whole file or none.
    let tmp = dir.join(format!(".{}.{}.tmp", path.file_name().unwrap().to_string_lossy(), std::process::id()));
    if std::fs::write(&tmp, &bytes).is_ok() && std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

fn build(config: &[String]) -> Option<Arc<Pch>> {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let id = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let cached = cache_dir().map(|d| d.join(cache_key(config)));
    if let Some(data) = cached.as_deref().and_then(load_cached) {
        let mut data = data;
        data.push(0);
        return Some(Arc::new(Pch { path: format!("/__nvrtc_pch__/prelude-{id}.pch"), data }));
    }
    let prelude = format!("{BUILTIN_DIR}/{}", headers::PRELUDE);
    let mut args = config.to_vec();
    // Instantiate the templates the prelude's inline functions use now, once, instead of
    // in every compile that includes the PCH.
    args.push("-fpch-instantiate-templates".into());
    args.push("-x".into());
    args.push("cuda".into());
    args.push(prelude.clone());
    let r = run_shim(&ShimCall {
        args: &args,
        main_path: &prelude,
        cwd: "/",
        files: &[],
        context: None,
        lanemask_check: false,
        default_device: false,
        syntax_only: false,
        build_pch: true,
        test_crash: 0,
        warp_size: 32,
        pch: None,
    });
    let mut data = r.pch?;
    if r.rc != crate::ffi::CF_OK {
        return None;
    }
    if let Some(path) = &cached {
        store_cached(path, &data);
    }
    data.push(0);
    Some(Arc::new(Pch { path: format!("/__nvrtc_pch__/prelude-{id}.pch"), data }))
}
