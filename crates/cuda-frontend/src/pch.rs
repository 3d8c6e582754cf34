//! The prelude (our implicit header, ~3000 lines) precompiled once per configuration and
//! process, kept in memory and handed to every compile as `-include-pch`. Parsing the
//! prelude as text costs tens of milliseconds; loading the PCH is lazy and cheap.
//!
//! A configuration is the list of arguments that can change what the prelude means
//! (target, language standard, floating-point modes, our macros); the client's own
//! macros and include paths come after the PCH and are not part of it.
//! `NVRTC_NO_PCH=1` turns this off (the prelude is then parsed as text each time).

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

fn build(config: &[String]) -> Option<Arc<Pch>> {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let id = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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
    });
    let mut data = r.pch?;
    if r.rc != crate::ffi::CF_OK {
        return None;
    }
    data.push(0);
    Some(Arc::new(Pch { path: format!("/__nvrtc_pch__/prelude-{id}.pch"), data }))
}
