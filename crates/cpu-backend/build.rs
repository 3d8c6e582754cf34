//! Sets `cfg(sanitize_address)` / `cfg(sanitize_thread)` when the crate is built with
//! `-Zsanitizer=address` / `-Zsanitizer=thread` (scripts/sanitizers.sh), so that
//! `src/sanitizer.rs` can tell the sanitizer about the coroutine stacks. (`cfg(sanitize)`
//! itself is unstable; cargo passes the target's cfgs to build scripts as
//! `CARGO_CFG_SANITIZE`.)

fn main() {
    println!("cargo::rustc-check-cfg=cfg(sanitize_address)");
    println!("cargo::rustc-check-cfg=cfg(sanitize_thread)");
    let sanitizers = std::env::var("CARGO_CFG_SANITIZE").unwrap_or_default();
    for s in sanitizers.split(',') {
        match s {
            "address" => println!("cargo::rustc-cfg=sanitize_address"),
            "thread" => println!("cargo::rustc-cfg=sanitize_thread"),
            _ => {}
        }
    }
}
